// Regenerates src/test/resources/eip712/parties-vectors.json with viem: the N-party ("parties" form)
// mandate's canonical bytes (JSON.stringify, the reference CanonicalParties is checked against), its
// EIP-712 typed data, digest (hashTypedData) and wallet signatures (signTypedData). Run from the repository
// root after the build installed deploy/local/node:  node mandate-service/src/test/js/generate-parties-vectors.mjs
import { createRequire } from 'node:module';
import { createHash, createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../../deploy/local/node/package.json'));
const { hashTypedData, keccak256, toHex } = require('viem');
const { privateKeyToAccount } = require('viem/accounts');

const types = {
  MultiPartyMandate: [
    { name: 'id', type: 'string' }, { name: 'parties', type: 'Party[]' }, { name: 'scope', type: 'string' },
    { name: 'termsHash', type: 'bytes32' }, { name: 'expiresAt', type: 'string' }, { name: 'protoVersion', type: 'string' },
  ],
  Party: [{ name: 'id', type: 'string' }, { name: 'role', type: 'string' }],
};

const sortKeysDeep = (v) => Array.isArray(v) ? v.map(sortKeysDeep)
  : v !== null && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeysDeep(v[k])])) : v;

// The canonical bytes of the parties form: keys sorted, parties in signing order, each {id, role}.
const canonical = (c, signerRole) => JSON.stringify({
  expires_at: new Date(c.expiresAt).toISOString(), id: c.id,
  parties: c.parties.map((p) => ({ id: p.id, role: p.role })), scope: c.scope,
  ...(signerRole === undefined ? {} : { signer_role: signerRole }),
  terms: sortKeysDeep(JSON.parse(c.terms)),
});

// anvil's well-known development keys 5 to 9: test data only
const keys = ['0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'].map((k) => privateKeyToAccount(k));
const wallet = (chainId, i, lower) => `eip155:${chainId}:${lower ? keys[i].address.toLowerCase() : keys[i].address}`;
const secret = 'parties-vector-secret-0123456789';

const cases = [
  { chainId: 84532, contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3', scope: 'Deliver, inspect and pay for 3 pages',
    terms: '{"amount":100,"currency":"USDC","inspector":{"fee":2.5}}', expiresAt: '2030-01-31T12:00:00.000Z',
    parties: [{ id: 'agent:buyer-1', role: 'buyer' }, { id: wallet(84532, 0), role: 'seller' }, { id: wallet(84532, 1, true), role: 'inspector' }] },
  { chainId: 8453, contract: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', scope: 'Ünïcødé ✓ 日本語 \u2028',
    terms: '{"z":"\\u0000","a":[1,2.5,{"b":null}]}', expiresAt: '2031-12-31T23:59:59.999Z',
    parties: [{ id: wallet(8453, 0), role: 'a' }, { id: wallet(8453, 1), role: 'b' }] },
  { chainId: 1, contract: '0x0000000000000000000000000000000000000001', scope: '', terms: '{}', expiresAt: '2027-06-01T00:00:00.000Z',
    parties: [0, 1, 2, 3, 4].map((i) => ({ id: wallet(1, i, i % 2 === 0), role: `party_${i}-x` })) },
  { chainId: 84532, contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3', scope: 'hmac only', terms: '{"n":1e21}',
    expiresAt: '2030-01-31T12:00:00Z', wallets: false,
    parties: [{ id: 'agent:a', role: 'proposer' }, { id: 'agent:b', role: 'counterparty' }, { id: 'did:example:"quoted"\\', role: 'witness' }] },
];
const out = [];
for (const [i, c] of cases.entries()) {
  c.id = `mnd_00000000-0000-4000-8000-0000000000${String(10 + i)}`;
  const bytes = canonical(c);
  const vector = {
    id: c.id, scope: c.scope, terms_as_sent: c.terms, terms: JSON.stringify(sortKeysDeep(JSON.parse(c.terms))),
    expires_at: new Date(c.expiresAt).toISOString(), parties: c.parties,
    canonical: bytes, sha256: '0x' + createHash('sha256').update(bytes, 'utf8').digest('hex'),
    hmac_secret: secret,
    hmac: createHmac('sha256', secret).update(bytes, 'utf8').digest('hex'),
    hmac_role: Object.fromEntries(c.parties.map((p) => [p.role,
      { canonical: canonical(c, p.role), hmac: createHmac('sha256', secret).update(canonical(c, p.role), 'utf8').digest('hex') }])),
  };
  if (c.wallets !== false) {
    const domain = { name: 'agentpay mandate', version: '1', chainId: c.chainId, verifyingContract: c.contract };
    const message = { id: c.id, parties: c.parties, scope: c.scope, termsHash: keccak256(toHex(vector.terms)),
      expiresAt: vector.expires_at, protoVersion: '0.2' };
    vector.domain = domain;
    vector.message = message;
    vector.digest = hashTypedData({ domain, types, primaryType: 'MultiPartyMandate', message });
    vector.signatures = [];
    for (const p of c.parties) {
      const k = keys.find((a) => p.id.toLowerCase().endsWith(a.address.toLowerCase()));
      if (k) {
        vector.signatures.push({ role: p.role, address: k.address.toLowerCase(),
          signature: await k.signTypedData({ domain, types, primaryType: 'MultiPartyMandate', message }) });
      }
    }
  }
  out.push(vector);
}
writeFileSync(join(here, '../resources/eip712/parties-vectors.json'), JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${out.length} vectors`);
