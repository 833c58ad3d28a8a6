// Verifies recorded deliveries the way a receiver would: the Standard Webhooks signature with the npm
// `standardwebhooks` library, and X-Service-Signature with node:crypto. Input: JSON file named by
// VERIFY_INPUT, a list of {secret, headers, bodyBase64}. Output (stdout): a JSON list of
// {standard, service, error}.
import { readFileSync } from "node:fs";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

const items = JSON.parse(readFileSync(process.env.VERIFY_INPUT, "utf8"));
const results = items.map(({ secret, headers, bodyBase64 }) => {
  const body = Buffer.from(bodyBase64, "base64");
  const out = { standard: false, service: false, error: null };
  try {
    // whsec_ secrets are base64 keys (the library's default); any other secret is used as raw bytes.
    const wh = secret.startsWith("whsec_") ? new Webhook(secret) : new Webhook(secret, { format: "raw" });
    wh.verify(body, headers);
    out.standard = true;
  } catch (e) {
    out.error = String(e && e.message ? e.message : e);
  }
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
  const given = headers["x-service-signature"] || "";
  out.service = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  return out;
});
process.stdout.write(JSON.stringify(results));
