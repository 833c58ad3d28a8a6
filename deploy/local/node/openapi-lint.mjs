// Checks the merged OpenAPI document: @apidevtools/swagger-parser validates it (OpenAPI 3.1 schema and
// every $ref), then @redocly/cli lints it with the recommended rules (redocly.yaml); any error fails.
// Then what a generated client needs (issue 33 item 6): every operation has a client-style operationId
// (camelCase verb+noun, unique: createMandate, not MandateResource_create) and a summary of its own, and every
// `pattern` is an ECMA-262 regular expression (JSON Schema's dialect; Java's inline flags such as (?i) are not).
//   node openapi-lint.mjs [file]   (default: the checked-in document openapi-merge.mjs writes)
import SwaggerParser from '@apidevtools/swagger-parser';
import { execFileSync } from 'node:child_process';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { MERGED } from './openapi-merge.mjs';

/** What a client generated from the document would trip on; empty when nothing. */
export function clientProblems(doc) {
  const out = [];
  const ids = new Map();
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head'].includes(method)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(op.operationId || '')) {
        out.push(`${where}: operationId "${op.operationId}" is not camelCase verb+noun (createMandate)`);
      } else if (ids.has(op.operationId)) {
        out.push(`${where}: operationId "${op.operationId}" is also ${ids.get(op.operationId)}'s`);
      } else ids.set(op.operationId, where);
      if (!op.summary || op.summary.trim().split(/\s+/).length < 2) out.push(`${where}: summary "${op.summary}" says nothing of its own`);
    }
  }
  const walk = (v, at) => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
    if (!v || typeof v !== 'object') return;
    if (typeof v.pattern === 'string') {
      try {
        new RegExp(v.pattern, 'u');
        if (/\(\?[a-zA-Z]/.test(v.pattern)) throw new Error('an inline flag group is Java syntax');
      } catch (e) {
        out.push(`${at}: pattern ${JSON.stringify(v.pattern)} is not ECMA-262: ${e.message}`);
      }
    }
    for (const [k, x] of Object.entries(v)) walk(x, `${at}/${k}`);
  };
  walk(doc.paths, '#/paths');
  walk(doc.components, '#/components');
  return out;
}

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ? resolve(process.argv[2]) : MERGED;
await SwaggerParser.validate(file);
console.log(`swagger-parser: ${file} is valid`);
const problems = clientProblems(JSON.parse(readFileSync(file, 'utf8')));
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('operationIds, summaries and patterns are client-ready');
execFileSync(resolve(here, 'node_modules/.bin/redocly'), ['lint', '--config', resolve(here, 'redocly.yaml'), file],
  { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
