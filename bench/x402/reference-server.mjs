// The official reference: an Express server protected by x402-express's paymentMiddleware with the
// same route, price, network, seller wallet and facilitator as invoice-service's POST /api/x402/invoice.
// Its handler only answers (no database write), so it is the upper bound of the reference stack.
//
// Env: PORT, PAY_TO, FACILITATOR_URL.
import { randomUUID } from 'node:crypto';
import { esm } from './tools.mjs';

const express = (await esm('express')).default;
const { paymentMiddleware } = await esm('x402-express');

const app = express();
app.use(express.json());
app.use(paymentMiddleware(process.env.PAY_TO, {
  'POST /api/x402/invoice': { price: '$0.01', network: 'base', config: { description: 'Create a USDC invoice', mimeType: 'application/json', maxTimeoutSeconds: 120 } },
}, { url: process.env.FACILITATOR_URL }));
app.post('/api/x402/invoice', (req, res) => res.json({ success: true, capability: 'invoice', result: { id: randomUUID(), status: 'PENDING' } }));
const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  console.log(`x402-express reference listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
