// Calls every tool of the discovery MCP server through the official SDK's Streamable HTTP client.
// Usage: node client.mjs <mcp-url>   (env: MANDATE_ID, DISPUTE_MANDATE_ID, API_KEY)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.argv[2]);
const client = new Client({ name: "agentpay-sdk-check", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));

const failures = [];
const expect = (cond, what) => { if (!cond) failures.push(what); };

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
expect(JSON.stringify(names) === JSON.stringify([
  "service_charge_mandate", "service_create_invoice", "service_dispute_add_evidence", "service_dispute_open",
  "service_dispute_status", "service_get_pricing",
  "service_get_trust_signals", "service_pay_invoice", "service_query_mandate", "service_settle_invoice",
  "service_verify_mandate"]), "tools/list names: " + names);

const calls = {
  service_get_pricing: [{}, (r) => !r.isError && r.structuredContent.tools.length === 11],
  service_get_trust_signals: [{}, (r) => !r.isError && typeof r.structuredContent.metrics.invoices_settled === "number"],
  service_query_mandate: [{ mandate_id: process.env.MANDATE_ID }, (r) => !r.isError && r.structuredContent.id === process.env.MANDATE_ID],
  // the stub serves the public view where the proof would be: a result that does not verify, still schema-valid
  service_verify_mandate: [{ mandate_id: process.env.MANDATE_ID }, (r) => !r.isError && r.structuredContent.verified === false && r.structuredContent.verdict !== 'verified'],
  // no such invoice upstream: a tool error, not a transport error
  service_pay_invoice: [{ invoice_id: "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b" }, (r) => r.isError === true],
  service_dispute_open: [{ mandate_id: process.env.DISPUTE_MANDATE_ID, reason: "deliverable never arrived", api_key: process.env.API_KEY },
    (r) => !r.isError],
  service_dispute_add_evidence: [{ mandate_id: process.env.DISPUTE_MANDATE_ID, party: "counterparty", text: "delivered, see the log",
    links: ["https://example.com/log"], api_key: process.env.API_KEY }, (r) => !r.isError && r.structuredContent.evidence_id.startsWith("evd_")],
  service_dispute_status: [{ mandate_id: process.env.DISPUTE_MANDATE_ID, api_key: process.env.API_KEY },
    (r) => !r.isError && r.structuredContent.status === "open" && r.structuredContent.sides[1].evidence.length === 1],
  service_charge_mandate: [{ mandate_id: process.env.MANDATE_ID, amount: "0.10", chain: "base", api_key: process.env.API_KEY },
    (r) => !r.isError && typeof r.structuredContent.invoice_id === "string"],
  service_create_invoice: [{ issuer: "sdk", recipient: "buyer", amount: 0.01 },
    (r) => r.isError === true && r.structuredContent.x402Version === 1 && r.structuredContent.accepts.length > 0],
  service_settle_invoice: [{ invoice_id: "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b" },
    (r) => r.isError === true && r.structuredContent.accepts[0].maxAmountRequired === "5000"],
};
const results = {};
for (const [name, [args, ok]] of Object.entries(calls)) {
  // the SDK validates structuredContent against outputSchema on successful results
  const r = await client.callTool({ name, arguments: args });
  results[name] = { isError: r.isError === true, text: r.content?.[0]?.text?.slice(0, 120) };
  expect(ok(r), name + " unexpected: " + JSON.stringify(r).slice(0, 400));
  expect(JSON.stringify(JSON.parse(r.content[0].text)) === JSON.stringify(r.structuredContent), name + " text block does not mirror structuredContent");
}
await client.close();
console.log(JSON.stringify({ tools: names.length, results, failures }));
process.exit(failures.length === 0 ? 0 : 1);
