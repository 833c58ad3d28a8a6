// Compiles DepositFactory.sol (DepositFactory and DepositForwarder) with the npm solc package
// (deploy/local/node) through its Standard JSON interface, with the same pinned settings as
// anchor-service's MandateAnchor: solc 0.8.30, optimizer 200 runs, evmVersion "cancun",
// metadata.bytecodeHash "none" (the bytecode, and so every CREATE2 deposit address, does not depend on
// file paths or comments).
// Usage: node compile.cjs <solc package dir> <source file> <output dir>
// Writes <output dir>/<Contract>.abi and <output dir>/<Contract>.bin (creation code, no 0x) per contract.
'use strict';
const fs = require('fs');
const path = require('path');

const [solcDir, sourceFile, outDir] = process.argv.slice(2);
if (!solcDir || !sourceFile || !outDir) {
  console.error('usage: node compile.cjs <solc package dir> <source file> <output dir>');
  process.exit(2);
}
const solc = require(path.resolve(solcDir));
const name = path.basename(sourceFile);
const input = {
  language: 'Solidity',
  sources: { [name]: { content: fs.readFileSync(sourceFile, 'utf8') } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    metadata: { bytecodeHash: 'none' },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors || []).filter((e) => e.severity === 'error');
for (const e of output.errors || []) {
  console.error(e.formattedMessage);
}
if (errors.length > 0) {
  process.exit(1);
}
fs.mkdirSync(outDir, { recursive: true });
for (const contract of ['DepositFactory', 'DepositForwarder']) {
  const c = output.contracts[name][contract];
  fs.writeFileSync(path.join(outDir, contract + '.abi'), JSON.stringify(c.abi));
  fs.writeFileSync(path.join(outDir, contract + '.bin'), c.evm.bytecode.object);
}
console.log('solc ' + solc.version() + ' -> ' + outDir);
