// Loads the npm packages installed in deploy/local/node (the repository's one npm tool set).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const modules = process.env.NODE_TOOLS
  ? join(process.env.NODE_TOOLS, 'node_modules')
  : join(dirname(fileURLToPath(import.meta.url)), '../../deploy/local/node/node_modules');

/** The ESM entry of an installed package's export. */
export async function esm(pkg, sub = '.') {
  const manifest = JSON.parse(readFileSync(join(modules, pkg, 'package.json'), 'utf8'));
  let entry = typeof manifest.exports === 'string' ? manifest.exports : manifest.exports?.[sub]?.import ?? manifest.exports?.[sub];
  if (entry && typeof entry === 'object') entry = entry.default;
  if (!entry) entry = manifest.main ?? 'index.js';
  return import(pathToFileURL(join(modules, pkg, entry)).href);
}
