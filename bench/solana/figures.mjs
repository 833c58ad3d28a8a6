// Solana figures on a running local stack (deploy/local/run):
//  1. detection latency: an invoice on solana paid by a signed TransferChecked + memo (the dev payer's
//     key, @solana/kit); time from the moment the transaction is seen finalized (getSignatureStatuses polled
//     every 40 ms) to the moment the invoice reads SETTLED (GET /v1/invoices polled every 40 ms);
//  2. x402 paid call on the Solana rail (x402 1.2.0 client, x402-fetch with svmConfig) beside the EVM
//     one (x402-fetch with a viem wallet on base), sequential calls through the gateway, wall time each.
//
//   node bench/solana/figures.mjs [.local/stack.env] [INVOICES=20] [CALLS=20]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const modules = join(dirname(fileURLToPath(import.meta.url)), '../../deploy/local/node/node_modules');
async function esm(pkg, sub = '.') {
  const manifest = JSON.parse(readFileSync(join(modules, pkg, 'package.json'), 'utf8'));
  const pick = (e) => (typeof e === 'string' ? e : pick(e.node ?? e.import ?? e.default));
  return import(pathToFileURL(join(modules, pkg, pick(manifest.exports[sub]))).href);
}

const envFile = process.argv[2] ?? '.local/stack.env';
const INVOICES = Number(process.argv[3] ?? 20);
const CALLS = Number(process.argv[4] ?? 20);
const env = Object.fromEntries(readFileSync(envFile, 'utf8').split('\n').filter((l) => l.includes('=') && !l.startsWith('#'))
  .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));

const kit = await esm('@solana/kit');
const token = await esm('@solana-program/token');
const rpc = kit.createSolanaRpc(env.SOLANA_RPC_URL);
const payer = await kit.createKeyPairSignerFromBytes(kit.getBase58Encoder().encode(env.SOLANA_DEV_PAYER_SECRET_KEY));
const mint = kit.address(env.SOLANA_USDC_MINT);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };
const summary = (xs) => `n=${xs.length} p50=${pct(xs, 50).toFixed(0)} ms p90=${pct(xs, 90).toFixed(0)} ms p99=${pct(xs, 99).toFixed(0)} ms max=${Math.max(...xs).toFixed(0)} ms`;

async function api(method, path, body) {
  const res = await fetch(env.BASE_URL + path, { method, headers: { 'content-type': 'application/json', 'x-api-key': env.API_KEY }, body: body && JSON.stringify(body) });
  return res.json();
}

async function payInvoice(inv) {
  const d = inv.paymentDetails;
  const owner = kit.address(d.paymentAddress);
  const [source] = await token.findAssociatedTokenPda({ owner: payer.address, mint, tokenProgram: token.TOKEN_PROGRAM_ADDRESS });
  const [destination] = await token.findAssociatedTokenPda({ owner, mint, tokenProgram: token.TOKEN_PROGRAM_ADDRESS });
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'processed' }).send();
  const message = kit.pipe(
    kit.createTransactionMessage({ version: 0 }),
    (m) => kit.setTransactionMessageFeePayerSigner(payer, m),
    (m) => kit.setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => kit.appendTransactionMessageInstructions([
      token.getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner, mint }),
      token.getTransferCheckedInstruction({ source, mint, destination, authority: payer, amount: BigInt(d.payableAtomic), decimals: 6 }),
      { programAddress: kit.address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'), accounts: [], data: new TextEncoder().encode(d.memo) },
    ], m),
  );
  const signed = await kit.signTransactionMessageWithSigners(message);
  const signature = kit.getSignatureFromTransaction(signed);
  await rpc.sendTransaction(kit.getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
  return signature;
}

async function detection() {
  // One poller for everything (the API allows 50 requests/s per key): the statuses of every pending
  // signature in one getSignatureStatuses, the newest invoices in one list call, every 40 ms.
  const pending = new Map(); // signature -> {id, finalizedAt, settledAt}
  let creating = true;
  const poller = (async () => {
    while (creating || [...pending.values()].some((p) => p.settledAt === null || p.finalizedAt === null)) {
      const sigs = [...pending.keys()];
      if (sigs.length) {
        const { value } = await rpc.getSignatureStatuses(sigs).send();
        const now = performance.now();
        value.forEach((st, i) => {
          const p = pending.get(sigs[i]);
          if (p.finalizedAt === null && st?.confirmationStatus === 'finalized') p.finalizedAt = now;
        });
        const list = await api('GET', '/v1/invoices?limit=50');
        const at = performance.now();
        for (const inv of list.data?.items ?? []) {
          const p = [...pending.values()].find((x) => x.id === inv.id);
          if (p && p.settledAt === null && inv.status === 'SETTLED') {
            if (inv.paymentDetails.txHash !== p.signature) throw new Error(`settled by ${inv.paymentDetails.txHash}, not ${p.signature}`);
            p.settledAt = at;
          }
        }
      }
      await sleep(40);
    }
  })();
  for (let i = 0; i < INVOICES; i++) {
    const created = await api('POST', '/v1/invoices', { amount: 0.01, chain: 'solana', description: `bench ${i}` });
    const inv = created.data;
    if (!inv) throw new Error(`invoice create failed: ${JSON.stringify(created)}`);
    const signature = await payInvoice(inv);
    pending.set(signature, { id: inv.id, signature, finalizedAt: null, settledAt: null });
    await sleep(700);
  }
  creating = false;
  await Promise.race([poller, sleep(90_000).then(() => { throw new Error('not all settled within 90 s'); })]);
  const latencies = [...pending.values()].map((p) => p.settledAt - p.finalizedAt);
  console.log(`solana detection (finalized -> SETTLED read through the gateway, 40 ms polls): ${summary(latencies)}`);
}

async function x402Calls() {
  const { createSigner } = await esm('x402', './types');
  const { wrapFetchWithPayment } = await esm('x402-fetch');
  const { createWalletClient, http, publicActions } = await esm('viem');
  const { privateKeyToAccount } = await esm('viem', './accounts');
  const { base } = await esm('viem', './chains');
  const svm = wrapFetchWithPayment(fetch, await createSigner('solana', env.SOLANA_DEV_PAYER_SECRET_KEY), 100000n, undefined, { svmConfig: { rpcUrl: env.SOLANA_RPC_URL } });
  const chain = { ...base, rpcUrls: { default: { http: [env.CHAIN_BASE_RPC_URL] } } };
  const wallet = createWalletClient({ chain, transport: http(env.CHAIN_BASE_RPC_URL), account: privateKeyToAccount(env.DEV_PAYER_PRIVATE_KEY) }).extend(publicActions);
  const evm = wrapFetchWithPayment(fetch, wallet, 100000n);
  for (const [name, pay] of [['solana', svm], ['base (EVM)', evm]]) {
    const times = [];
    for (let i = 0; i < CALLS + 3; i++) {
      const t0 = performance.now();
      const res = await pay(`${env.BASE_URL}/api/x402/invoice`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"recipient":"bench"}' });
      await res.text();
      if (res.status !== 200) throw new Error(`${name} paid call: ${res.status}`);
      if (i >= 3) times.push(performance.now() - t0); // 3 warm-up calls
    }
    console.log(`x402 paid call on ${name} (client wall time, challenge + sign + pay): ${summary(times)}`);
  }
}

await detection();
await x402Calls();
