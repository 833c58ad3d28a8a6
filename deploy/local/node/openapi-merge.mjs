// Merges every service's own OpenAPI document (written by the Quarkus build to <service>/target/openapi/
// openapi.json, see service-commons' OpenApiContract) into the one OpenAPI 3.1 document of the public API,
// served at {base_url}/openapi.json by discovery-service (routed by deploy/helm/agentpay/routes.yaml).
// Only operations on public routes are kept: a path is taken from a service when routes.yaml routes it
// to that service (longest prefix), so /admin/** and /q/** never appear.
//
//   node openapi-merge.mjs            write discovery-service/src/main/resources/openapi/agentpay-openapi.json
//   node openapi-merge.mjs --check    fail when the checked-in document differs from the merge (the build's check)
//   node openapi-merge.mjs --out F    write to F instead
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const MERGED = resolve(root, 'discovery-service/src/main/resources/openapi/agentpay-openapi.json');

/** What each tag groups (a service may name a tag without describing it). */
const TAG_DESCRIPTIONS = {
  'Admin: discovery': 'Operator endpoints of discovery-service (`x-admin-key`).',
  Discovery: 'The manifest, its sections, reference documents, benchmarks and this document (no credential).',
  Invoices: 'USDC invoices of the partner of the `x-api-key`; each EVM invoice has its own payment address.',
  MCP: 'The Model Context Protocol tool server (streamable HTTP, JSON-RPC 2.0).',
  Mandates: 'Bilateral mandates: create, sign (HMAC or EIP-712), start, complete, dispute.',
  'Public mandates': 'What anyone holding a mandate id may read: the redacted view and the proof.',
  Receipts: 'DRS receipts issued when both parties have signed.',
  Webhooks: 'Signed webhook subscriptions and their delivery log.',
  x402: 'Pay-per-call endpoints: HTTP 402 challenges answered with an x402 payment (`X-PAYMENT` or `PAYMENT-SIGNATURE`).',
};

/** The routing table: [{prefix, service}], longest prefix first. */
export function routes() {
  const text = readFileSync(resolve(root, 'deploy/helm/agentpay/routes.yaml'), 'utf8');
  const out = [];
  let current = null;
  for (const line of text.split('\n')) {
    const p = line.match(/^\s*-\s*prefix:\s*(\S+)/);
    const s = line.match(/^\s*service:\s*(\S+)/);
    if (p) current = { prefix: p[1] };
    else if (s && current) { current.service = s[1]; out.push(current); current = null; }
  }
  return out.sort((a, b) => b.prefix.length - a.prefix.length);
}

function owner(table, path) {
  // as the gateway matches (Gateway.Route.matches): the prefix itself or below it
  const r = table.find((r) => path === r.prefix || path.startsWith(r.prefix.endsWith('/') ? r.prefix : r.prefix + '/'));
  return r ? r.service : null;
}

export function merge() {
  const table = routes();
  const services = [...new Set(table.map((r) => r.service))].sort();
  const paths = {};
  const components = { schemas: {}, securitySchemes: {} };
  const tags = new Map();
  const from = {};
  for (const service of services) {
    const file = resolve(root, service, 'target/openapi/openapi.json');
    if (!existsSync(file)) throw new Error(`${file} is missing: build ${service} first (the Quarkus build writes it)`);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    for (const [path, item] of Object.entries(doc.paths || {})) {
      if (owner(table, path) !== service) continue;
      if (paths[path]) throw new Error(`${path} is documented by ${from[path]} and ${service}`);
      const kept = {};
      for (const [method, op] of Object.entries(item)) {
        if (method === 'options') continue;
        kept[method] = op;
        for (const t of op.tags || []) if (!tags.has(t)) tags.set(t, { name: t, description: TAG_DESCRIPTIONS[t] });
      }
      paths[path] = kept;
      from[path] = service;
    }
    for (const kind of ['schemas', 'securitySchemes']) {
      for (const [name, value] of Object.entries(doc.components?.[kind] || {})) {
        const existing = components[kind][name];
        if (existing && !isDeepStrictEqual(existing, value)) {
          throw new Error(`components.${kind}.${name} differs between services (${service} and an earlier one): rename one`);
        }
        components[kind][name] = value;
      }
    }
    for (const t of doc.tags || []) tags.set(t.name, { ...t, description: t.description || TAG_DESCRIPTIONS[t.name] });
  }
  const usedTags = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags || [])));
  prune(components.schemas, paths);
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'agentpay API',
      version: '0.1.0',
      summary: 'Mandates, invoices, x402, webhooks and discovery: the public API of every agentpay service.',
      description: 'The one public API description, merged from each service\'s own OpenAPI document '
        + '(`/q/openapi` on each service). Every success answer is the envelope `{success: true, data}`, every '
        + 'error `{success: false, error: {code, message}}` (`ErrorBody`); bad input is a 4xx naming the field. '
        + 'Authentication: `x-api-key` (partner endpoints), `x-admin-key` (operator endpoints), x402 payments '
        + '(`X-PAYMENT`, v1; `PAYMENT-SIGNATURE`, v2). Reference documents: `/disco/reference/`.',
      license: { name: 'Proprietary', url: 'https://agentpay.dev/terms' },
      contact: { name: 'agentpay', url: 'https://agentpay.dev' },
    },
    servers: [{
      url: '{base_url}',
      description: 'the gateway: `BASE_URL` of .local/stack.env locally, the Ingress host on Kubernetes',
      variables: { base_url: { default: 'http://localhost:8080' } },
    }],
    tags: [...tags.values()].filter((t) => usedTags.has(t.name)).sort((a, b) => a.name.localeCompare(b.name)),
    paths: sorted(paths),
    components: { schemas: sorted(components.schemas), securitySchemes: sorted(components.securitySchemes) },
  };
}

/** Drops component schemas no kept operation reaches (admin-only types). */
function prune(schemas, paths) {
  const reached = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v && typeof v === 'object') {
      if (typeof v.$ref === 'string' && v.$ref.startsWith('#/components/schemas/')) {
        const name = v.$ref.slice('#/components/schemas/'.length);
        if (!reached.has(name)) { reached.add(name); walk(schemas[name]); }
      }
      Object.values(v).forEach(walk);
    }
  };
  walk(paths);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const text = JSON.stringify(merge(), null, 2) + '\n';
  if (args.includes('--check')) {
    const current = existsSync(MERGED) ? readFileSync(MERGED, 'utf8') : '';
    if (current !== text) {
      console.error(`${MERGED} is not the merge of the services' documents: run node deploy/local/node/openapi-merge.mjs and commit it`);
      process.exit(1);
    }
    console.log('openapi.json is current');
  } else {
    const out = args.includes('--out') ? resolve(args[args.indexOf('--out') + 1]) : MERGED;
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
