// Regenerates src/test/resources/eip712/parties-budget-vectors.json with viem: the EIP-712 typed data of mandates in
// the parties form WITH a budget (issue 28): `MultiPartyMandate` gains the last member `Budget budget`, the same
// nested struct as the two-party form (absent maxPerCharge / period are ""). Run from the repository root after the
// build installed deploy/local/node:  node mandate-service/src/test/js/generate-parties-budget-vectors.mjs
import { createRequire } from 'node:module';
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
    { name: 'budget', type: 'Budget' },
  ],
  Party: [{ name: 'id', type: 'string' }, { name: 'role', type: 'string' }],
  Budget: [
    { name: 'amount', type: 'string' }, { name: 'currency', type: 'string' }, { name: 'maxPerCharge', type: 'string' },
    { name: 'period', type: 'string' },
  ],
};
// anvil's well-known development keys 5 to 7: test data only
const keys = ['0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356'].map((k) => privateKeyToAccount(k));
const cases = [
  { chainId: 84532, contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3', scope: 'Deliver, inspect and pay per page',
    terms: '{"amount":100,"currency":"USDC"}', expiresAt: '2030-01-31T12:00:00.000Z',
    parties: [{ id: 'agent:buyer-1', role: 'buyer' }, { id: `eip155:84532:${keys[0].address}`, role: 'seller' },
      { id: `eip155:84532:${keys[1].address.toLowerCase()}`, role: 'inspector' }],
    budget: { amount: '1.00', currency: 'USDC', maxPerCharge: '0.25', period: 'P1D' } },
  { chainId: 8453, contract: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', scope: 'API calls', terms: '{}',
    expiresAt: '2031-12-31T23:59:59.999Z',
    parties: [0, 1, 2].map((i) => ({ id: `eip155:8453:${keys[i].address}`, role: `p${i}` })),
    budget: { amount: '250', currency: 'USDC', maxPerCharge: '', period: '' } },
];
const out = [];
for (const [i, c] of cases.entries()) {
  const domain = { name: 'agentpay mandate', version: '1', chainId: c.chainId, verifyingContract: c.contract };
  const message = { id: `mnd_00000000-0000-4000-8000-0000000000c${i}`, parties: c.parties, scope: c.scope,
    termsHash: keccak256(toHex(c.terms)), expiresAt: c.expiresAt, protoVersion: '0.2', budget: c.budget };
  const vector = { domain, message, terms: c.terms,
    digest: hashTypedData({ domain, types, primaryType: 'MultiPartyMandate', message }), signatures: [] };
  for (const p of c.parties) {
    const k = keys.find((a) => p.id.toLowerCase().endsWith(a.address.toLowerCase()));
    if (k) {
      vector.signatures.push({ role: p.role, address: k.address.toLowerCase(),
        signature: await k.signTypedData({ domain, types, primaryType: 'MultiPartyMandate', message }) });
    }
  }
  out.push(vector);
}
writeFileSync(join(here, '../resources/eip712/parties-budget-vectors.json'), JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${out.length} vectors`);
