// Verifies recorded deliveries the way a receiver would: the Standard Webhooks signature with the npm
// `standardwebhooks` library, and X-Service-Signature with node:crypto. Input: JSON file named by
// VERIFY_INPUT, a list of {secret, standardSecret, headers, bodyBase64}: secret as registered (keys
// X-Service-Signature), standardSecret its whsec_ form (the create/rotate answer's standardWebhooksSecret).
// Output (stdout): a JSON list of {standard, service, error}.
import { readFileSync } from "node:fs";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

const items = JSON.parse(readFileSync(process.env.VERIFY_INPUT, "utf8"));
const results = items.map(({ secret, standardSecret, headers, bodyBase64 }) => {
  const body = Buffer.from(bodyBase64, "base64");
  const out = { standard: false, service: false, error: null };
  try {
    // the library's defaults, as the Standard Webhooks spec has it: a whsec_ base64 secret, no options
    const wh = new Webhook(standardSecret);
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
