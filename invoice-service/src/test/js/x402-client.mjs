// x402 client driver for the JUnit tests: the official `x402` package (createPaymentHeader, the
// PaymentRequirementsSchema) and `x402-fetch` (wrapFetchWithPayment) against the service under test.
//
// Usage: node x402-client.mjs '<json command>'; prints one JSON result line on stdout.
// Command: {op: "challenge" | "sign" | "fetch", nodeTools, url, body, key, rpc, overrides, tamper, v2}
//   challenge: POST without payment; every `accepts` entry is parsed with PaymentRequirementsSchema.
//   sign:      challenge, pick the base/exact requirement (selectPaymentRequirements), apply `overrides`
//              to it, sign with createPaymentHeader; then apply `tamper` to the signed authorization;
//              `v2` wraps the signed payload as an x402 v2 PAYMENT-SIGNATURE.
//   fetch:     wrapFetchWithPayment(fetch, wallet) pays the call end to end.
//   fetch-v2:  the x402 v2 clients: `@x402/fetch`'s wrapFetchWithPayment with an x402Client holding
//              `@x402/evm`'s ExactEvmScheme for eip155:* (reads the PAYMENT-REQUIRED header, answers
//              with PAYMENT-SIGNATURE); the signer is the same local account with a public client.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { headersOf, requestInit } from './http.mjs';

const cmd = JSON.parse(process.argv[2]);
const tools = join(cmd.nodeTools, 'node_modules');

/** The ESM entry of an installed package's export (the test's tools live in deploy/local/node). */
async function esm(pkg, sub = '.') {
  const manifest = JSON.parse(readFileSync(join(tools, pkg, 'package.json'), 'utf8'));
  let entry = manifest.exports[sub].import;
  if (typeof entry === 'object') entry = entry.default;
  return import(pathToFileURL(join(tools, pkg, entry)).href);
}

const { createWalletClient, http, publicActions } = await esm('viem');
const { privateKeyToAccount } = await esm('viem', './accounts');
const { base } = await esm('viem', './chains');
const { PaymentRequirementsSchema } = await esm('x402', './types');
const { createPaymentHeader, selectPaymentRequirements } = await esm('x402', './client');
const { decodeXPaymentResponse, wrapFetchWithPayment } = await esm('x402-fetch');

function wallet() {
  const chain = { ...base, rpcUrls: { default: { http: [cmd.rpc] } } };
  return createWalletClient({ chain, transport: http(cmd.rpc), account: privateKeyToAccount(cmd.key) }).extend(publicActions);
}

const init = () => requestInit(cmd);

async function challenge() {
  const res = await fetch(cmd.url, init());
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  const out = { status: res.status, headers: headersOf(res), body };
  if (res.status === 402) {
    // Throws (and fails the test) if any requirement does not meet the official schema.
    out.parsed = body.accepts.map((a) => PaymentRequirementsSchema.parse(a));
    const v2 = res.headers.get('payment-required');
    out.v2 = v2 ? JSON.parse(Buffer.from(v2, 'base64').toString('utf8')) : null;
  }
  return out;
}

async function sign() {
  const c = await challenge();
  if (c.status !== 402) throw new Error(`expected 402, got ${c.status}: ${JSON.stringify(c.body)}`);
  const chosen = selectPaymentRequirements(c.parsed, 'base', 'exact');
  const requirement = { ...chosen, ...(cmd.overrides ?? {}) };
  let header = await createPaymentHeader(wallet(), 1, requirement);
  if (cmd.tamper || cmd.v2) {
    const payment = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    Object.assign(payment.payload.authorization, cmd.tamper ?? {});
    if (cmd.v2) {
      const accepted = c.v2.accepts.find((a) => a.network === 'eip155:8453');
      const v2 = { x402Version: 2, resource: c.v2.resource, accepted, payload: payment.payload };
      header = Buffer.from(JSON.stringify(v2)).toString('base64');
    } else {
      header = Buffer.from(JSON.stringify(payment)).toString('base64');
    }
  }
  return { header, requirement, challenge: c };
}

async function paidFetch() {
  const pay = wrapFetchWithPayment(fetch, wallet(), BigInt(cmd.maxValue ?? 100000));
  const res = await pay(cmd.url, init());
  const receipt = res.headers.get('x-payment-response');
  return answer(res, receipt ? decodeXPaymentResponse(receipt) : null);
}

/** A paid call's outcome: status, headers, parsed body and the decoded payment receipt. */
async function answer(res, paymentResponse) {
  const text = await res.text();
  return { status: res.status, headers: headersOf(res), body: text ? JSON.parse(text) : null, paymentResponse };
}

async function paidFetchV2() {
  const { createPublicClient } = await esm('viem');
  const { ExactEvmScheme, toClientEvmSigner } = await esm('@x402/evm');
  const { wrapFetchWithPayment: wrapV2, x402Client, decodePaymentResponseHeader } = await esm('@x402/fetch');
  const chain = { ...base, rpcUrls: { default: { http: [cmd.rpc] } } };
  const signer = toClientEvmSigner(privateKeyToAccount(cmd.key), createPublicClient({ chain, transport: http(cmd.rpc) }));
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(signer, { rpcUrl: cmd.rpc }));
  const res = await wrapV2(fetch, client)(cmd.url, init());
  const receipt = res.headers.get('payment-response');
  return answer(res, receipt ? decodePaymentResponseHeader(receipt) : null);
}

const ops = { challenge, sign, fetch: paidFetch, 'fetch-v2': paidFetchV2 };
try {
  const result = await ops[cmd.op]();
  process.stdout.write(JSON.stringify({ ok: true, result }, (k, v) => (typeof v === 'bigint' ? v.toString() : v)) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(e?.stack ?? e) }) + '\n');
  process.exitCode = 1;
}
