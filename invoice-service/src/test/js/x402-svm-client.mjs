// x402 Solana payer for the JUnit tests: the official clients, against the service under test and the
// local Solana chain. v1: the `x402` 1.2.0 package (createPaymentHeader, x402-fetch's wrapFetchWithPayment
// with svmConfig.rpcUrl); v2: `@x402/fetch` with `@x402/svm`'s ExactSvmScheme (rpcUrl).
//
// Usage: node x402-svm-client.mjs '<json command>'; prints one JSON result line on stdout.
// Command: {op: "fetch-v1" | "fetch-v2" | "sign-v1", nodeTools, url, body, secret, rpc}
//   fetch-v1 / fetch-v2: pays the call end to end with that protocol version's official client.
//   sign-v1:  challenge, pick the solana/exact requirement, sign an X-PAYMENT header (not sent).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { headersOf, requestInit } from './http.mjs';

const cmd = JSON.parse(process.argv[2]);
const tools = join(cmd.nodeTools, 'node_modules');

async function esm(pkg, sub = '.') {
  const manifest = JSON.parse(readFileSync(join(tools, pkg, 'package.json'), 'utf8'));
  // export conditions nest differently per package ({import: {types, default}}, {node: {import}} ...)
  const pick = (e) => (typeof e === 'string' ? e : pick(e.node ?? e.import ?? e.default));
  return import(pathToFileURL(join(tools, pkg, pick(manifest.exports[sub]))).href);
}

const init = () => requestInit(cmd);

async function answer(res, receipt) {
  const text = await res.text();
  return { status: res.status, headers: headersOf(res), body: text ? JSON.parse(text) : null, paymentResponse: receipt };
}

async function fetchV1() {
  const { createSigner } = await esm('x402', './types');
  const { decodeXPaymentResponse, wrapFetchWithPayment } = await esm('x402-fetch');
  const signer = await createSigner('solana', cmd.secret);
  const pay = wrapFetchWithPayment(fetch, signer, BigInt(cmd.maxValue ?? 100000), undefined, { svmConfig: { rpcUrl: cmd.rpc } });
  const res = await pay(cmd.url, init());
  const receipt = res.headers.get('x-payment-response');
  return answer(res, receipt ? decodeXPaymentResponse(receipt) : null);
}

async function fetchV2() {
  const { createKeyPairSignerFromBytes, getBase58Encoder } = await esm('@solana/kit');
  const { ExactSvmScheme, toClientSvmSigner } = await esm('@x402/svm');
  const { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } = await esm('@x402/fetch');
  const kp = await createKeyPairSignerFromBytes(getBase58Encoder().encode(cmd.secret));
  const client = new x402Client().register('solana:*', new ExactSvmScheme(toClientSvmSigner(kp), { rpcUrl: cmd.rpc }));
  const pay = wrapFetchWithPayment(fetch, client);
  const res = await pay(cmd.url, init());
  const receipt = res.headers.get('payment-response') ?? res.headers.get('x-payment-response');
  return answer(res, receipt ? decodePaymentResponseHeader(receipt) : null);
}

async function signV1() {
  const { createSigner, PaymentRequirementsSchema } = await esm('x402', './types');
  const { createPaymentHeader, selectPaymentRequirements } = await esm('x402', './client');
  const res = await fetch(cmd.url, init());
  const body = await res.json();
  if (res.status !== 402) throw new Error(`expected 402, got ${res.status}: ${JSON.stringify(body)}`);
  const parsed = body.accepts.map((a) => PaymentRequirementsSchema.parse(a));
  const requirement = selectPaymentRequirements(parsed, 'solana', 'exact');
  const signer = await createSigner('solana', cmd.secret);
  const header = await createPaymentHeader(signer, 1, requirement, { svmConfig: { rpcUrl: cmd.rpc } });
  return { header, requirement };
}

const ops = { 'fetch-v1': fetchV1, 'fetch-v2': fetchV2, 'sign-v1': signV1 };
try {
  const result = await ops[cmd.op]();
  process.stdout.write(JSON.stringify({ ok: true, result }, (k, v) => (typeof v === 'bigint' ? v.toString() : v)) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(e?.stack ?? e) }) + '\n');
  process.exitCode = 1;
}
