#!/usr/bin/env node
// Verifies an agentpay mandate proof (format agentpay-mandate-proof/1) without trusting the service that
// produced it. Shares no code with the service: viem for hashing, signature recovery and the chain.
//
//   node verify.mjs --proof proof.json --rpc-url http://127.0.0.1:8545
//   node verify.mjs --base-url http://127.0.0.1:8080 --mandate mnd_... --rpc-url https://sepolia.base.org
//   node verify.mjs --proof proof.json --rpc-url 84532=https://sepolia.base.org --rpc-url 8453=https://mainnet.base.org
//   --rpc-url is repeatable, one per anchor chain: URL (serves whatever chain its eth_chainId reports) or
//   CHAINID=URL (must serve that chain). Each anchor is looked up on its own chain_id's RPC; an anchor on a chain
//   no --rpc-url serves is reported as not checked (unverifiable), not as failed.
//   options: --json (machine-readable report), --require-public-signatures (an HMAC signature, which no
//   third party can check, fails instead of being reported as unverifiable)
//
// Verdict: verified (every check ran and passed), unverifiable (nothing failed, but something could not be
// checked: an HMAC signature, a party that has not signed, no anchor yet, a pending anchor) or failed.
// Exit code 0: verified. 1: failed (the report names the check). 2: bad usage or unreadable input.
// 3: unverifiable (the report names what could not be checked).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import {
  createPublicClient, http, hashTypedData, keccak256, toHex, recoverTypedDataAddress, decodeEventLog,
  parseAbiItem, getAddress, isAddress,
} from 'viem';

const ANCHORED = parseAbiItem('event MandateAnchored(bytes32 indexed mandateHash, string state, uint256 ts, address sender)');
// The contract's signer history (rotation): the set of signers starts with the constructor's SignerAdded and
// changes only by a signer's own addSigner/removeSigner. Contracts deployed before rotation have one
// immutable signer() and no such logs.
const SIGNER_ADDED = parseAbiItem('event SignerAdded(address indexed signer, address indexed by)');
const SIGNER_REMOVED = parseAbiItem('event SignerRemoved(address indexed signer, address indexed by)');
const LEGACY_SIGNER = parseAbiItem('function signer() view returns (address)');
const CAIP10 = /^eip155:([1-9][0-9]{0,17}):(0x[0-9a-fA-F]{40})$/;

function usage(msg) {
  if (msg) console.error(`verify-mandate: ${msg}`);
  console.error('usage: verify.mjs (--proof FILE | --base-url URL --mandate ID) --rpc-url [CHAINID=]URL [--rpc-url ...] [--json] [--require-public-signatures]');
  process.exit(2);
}

function args(argv) {
  const out = { 'rpc-url': [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json' || a === '--require-public-signatures') out[a.slice(2)] = true;
    else if (['--proof', '--base-url', '--mandate', '--rpc-url'].includes(a)) {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      if (a === '--rpc-url') out['rpc-url'].push(rpcSpec(argv[++i]));
      else out[a.slice(2)] = argv[++i];
    } else usage(`unknown argument ${a}`);
  }
  return out;
}

/** One --rpc-url: CHAINID=URL (the chain it must serve) or URL (the chain its eth_chainId reports). */
function rpcSpec(v) {
  const m = /^([0-9]+)=(.+)$/.exec(v);
  if (m) {
    const chainId = Number(m[1]);
    if (!Number.isSafeInteger(chainId) || chainId <= 0) usage(`--rpc-url ${v}: ${m[1]} is not a chain id`);
    if (!/^https?:\/\//.test(m[2])) usage(`--rpc-url ${v}: ${m[2]} is not an http(s) URL`);
    return { chainId, url: m[2] };
  }
  if (!/^https?:\/\//.test(v)) usage(`--rpc-url ${v}: give URL or CHAINID=URL (an http(s) URL)`);
  return { chainId: null, url: v };
}

/**
 * The anchor RPCs by chain id: each endpoint is asked eth_chainId; one given as CHAINID=URL must serve that chain,
 * and two endpoints for one chain are refused (bad usage, thrown). Asked only when the proof has anchors.
 */
async function rpcClients(specs) {
  const clients = new Map();
  for (const s of specs) {
    const client = createPublicClient({ transport: http(s.url, { timeout: 15000, retryCount: 1 }) });
    let served;
    try {
      served = await client.getChainId();
    } catch (e) {
      throw new Error(`--rpc-url ${s.url}: eth_chainId did not answer: ${e.shortMessage ?? e.message}`);
    }
    if (s.chainId != null && s.chainId !== served) {
      throw new Error(`--rpc-url ${s.chainId}=${s.url}: that RPC serves chain ${served}, not ${s.chainId}`);
    }
    if (clients.has(served)) throw new Error(`--rpc-url: two RPCs given for chain ${served}`);
    clients.set(served, client);
  }
  return clients;
}

/** The proof's terms text as a value, or undefined when it is not JSON. */
function parseTerms(text) {
  try { return JSON.parse(text); } catch { return undefined; }
}

async function loadProof(o) {
  let doc;
  if (o.proof) {
    doc = JSON.parse(readFileSync(o.proof, 'utf8'));
  } else {
    if (!/^mnd_[0-9a-f-]{36}$/.test(o.mandate ?? '')) usage('--mandate must be a mandate id (mnd_<uuid>)');
    const url = `${o['base-url'].replace(/\/+$/, '')}/v1/public/mandates/${o.mandate}/proof`;
    const res = await fetch(url, { signal: AbortSignal.timeout(15000) });
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
    doc = await res.json();
  }
  return doc && doc.success === true && doc.data ? doc.data : doc;
}

/**
 * A mandate of the parties form (2 to 16 parties with roles): the signed content lists every party, in signing
 * order, as {id, role}; the proof's signatures must name the same parties with the same roles in the same order.
 */
function partiesCheck(check, signed, signatures, where) {
  const named = signed.map((p) => `${p?.role}=${p?.id}`);
  const signing = (signatures ?? []).map((s) => `${s.role}=${s.party}`);
  const same = named.length > 0 && JSON.stringify(named) === JSON.stringify(signing);
  check('parties', same, `${where} name ${named.length} parties ${named.join(', ')}${same ? '' : `; the signatures name ${signing.join(', ')}`}`);
}

async function verify(proof, rpcSpecs, requirePublic) {
  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok: ok === true ? true : ok === null ? null : false, detail });

  check('format', proof.format === 'agentpay-mandate-proof/1', `format ${JSON.stringify(proof.format)}`);
  const terms = typeof proof.terms === 'string' ? proof.terms : '';
  const parties = {};
  for (const s of proof.signatures ?? []) parties[s.role] = s.party;

  // 1. the mandate hash is recomputed from the signed content
  if (proof.hash_scheme === 'eip712') {
    const td = proof.typed_data;
    let digest = null;
    try {
      digest = hashTypedData({ domain: td.domain, types: withoutDomain(td.types), primaryType: td.primaryType, message: td.message });
    } catch (e) {
      check('mandate_hash', false, `typed data does not hash: ${e.message}`);
    }
    if (digest) check('mandate_hash', digest === proof.mandate_hash, `EIP-712 digest ${digest}, proof says ${proof.mandate_hash}`);
    const termsHash = keccak256(toHex(terms));
    check('terms_hash', termsHash === td?.message?.termsHash, `keccak256(terms) ${termsHash}, typed data says ${td?.message?.termsHash}`);
    if (Array.isArray(td?.message?.parties)) partiesCheck(check, td.message.parties, proof.signatures, 'typed data');
    else check('parties', td?.message?.proposer === parties.proposer && td?.message?.counterparty === parties.counterparty,
      `typed data names ${td?.message?.proposer} / ${td?.message?.counterparty}, signatures name ${parties.proposer} / ${parties.counterparty}`);
    check('mandate_id', td?.message?.id === proof.mandate_id, `typed data id ${td?.message?.id}, proof id ${proof.mandate_id}`);
  } else if (proof.hash_scheme === 'sha256-canonical') {
    const digest = '0x' + createHash('sha256').update(Buffer.from(proof.canonical ?? '', 'utf8')).digest('hex');
    check('mandate_hash', digest === proof.mandate_hash, `SHA-256 of the canonical bytes ${digest}, proof says ${proof.mandate_hash}`);
    let c = {};
    try { c = JSON.parse(proof.canonical); } catch { /* reported below */ }
    check('terms', JSON.stringify(c.terms) === JSON.stringify(parseTerms(terms)), 'the canonical bytes carry the proof\'s terms');
    if (Array.isArray(c.parties)) partiesCheck(check, c.parties, proof.signatures, 'canonical bytes');
    else check('parties', c.proposer_agent_id === parties.proposer && c.counterparty_agent_id === parties.counterparty,
      `canonical bytes name ${c.proposer_agent_id} / ${c.counterparty_agent_id}, signatures name ${parties.proposer} / ${parties.counterparty}`);
    check('mandate_id', c.id === proof.mandate_id, `canonical id ${c.id}, proof id ${proof.mandate_id}`);
  } else {
    check('hash_scheme', false, `unknown hash scheme ${JSON.stringify(proof.hash_scheme)}`);
  }

  // 2. each signature: wallets are recovered and compared with the party; HMACs cannot be checked here
  for (const s of proof.signatures ?? []) {
    const name = `signature:${s.role}`;
    if (s.signature == null) {
      check(name, null, `${s.role} has not signed`);
    } else if (s.scheme === 'eip712') {
      const m = CAIP10.exec(s.party ?? '');
      if (!m || !isAddress(m[2], { strict: false })) {
        check(name, false, `party ${s.party} is not a CAIP-10 eip155 account`);
        continue;
      }
      try {
        const td = proof.typed_data;
        const signer = await recoverTypedDataAddress({ domain: td.domain, types: withoutDomain(td.types), primaryType: td.primaryType,
          message: td.message, signature: s.signature });
        check(name, getAddress(signer) === getAddress(m[2]), `recovers ${signer}; the ${s.role} is ${getAddress(m[2])}`);
      } catch (e) {
        check(name, false, `does not recover: ${e.shortMessage ?? e.message}`);
      }
    } else if (s.scheme === 'hmac' || s.scheme === 'hmac-role') {
      check(name, requirePublic ? false : null, `${s.scheme}: a shared-secret HMAC; only the partner and the service can check it`);
    } else {
      check(name, false, `unknown scheme ${JSON.stringify(s.scheme)}`);
    }
  }

  // 3. every anchor is a MandateAnchored log on chain carrying this hash and state
  const pending = proof.pending_anchors ?? [];
  if (pending.length > 0) {
    // a transition stays pending until it is anchored on every configured chain: partially_anchored when some
    // chain's anchor is in anchors[] already
    check('pending_anchors', null, `${pending.length} transition(s) wait for anchor receipts (proof anchor_status ${proof.anchor_status}): `
      + pending.map((p) => `${p.to_state} (${p.anchor_status ?? 'pending'})`).join(', '));
  }
  const anchors = proof.anchors ?? [];
  // One entry per (transition, chain). Names stay those of a one-chain proof (anchor:<state>) when every anchor is
  // on one chain; when the anchors span several chains each name carries its chain: anchor:<state>@<chainId>.
  const chains = [...new Set(anchors.map((a) => a.chain_id))];
  const at = (a) => (chains.length > 1 ? `@${a.chain_id}` : '');
  const transitions = new Set(anchors.map((a) => a.to_state)).size;
  check('anchors', anchors.length > 0 ? true : null,
    `${anchors.length} anchor(s) of ${transitions} transition(s)${chains.length > 0 ? ` on chain(s) ${chains.join(', ')}` : ''}`);
  if (anchors.length > 0) {
    const clients = await rpcClients(rpcSpecs);
    const histories = new Map();
    for (const a of anchors) {
      const name = `anchor:${a.to_state}${at(a)}`;
      const client = clients.get(a.chain_id);
      if (!client) {
        check(name, null, `not checked: no --rpc-url for chain ${a.chain_id} (given: ${[...clients.keys()].join(', ') || 'none'})`);
        continue;
      }
      let receipt;
      try {
        receipt = await client.getTransactionReceipt({ hash: a.tx_hash });
      } catch (e) {
        check(name, false, `transaction ${a.tx_hash} not found on chain ${a.chain_id}: ${e.shortMessage ?? e.message}`);
        continue;
      }
      if (receipt.status !== 'success') { check(name, false, `transaction ${a.tx_hash} reverted`); continue; }
      if (receipt.blockNumber !== BigInt(a.block_number)) {
        check(name, false, `transaction is in block ${receipt.blockNumber}, proof says ${a.block_number}`);
        continue;
      }
      const log = receipt.logs.find((l) => l.logIndex === a.log_index);
      if (!log) { check(name, false, `no log with index ${a.log_index} in ${a.tx_hash}`); continue; }
      if (a.contract == null || log.address.toLowerCase() !== String(a.contract).toLowerCase()) {
        check(name, false, `log ${a.log_index} was emitted by ${log.address}, proof says ${a.contract}`);
        continue;
      }
      let ev;
      try {
        ev = decodeEventLog({ abi: [ANCHORED], data: log.data, topics: log.topics });
      } catch {
        check(name, false, `log ${a.log_index} is not a MandateAnchored event`);
        continue;
      }
      const ok = ev.args.mandateHash === proof.mandate_hash && ev.args.state === a.to_state;
      check(name, ok, `chain ${a.chain_id} block ${a.block_number} log ${a.log_index}: MandateAnchored(${ev.args.mandateHash}, "${ev.args.state}") by ${ev.args.sender}`);
      check(`anchor_signer:${a.to_state}${at(a)}`, ...await signerCheck(client, a, ev.args.sender, histories));
    }
    if (proof.hash_scheme === 'eip712') {
      // the signed domain names the primary chain and its contract: the anchors on that chain must be at that
      // contract; anchors on other chains have their own contract
      const vc = proof.typed_data?.domain?.verifyingContract?.toLowerCase();
      const dc = Number(proof.typed_data?.domain?.chainId);
      const onDomain = anchors.filter((a) => a.chain_id === dc);
      const wrong = onDomain.filter((a) => String(a.contract).toLowerCase() !== vc);
      check('domain', onDomain.length === 0 ? null : wrong.length === 0,
        `the signed domain names chain ${proof.typed_data?.domain?.chainId} contract ${vc}: `
        + (onDomain.length === 0 ? 'no anchor on that chain yet'
          : wrong.length === 0 ? `its ${onDomain.length} anchor(s) on that chain are at that contract`
            : `anchored there at ${wrong.map((a) => `${a.contract} (${a.to_state})`).join(', ')}`));
    }
  }
  return checks;
}

/**
 * Was the log's sender a signer of the contract at that log? The contract's SignerAdded/SignerRemoved logs up to
 * the anchor's block, replayed in order (in the anchor's own block only those before its log); a contract without
 * them (deployed before rotation) is asked for its one signer(). The proof's signer, when it names one, must be
 * the sender. Returns [ok, detail].
 */
async function signerCheck(client, a, sender, histories) {
  if (a.signer != null && String(a.signer).toLowerCase() !== sender.toLowerCase()) {
    return [false, `the proof names signer ${a.signer} but the log was sent by ${sender}`];
  }
  const contract = getAddress(a.contract);
  const key = `${a.chain_id}:${contract}`;
  let history = histories.get(key);
  if (!history) {
    try {
      const logs = await client.getLogs({ address: contract, events: [SIGNER_ADDED, SIGNER_REMOVED], fromBlock: 0n, toBlock: 'latest' });
      history = logs.map((l) => ({ signer: getAddress(l.args.signer), by: l.args.by, added: l.eventName === 'SignerAdded',
        block: l.blockNumber, logIndex: l.logIndex }))
        .sort((x, y) => (x.block === y.block ? x.logIndex - y.logIndex : x.block < y.block ? -1 : 1));
    } catch (e) {
      return [null, `the contract's signer history could not be read: ${e.shortMessage ?? e.message}`];
    }
    histories.set(key, history);
  }
  const who = getAddress(sender);
  if (history.length === 0) {
    try {
      const only = await client.readContract({ address: contract, abi: [LEGACY_SIGNER], functionName: 'signer' });
      return getAddress(only) === who ? [true, `${who} is the contract's only signer (a contract without rotation)`]
        : [false, `${who} is not the contract's signer ${only}`];
    } catch (e) {
      return [false, `the contract has no signer history and no signer(): ${e.shortMessage ?? e.message}`];
    }
  }
  const block = BigInt(a.block_number);
  let state = null;
  for (const h of history) {
    if (h.block > block || (h.block === block && h.logIndex > a.log_index)) break;
    if (h.signer === who) state = h;
  }
  if (state == null) return [false, `${who} was never authorised by the contract before this anchor (block ${block})`];
  if (!state.added) return [false, `${who} was removed as a signer in block ${state.block} (by ${state.by}), before this anchor`];
  return [true, `${who} was a signer: added in block ${state.block} by ${state.by}${retiredLater(history, who, block)}`];
}

function retiredLater(history, who, block) {
  const r = history.find((h) => h.signer === who && !h.added && h.block >= block);
  return r ? `, removed later in block ${r.block}` : '';
}

function withoutDomain(types) {
  const { EIP712Domain, ...rest } = types ?? {};
  return rest;
}

const o = args(process.argv.slice(2));
if (!o.proof && !(o['base-url'] && o.mandate)) usage('give --proof FILE, or --base-url and --mandate');
if (o['rpc-url'].length === 0) usage('--rpc-url is required (an RPC of an anchor chain; repeat it, one per chain)');
let proof;
try {
  proof = await loadProof(o);
} catch (e) {
  console.error(`verify-mandate: cannot read the proof: ${e.message}`);
  process.exit(2);
}
let checks;
try {
  checks = await verify(proof, o['rpc-url'], o['require-public-signatures'] === true);
} catch (e) {
  console.error(`verify-mandate: ${e.shortMessage ?? e.message}`);
  process.exit(2);
}
const failed = checks.filter((c) => c.ok === false);
const unverifiable = checks.filter((c) => c.ok === null);
const verdict = verdictOf(checks);
if (o.json) {
  console.log(JSON.stringify({
    mandate_id: proof.mandate_id, verdict, verified: verdict === 'verified', checks,
    failed: failed.map((c) => c.name), unverifiable: unverifiable.map((c) => c.name),
  }, null, 2));
} else {
  console.log(`mandate ${proof.mandate_id} (state ${proof.state}, hash ${proof.mandate_hash})`);
  for (const c of checks) console.log(`  ${c.ok === true ? 'PASS' : c.ok === false ? 'FAIL' : 'NOTE'}  ${c.name}: ${c.detail}`);
  console.log(verdict === 'verified' ? 'VERIFIED'
    : verdict === 'failed' ? `FAILED: ${failed.map((c) => c.name).join(', ')}`
      : `UNVERIFIABLE: nothing failed, but not checked: ${unverifiable.map((c) => c.name).join(', ')}`);
}
process.exit(verdict === 'verified' ? 0 : verdict === 'failed' ? 1 : 3);

/** failed when any check failed; else unverifiable when any could not be checked (or none ran); else verified. */
function verdictOf(list) {
  if (list.some((c) => c.ok === false)) return 'failed';
  if (list.length === 0 || list.some((c) => c.ok === null)) return 'unverifiable';
  return 'verified';
}
