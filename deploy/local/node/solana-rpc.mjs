// Local Solana JSON-RPC server over LiteSVM: the real Solana runtime (SPL Token, Token-2022, Associated
// Token Account and Memo programs built in) executing signed transactions, answering the JSON-RPC
// methods the settlement watcher, @solana/kit, @x402/svm and solanaj use, in Solana's documented shapes.
//
// A slot passes every SLOT_MS (400 ms); a transaction lands in the current slot (processed), is
// confirmed CONFIRM_LAG slots later and finalized FINALITY_LAG slots later; reads honour the commitment
// asked for (signatures, statuses, transactions). Blockhashes live 150 slots, as on Solana.
// State (every account a transaction created or changed, the transaction history, the clock and the
// local keys) is written to STATE_FILE atomically (temp file, then rename) and restored on start:
// LiteSVM's own snapshot does not restore accounts, so the server keeps its own.
//
// USDC lives at the canonical mint EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v (6 decimals) with a
// mint authority of this local chain; DEV_PAYER_SECRET_KEY (base58 of a 64-byte secret key) gets SOL
// and DEV_PAYER_USDC whole USDC at genesis; FUND_ADDRESSES (comma-separated) get SOL when they have none.
//
// Env: PORT, STATE_FILE, SLOT_MS (400), CONFIRM_LAG (1), FINALITY_LAG (32), DEV_PAYER_SECRET_KEY,
// DEV_PAYER_USDC (1000000), FUND_ADDRESSES, USDC_ACCOUNT_OWNERS.
// Development-only methods (never on a real cluster): localnet_mintUsdc [owner, atomicAmount] mints
// local USDC to the owner's associated token account with a real, signed MintTo transaction.
import http from 'node:http';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LiteSVM } from 'litesvm';
import {
  address, appendTransactionMessageInstructions, createKeyPairSignerFromBytes, createTransactionMessage,
  generateKeyPairSigner, getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder,
  getCompiledTransactionMessageDecoder, getTransactionDecoder, getTransactionEncoder, lamports, pipe,
  setTransactionMessageFeePayerSigner, setTransactionMessageLifetimeUsingBlockhash, signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getMintEncoder,
  getMintToCheckedInstruction, getTokenEncoder,
} from '@solana-program/token';
import { getTransferSolInstruction } from '@solana-program/system';

export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const MEMO_PROGRAMS = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']);
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';
// The local chain stands for mainnet (USDC at its canonical mint), so it answers mainnet's genesis hash:
// CAIP-2 `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp` is its first 32 characters.
const GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';
const LAMPORTS_PER_SIGNATURE = 5000n;
const BLOCKHASH_LIFETIME = 150;
const LAMPORTS_PER_SOL = 1_000_000_000n;

const b58enc = getBase58Encoder(); // string -> bytes
const b58dec = getBase58Decoder(); // bytes -> string
const b64enc = getBase64Encoder();
const b64dec = getBase64Decoder();
const txDecoder = getTransactionDecoder();
const txEncoder = getTransactionEncoder();
const msgDecoder = getCompiledTransactionMessageDecoder();

// LiteSVM's error enums are TypeScript const enums (numbers at run time): their names come from its typings.
function enumNames(name) {
  try {
    const d = fs.readFileSync(fileURLToPath(new URL('./node_modules/litesvm/dist/internal.d.ts', import.meta.url)), 'utf8');
    const body = d.match(new RegExp(`const enum ${name} \\{([^}]*)\\}`))[1];
    const names = [];
    for (const m of body.matchAll(/(\w+) = (\d+)/g)) names[Number(m[2])] = m[1];
    return names;
  } catch {
    return [];
  }
}
const TX_ERRORS = enumNames('TransactionErrorFieldless');
const IX_ERRORS = enumNames('InstructionErrorFieldless');

/** LiteSVM's error object as Solana's JSON-RPC spells a TransactionError. */
function txErrorJson(err) {
  if (typeof err === 'number') return TX_ERRORS[err] ?? `TransactionError${err}`;
  const cls = err?.constructor?.name ?? '';
  if (cls.includes('InstructionError')) {
    const inner = err.err();
    let ie;
    if (typeof inner === 'number') ie = IX_ERRORS[inner] ?? `InstructionError${inner}`;
    else if ('code' in inner) ie = { Custom: inner.code };
    else ie = { BorshIoError: String(inner.msg ?? inner) };
    return { InstructionError: [err.index, ie] };
  }
  if (cls.includes('DuplicateInstruction')) return { DuplicateInstruction: err.index };
  if (cls.includes('InsufficientFundsForRent')) return { InsufficientFundsForRent: { account_index: err.accountIndex } };
  if (cls.includes('ProgramExecutionTemporarilyRestricted')) return { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } };
  return String(err);
}

class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

// ---------------------------------------------------------------- state
const port = Number(process.env.PORT || 8899);
const stateFile = process.env.STATE_FILE || '';
const slotMs = Number(process.env.SLOT_MS || 400);
const confirmLag = Number(process.env.CONFIRM_LAG || 1);
const finalityLag = Number(process.env.FINALITY_LAG || 32);

const svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
/** Accounts created or changed since genesis (programs and sysvars are LiteSVM's own). */
const accounts = new Map();
/** Transaction history, by signature; `order` keeps the landing order. */
const txs = new Map();
const order = [];
const byAddress = new Map();
/** Recent blockhashes: blockhash -> last valid block height. */
const blockhashes = new Map();
let slot = 1000n;
let latestBlockhash;
let keys; // { faucet, mintAuthority } secret keys, base58
let faucet;
let mintAuthority;

function rememberAccount(addr) {
  const a = svm.getAccount(address(addr));
  if (!a.exists) {
    accounts.delete(addr);
    return;
  }
  if (a.executable || a.programAddress === SYSVAR_OWNER || a.programAddress === 'NativeLoader1111111111111111111111111111111') return;
  accounts.set(addr, { lamports: a.lamports.toString(), owner: a.programAddress, data: b64dec.decode(a.data), space: Number(a.space ?? a.data.length) });
}

function putAccount(addr, lamportsValue, owner, data) {
  svm.setAccount({ address: address(addr), lamports: lamports(BigInt(lamportsValue)), programAddress: address(owner), data, executable: false, space: BigInt(data.length) });
  rememberAccount(addr);
}

function indexTx(rec) {
  txs.set(rec.signature, rec);
  order.push(rec.signature);
  for (const k of rec.keys) {
    let list = byAddress.get(k);
    if (!list) byAddress.set(k, (list = []));
    list.push(rec.signature);
  }
}

function nextBlockhash() {
  svm.expireBlockhash();
  latestBlockhash = svm.latestBlockhash();
  blockhashes.set(latestBlockhash, Number(slot) + BLOCKHASH_LIFETIME);
  for (const [h, last] of blockhashes) {
    if (last < Number(slot)) blockhashes.delete(h);
    else break;
  }
}

let dirty = false;
function save() {
  if (!stateFile || !dirty) return;
  dirty = false;
  const doc = {
    version: 1, slot: slot.toString(), keys,
    blockhashes: [...blockhashes.entries()],
    accounts: Object.fromEntries(accounts),
    transactions: order.map((s) => txs.get(s)),
  };
  const tmp = `${stateFile}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, JSON.stringify(doc));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, stateFile);
}

function markDirty() {
  dirty = true;
}

async function restoreOrGenesis() {
  let doc = null;
  if (stateFile && fs.existsSync(stateFile)) {
    try {
      doc = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    } catch (e) {
      const aside = `${stateFile}.corrupt`;
      fs.renameSync(stateFile, aside);
      console.error(`unreadable state moved to ${aside} (${e.message}); starting a fresh chain`);
    }
  }
  if (doc) {
    keys = doc.keys;
    slot = BigInt(doc.slot);
    svm.warpToSlot(slot);
    for (const [addr, a] of Object.entries(doc.accounts)) {
      svm.setAccount({ address: address(addr), lamports: lamports(BigInt(a.lamports)), programAddress: address(a.owner), data: new Uint8Array(b64enc.encode(a.data)), executable: false, space: BigInt(a.space) });
      accounts.set(addr, a);
    }
    for (const rec of doc.transactions) indexTx(rec);
    for (const [h, last] of doc.blockhashes ?? []) blockhashes.set(h, last);
    faucet = await createKeyPairSignerFromBytes(b58enc.encode(keys.faucet));
    mintAuthority = await createKeyPairSignerFromBytes(b58enc.encode(keys.mintAuthority));
    nextBlockhash();
    await fundFeePayers();
    console.log(`restored slot ${slot}, ${accounts.size} accounts, ${order.length} transactions from ${stateFile}`);
    return;
  }
  faucet = await generateKeyPairSigner(true);
  mintAuthority = await generateKeyPairSigner(true);
  keys = { faucet: await exportSecret(faucet), mintAuthority: await exportSecret(mintAuthority) };
  svm.warpToSlot(slot);
  nextBlockhash();
  putAccount(faucet.address, 1_000_000_000n * LAMPORTS_PER_SOL, SYSTEM_PROGRAM, new Uint8Array(0));
  putAccount(mintAuthority.address, 1000n * LAMPORTS_PER_SOL, SYSTEM_PROGRAM, new Uint8Array(0));
  let supply = 0n;
  const holdings = [];
  if (process.env.DEV_PAYER_SECRET_KEY) {
    const payer = await createKeyPairSignerFromBytes(b58enc.encode(process.env.DEV_PAYER_SECRET_KEY));
    putAccount(payer.address, 1000n * LAMPORTS_PER_SOL, SYSTEM_PROGRAM, new Uint8Array(0));
    const usdc = BigInt(process.env.DEV_PAYER_USDC || 1_000_000) * 1_000_000n;
    holdings.push([payer.address, usdc]);
    supply += usdc;
  }
  const mintData = new Uint8Array(getMintEncoder().encode({
    mintAuthority: mintAuthority.address, supply, decimals: 6, isInitialized: true, freezeAuthority: null,
  }));
  putAccount(USDC_MINT, svm.minimumBalanceForRentExemption(BigInt(mintData.length)), TOKEN_PROGRAM_ADDRESS, mintData);
  for (const [owner, amount] of holdings) {
    const [ata] = await findAssociatedTokenPda({ owner, mint: address(USDC_MINT), tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const data = new Uint8Array(getTokenEncoder().encode({
      mint: address(USDC_MINT), owner, amount, delegate: null, state: 1, isNative: null, delegatedAmount: 0n, closeAuthority: null,
    }));
    putAccount(ata, svm.minimumBalanceForRentExemption(BigInt(data.length)), TOKEN_PROGRAM_ADDRESS, data);
  }
  await fundFeePayers();
  markDirty();
  console.log(`genesis at slot ${slot}: USDC mint ${USDC_MINT} (authority ${mintAuthority.address})`);
}

// Fee payers named in FUND_ADDRESSES (the x402 facilitator's) get SOL when they have none, and owners
// named in USDC_ACCOUNT_OWNERS (the seller) an empty USDC associated token account, on every start.
async function fundFeePayers() {
  const list = (name) => (process.env[name] || '').split(',').map((x) => x.trim()).filter(Boolean);
  for (const a of list('FUND_ADDRESSES')) {
    if (!accounts.has(a)) putAccount(a, 1000n * LAMPORTS_PER_SOL, SYSTEM_PROGRAM, new Uint8Array(0));
  }
  for (const owner of list('USDC_ACCOUNT_OWNERS')) {
    const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: address(USDC_MINT), tokenProgram: TOKEN_PROGRAM_ADDRESS });
    if (accounts.has(ata)) continue;
    const data = new Uint8Array(getTokenEncoder().encode({
      mint: address(USDC_MINT), owner: address(owner), amount: 0n, delegate: null, state: 1, isNative: null, delegatedAmount: 0n, closeAuthority: null,
    }));
    putAccount(ata, svm.minimumBalanceForRentExemption(BigInt(data.length)), TOKEN_PROGRAM_ADDRESS, data);
  }
  markDirty();
}

async function exportSecret(signer) {
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', signer.keyPair.privateKey));
  const seed = pkcs8.slice(pkcs8.length - 32);
  return b58dec.decode(new Uint8Array([...seed, ...b58enc.encode(signer.address)]));
}

// ---------------------------------------------------------------- accounts and parsing
function readU64(d, o) {
  return new DataView(d.buffer, d.byteOffset).getBigUint64(o, true);
}

function tokenInfo(addr) {
  const a = accounts.get(addr);
  if (!a || (a.owner !== TOKEN_PROGRAM_ADDRESS && a.owner !== TOKEN_2022)) return null;
  const d = new Uint8Array(b64enc.encode(a.data));
  if (d.length < 165 || (d.length > 165 && d[165] !== 2)) return null; // a token account (Token-2022: account type 2)
  const mint = b58dec.decode(d.slice(0, 32));
  return { mint, owner: b58dec.decode(d.slice(32, 64)), amount: readU64(d, 64), state: d[108], programId: a.owner, decimals: mintDecimals(mint) };
}

function mintInfo(addr) {
  const a = accounts.get(addr);
  if (!a || (a.owner !== TOKEN_PROGRAM_ADDRESS && a.owner !== TOKEN_2022)) return null;
  const d = new Uint8Array(b64enc.encode(a.data));
  if (d.length !== 82 && !(d.length > 165 && d[165] === 1)) return null;
  return {
    mintAuthority: readU32(d, 0) ? b58dec.decode(d.slice(4, 36)) : null,
    supply: readU64(d, 36).toString(), decimals: d[44], isInitialized: d[45] === 1,
    freezeAuthority: readU32(d, 46) ? b58dec.decode(d.slice(50, 82)) : null,
  };
}

function readU32(d, o) {
  return new DataView(d.buffer, d.byteOffset).getUint32(o, true);
}

function mintDecimals(mint) {
  return mintInfo(mint)?.decimals ?? 0;
}

function uiAmount(amount, decimals) {
  const s = amount.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  const text = frac ? `${whole}.${frac}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
}

function encodeAccount(addr, a, encoding) {
  const base = { executable: false, lamports: Number(a.lamports), owner: a.owner, rentEpoch: 0, space: a.space };
  if (encoding === 'jsonParsed') {
    const t = tokenInfo(addr);
    const program = a.owner === TOKEN_2022 ? 'spl-token-2022' : 'spl-token';
    if (t) {
      return { ...base, data: { program, space: a.space, parsed: { type: 'account', info: {
        isNative: false, mint: t.mint, owner: t.owner, state: t.state === 2 ? 'frozen' : 'initialized', tokenAmount: uiAmount(t.amount, t.decimals),
      } } } };
    }
    const m = mintInfo(addr);
    if (m) return { ...base, data: { program, space: a.space, parsed: { type: 'mint', info: m } } };
  }
  if (encoding === 'base58') return { ...base, data: [b58dec.decode(new Uint8Array(b64enc.encode(a.data))), 'base58'] };
  return { ...base, data: [a.data, 'base64'] };
}

/** An account as the chain holds it now: ours, or one LiteSVM has built in (programs, sysvars). */
function lookupAccount(addr) {
  if (accounts.has(addr)) return accounts.get(addr);
  const a = svm.getAccount(address(addr));
  if (!a.exists) return null;
  return { lamports: a.lamports.toString(), owner: a.programAddress, data: b64dec.decode(a.data), space: Number(a.space ?? a.data.length), executable: a.executable };
}

function accountJson(addr, encoding) {
  const a = lookupAccount(addr);
  if (!a) return null;
  const out = encodeAccount(addr, a, encoding);
  out.executable = Boolean(a.executable);
  return out;
}

/** The static account keys and compiled message of a wire transaction. */
function decodeWire(bytes) {
  const tx = txDecoder.decode(bytes);
  const msg = msgDecoder.decode(tx.messageBytes);
  return { tx, msg };
}

function isWritable(msg, i) {
  const h = msg.header;
  const signers = h.numSignerAccounts;
  if (i < signers) return i < signers - h.numReadonlySignerAccounts;
  return i < msg.staticAccounts.length - h.numReadonlyNonSignerAccounts;
}

function parseInstruction(ix, keysList) {
  const programId = keysList[ix.programAddressIndex];
  const acc = (ix.accountIndices ?? []).map((i) => keysList[i]);
  const data = ix.data ? new Uint8Array(ix.data) : new Uint8Array(0);
  const plain = { accounts: acc, data: b58dec.decode(data), programId, stackHeight: null };
  try {
    if (MEMO_PROGRAMS.has(programId)) {
      return { parsed: new TextDecoder('utf-8', { fatal: true }).decode(data), program: 'spl-memo', programId, stackHeight: null };
    }
    if (programId === TOKEN_PROGRAM_ADDRESS || programId === TOKEN_2022) {
      const program = programId === TOKEN_2022 ? 'spl-token-2022' : 'spl-token';
      if (data[0] === 12 && data.length >= 10) {
        const amount = readU64(data, 1);
        return { parsed: { info: { authority: acc[3], destination: acc[2], mint: acc[1], source: acc[0], tokenAmount: uiAmount(amount, data[9]) }, type: 'transferChecked' }, program, programId, stackHeight: null };
      }
      if (data[0] === 3 && data.length >= 9) {
        return { parsed: { info: { amount: readU64(data, 1).toString(), authority: acc[2], destination: acc[1], source: acc[0] }, type: 'transfer' }, program, programId, stackHeight: null };
      }
      if (data[0] === 14 && data.length >= 10) {
        return { parsed: { info: { account: acc[1], mint: acc[0], mintAuthority: acc[2], tokenAmount: uiAmount(readU64(data, 1), data[9]) }, type: 'mintToChecked' }, program, programId, stackHeight: null };
      }
      return plain;
    }
    if (programId === ATA_PROGRAM) {
      const type = data.length === 0 || data[0] === 0 ? 'create' : data[0] === 1 ? 'createIdempotent' : null;
      if (type) {
        return { parsed: { info: { account: acc[1], mint: acc[3], source: acc[0], systemProgram: acc[4], tokenProgram: acc[5], wallet: acc[2] }, type }, program: 'spl-associated-token-account', programId, stackHeight: null };
      }
    }
    if (programId === SYSTEM_PROGRAM && data.length >= 12 && readU32(data, 0) === 2) {
      return { parsed: { info: { destination: acc[1], lamports: Number(readU64(data, 4)), source: acc[0] }, type: 'transfer' }, program: 'system', programId, stackHeight: null };
    }
  } catch {
    // not decodable: shown partially decoded, as Solana's RPC does
  }
  return plain;
}

function tokenBalances(keysList) {
  const out = [];
  keysList.forEach((k, i) => {
    const t = tokenInfo(k);
    if (t) out.push({ accountIndex: i, mint: t.mint, owner: t.owner, programId: t.programId, uiTokenAmount: uiAmount(t.amount, t.decimals) });
  });
  return out;
}

// ---------------------------------------------------------------- commitment
function commitmentOf(cfg) {
  const c = cfg?.commitment ?? 'finalized';
  if (c === 'processed' || c === 'recent' || c === 'single') return 'processed';
  if (c === 'confirmed' || c === 'singleGossip') return 'confirmed';
  return 'finalized';
}

function slotAt(commitment) {
  if (commitment === 'processed') return slot;
  const lag = BigInt(commitment === 'confirmed' ? confirmLag : finalityLag);
  return slot - lag > 0n ? slot - lag : 0n;
}

function statusOf(rec) {
  const age = slot - BigInt(rec.slot);
  if (age >= BigInt(finalityLag)) return 'finalized';
  if (age >= BigInt(confirmLag)) return 'confirmed';
  return 'processed';
}

function visible(rec, commitment) {
  return BigInt(rec.slot) <= slotAt(commitment);
}

const context = (commitment = 'processed') => ({ apiVersion: '2.2.0', slot: Number(slotAt(commitment)) });

// ---------------------------------------------------------------- transactions
function preflightError(message, err, logs, units) {
  return new RpcError(-32002, message, { accounts: null, err, innerInstructions: null, logs: logs ?? [], replacementBlockhash: null, returnData: null, unitsConsumed: units ?? 0 });
}

function wireBytes(encoded, cfg) {
  const encoding = cfg?.encoding ?? 'base58';
  try {
    return new Uint8Array(encoding === 'base64' ? b64enc.encode(encoded) : b58enc.encode(encoded));
  } catch {
    throw new RpcError(-32602, `invalid transaction: failed to decode ${encoding} string`);
  }
}

/** Executes a signed wire transaction in the current slot and records it (failed ones too, as a cluster does). */
function execute(bytes, cfg = {}) {
  let decoded;
  try {
    decoded = decodeWire(bytes);
  } catch (e) {
    throw new RpcError(-32602, `invalid transaction: ${e.message}`);
  }
  const { tx, msg } = decoded;
  if (msg.addressTableLookups?.length) {
    throw new RpcError(-32602, 'invalid transaction: address lookup tables are not supported by the local RPC');
  }
  const keysList = msg.staticAccounts;
  const sigBytes = tx.signatures[keysList[0]];
  if (!sigBytes) throw new RpcError(-32602, 'invalid transaction: the fee payer did not sign');
  const signature = b58dec.decode(sigBytes);
  if (txs.has(signature)) throw preflightError('Transaction simulation failed: This transaction has already been processed', 'AlreadyProcessed');
  if (!blockhashes.has(msg.lifetimeToken)) throw preflightError('Transaction simulation failed: Blockhash not found', 'BlockhashNotFound');
  if (!cfg.skipPreflight) {
    const sim = svm.simulateTransaction(tx);
    if (sim.constructor.name.includes('Failed')) {
      const err = txErrorJson(sim.err());
      throw preflightError(`Transaction simulation failed: ${describe(err)}`, err, sim.meta().logs(), Number(sim.meta().computeUnitsConsumed()));
    }
  }
  const pre = keysList.map((k) => lookupAccount(k)?.lamports ?? '0');
  const preToken = tokenBalances(keysList);
  const result = svm.sendTransaction(tx);
  const failed = result.constructor.name.includes('Failed');
  const meta = failed ? result.meta() : result;
  const err = failed ? txErrorJson(result.err()) : null;
  if (failed && !(err && typeof err === 'object' && ('InstructionError' in err || 'DuplicateInstruction' in err || 'InsufficientFundsForRent' in err))) {
    // Rejected before execution (bad signature, no fee, unknown account): a cluster never includes it.
    throw preflightError(`Transaction rejected: ${describe(err)}`, err, meta.logs(), 0);
  }
  keysList.forEach((k, i) => {
    if (isWritable(msg, i) || accounts.has(k)) rememberAccount(k);
  });
  const fee = LAMPORTS_PER_SIGNATURE * BigInt(msg.header.numSignerAccounts);
  const inner = [];
  (meta.innerInstructions() ?? []).forEach((group, index) => {
    if (group.length) {
      inner.push({ index, instructions: group.map((ii) => {
        const c = ii.instruction();
        return { accounts: [...c.accounts()], data: b58dec.decode(new Uint8Array(c.data())), programIdIndex: c.programIdIndex(), stackHeight: ii.stackHeight() };
      }) });
    }
  });
  const rec = {
    signature, slot: slot.toString(), blockTime: Math.floor(Date.now() / 1000), wire: b64dec.decode(bytes), err,
    logs: meta.logs(), inner, units: Number(meta.computeUnitsConsumed()), fee: fee.toString(),
    pre, post: keysList.map((k) => lookupAccount(k)?.lamports ?? '0'), preToken, postToken: tokenBalances(keysList), keys: keysList,
  };
  indexTx(rec);
  markDirty();
  return signature;
}

function describe(err) {
  if (typeof err === 'string') return err;
  if (err?.InstructionError) {
    const [i, e] = err.InstructionError;
    return `Error processing Instruction ${i}: ${typeof e === 'string' ? e : JSON.stringify(e)}`;
  }
  return JSON.stringify(err);
}

function simulate(encoded, cfg = {}) {
  let decoded;
  const bytes = wireBytes(encoded, cfg);
  try {
    decoded = decodeWire(bytes);
  } catch (e) {
    throw new RpcError(-32602, `invalid transaction: ${e.message}`);
  }
  let { tx } = decoded;
  const { msg } = decoded;
  let replacementBlockhash = null;
  if (cfg.replaceRecentBlockhash) {
    if (cfg.sigVerify) throw new RpcError(-32602, 'sigVerify may not be used with replaceRecentBlockhash');
    // The blockhash sits right before the instructions; re-encode the message with the latest one.
    const mb = new Uint8Array(tx.messageBytes);
    const at = findBlockhashOffset(mb, msg);
    mb.set(b58enc.encode(latestBlockhash), at);
    tx = { ...tx, messageBytes: mb };
    replacementBlockhash = { blockhash: latestBlockhash, lastValidBlockHeight: blockhashes.get(latestBlockhash) };
  } else if (!blockhashes.has(msg.lifetimeToken)) {
    return { context: context(), value: { accounts: null, err: 'BlockhashNotFound', innerInstructions: null, logs: [], replacementBlockhash: null, returnData: null, unitsConsumed: 0 } };
  }
  const verify = cfg.sigVerify === true;
  if (!verify) svm.withSigverify(false);
  let sim;
  try {
    sim = svm.simulateTransaction(tx);
  } finally {
    if (!verify) svm.withSigverify(true);
  }
  const failed = sim.constructor.name.includes('Failed');
  const meta = sim.meta();
  let accountsOut = null;
  if (cfg.accounts?.addresses && !failed) {
    const post = new Map(sim.postAccounts().map((a) => [a.address, a]));
    accountsOut = cfg.accounts.addresses.map((addr) => {
      const a = post.get(addr);
      if (!a) return accountJson(addr, cfg.accounts.encoding ?? 'base64');
      return encodeAccount(addr, { lamports: a.lamports.toString(), owner: a.programAddress, data: b64dec.decode(a.data), space: a.data.length }, 'base64');
    });
  }
  let innerOut = null;
  if (cfg.innerInstructions) {
    innerOut = [];
    (meta.innerInstructions() ?? []).forEach((group, index) => {
      if (group.length) {
        innerOut.push({ index, instructions: group.map((ii) => {
          const c = ii.instruction();
          const raw = { accounts: [...c.accounts()], data: b58dec.decode(new Uint8Array(c.data())), programIdIndex: c.programIdIndex(), stackHeight: ii.stackHeight() };
          return cfg.encoding === 'jsonParsed' ? { ...parseInstruction({ programAddressIndex: raw.programIdIndex, accountIndices: raw.accounts, data: c.data() }, msg.staticAccounts), stackHeight: raw.stackHeight } : raw;
        }) });
      }
    });
  }
  return {
    context: context(),
    value: {
      accounts: accountsOut, err: failed ? txErrorJson(sim.err()) : null, innerInstructions: innerOut, logs: meta.logs(),
      replacementBlockhash, returnData: null, unitsConsumed: Number(meta.computeUnitsConsumed()),
    },
  };
}

function findBlockhashOffset(mb, msg) {
  // [version prefix?][3 header bytes][shortvec n][n * 32 keys][32 blockhash]
  let o = msg.version === 'legacy' ? 0 : 1;
  o += 3;
  let n = 0;
  let shift = 0;
  for (;;) {
    const b = mb[o++];
    n |= (b & 0x7f) << shift;
    if (!(b & 0x80)) break;
    shift += 7;
  }
  return o + n * 32;
}

function renderTx(rec, encoding) {
  const bytes = new Uint8Array(b64enc.encode(rec.wire));
  const { tx, msg } = decodeWire(bytes);
  const keysList = msg.staticAccounts;
  const signatures = keysList.slice(0, msg.header.numSignerAccounts).map((k) => (tx.signatures[k] ? b58dec.decode(tx.signatures[k]) : '1111111111111111111111111111111111111111111111111111111111111111'));
  const version = msg.version === 'legacy' ? 'legacy' : msg.version;
  const meta = {
    computeUnitsConsumed: rec.units, err: rec.err, fee: Number(rec.fee), innerInstructions: renderInner(rec.inner ?? [], keysList, encoding), logMessages: rec.logs,
    postBalances: rec.post.map(Number), postTokenBalances: rec.postToken, preBalances: rec.pre.map(Number),
    preTokenBalances: rec.preToken, rewards: [], status: rec.err ? { Err: rec.err } : { Ok: null },
  };
  if (version !== 'legacy') meta.loadedAddresses = { readonly: [], writable: [] };
  let transaction;
  if (encoding === 'base64') transaction = [rec.wire, 'base64'];
  else if (encoding === 'base58') transaction = [b58dec.decode(bytes), 'base58'];
  else if (encoding === 'jsonParsed') {
    transaction = {
      message: {
        accountKeys: keysList.map((k, i) => ({ pubkey: k, signer: i < msg.header.numSignerAccounts, source: 'transaction', writable: isWritable(msg, i) })),
        instructions: msg.instructions.map((ix) => parseInstruction(ix, keysList)),
        recentBlockhash: msg.lifetimeToken,
      },
      signatures,
    };
    if (version !== 'legacy') transaction.message.addressTableLookups = [];
  } else {
    transaction = {
      message: {
        accountKeys: keysList, header: msg.header && {
          numReadonlySignedAccounts: msg.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: msg.header.numReadonlyNonSignerAccounts,
          numRequiredSignatures: msg.header.numSignerAccounts,
        },
        instructions: msg.instructions.map((ix) => ({ accounts: ix.accountIndices ?? [], data: b58dec.decode(ix.data ? new Uint8Array(ix.data) : new Uint8Array(0)), programIdIndex: ix.programAddressIndex, stackHeight: null })),
        recentBlockhash: msg.lifetimeToken,
      },
      signatures,
    };
    if (version !== 'legacy') transaction.message.addressTableLookups = [];
  }
  return { blockTime: rec.blockTime, meta, slot: Number(rec.slot), transaction, version };
}

function renderInner(inner, keysList, encoding) {
  return inner.map((g) => ({
    index: g.index,
    instructions: g.instructions.map((c) => {
      if (encoding !== 'jsonParsed') return c;
      const parsed = parseInstruction({ programAddressIndex: c.programIdIndex, accountIndices: c.accounts, data: b58enc.encode(c.data) }, keysList);
      return { ...parsed, stackHeight: c.stackHeight };
    }),
  }));
}

function memoOf(rec) {
  const { msg } = decodeWire(new Uint8Array(b64enc.encode(rec.wire)));
  const memos = [];
  for (const ix of msg.instructions) {
    if (MEMO_PROGRAMS.has(msg.staticAccounts[ix.programAddressIndex])) {
      const text = new TextDecoder().decode(ix.data ? new Uint8Array(ix.data) : new Uint8Array(0));
      memos.push(`[${Buffer.byteLength(text)}] ${text}`);
    }
  }
  return memos.length ? memos.join('; ') : null;
}

// Signs and executes a transaction of the local chain's own keys (airdrops, dev mints).
async function localTransaction(feePayer, instructions) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: latestBlockhash, lastValidBlockHeight: BigInt(blockhashes.get(latestBlockhash)) }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return execute(new Uint8Array(txEncoder.encode(signed)));
}

// ---------------------------------------------------------------- methods
function arg(params, i) {
  return Array.isArray(params) ? params[i] : undefined;
}

function requireAddress(v) {
  try {
    return address(String(v));
  } catch {
    throw new RpcError(-32602, `Invalid param: Invalid ${v === undefined ? 'missing' : 'pubkey'}`);
  }
}

function tokenAccountsMatching(filter) {
  const out = [];
  for (const [addr, a] of accounts) {
    if (a.owner !== TOKEN_PROGRAM_ADDRESS && a.owner !== TOKEN_2022) continue;
    const t = tokenInfo(addr);
    if (t && filter(addr, t, a)) out.push(addr);
  }
  return out;
}

const methods = {
  getHealth: () => 'ok',
  getVersion: () => ({ 'feature-set': 3294202862, 'solana-core': '2.2.0' }),
  getGenesisHash: () => GENESIS_HASH,
  getIdentity: () => ({ identity: faucet.address }),
  getSlot: (p) => Number(slotAt(commitmentOf(arg(p, 0)))),
  getBlockHeight: (p) => Number(slotAt(commitmentOf(arg(p, 0)))),
  getEpochInfo: (p) => {
    const s = Number(slotAt(commitmentOf(arg(p, 0))));
    return { absoluteSlot: s, blockHeight: s, epoch: Math.floor(s / 432000), slotIndex: s % 432000, slotsInEpoch: 432000, transactionCount: order.length };
  },
  getLatestBlockhash: (p) => ({ context: context(commitmentOf(arg(p, 0))), value: { blockhash: latestBlockhash, lastValidBlockHeight: blockhashes.get(latestBlockhash) } }),
  isBlockhashValid: (p) => ({ context: context(), value: blockhashes.has(String(arg(p, 0))) }),
  getBalance: (p) => ({ context: context(commitmentOf(arg(p, 1))), value: Number(lookupAccount(requireAddress(arg(p, 0)))?.lamports ?? 0) }),
  getAccountInfo: (p) => ({ context: context(commitmentOf(arg(p, 1))), value: accountJson(requireAddress(arg(p, 0)), arg(p, 1)?.encoding ?? 'base58') }),
  getMultipleAccounts: (p) => {
    const list = arg(p, 0);
    if (!Array.isArray(list) || list.length > 100) throw new RpcError(-32602, 'Invalid params: expected an array of at most 100 pubkeys');
    return { context: context(commitmentOf(arg(p, 1))), value: list.map((a) => accountJson(requireAddress(a), arg(p, 1)?.encoding ?? 'base64')) };
  },
  getMinimumBalanceForRentExemption: (p) => Number(svm.minimumBalanceForRentExemption(BigInt(Number(arg(p, 0) ?? 0)))),
  getFeeForMessage: (p) => {
    let n;
    try {
      n = msgDecoder.decode(new Uint8Array(b64enc.encode(String(arg(p, 0))))).header.numSignerAccounts;
    } catch {
      throw new RpcError(-32602, 'invalid message');
    }
    return { context: context(), value: Number(LAMPORTS_PER_SIGNATURE) * n };
  },
  getRecentPrioritizationFees: () => [],
  getTokenAccountBalance: (p) => {
    const t = tokenInfo(requireAddress(arg(p, 0)));
    if (!t) throw new RpcError(-32602, 'Invalid param: not a Token account');
    return { context: context(commitmentOf(arg(p, 1))), value: uiAmount(t.amount, t.decimals) };
  },
  getTokenSupply: (p) => {
    const m = mintInfo(requireAddress(arg(p, 0)));
    if (!m) throw new RpcError(-32602, 'Invalid param: not a Token mint');
    return { context: context(), value: uiAmount(BigInt(m.supply), m.decimals) };
  },
  getTokenAccountsByOwner: (p) => {
    const owner = requireAddress(arg(p, 0));
    const f = arg(p, 1) ?? {};
    if (!f.mint && !f.programId) throw new RpcError(-32602, 'Invalid params: expected a mint or programId filter');
    const list = tokenAccountsMatching((addr, t, a) => t.owner === owner && (f.mint ? t.mint === f.mint : a.owner === f.programId));
    const enc = arg(p, 2)?.encoding ?? 'base64';
    return { context: context(commitmentOf(arg(p, 2))), value: list.map((k) => ({ account: accountJson(k, enc), pubkey: k })) };
  },
  getProgramAccounts: (p) => {
    const program = requireAddress(arg(p, 0));
    const cfg = arg(p, 1) ?? {};
    const out = [];
    for (const [addr, a] of accounts) {
      if (a.owner !== program) continue;
      const d = new Uint8Array(b64enc.encode(a.data));
      const ok = (cfg.filters ?? []).every((f) => {
        if (f.dataSize !== undefined) return d.length === f.dataSize;
        if (f.memcmp) {
          const want = f.memcmp.encoding === 'base64' ? new Uint8Array(b64enc.encode(f.memcmp.bytes)) : new Uint8Array(b58enc.encode(f.memcmp.bytes));
          return want.every((b, i) => d[f.memcmp.offset + i] === b);
        }
        return true;
      });
      if (ok) out.push({ account: accountJson(addr, cfg.encoding ?? 'base64'), pubkey: addr });
    }
    return cfg.withContext ? { context: context(), value: out } : out;
  },
  sendTransaction: (p) => {
    const cfg = arg(p, 1) ?? {};
    return execute(wireBytes(String(arg(p, 0) ?? ''), cfg), cfg);
  },
  simulateTransaction: (p) => simulate(String(arg(p, 0) ?? ''), arg(p, 1) ?? {}),
  getSignatureStatuses: (p) => {
    const list = arg(p, 0);
    if (!Array.isArray(list) || list.length > 256) throw new RpcError(-32602, 'Invalid params: expected an array of at most 256 signatures');
    return {
      context: context(),
      value: list.map((s) => {
        const rec = txs.get(String(s));
        if (!rec) return null;
        const status = statusOf(rec);
        return {
          confirmationStatus: status, confirmations: status === 'finalized' ? null : Number(slot - BigInt(rec.slot)),
          err: rec.err, slot: Number(rec.slot), status: rec.err ? { Err: rec.err } : { Ok: null },
        };
      }),
    };
  },
  getSignaturesForAddress: (p) => {
    const addr = requireAddress(arg(p, 0));
    const cfg = arg(p, 1) ?? {};
    const commitment = commitmentOf(cfg);
    if (commitment === 'processed') throw new RpcError(-32602, 'Method does not support commitment below `confirmed`');
    const limit = Math.min(Number(cfg.limit ?? 1000), 1000);
    const list = byAddress.get(addr) ?? [];
    const out = [];
    let started = !cfg.before;
    for (let i = list.length - 1; i >= 0 && out.length < limit; i--) {
      const sig = list[i];
      if (!started) {
        if (sig === cfg.before) started = true;
        continue;
      }
      if (sig === cfg.until) break;
      const rec = txs.get(sig);
      if (!visible(rec, commitment)) continue;
      out.push({ blockTime: rec.blockTime, confirmationStatus: statusOf(rec), err: rec.err, memo: memoOf(rec), signature: sig, slot: Number(rec.slot) });
    }
    return out;
  },
  getTransaction: (p) => {
    const sig = String(arg(p, 0) ?? '');
    const cfg = typeof arg(p, 1) === 'string' ? { encoding: arg(p, 1) } : (arg(p, 1) ?? {});
    const commitment = commitmentOf(cfg);
    if (commitment === 'processed') throw new RpcError(-32602, 'Method does not support commitment below `confirmed`');
    const rec = txs.get(sig);
    if (!rec || !visible(rec, commitment)) return null;
    const { msg } = decodeWire(new Uint8Array(b64enc.encode(rec.wire)));
    if (msg.version !== 'legacy' && cfg.maxSupportedTransactionVersion === undefined) {
      throw new RpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
    }
    return renderTx(rec, cfg.encoding ?? 'json');
  },
  requestAirdrop: async (p) => {
    const to = requireAddress(arg(p, 0));
    const amount = BigInt(Number(arg(p, 1) ?? 0));
    if (amount <= 0n) throw new RpcError(-32602, 'Invalid params: lamports must be positive');
    return localTransaction(faucet, [getTransferSolInstruction({ source: faucet, destination: to, amount })]);
  },
  localnet_mintUsdc: async (p) => {
    const owner = requireAddress(arg(p, 0));
    const amount = BigInt(String(arg(p, 1) ?? '0'));
    if (amount <= 0n) throw new RpcError(-32602, 'Invalid params: amount must be positive atomic units');
    const [ata] = await findAssociatedTokenPda({ owner, mint: address(USDC_MINT), tokenProgram: TOKEN_PROGRAM_ADDRESS });
    return localTransaction(mintAuthority, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: mintAuthority, ata, owner, mint: address(USDC_MINT) }),
      getMintToCheckedInstruction({ mint: address(USDC_MINT), token: ata, mintAuthority, amount, decimals: 6 }),
    ]);
  },
};

async function handleOne(req) {
  const id = req?.id ?? null;
  if (!req || req.jsonrpc !== '2.0' || typeof req.method !== 'string') {
    return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id };
  }
  const fn = methods[req.method];
  if (!fn) return { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id };
  try {
    return { jsonrpc: '2.0', result: await fn(req.params ?? []), id };
  } catch (e) {
    if (e instanceof RpcError) {
      const error = { code: e.code, message: e.message };
      if (e.data !== undefined) error.data = e.data;
      return { jsonrpc: '2.0', error, id };
    }
    console.error(`${req.method} failed:`, e?.stack ?? e);
    return { jsonrpc: '2.0', error: { code: -32603, message: `Internal error: ${e?.message ?? e}` }, id };
  }
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

await restoreOrGenesis();
save();

// Requests run one at a time (LiteSVM is one state machine), in arrival order.
let queue = Promise.resolve();
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    return send(res, 200, 'ok');
  }
  if (req.method !== 'POST') {
    return send(res, 405, { jsonrpc: '2.0', error: { code: -32600, message: 'POST a JSON-RPC request' }, id: null });
  }
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size > 4 * 1024 * 1024) {
      send(res, 413, { jsonrpc: '2.0', error: { code: -32600, message: 'request too large' }, id: null });
      req.destroy();
    } else {
      chunks.push(c);
    }
  });
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 200, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    }
    queue = queue.then(async () => {
      const out = Array.isArray(body) ? await Promise.all(body.map(handleOne)) : await handleOne(body);
      send(res, 200, out);
    }).catch((e) => console.error('request failed:', e));
  });
});

// The clock: a slot every SLOT_MS, a new blockhash each slot, the state written after changes.
const clock = setInterval(() => {
  slot += 1n;
  svm.warpToSlot(slot);
  nextBlockhash();
  if (slot % 5n === 0n) markDirty();
}, slotMs);
const saver = setInterval(() => {
  try {
    save();
  } catch (e) {
    console.error('cannot write state:', e.message);
  }
}, 200);

server.listen(port, '127.0.0.1', () => {
  console.log(`solana json-rpc (LiteSVM) listening on http://127.0.0.1:${server.address().port}`);
});

function stop() {
  clearInterval(clock);
  clearInterval(saver);
  server.close(() => {
    dirty = true;
    save();
    process.exit(0);
  });
  setTimeout(() => {
    dirty = true;
    save();
    process.exit(0);
  }, 2000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
