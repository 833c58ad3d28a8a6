// First-byte latency of the pages for people (issue 32) and the payment page's script size, against a running stack.
//   node bench/pages/first-byte.mjs [.local/stack.env] [requests per page, default 200] [clients, default 1]
// Creates one invoice with API_KEY, signs in to the console, then requests each page in a closed loop and reports
// p50/p95/p99/max of the time until the answer's headers arrive (fetch resolves on them), and the payment page's
// JavaScript raw, gzip (-9) and brotli (max) sizes as served.
// One client (the default) paces itself under the stack's per-address limit (20/s). With more clients ("under load")
// the requests are not paced: run the stack with its limits off (PLATFORM_RATE_LIMIT_ENABLED=false deploy/local/run,
// root README "Rate limits"); each page then gets a fresh invoice per client, so that no cache answers for the page.
import { readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { loadavg } from 'node:os';

const envFile = process.argv[2] || '.local/stack.env';
const n = Number(process.argv[3] || 200);
const clients = Number(process.argv[4] || 1);
const env = Object.fromEntries(readFileSync(envFile, 'utf8').split('\n').filter((l) => l.includes('=') && !l.startsWith('#'))
  .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
const base = env.BASE_URL;
// the bench gets its own rate-limit bucket (the stack's limits stay on)
const xff = { 'x-forwarded-for': '198.51.100.' + (1 + Math.floor(Math.random() * 250)) };

const inv = await (await fetch(base + '/v1/invoices', { method: 'POST', headers: { 'x-api-key': env.API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ amount: 1, chain: 'base', description: 'first-byte bench' }) })).json();
// the sign-in form carries a CSRF token (its cookie and the form's _csrf must agree)
const form = await fetch(base + '/console/login', { headers: xff });
const formCookie = (form.headers.get('set-cookie') || '').split(';')[0];
const csrf = (await form.text()).match(/name="_csrf" value="([^"]+)"/)[1];
const login = await fetch(base + '/console/login', { method: 'POST', redirect: 'manual', headers: { ...xff, 'content-type': 'application/x-www-form-urlencoded',
  cookie: formCookie }, body: 'apiKey=' + env.API_KEY + '&_csrf=' + encodeURIComponent(csrf) });
const cookie = (login.headers.get('set-cookie') || '').split(';')[0];

async function newInvoice() {
  const r = await (await fetch(base + '/v1/invoices', { method: 'POST', headers: { 'x-api-key': env.API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1, chain: 'base', description: 'first-byte bench' }) })).json();
  return r.data.id;
}

// paths: one per client (a function of the client's number), each requested n / clients times by its client
async function measure(label, pathOf, headers = {}) {
  const t = [];
  const per = Math.ceil(n / clients);
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    const path = await pathOf(c);
    for (let i = 0; i < per; i++) {
      const s = process.hrtime.bigint();
      const r = await fetch(base + path, { headers: { ...xff, ...headers }, redirect: 'manual' });
      t.push(Number(process.hrtime.bigint() - s) / 1e6);
      if (r.status !== 200) throw new Error(path + ' answered ' + r.status);
      await r.arrayBuffer();
      // one client keeps under the per-address limit (20/s): at most ~15 requests a second
      if (clients === 1) await new Promise((ok) => setTimeout(ok, 60));
    }
  }));
  t.sort((a, b) => a - b);
  const p = (q) => t[Math.min(t.length - 1, Math.ceil(q * t.length) - 1)].toFixed(1);
  return { path: label, n: t.length, clients, p50: p(0.5), p95: p(0.95), p99: p(0.99), max: t[t.length - 1].toFixed(1) };
}

const rows = [];
const ids = clients === 1 ? [inv.data.id] : await Promise.all(Array.from({ length: clients }, newInvoice));
rows.push(await measure('/checkout/{id}', (c) => '/checkout/' + ids[c]));
rows.push(await measure('/checkout/{id}/status', (c) => '/checkout/' + ids[c] + '/status'));
rows.push(await measure('/console/login', () => '/console/login'));
rows.push(await measure('/console/invoices', () => '/console/invoices', { cookie }));
const js = Buffer.from(await (await fetch(base + '/checkout/static/checkout.js', { headers: xff })).arrayBuffer());
console.log(JSON.stringify({ at: new Date().toISOString(), loadavg: loadavg().map((x) => x.toFixed(1)), rows,
  checkoutJs: { raw: js.length, gzip: gzipSync(js, { level: 9 }).length,
    brotli: brotliCompressSync(js, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length } }, null, 1));
