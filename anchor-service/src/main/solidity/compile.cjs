// Compiles MandateAnchor.sol with the npm solc package (deploy/local/node) through its Standard JSON
// interface, so every setting that changes the output is pinned here:
//   solc 0.8.30, optimizer enabled with 200 runs, evmVersion "cancun", metadata.bytecodeHash "none"
//   (no IPFS hash of the metadata appended: the bytecode does not depend on file paths or comments).
// Usage: node compile.cjs <solc package dir> <source file> <output dir> [contract ...]
// Writes <output dir>/<contract>.abi and <output dir>/<contract>.bin (creation code, no 0x) for each
// contract named (default: the one named like the file, e.g. MandateAnchor). settlement-watcher compiles
// its DepositFactory.sol (DepositFactory, DepositForwarder) with this same script and settings.
'use strict';
const fs = require('fs');
const path = require('path');

const [solcDir, sourceFile, outDir, ...named] = process.argv.slice(2);
if (!solcDir || !sourceFile || !outDir) {
  console.error('usage: node compile.cjs <solc package dir> <source file> <output dir>');
  process.exit(2);
}
const solc = require(path.resolve(solcDir));
const file = path.basename(sourceFile);
const contracts = named.length > 0 ? named : [path.basename(sourceFile, '.sol')];
const input = {
  language: 'Solidity',
  sources: { [file]: { content: fs.readFileSync(sourceFile, 'utf8') } },
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
for (const name of contracts) {
  const contract = output.contracts[file][name];
  fs.writeFileSync(path.join(outDir, name + '.abi'), JSON.stringify(contract.abi));
  fs.writeFileSync(path.join(outDir, name + '.bin'), contract.evm.bytecode.object);
}
console.log('solc ' + solc.version() + ' -> ' + outDir);
