// x402 bench driver: the same load against several targets, in the same run, interleaved.
//   challenge: closed loop of unpaid POSTs (each answered 402) for DURATION s at CONCURRENCY;
//              reports 402s per second and latency percentiles.
//   paid:      PAID sequential paid calls per target (after PAIDWARMUP unrecorded ones), alternating
//              between the targets call by call; each payment is signed beforehand with the official
//              createPaymentHeader (not timed); the timed part is the paid request (verify + settle
//              on chain through the facilitator + the handler).
// Usage: node driver.mjs '{"targets":{"name":"url",...},"key":"0x..","rpc":"http://..","duration":10,"concurrency":16,"paid":20,"paidWarmup":30}'
// Prints a JSON summary and markdown rows.
import { esm } from './tools.mjs';

const cfg = JSON.parse(process.argv[2]);
const { createWalletClient, http, publicActions } = await esm('viem');
const { privateKeyToAccount } = await esm('viem', './accounts');
const { base } = await esm('viem', './chains');
const { PaymentRequirementsSchema } = await esm('x402', './types');
const { createPaymentHeader, selectPaymentRequirements } = await esm('x402', './client');

const chain = { ...base, rpcUrls: { default: { http: [cfg.rpc] } } };
const wallet = createWalletClient({ chain, transport: http(cfg.rpc), account: privateKeyToAccount(cfg.key) }).extend(publicActions);
const body = JSON.stringify({ recipient: 'bench' });
const post = (url, headers = {}) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body });

function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function challenge(url, seconds, concurrency) {
  const lat = [];
  let non402 = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const r = await post(url);
      await r.arrayBuffer();
      lat.push(performance.now() - t0);
      if (r.status !== 402) non402++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { requests: lat.length, non402, rate: lat.length / elapsed, p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function requirementOf(url) {
  const first = await post(url);
  const reqs = (await first.json()).accepts.map((a) => PaymentRequirementsSchema.parse(a));
  return selectPaymentRequirements(reqs, 'base', 'exact');
}

// Paid calls alternate between the targets call by call, so a noisy moment of the shared machine
// falls on both alike.
async function paidInterleaved(targets, n) {
  const requirement = {};
  const lat = {};
  const failures = {};
  for (const [name, url] of Object.entries(targets)) {
    requirement[name] = await requirementOf(url);
    lat[name] = [];
    failures[name] = 0;
  }
  for (let i = 0; i < n; i++) {
    for (const [name, url] of Object.entries(targets)) {
      const header = await createPaymentHeader(wallet, 1, requirement[name]);
      const t0 = performance.now();
      const r = await post(url, { 'X-PAYMENT': header });
      await r.arrayBuffer();
      const ms = performance.now() - t0;
      if (r.status === 200) lat[name].push(ms); else failures[name]++;
    }
  }
  const out = {};
  for (const name of Object.keys(targets)) {
    const l = lat[name].sort((a, b) => a - b);
    out[name] = { calls: n, failures: failures[name], p50: pct(l, 50), p90: pct(l, 90), max: l[l.length - 1] };
  }
  return out;
}

const names = Object.keys(cfg.targets);
const out = { challenge: {}, paid: {} };
for (const name of names) await challenge(cfg.targets[name], cfg.warmup ?? cfg.duration, cfg.concurrency); // warm-up (JIT)
for (const name of names) out.challenge[name] = await challenge(cfg.targets[name], cfg.duration, cfg.concurrency);
await paidInterleaved(cfg.targets, cfg.paidWarmup ?? 30); // warm-up: the paid path's own JIT, not only the 402 path's
out.paid = await paidInterleaved(cfg.targets, cfg.paid);
console.log(JSON.stringify(out));
const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
console.log('\n| target | 402 challenges/s | challenge p50 ms | challenge p99 ms | paid calls | paid p50 ms | paid p90 ms | paid failures |');
console.log('|---|---|---|---|---|---|---|---|');
for (const name of names) {
  const c = out.challenge[name];
  const p = out.paid[name];
  console.log(`| ${name} | ${f(c.rate)} | ${f(c.p50)} | ${f(c.p99)} | ${p.calls} | ${f(p.p50)} | ${f(p.p90)} | ${p.failures} |`);
}
