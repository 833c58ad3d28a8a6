-- wrk script for POST /v1/mandates: the same body as the Java driver's create-mandate scenario.
-- The API key comes from the environment (API_KEY); every request creates a new mandate (ids are the
-- server's), so one fixed body is enough. wrk counts non-2xx answers itself ("Non-2xx or 3xx responses").
local expiry = os.date("!%Y-%m-%dT%H:%M:%S.000Z", os.time() + 86400)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["x-api-key"] = os.getenv("API_KEY")
wrk.body = '{"proposer":"agent-bench-a","counterparty":"agent-bench-b","scope":"benchmark work",'
  .. '"terms":{"amount":100,"currency":"USDC"},"expiry":"' .. expiry .. '"}'
