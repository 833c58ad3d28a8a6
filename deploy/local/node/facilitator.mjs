// Local x402 facilitator: the standard facilitator HTTP API (/verify, /settle, /supported) built on
// the official `x402` package's facilitator functions, settling `exact` EVM payments on the local
// base chain (anvil, chain id 8453). In production an operator points the services at a hosted one.
//
// Env: PORT, BASE_RPC_URL, FACILITATOR_PRIVATE_KEY (pays gas for transferWithAuthorization).
import http from 'node:http';
import { verify, settle } from 'x402/facilitator';
import { createPublicClient, createWalletClient, http as viemHttp, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';

const port = Number(process.env.PORT || 4020);
const rpc = process.env.BASE_RPC_URL;
const key = process.env.FACILITATOR_PRIVATE_KEY;
if (!rpc || !key) {
  console.error('BASE_RPC_URL and FACILITATOR_PRIVATE_KEY are required');
  process.exit(2);
}
const chain = { ...base, rpcUrls: { default: { http: [rpc] } } };
const client = createPublicClient({ chain, transport: viemHttp(rpc) });
const signer = createWalletClient({ chain, transport: viemHttp(rpc), account: privateKeyToAccount(key) })
  .extend(publicActions);

const supported = { kinds: [{ x402Version: 1, scheme: 'exact', network: 'base' }] };

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
      if (req.url === '/verify') {
        return send(res, 200, await verify(client, paymentPayload, paymentRequirements));
      }
      return send(res, 200, await settle(signer, paymentPayload, paymentRequirements));
    }
    send(res, 404, { error: 'not found' });
  } catch (e) {
    console.error(`${req.method} ${req.url} failed:`, e?.message ?? e);
    send(res, 400, { error: String(e?.message ?? e) });
  }
});

server.listen(port, '127.0.0.1', () => {
  console.log(`x402 facilitator listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
