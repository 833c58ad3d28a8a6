#!/usr/bin/env node
// Verifies an agentpay mandate proof (format agentpay-mandate-proof/1) without trusting the service that
// produced it. Shares no code with the service: viem for hashing, signature recovery and the chain.
//
//   node verify.mjs --proof proof.json --rpc-url http://127.0.0.1:8545
//   node verify.mjs --base-url http://127.0.0.1:8080 --mandate mnd_... --rpc-url https://sepolia.base.org
//   options: --json (machine-readable report), --require-public-signatures (an HMAC signature, which no
//   third party can check, fails instead of being reported as unverifiable)
//
// Exit code 0: every check passed. 1: a check failed (the report names it). 2: bad usage or unreadable input.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import {
  createPublicClient, http, hashTypedData, keccak256, toHex, recoverTypedDataAddress, decodeEventLog,
  parseAbiItem, getAddress, isAddress,
} from 'viem';

const ANCHORED = parseAbiItem('event MandateAnchored(bytes32 indexed mandateHash, string state, uint256 ts, address sender)');
const CAIP10 = /^eip155:([1-9][0-9]{0,17}):(0x[0-9a-fA-F]{40})$/;

function usage(msg) {
  if (msg) console.error(`verify-mandate: ${msg}`);
  console.error('usage: verify.mjs (--proof FILE | --base-url URL --mandate ID) --rpc-url URL [--json] [--require-public-signatures]');
  process.exit(2);
}

function args(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json' || a === '--require-public-signatures') out[a.slice(2)] = true;
    else if (['--proof', '--base-url', '--mandate', '--rpc-url'].includes(a)) {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      out[a.slice(2)] = argv[++i];
    } else usage(`unknown argument ${a}`);
  }
  return out;
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

async function verify(proof, rpcUrl, requirePublic) {
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
  const anchors = proof.anchors ?? [];
  check('anchors', anchors.length > 0 ? true : null, `${anchors.length} anchored transition(s)`);
  if (anchors.length > 0) {
    const client = createPublicClient({ transport: http(rpcUrl, { timeout: 15000, retryCount: 1 }) });
    const chainId = await client.getChainId();
    for (const a of anchors) {
      const name = `anchor:${a.to_state}`;
      if (a.chain_id !== chainId) {
        check(name, false, `anchored on chain ${a.chain_id}, the RPC serves chain ${chainId}`);
        continue;
      }
      let receipt;
      try {
        receipt = await client.getTransactionReceipt({ hash: a.tx_hash });
      } catch (e) {
        check(name, false, `transaction ${a.tx_hash} not found: ${e.shortMessage ?? e.message}`);
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
      check(name, ok, `block ${a.block_number} log ${a.log_index}: MandateAnchored(${ev.args.mandateHash}, "${ev.args.state}") by ${ev.args.sender}`);
    }
    if (proof.hash_scheme === 'eip712') {
      const vc = proof.typed_data?.domain?.verifyingContract?.toLowerCase();
      check('domain', anchors.every((a) => String(a.contract).toLowerCase() === vc && a.chain_id === Number(proof.typed_data.domain.chainId)),
        `the signed domain names chain ${proof.typed_data?.domain?.chainId} contract ${vc}`);
    }
  }
  return checks;
}

function withoutDomain(types) {
  const { EIP712Domain, ...rest } = types ?? {};
  return rest;
}

const o = args(process.argv.slice(2));
if (!o.proof && !(o['base-url'] && o.mandate)) usage('give --proof FILE, or --base-url and --mandate');
if (!o['rpc-url']) usage('--rpc-url is required (the anchor network)');
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
if (o.json) {
  console.log(JSON.stringify({ mandate_id: proof.mandate_id, verified: failed.length === 0, checks }, null, 2));
} else {
  console.log(`mandate ${proof.mandate_id} (state ${proof.state}, hash ${proof.mandate_hash})`);
  for (const c of checks) console.log(`  ${c.ok === true ? 'PASS' : c.ok === false ? 'FAIL' : 'NOTE'}  ${c.name}: ${c.detail}`);
  console.log(failed.length === 0 ? 'VERIFIED' : `NOT VERIFIED: ${failed.map((c) => c.name).join(', ')}`);
}
process.exit(failed.length === 0 ? 0 : 1);
