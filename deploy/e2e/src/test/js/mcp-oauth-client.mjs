// An MCP client on the official TypeScript SDK (bench/mcp-sdk-baseline's pinned @modelcontextprotocol/sdk) that
// authenticates with OAuth 2.0 client credentials, for OAuthIT (issue 31, "Done when"):
//   node mcp-oauth-client.mjs <mcp url> <client_id> <client_secret> <tool> <arguments json>
// The SDK does the whole OAuth part: ClientCredentialsProvider holds the client; auth() discovers the
// authorization server from the MCP URL (RFC 9728 protected-resource metadata, then RFC 8414), requests a token
// with grant_type=client_credentials at its token endpoint, and the Streamable HTTP transport sends it as
// Authorization: Bearer on every MCP request. Prints {"token_scope", "result"} (the tool call's result) as JSON.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../../../bench/mcp-sdk-baseline/package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { auth } = require('@modelcontextprotocol/sdk/client/auth.js');
const { ClientCredentialsProvider } = require('@modelcontextprotocol/sdk/client/auth-extensions.js');

const [url, clientId, clientSecret, tool, argsJson] = process.argv.slice(2);
if (!url || !clientId || !clientSecret || !tool) {
  console.error('usage: mcp-oauth-client.mjs <mcp url> <client_id> <client_secret> <tool> <arguments json>');
  process.exit(2);
}
const provider = new ClientCredentialsProvider({ clientId, clientSecret, clientName: 'agentpay e2e MCP client' });
// the MCP endpoint serves public tools without a token (no 401 to start the flow), so authorise up front
const outcome = await auth(provider, { serverUrl: url });
if (outcome !== 'AUTHORIZED') {
  console.error(`mcp-oauth-client: authorisation ended ${outcome}`);
  process.exit(1);
}
const tokens = await provider.tokens();
const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
const client = new Client({ name: 'agentpay-e2e', version: '1.0.0' });
await client.connect(transport);
const result = await client.callTool({ name: tool, arguments: JSON.parse(argsJson ?? '{}') });
await client.close();
console.log(JSON.stringify({ token_scope: tokens?.scope ?? null, result }));
