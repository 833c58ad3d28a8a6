// An MCP client on the official TypeScript SDK (bench/mcp-sdk-baseline's pinned @modelcontextprotocol/sdk) that
// authenticates with OAuth 2.0 client credentials, for OAuthIT (issue 31, "Done when"):
//   node mcp-oauth-client.mjs <mcp url> <client_id> <client_secret> <tool> <arguments json>
// The OAuth part is a plain client, as any agent would write it: RFC 9728 protected-resource metadata of the MCP URL
// names the authorization server, its RFC 8414 metadata names the token endpoint, and an RFC 6749 client-credentials
// request (client_secret_post, with the RFC 8707 resource) gets the token; the SDK's Streamable HTTP transport then
// sends it as Authorization: Bearer on every MCP request. Not the SDK's own auth(): its metadata schema (1.32.2)
// requires authorization_endpoint, which RFC 8414 makes optional when no grant type uses it and which this server,
// offering client credentials only, does not publish (mandate-service README, "OAuth"). Prints {"token_scope",
// "result"} (the tool call's result) as JSON.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../../../bench/mcp-sdk-baseline/package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const [url, clientId, clientSecret, tool, argsJson] = process.argv.slice(2);
if (!url || !clientId || !clientSecret || !tool) {
  console.error('usage: mcp-oauth-client.mjs <mcp url> <client_id> <client_secret> <tool> <arguments json>');
  process.exit(2);
}
async function json(res, what) {
  if (!res.ok) {
    throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
  }
  return res.json();
}
const mcp = new URL(url);
const resource = await json(await fetch(`${mcp.origin}/.well-known/oauth-protected-resource${mcp.pathname}`), 'RFC 9728 metadata');
const issuer = new URL(resource.authorization_servers[0]);
const asPath = issuer.pathname === '/' ? '' : issuer.pathname;
const metadata = await json(await fetch(`${issuer.origin}/.well-known/oauth-authorization-server${asPath}`), 'RFC 8414 metadata');
const tokens = await json(await fetch(metadata.token_endpoint, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, resource: url }),
}), 'token request');
const transport = new StreamableHTTPClientTransport(mcp, { requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } } });
const client = new Client({ name: 'agentpay-e2e', version: '1.0.0' });
await client.connect(transport);
const result = await client.callTool({ name: tool, arguments: JSON.parse(argsJson ?? '{}') });
await client.close();
console.log(JSON.stringify({ token_scope: tokens?.scope ?? null, result }));
