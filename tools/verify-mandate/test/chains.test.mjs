// The CLI on a proof anchored on two chains (issue 31 item 3), against fake JSON-RPC endpoints: tiny HTTP servers
// answering eth_chainId, eth_getTransactionReceipt and eth_getLogs from a fixed set of logs (no chain runs).
//   cd tools/verify-mandate && npm install && node --test
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  hashTypedData, keccak256, toHex, encodeEventTopics, encodeAbiParameters, parseAbiItem, pad, numberToHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'verify.mjs');
const ANCHORED = parseAbiItem('event MandateAnchored(bytes32 indexed mandateHash, string state, uint256 ts, address sender)');
const SIGNER_ADDED = parseAbiItem('event SignerAdded(address indexed signer, address indexed by)');
// anvil's first three keys: proposer, counterparty, anchor signer
const proposer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const counterparty = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9eb5dc7d7a4ec4bbe1b3b4fa4ef3b3');
const anchorSigner = privateKeyToAccount('0x5de4111afa1a4b94908f83e8de6efa9df1b0c4b4c8f8b3fa2f0c5a2f3d2d7e1c').address;
const PRIMARY = 84532;
const OTHER = 8453;
const CONTRACT = { [PRIMARY]: '0x5fbdb2315678afecb367f032d93f642f64180aa3', [OTHER]: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512' };
const STATES = ['signed_by_both', 'completed'];

const terms = '{"amount":40,"currency":"USDC"}';
const typed = {
  domain: { name: 'agentpay mandate', version: '1', chainId: PRIMARY, verifyingContract: CONTRACT[PRIMARY] },
  types: {
    EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' }],
    Mandate: [{ name: 'id', type: 'string' }, { name: 'proposer', type: 'string' }, { name: 'counterparty', type: 'string' },
      { name: 'scope', type: 'string' }, { name: 'termsHash', type: 'bytes32' }, { name: 'expiresAt', type: 'string' },
      { name: 'protoVersion', type: 'string' }],
  },
  primaryType: 'Mandate',
  message: {
    id: 'mnd_00000000-0000-4000-8000-000000000031', proposer: `eip155:${PRIMARY}:${proposer.address}`,
    counterparty: `eip155:${PRIMARY}:${counterparty.address}`, scope: 'Anchor on two chains', termsHash: keccak256(toHex(terms)),
    expiresAt: '2030-01-31T12:00:00.000Z', protoVersion: '0.2',
  },
};
const { EIP712Domain, ...types } = typed.types;
const hash = hashTypedData({ ...typed, types });
const txOf = (chain, state) => keccak256(toHex(`${chain}:${state}`));

/** The fake chain's receipts and the contract's signer history. */
function chainState(chainId) {
  const receipts = new Map();
  STATES.forEach((state, i) => {
    const block = 100 + i;
    const tx = txOf(chainId, state);
    receipts.set(tx, {
      transactionHash: tx, transactionIndex: '0x0', blockHash: pad(numberToHex(block)), blockNumber: numberToHex(block),
      from: anchorSigner, to: CONTRACT[chainId], cumulativeGasUsed: '0x1', gasUsed: '0x1', effectiveGasPrice: '0x1',
      contractAddress: null, logsBloom: pad('0x0', { size: 256 }), status: '0x1', type: '0x2',
      logs: [{
        address: CONTRACT[chainId], topics: encodeEventTopics({ abi: [ANCHORED], eventName: 'MandateAnchored', args: { mandateHash: hash } }),
        data: encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }, { type: 'address' }], [state, 1700000000n, anchorSigner]),
        blockNumber: numberToHex(block), blockHash: pad(numberToHex(block)), transactionHash: tx, transactionIndex: '0x0',
        logIndex: '0x0', removed: false,
      }],
    });
  });
  const history = [{
    address: CONTRACT[chainId], topics: encodeEventTopics({ abi: [SIGNER_ADDED], eventName: 'SignerAdded', args: { signer: anchorSigner, by: anchorSigner } }),
    data: '0x', blockNumber: '0xa', blockHash: pad('0xa'), transactionHash: pad('0x1'), transactionIndex: '0x0', logIndex: '0x0', removed: false,
  }];
  return { receipts, history };
}

const servers = [];
const url = {};
function rpcServer(chainId) {
  const { receipts, history } = chainState(chainId);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const call = JSON.parse(body);
      const answer = (c) => {
        const r = { jsonrpc: '2.0', id: c.id };
        if (c.method === 'eth_chainId') r.result = numberToHex(chainId);
        else if (c.method === 'eth_getTransactionReceipt') r.result = receipts.get(c.params[0]) ?? null;
        else if (c.method === 'eth_getLogs') r.result = c.params[0].address?.toLowerCase() === CONTRACT[chainId] ? history : [];
        else r.error = { code: -32601, message: `no ${c.method} here` };
        return r;
      };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(call) ? call.map(answer) : answer(call)));
    });
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    url[chainId] = `http://127.0.0.1:${server.address().port}`;
    resolve();
  }));
}

before(async () => { await rpcServer(PRIMARY); await rpcServer(OTHER); });
after(() => servers.forEach((s) => s.close()));

async function proof(chains = [PRIMARY, OTHER]) {
  return {
    format: 'agentpay-mandate-proof/1', mandate_id: typed.message.id, state: 'completed', hash_scheme: 'eip712',
    mandate_hash: hash, typed_data: typed, terms,
    signatures: [
      { role: 'proposer', party: typed.message.proposer, scheme: 'eip712', signature: await proposer.signTypedData({ ...typed, types }) },
      { role: 'counterparty', party: typed.message.counterparty, scheme: 'eip712', signature: await counterparty.signTypedData({ ...typed, types }) },
    ],
    anchors: STATES.flatMap((state, i) => chains.map((c) => ({
      to_state: state, chain_id: c, contract: CONTRACT[c], tx_hash: txOf(c, state), block_number: 100 + i, log_index: 0, signer: anchorSigner,
    }))),
    anchor_status: 'anchored', pending_anchors: [],
  };
}

const dir = mkdtempSync(join(tmpdir(), 'verify-mandate-'));
let n = 0;
/**
 * Runs the CLI with --json on `doc`: {code, report (parsed stdout, or null), stderr}. Asynchronously: the fake RPCs
 * answer from this process's event loop.
 */
function run(doc, ...rpc) {
  const file = join(dir, `proof-${n++}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const child = spawn('node', [CLI, '--proof', file, ...rpc.flatMap((u) => ['--rpc-url', u]), '--json']);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += c; });
  child.stderr.on('data', (c) => { stderr += c; });
  return new Promise((resolve) => child.on('close', (code) => {
    let report = null;
    try { report = JSON.parse(stdout); } catch { /* usage errors print nothing on stdout */ }
    resolve({ code, report, stderr });
  }));
}
const byName = (report) => Object.fromEntries(report.checks.map((c) => [c.name, c]));

test('two chains, an RPC for each: every anchor is checked on its own chain, names carry the chain', async () => {
  const r = await run(await proof(), `${PRIMARY}=${url[PRIMARY]}`, `${OTHER}=${url[OTHER]}`);
  assert.equal(r.code, 0, JSON.stringify(r.report ?? r.stderr, null, 1));
  const c = byName(r.report);
  for (const s of STATES) {
    for (const chain of [PRIMARY, OTHER]) {
      assert.equal(c[`anchor:${s}@${chain}`].ok, true);
      assert.equal(c[`anchor_signer:${s}@${chain}`].ok, true);
    }
  }
  assert.equal(c.domain.ok, true, 'the other chain\'s own contract does not fail the domain check');
  assert.equal(r.report.verdict, 'verified');
});

test('two chains, an RPC (a bare URL) for the primary only: the other chain\'s anchors are not checked, not failed', async () => {
  const r = await run(await proof(), url[PRIMARY]);
  assert.equal(r.code, 3, JSON.stringify(r.report ?? r.stderr, null, 1));
  const c = byName(r.report);
  assert.equal(c[`anchor:completed@${PRIMARY}`].ok, true);
  assert.equal(c[`anchor:completed@${OTHER}`].ok, null);
  assert.match(c[`anchor:completed@${OTHER}`].detail, new RegExp(`no --rpc-url for chain ${OTHER}`));
  assert.equal(c[`anchor_signer:completed@${OTHER}`], undefined);
  assert.deepEqual(r.report.failed, []);
  assert.deepEqual(r.report.unverifiable, [`anchor:signed_by_both@${OTHER}`, `anchor:completed@${OTHER}`]);
});

test('one chain: the names of a one-chain proof (anchor:<state>)', async () => {
  const r = await run(await proof([PRIMARY]), url[PRIMARY], `${OTHER}=${url[OTHER]}`);
  assert.equal(r.code, 0, JSON.stringify(r.report ?? r.stderr, null, 1));
  const c = byName(r.report);
  assert.equal(c['anchor:completed'].ok, true);
  assert.equal(c['anchor_signer:signed_by_both'].ok, true);
});

test('a tampered anchor on the second chain fails, named with its chain', async () => {
  const p = await proof();
  p.anchors.find((a) => a.chain_id === OTHER && a.to_state === 'completed').tx_hash = txOf(OTHER, 'disputed');
  const r = await run(p, url[PRIMARY], url[OTHER]);
  assert.equal(r.code, 1);
  assert.deepEqual(r.report.failed, [`anchor:completed@${OTHER}`]);
});

test('an anchor on the domain\'s chain at another contract fails the domain check', async () => {
  const p = await proof();
  p.anchors.filter((a) => a.chain_id === PRIMARY).forEach((a) => { a.contract = CONTRACT[OTHER]; });
  const r = await run(p, url[PRIMARY], url[OTHER]);
  assert.equal(r.code, 1);
  assert.ok(r.report.failed.includes('domain'), JSON.stringify(r.report.failed));
});

test('partially anchored: the pending transitions are unverifiable', async () => {
  const p = await proof();
  p.anchors = p.anchors.filter((a) => !(a.chain_id === OTHER && a.to_state === 'completed'));
  p.anchor_status = 'partially_anchored';
  p.pending_anchors = [{ to_state: 'completed', transition_id: 'trn_1', anchor_status: 'partially_anchored' }];
  const r = await run(p, url[PRIMARY], url[OTHER]);
  assert.equal(r.code, 3, JSON.stringify(r.report ?? r.stderr, null, 1));
  assert.deepEqual(r.report.unverifiable, ['pending_anchors']);
  assert.match(byName(r.report).pending_anchors.detail, /completed \(partially_anchored\)/);
});

test('bad --rpc-url: usage error (exit 2)', async () => {
  const p = await proof();
  assert.equal((await run(p, 'not-a-url')).code, 2);
  assert.equal((await run(p, '0x12=http://127.0.0.1:1')).code, 2);
  const wrong = await run(p, `${OTHER}=${url[PRIMARY]}`);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, new RegExp(`serves chain ${PRIMARY}, not ${OTHER}`));
  assert.equal((await run(p, url[PRIMARY], `${PRIMARY}=${url[PRIMARY]}`)).code, 2, 'two RPCs for one chain');
  assert.equal((await run(p)).code, 2, 'no --rpc-url');
});
