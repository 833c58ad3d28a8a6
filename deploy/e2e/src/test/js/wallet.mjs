// A viem wallet for VerifiableMandateIT:
//   node wallet.mjs new            -> {"privateKey":"0x..","address":"0x.."} (a fresh random key)
//   node wallet.mjs sign <key>     -> the EIP-712 signature of the typed data read on stdin
//                                     (the proof document's typed_data: domain, types, primaryType, message)
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../../local/node/package.json'));
const { generatePrivateKey, privateKeyToAccount } = require('viem/accounts');

const [cmd, key] = process.argv.slice(2);
if (cmd === 'new') {
  const privateKey = generatePrivateKey();
  console.log(JSON.stringify({ privateKey, address: privateKeyToAccount(privateKey).address }));
} else if (cmd === 'sign' && key) {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const td = JSON.parse(input);
  const { EIP712Domain, ...types } = td.types;
  console.log(await privateKeyToAccount(key).signTypedData({ domain: td.domain, types, primaryType: td.primaryType, message: td.message }));
} else {
  console.error('usage: wallet.mjs new | wallet.mjs sign <private key>');
  process.exit(2);
}
