// Checks the merged OpenAPI document: @apidevtools/swagger-parser validates it (OpenAPI 3.1 schema and
// every $ref), then @redocly/cli lints it with the recommended rules (redocly.yaml); any error fails.
//   node openapi-lint.mjs [file]   (default: the checked-in document openapi-merge.mjs writes)
import SwaggerParser from '@apidevtools/swagger-parser';
import { execFileSync } from 'node:child_process';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MERGED } from './openapi-merge.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ? resolve(process.argv[2]) : MERGED;
await SwaggerParser.validate(file);
console.log(`swagger-parser: ${file} is valid`);
execFileSync(resolve(here, 'node_modules/.bin/redocly'), ['lint', '--config', resolve(here, 'redocly.yaml'), file],
  { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
