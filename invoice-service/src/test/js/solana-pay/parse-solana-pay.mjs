// Reads a JSON array of payment URIs on stdin, decodes each with @solana/pay's parseURL and writes a JSON
// array of {ok, recipient, amount, splToken, reference, memo} or {ok:false, error} (PaymentUriTest).
import { parseURL } from '@solana/pay';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((uri) => {
  try {
    const r = parseURL(uri);
    return { ok: true, recipient: String(r.recipient), amount: r.amount == null ? null : String(r.amount),
      splToken: r.splToken == null ? null : String(r.splToken), reference: (r.reference ?? []).map(String),
      memo: r.memo ?? null };
  } catch (e) {
    return { ok: false, error: String(e && e.message || e) };
  }
});
process.stdout.write(JSON.stringify(out));
