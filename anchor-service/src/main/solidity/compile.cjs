// Compiles MandateAnchor.sol with the npm solc package (deploy/local/node) through its Standard JSON
// interface, so every setting that changes the output is pinned here:
//   solc 0.8.30, optimizer enabled with 200 runs, evmVersion "cancun", metadata.bytecodeHash "none"
//   (no IPFS hash of the metadata appended: the bytecode does not depend on file paths or comments).
// Usage: node compile.cjs <solc package dir> <source file> <output dir>
// Writes <output dir>/MandateAnchor.abi and <output dir>/MandateAnchor.bin (creation code, no 0x).
'use strict';
const fs = require('fs');
const path = require('path');

const [solcDir, sourceFile, outDir] = process.argv.slice(2);
if (!solcDir || !sourceFile || !outDir) {
  console.error('usage: node compile.cjs <solc package dir> <source file> <output dir>');
  process.exit(2);
}
const solc = require(path.resolve(solcDir));
const input = {
  language: 'Solidity',
  sources: { 'MandateAnchor.sol': { content: fs.readFileSync(sourceFile, 'utf8') } },
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
const contract = output.contracts['MandateAnchor.sol'].MandateAnchor;
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'MandateAnchor.abi'), JSON.stringify(contract.abi));
fs.writeFileSync(path.join(outDir, 'MandateAnchor.bin'), contract.evm.bytecode.object);
console.log('solc ' + solc.version() + ' -> ' + outDir);
