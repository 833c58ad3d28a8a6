// Charges per second against mandate budgets, beside mandate creation, on a running stack (issue 28).
// Three closed-loop phases of SECONDS each with CONCURRENCY requests in flight, through the gateway:
//   create       POST /v1/mandates (with a budget)                                  the reference figure
//   contended    POST /v1/mandates/{id}/charges, every request on ONE budget          the row lock serializes them
//   uncontended  the same spread over CONCURRENCY budgets (one per worker)
// Every budget is large enough that no charge is refused; each answer must be 201 (anything else is counted and
// printed). Prints one JSON line with requests/s, p50/p99 in ms and the load average before and after.
// Usage: node bench/budget/charges.mjs <BASE_URL> <API_KEY> <SIGNING_SECRET> [CONCURRENCY=16] [SECONDS=20]
import { createHmac } from 'node:crypto';
import { loadavg } from 'node:os';

const [base, apiKey, secret, concArg, secsArg] = process.argv.slice(2);
if (!base || !apiKey || !secret) {
  console.error('usage: charges.mjs <BASE_URL> <API_KEY> <SIGNING_SECRET> [CONCURRENCY] [SECONDS]');
  process.exit(2);
}
const CONC = Number(concArg ?? 16);
const SECS = Number(secsArg ?? 20);
const BUDGET = { amount: '1000000', currency: 'USDC', period: null, max_per_charge: null };
const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };

async function post(path, body, extra = {}) {
  const r = await fetch(base + path, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json().catch(() => null) };
}

function createBody(i) {
  return {
    proposer: `bench-p-${process.pid}-${i}`, counterparty: `bench-c-${process.pid}-${i}`, scope: 'bench charges',
    terms: { amount: 1 }, expiry: new Date(Date.now() + 86400000).toISOString(), budget: BUDGET,
  };
}

/** Creates a mandate with BUDGET and signs it as both parties (HMAC over the canonical bytes with the budget member). */
async function budgetedMandate(i) {
  const body = createBody(i);
  const c = await post('/v1/mandates', body);
  if (c.status !== 201) throw new Error('create ' + c.status + ' ' + JSON.stringify(c.json));
  const id = c.json.data.mandate_id;
  const m = await (await fetch(base + '/v1/mandates/' + id, { headers })).json();
  const canonical = JSON.stringify({
    budget: { amount: BUDGET.amount, currency: BUDGET.currency, max_per_charge: null, period: null },
    counterparty_agent_id: body.counterparty, expires_at: m.data.expires_at, id, proposer_agent_id: body.proposer,
    scope: body.scope, terms: JSON.parse(m.data.terms === undefined ? '{}' : JSON.stringify(m.data.terms)),
  });
  const signature = createHmac('sha256', secret).update(canonical, 'utf8').digest('hex');
  for (const signer of ['proposer', 'counterparty']) {
    const s = await post(`/v1/mandates/${id}/sign`, { signer, signature });
    if (s.status !== 200) throw new Error('sign ' + s.status + ' ' + JSON.stringify(s.json));
  }
  return id;
}

async function phase(name, request) {
  const lat = [];
  const bad = {};
  let n = 0;
  const end = Date.now() + SECS * 1000;
  const load0 = loadavg()[0];
  const started = Date.now();
  await Promise.all(Array.from({ length: CONC }, async (_, w) => {
    while (Date.now() < end) {
      const t = performance.now();
      const r = await request(w, n++);
      lat.push(performance.now() - t);
      if (r.status !== 201) bad[r.status + ' ' + (r.json?.error?.code ?? '')] = (bad[r.status + ' ' + (r.json?.error?.code ?? '')] ?? 0) + 1;
    }
  }));
  const secs = (Date.now() - started) / 1000;
  lat.sort((a, b) => a - b);
  const pct = (p) => Math.round(lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] * 10) / 10;
  return { phase: name, requests: lat.length, per_second: Math.round(lat.length / secs), p50_ms: pct(0.5), p99_ms: pct(0.99),
    refused: bad, load_avg_1m_before: load0, load_avg_1m_after: loadavg()[0] };
}

const one = await budgetedMandate('one');
const many = [];
for (let w = 0; w < CONC; w++) many.push(await budgetedMandate('w' + w));
const results = [];
results.push(await phase('create', (w, i) => post('/v1/mandates', createBody(`c${i}`))));
results.push(await phase('contended', () => post(`/v1/mandates/${one}/charges`, { amount: '0.01', chain: 'base' })));
results.push(await phase('uncontended', (w) => post(`/v1/mandates/${many[w]}/charges`, { amount: '0.01', chain: 'base' })));
console.log(JSON.stringify({ concurrency: CONC, seconds: SECS, results }));
