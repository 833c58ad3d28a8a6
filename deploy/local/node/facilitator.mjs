// Local x402 facilitator: the standard facilitator HTTP API (/verify, /settle, /supported) built on
// the official `x402` package's facilitator functions, settling `exact` EVM payments on the local
// base chain (anvil, chain id 8453), and on x402's own SVM facilitator (`@x402/svm`, the v1 `exact`
// scheme) settling `exact` Solana payments on the local Solana chain (solana-rpc.mjs): it checks the
// payer's partially signed transaction, co-signs it as the fee payer, sends it and waits until it is
// confirmed. In production an operator points the services at a hosted one.
//
// Env: PORT, BASE_RPC_URL, FACILITATOR_PRIVATE_KEY (pays gas for transferWithAuthorization),
// RECEIPT_POLL_MS (how often a settle polls for its transaction's receipt; default 100),
// SOLANA_RPC_URL and SOLANA_FEE_PAYER_SECRET_KEY (base58 of the 64-byte secret key that pays Solana
// fees; both or neither: without them the Solana rail is not supported).
import http from 'node:http';
import { verify, settle } from 'x402/facilitator';
import { createPublicClient, createWalletClient, http as viemHttp, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { createKeyPairSignerFromBytes, getBase58Encoder } from '@solana/kit';
import { toFacilitatorSvmSigner } from '@x402/svm';
import { ExactSvmSchemeV1 } from '@x402/svm/exact/v1/facilitator';

const port = Number(process.env.PORT || 4020);
const rpc = process.env.BASE_RPC_URL;
const key = process.env.FACILITATOR_PRIVATE_KEY;
if (!rpc || !key) {
  console.error('BASE_RPC_URL and FACILITATOR_PRIVATE_KEY are required');
  process.exit(2);
}
// viem derives its polling from base's 2 s block time (1 s), so a settle whose first receipt lookup came
// a moment before the local chain mined the transfer waited a whole second; local blocks come sooner.
const pollingInterval = Number(process.env.RECEIPT_POLL_MS || 100);
const chain = { ...base, rpcUrls: { default: { http: [rpc] } } };
const client = createPublicClient({ chain, transport: viemHttp(rpc), pollingInterval });
const signer = createWalletClient({ chain, transport: viemHttp(rpc), account: privateKeyToAccount(key), pollingInterval })
  .extend(publicActions);

const supported = { kinds: [{ x402Version: 1, scheme: 'exact', network: 'base' }] };

// The Solana rail: x402's SVM facilitator with this fee payer, on the configured RPC.
const SOLANA_NETWORKS = new Set(['solana', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']);
let svm = null;
if (process.env.SOLANA_RPC_URL && process.env.SOLANA_FEE_PAYER_SECRET_KEY) {
  const feePayer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(process.env.SOLANA_FEE_PAYER_SECRET_KEY));
  svm = new ExactSvmSchemeV1(toFacilitatorSvmSigner(feePayer, { defaultRpcUrl: process.env.SOLANA_RPC_URL }));
  supported.kinds.unshift({ x402Version: 1, scheme: 'exact', network: 'solana', extra: { feePayer: feePayer.address } });
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks = [];
    req.on('data', (c) => {
      size += c.length;
      if (size > 64 * 1024) {
        reject(new Error('body too large'));
        req.destroy();
      } else {
        chunks.push(c);
      }
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (e) {
        reject(e);
      }
    });
    req.on('error', reject);
  });
}

async function solanaReachable() {
  try {
    const r = await fetch(process.env.SOLANA_RPC_URL, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }), signal: AbortSignal.timeout(2000),
    });
    return r.ok;
  } catch {
    return false;
  }
}

function chainUnreachable(e) {
  const transport = new Set(['HttpRequestError', 'TimeoutError', 'WebSocketRequestError']);
  for (let x = e; x; x = x.cause) {
    if (transport.has(x.name) || /ECONNREFUSED|fetch failed|socket hang up/.test(String(x.message ?? ''))) {
      return true;
    }
  }
  return false;
}

const server = http.createServer(async (req, res) => {
  try {
    if (req.method === 'GET' && req.url === '/supported') {
      return send(res, 200, supported);
    }
    if (req.method === 'GET' && req.url === '/health') {
      return send(res, 200, { status: 'UP' });
    }
    if (req.method === 'POST' && (req.url === '/verify' || req.url === '/settle')) {
      const body = await readJson(req);
      const { paymentPayload, paymentRequirements } = body ?? {};
      if (!paymentPayload || !paymentRequirements) {
        return send(res, 400, { error: 'paymentPayload and paymentRequirements are required' });
      }
      if (SOLANA_NETWORKS.has(paymentRequirements.network)) {
        if (!svm) {
          return send(res, 400, { error: 'the Solana rail is not configured on this facilitator' });
        }
        const out = req.url === '/verify'
          ? await svm.verify(paymentPayload, paymentRequirements)
          : await svm.settle(paymentPayload, paymentRequirements);
        // x402's SVM facilitator reports an RPC outage as a refusal; an unreachable chain is ours (502).
        if ((out?.isValid === false || out?.success === false) && !(await solanaReachable())) {
          return send(res, 502, { error: 'the Solana RPC is unreachable' });
        }
        return send(res, 200, out);
      }
      if (req.url === '/verify') {
        return send(res, 200, await verify(client, paymentPayload, paymentRequirements));
      }
      return send(res, 200, await settle(signer, paymentPayload, paymentRequirements));
    }
    send(res, 404, { error: 'not found' });
  } catch (e) {
    console.error(`${req.method} ${req.url} failed:`, e?.message ?? e);
    // An unreachable chain is the facilitator's outage (502), never the payer's fault; anything else
    // (a bad payload, a reverted transferWithAuthorization) is a refusal of this payment (400).
    send(res, chainUnreachable(e) ? 502 : 400, { error: String(e?.message ?? e) });
  }
});

server.listen(port, '127.0.0.1', () => {
  console.log(`x402 facilitator listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
