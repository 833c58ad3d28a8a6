// Drives the running stack through a client generated from its own OpenAPI document and validates every
// real answer against that document (deploy/e2e OpenApiIT runs it; by hand: BASE_URL, API_KEY and
// SIGNING_SECRET from .local/stack.env).
//
//  1. fetches {BASE_URL}/openapi.json, the document the gateway serves;
//  2. generates its TypeScript types with openapi-typescript (written to OUT_DIR, default a temp dir);
//  3. runs a mandate flow (create, read, sign as both parties, start, complete, public view, proof,
//     receipt) and an invoice flow (create, read, list, the x402 402 challenge of /pay), plus bad input,
//     through openapi-fetch;
//  4. validates each answer's body with Ajv (JSON Schema 2020-12) against the schema the document gives for
//     that operation and status, every object schema closed (a field the document does not name fails, as the
//     services' own OpenApiContractFilter checks): an undocumented status, or a body off its schema, fails the run.
// Prints one line per checked answer and a summary; exits 1 on the first mismatch.
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BASE = required('BASE_URL').replace(/\/$/, '');
const API_KEY = required('API_KEY');
const SECRET = required('SIGNING_SECRET');

function required(name) {
  const v = process.env[name];
  if (!v) { console.error(`${name} is required`); process.exit(2); }
  return v;
}

const docRes = await fetch(`${BASE}/openapi.json`);
if (docRes.status !== 200) throw new Error(`GET /openapi.json: ${docRes.status}`);
const doc = await docRes.json();
if (doc.openapi !== '3.1.0') throw new Error(`openapi.json is ${doc.openapi}, expected 3.1.0`);

// 2. the generated client's types
const outDir = process.env.OUT_DIR || mkdtempSync(join(tmpdir(), 'agentpay-openapi-'));
const types = astToString(await openapiTS(doc));
if (!types.includes('"/v1/mandates"') || !types.includes('"/v1/invoices"')) {
  throw new Error('openapi-typescript produced no types for /v1/mandates or /v1/invoices');
}
writeFileSync(join(outDir, 'agentpay.d.ts'), types);
console.log(`generated ${join(outDir, 'agentpay.d.ts')} (${types.length} characters)`);

// 4. Ajv over the document itself: a response schema is a JSON pointer into it, so its $refs resolve
const ID = 'https://agentpay.local/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
/** Every object schema with properties and no word on others refuses other fields (not those composed with allOf). */
function closed(node, inAllOf = false) {
  if (Array.isArray(node)) return node.map((n) => closed(n, inAllOf));
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = closed(v, inAllOf || k === 'allOf');
  if (!inAllOf && out.properties && typeof out.properties === 'object' && !('additionalProperties' in out)
    && !('unevaluatedProperties' in out) && !out.allOf && !out.anyOf && !out.oneOf) out.additionalProperties = false;
  return out;
}
ajv.addSchema({ ...closed(doc), $id: ID });
const pointer = (...parts) => parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
let checked = 0;

async function check(method, template, result) {
  const { response } = result;
  const op = doc.paths[template]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${template} is not in the document`);
  const status = String(response.status);
  const documented = op.responses[status] ? status : (op.responses.default ? 'default' : null);
  if (!documented) throw new Error(`${method.toUpperCase()} ${template} answered ${status}, not documented (documented: ${Object.keys(op.responses)})`);
  const media = op.responses[documented].content?.['application/json'];
  const body = result.data ?? result.error;
  if (media?.schema) {
    const validate = ajv.getSchema(`${ID}#/${pointer('paths', template, method, 'responses', documented, 'content', 'application/json', 'schema')}`);
    if (!validate(body)) {
      throw new Error(`${method.toUpperCase()} ${template} ${status}: the body does not match the document: `
        + `${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`);
    }
  }
  checked++;
  console.log(`ok ${method.toUpperCase()} ${template} ${status}`);
  return body;
}

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

// 3. the flows, through openapi-fetch
const client = createClient({ baseUrl: BASE, headers: { 'x-api-key': API_KEY } });
const anon = createClient({ baseUrl: BASE });

/** JSON.stringify with keys sorted at every depth: the canonical encoding the mandate signature covers. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function signature(m) {
  const bytes = canonical({
    counterparty_agent_id: m.counterparty_agent_id, expires_at: m.expires_at, id: m.id,
    proposer_agent_id: m.proposer_agent_id, scope: m.scope, terms: m.terms,
  });
  return createHmac('sha256', SECRET).update(bytes, 'utf8').digest('hex');
}

// mandate flow
const expiry = new Date(Date.now() + 86_400_000).toISOString();
const created = await check('post', '/v1/mandates', await client.POST('/v1/mandates', {
  body: { proposer: 'agent:openapi-buyer', counterparty: 'agent:openapi-seller', scope: 'openapi client flow',
    terms: { amount: '10.00', currency: 'USDC', items: [1, 2.5, 'x'] }, expiry, context: { source: 'openapi' } },
}));
expect(created.success === true && created.data.mandate_id, 'create answered no mandate_id');
const id = created.data.mandate_id;
const path = { params: { path: { id } } };
const mandate = (await check('get', '/v1/mandates/{id}', await client.GET('/v1/mandates/{id}', path))).data;
for (const signer of ['proposer', 'counterparty']) {
  await check('post', '/v1/mandates/{id}/sign', await client.POST('/v1/mandates/{id}/sign',
    { ...path, body: { signer, signature: signature(mandate) } }));
}
await check('post', '/v1/mandates/{id}/start', await client.POST('/v1/mandates/{id}/start', { ...path, body: { triggered_by: 'openapi' } }));
const done = await check('post', '/v1/mandates/{id}/complete', await client.POST('/v1/mandates/{id}/complete', { ...path, body: {} }));
expect(done.data.status === 'completed', `complete answered status ${done.data.status}`);
await check('get', '/v1/public/mandates/{id}', await anon.GET('/v1/public/mandates/{id}', path));
await check('get', '/v1/public/mandates/{id}/proof', await anon.GET('/v1/public/mandates/{id}/proof', path));
const signed = await check('get', '/v1/mandates/{id}', await client.GET('/v1/mandates/{id}', path));
expect(signed.data.drs_receipt_id, 'a mandate signed by both has no drs_receipt_id');
await check('get', '/v1/receipts/{id}', await client.GET('/v1/receipts/{id}', { params: { path: { id: signed.data.drs_receipt_id } } }));
// refusals are documented too
const bad = await check('post', '/v1/mandates', await client.POST('/v1/mandates', { body: { proposer: 'a' } }));
expect(bad.success === false && /:/.test(bad.error.message), 'bad input did not name the field');
await check('post', '/v1/mandates/{id}/complete', await client.POST('/v1/mandates/{id}/complete', { ...path, body: {} }));
await check('get', '/v1/mandates/{id}', await anon.GET('/v1/mandates/{id}', path));
await check('get', '/v1/mandates/{id}', await client.GET('/v1/mandates/{id}', { params: { path: { id: 'mnd_missing' } } }));

// invoice flow
const invoice = await check('post', '/v1/invoices', await client.POST('/v1/invoices', {
  body: { amount: 12.5, chain: 'base', customerName: 'OpenAPI', description: 'openapi client flow' },
}));
const invoiceId = invoice.data.id;
await check('get', '/v1/invoices/{id}', await client.GET('/v1/invoices/{id}', { params: { path: { id: invoiceId } } }));
const list = await check('get', '/v1/invoices', await client.GET('/v1/invoices', { params: { query: { limit: 5 } } }));
expect(Array.isArray(list.data.items), 'list has no items');
await check('post', '/v1/invoices/{id}/pay', await anon.POST('/v1/invoices/{id}/pay', { params: { path: { id: invoiceId } } }));
await check('post', '/v1/invoices', await client.POST('/v1/invoices', { body: { amount: -1, chain: 'base' } }));
await check('get', '/v1/invoices/{id}', await client.GET('/v1/invoices/{id}', { params: { path: { id: '00000000-0000-0000-0000-000000000000' } } }));

// webhooks and discovery, read-only
await check('get', '/v1/webhooks/event-types', await client.GET('/v1/webhooks/event-types'));
await check('get', '/v1/webhooks', await client.GET('/v1/webhooks'));

console.log(`openapi client check: ${checked} answers match the document`);
