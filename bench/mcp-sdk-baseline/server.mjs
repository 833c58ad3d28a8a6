// Stateless MCP server on the official TypeScript SDK (the SDK's documented stateless pattern: a new
// server and transport per request, JSON responses), serving service_get_pricing with the same
// static document discovery-service serves. Usage: node server.mjs <port> <pricing.json>
import http from "node:http";
import fs from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const port = Number(process.argv[2]);
const pricing = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));

http.createServer(async (req, res) => {
  if (req.method !== "POST" || req.url !== "/disco/mcp") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  let body = "";
  for await (const chunk of req) body += chunk;
  const server = new McpServer({ name: "baseline", version: "1.0.0" });
  server.registerTool("service_get_pricing", {
    description: "Returns the pricing section.",
    inputSchema: {},
  }, async () => ({ content: [{ type: "text", text: JSON.stringify(pricing) }], structuredContent: pricing }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res, JSON.parse(body));
}).listen(port, "127.0.0.1", () => console.log("listening " + port));
