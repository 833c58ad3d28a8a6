// Issue 17 target: a paid call to POST /v1/invoices/{id}/pay beside a paid call to POST /api/x402/invoice,
// against the running local stack (through its gateway, the stack's facilitator and anvil base), in one
// session, alternating call by call so that a noisy moment of the shared machine falls on both alike.
// Same price on both sides: the pay target is an invoice of 0.01 USDC, the x402 invoice call costs 0.01.
// Untimed per call: creating the invoice to pay (API key), asking for the 402, signing the payment with
// the official x402 1.2.0 createPaymentHeader. Timed: the paid request alone (verify + settle on chain +
// the service's work), the client's wall time.
// Usage: node bench/x402/pay-vs-invoice.mjs STACK_ENV [N=60] [WARMUP=10]
import { readFileSync } from 'node:fs';
import { esm } from './tools.mjs';

const [envFile, nArg, warmArg] = process.argv.slice(2);
const env = Object.fromEntries(readFileSync(envFile, 'utf8').split('\n')
  .filter((l) => l.includes('=') && !l.startsWith('#')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
const N = Number(nArg ?? 60);
const WARMUP = Number(warmArg ?? 10);
const gw = (env.BASE_URL ?? env.GATEWAY_URL).replace(/\/+$/, '');

const { createWalletClient, http, publicActions } = await esm('viem');
const { privateKeyToAccount } = await esm('viem', './accounts');
const { base } = await esm('viem', './chains');
const { PaymentRequirementsSchema } = await esm('x402', './types');
const { createPaymentHeader, selectPaymentRequirements } = await esm('x402', './client');
const chain = { ...base, rpcUrls: { default: { http: [env.CHAIN_BASE_RPC_URL] } } };
const wallet = createWalletClient({ chain, transport: http(env.CHAIN_BASE_RPC_URL), account: privateKeyToAccount(env.DEV_PAYER_PRIVATE_KEY) })
  .extend(publicActions);

const post = (url, headers = {}, body = '{}') => fetch(url, {
  method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body,
});

async function requirement(url, body) {
  const r = await post(url, {}, body);
  const j = await r.json();
  if (r.status !== 402) throw new Error(`${url}: expected 402, got ${r.status} ${JSON.stringify(j)}`);
  return selectPaymentRequirements(j.accepts.map((a) => PaymentRequirementsSchema.parse(a)), 'base', 'exact');
}

// One prepared call per target: everything but the paid request itself.
const targets = {
  'POST /api/x402/invoice': async () => {
    const url = `${gw}/api/x402/invoice`;
    const body = JSON.stringify({ recipient: 'bench', amount: 0.01 });
    return { url, body, header: await createPaymentHeader(wallet, 1, await requirement(url, body)) };
  },
  'POST /v1/invoices/{id}/pay': async () => {
    const created = await post(`${gw}/v1/invoices`, { 'x-api-key': env.API_KEY }, JSON.stringify({ amount: 0.01, chain: 'base' }));
    const inv = await created.json();
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(inv)}`);
    const url = `${gw}/v1/invoices/${inv.data.id}/pay`;
    return { url, body: '{}', header: await createPaymentHeader(wallet, 1, await requirement(url, '{}')), id: inv.data.id };
  },
};

function pct(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function round(n) {
  const lat = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  const failures = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let i = 0; i < n; i++) {
    // alternate which target goes first, so neither always follows the other's block
    const order = i % 2 === 0 ? Object.keys(targets) : Object.keys(targets).reverse();
    for (const name of order) {
      const call = await targets[name]();
      const t0 = performance.now();
      const r = await post(call.url, { 'X-PAYMENT': call.header }, call.body);
      const text = await r.text();
      const ms = performance.now() - t0;
      const ok = r.status === 200 && (!call.id || JSON.parse(text).result?.status === 'SETTLED');
      if (ok) lat[name].push(ms); else failures[name].push(`${r.status} ${text.slice(0, 200)}`);
    }
  }
  return Object.fromEntries(Object.keys(targets).map((name) => {
    const l = lat[name].sort((a, b) => a - b);
    return [name, { ok: l.length, failures: failures[name].length, firstFailure: failures[name][0], p50: pct(l, 50), p90: pct(l, 90), max: l[l.length - 1] }];
  }));
}

await round(WARMUP);
const out = await round(N);
console.log(JSON.stringify(out));
const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
console.log('\n| target | paid calls ok | p50 ms | p90 ms | max ms | failures |');
console.log('|---|---|---|---|---|---|');
for (const [name, s] of Object.entries(out)) console.log(`| ${name} | ${s.ok} | ${f(s.p50)} | ${f(s.p90)} | ${f(s.max)} | ${s.failures} |`);
const [a, b] = Object.values(out);
console.log(`\n/pay p50 / x402 invoice p50 = ${(b.p50 / a.p50).toFixed(3)}`);
