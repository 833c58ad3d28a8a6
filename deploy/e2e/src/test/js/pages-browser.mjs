// The browser journeys of PagesIT: Playwright (playwright-core from deploy/local/node) driving Debian's Chromium
// (/usr/bin/chromium, headless, a fresh empty profile that Playwright creates per launch) against the local stack.
// Reads one JSON command on stdin, writes one JSON result line on stdout; any failed check exits 1 naming it.
// Screenshots go to command.outDir.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../../local/node/package.json'));
const { chromium } = require('playwright-core');
const { AxeBuilder } = require('@axe-core/playwright');
const viem = require('viem');
const { privateKeyToAccount } = require('viem/accounts');

let input = '';
for await (const chunk of process.stdin) input += chunk;
const cmd = JSON.parse(input);
mkdirSync(cmd.outDir, { recursive: true });
if (cmd.docsDir) mkdirSync(cmd.docsDir, { recursive: true });
const base = cmd.baseUrl;
const result = { checks: [], axe: {}, timings: {} };

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  result.checks.push(what);
}

const browser = await chromium.launch({
  executablePath: cmd.chromium || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const dialogs = [];
const MOBILE = { viewport: { width: 360, height: 780 }, deviceScaleFactor: 1 };

async function newPage(options = {}) {
  // the browser's own rate-limit bucket (the gateway trusts loopback's X-Forwarded-For, as SecurityIT uses it)
  const ctx = await browser.newContext({ ...MOBILE, extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.32' }, ...options });
  // a hostile page would open a dialog; none may ever open
  ctx.on('page', (p) => p.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); }));
  const page = await ctx.newPage();
  return { ctx, page };
}

async function axe(page, name) {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  result.axe[name] = { violations: r.violations.map((v) => `${v.id}(${v.impact})`), passes: r.passes.length };
  check(bad.length === 0, `axe on ${name}: no serious or critical violation (${bad.map((v) => v.id + ': ' + v.nodes.map((n) => n.target).join(' ')).join('; ')})`);
}

async function fitsWidth(page, name) {
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  // what sticks out, to name it when it does
  const wide = w <= 360 ? [] : await page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > 360 && (!e.closest('.scroll') || getComputedStyle(e).position === 'absolute'))
    .slice(-5).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).replace(/ /g, '.') : '')
      + ' (' + Math.round(e.getBoundingClientRect().right) + ')'));
  check(w <= 360, `${name} fits 360 px without horizontal scrolling (scrollWidth ${w}; ${wide.join(', ')})`);
}

// The README's screenshots (PagesIT -Dpages.readme-screenshots=true): the page as it is, at 360 px (at most 1,100 px
// tall) and at 1280 x 800, into docs/screenshots/<name>-360.png and <name>-desktop.png.
async function readmeShot(page, name) {
  if (!cmd.docsDir) return;
  const narrow = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.screenshot({ path: join(cmd.docsDir, name + '-360.png'), fullPage: true,
    clip: { x: 0, y: 0, width: narrow.width, height: Math.min(height, 1100) } });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(cmd.docsDir, name + '-desktop.png') });
  await page.setViewportSize(narrow);
}

let expiring = null;
const statusText = (page) => page.locator('#status-text').textContent();

async function reloadUntil(page, what, cond, timeoutMs = 30000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error('check failed: ' + what + ' (waited ' + timeoutMs + ' ms)');
    await page.waitForTimeout(500);
    await page.reload();
  }
}

// Signing in with an OAuth client: the console exchanges id and secret for a token on the server; the secret is used
// once and kept nowhere; the session has the client's scopes (here no webhooks:manage) and sees its own partner's data.
async function oauthJourney(k, o) {
  const { ctx, page } = await newPage();
  await page.goto(k.consoleUrl);
  await page.locator('#clientId').fill(o.clientId);
  await page.locator('#clientSecret').fill('cs_' + '0'.repeat(64));
  await page.locator('#oauth-form button[type=submit]').click();
  check(((await page.locator('#oauth-error').textContent()) || '').includes('do not match'), 'a wrong client secret is refused');
  const forged = await page.request.post(`${base}/console/login/oauth`, { form: { clientId: o.clientId, clientSecret: o.clientSecret,
    _csrf: 'forged' }, maxRedirects: 0 });
  check(forged.status() === 403, 'an OAuth sign-in post without the sign-in CSRF token is refused (403)');
  await page.locator('#clientId').fill(o.clientId);
  await page.locator('#clientSecret').fill(o.clientSecret);
  await Promise.all([page.waitForURL('**/console/invoices'), page.locator('#oauth-form button[type=submit]').click()]);
  const who = (await page.locator('#signed-in-with').textContent()) || '';
  check(who.includes('OAuth client ' + o.clientId) && who.includes('invoices:read mandates:read'), `signed in with the OAuth client and its scopes (${who})`);
  const cookies = await ctx.cookies();
  check(!cookies.some((x) => x.value.includes(o.clientSecret)), 'the client secret is in no cookie');
  check((await page.evaluate(() => localStorage.length + sessionStorage.length)) === 0, 'OAuth: nothing in localStorage or sessionStorage');
  check(!(await page.content()).includes(o.clientSecret), 'the client secret is in no page');
  check(await page.locator(`tr[data-invoice-id="${o.invoiceId}"]`).count() === 1, "the OAuth client's partner sees its invoice");
  check(await page.locator(`tr[data-invoice-id="${k.invoiceId}"]`).count() === 0, "and not another partner's");
  await axe(page, 'console (OAuth)');
  await fitsWidth(page, 'console (OAuth)');
  await page.screenshot({ path: join(cmd.outDir, 'console-oauth.png'), fullPage: true });
  const hooks = await page.goto(`${k.consoleUrl}/webhooks`);
  check(hooks.status() === 403 && ((await page.content()).includes('insufficient_scope')), 'without webhooks:manage the webhooks page shows the refusal');
  await page.goto(`${k.consoleUrl}/invoices`);
  await Promise.all([page.waitForURL('**/console/login'), page.getByRole('button', { name: 'Sign out' }).click()]);
  await ctx.close();
}

async function consoleJourney(k) {
  const { ctx, page } = await newPage();
  // not signed in: the sign-in page
  await page.goto(k.consoleUrl);
  check(new URL(page.url()).pathname === '/console/login', 'console without a session shows the sign-in page (CONSOLE_URL)');
  await axe(page, 'console sign-in');
  await fitsWidth(page, 'console sign-in');
  await page.screenshot({ path: join(cmd.outDir, 'console-login.png'), fullPage: true });
  await page.locator('#apiKey').fill('sk_' + '0'.repeat(64));
  await page.locator('#apikey-form button[type=submit]').click();
  check(((await page.locator('#login-error').textContent()) || '').includes('unknown or revoked'), 'a wrong key is refused');
  // a sign-in post without the sign-in form's token (another site's form) is refused
  const forgedLogin = await page.request.post(`${base}/console/login`, { form: { apiKey: k.apiKey, _csrf: 'forged' }, maxRedirects: 0 });
  check(forgedLogin.status() === 403, 'a sign-in post without the sign-in CSRF token is refused (403)');
  await page.locator('#apiKey').fill(k.apiKey);
  await Promise.all([page.waitForURL('**/console/invoices'), page.locator('#apikey-form button[type=submit]').click()]);
  check(((await page.locator('#signed-in-with').textContent()) || '').startsWith('API key sk_…'), 'the header says how the session signed in');
  const cookies = await ctx.cookies();
  const session = cookies.find((x) => x.name === 'agentpay_console');
  check(session && session.httpOnly && session.sameSite === 'Strict', 'session cookie is HttpOnly and SameSite=Strict');
  check(!cookies.some((x) => x.value.includes(k.apiKey)), 'the API key is in no cookie');
  check((await page.evaluate(() => localStorage.length + sessionStorage.length)) === 0, 'nothing in localStorage or sessionStorage');
  check(!(await page.content()).includes(k.apiKey), 'the API key is in no page');

  // invoices: find the paid one, filter, open its payment page
  check(await page.locator(`tr[data-invoice-id="${k.invoiceId}"]`).count() === 1, 'console lists the invoice');
  await page.locator('#f-status').selectOption('SETTLED');
  await page.locator('#f-chain').selectOption('base');
  await Promise.all([page.waitForURL('**/console/invoices?status=SETTLED&chain=base'), page.locator('form.filters button').click()]);
  const row = page.locator(`tr[data-invoice-id="${k.invoiceId}"]`);
  check(await row.count() === 1 && (await row.locator('.badge').textContent()) === 'SETTLED', 'filtered by status and chain: the invoice, SETTLED');
  check(await page.locator('tbody .badge').evaluateAll((els) => els.every((e) => e.textContent === 'SETTLED')), 'the status filter shows only SETTLED');
  await axe(page, 'console invoices');
  await fitsWidth(page, 'console invoices');
  await page.screenshot({ path: join(cmd.outDir, 'console-invoices.png'), fullPage: true });
  await Promise.all([page.waitForURL(`**/checkout/${k.invoiceId}`), row.locator('a').click()]);
  check((await statusText(page)) === 'Paid', 'the invoice links to its payment page');

  // webhooks: the delivery of invoice.settled, its attempts, redeliver
  await page.goto(`${base}/console/webhooks`);
  await axe(page, 'console webhooks');
  await Promise.all([page.waitForURL('**/console/webhooks/*'), page.getByRole('link', { name: 'Deliveries of ' + k.webhookUrl }).click()]);
  await reloadUntil(page, 'delivery of invoice.settled listed', async () =>
    (await page.locator('tr[data-event-type="invoice.settled"] .badge-succeeded').count()) > 0);
  await axe(page, 'console deliveries');
  await fitsWidth(page, 'console deliveries');
  await Promise.all([page.waitForURL('**/deliveries/*'), page.locator('tr[data-event-type="invoice.settled"] a').first().click()]);
  const attempts = () => page.locator('#attempts tbody tr').count();
  check((await attempts()) >= 1, 'the delivery shows its attempts');
  const before = await attempts();
  await Promise.all([page.waitForURL('**flash=redelivered'), page.getByRole('button', { name: 'Redeliver now' }).click()]);
  check((await page.locator('#flash').textContent()) === 'Queued for delivery now.', 'redeliver queued');
  await reloadUntil(page, 'the redelivery is a new attempt', async () => (await attempts()) > before);
  check(((await page.locator('#attempts tbody').textContent()) || '').includes('manual'), 'the new attempt is manual');
  await axe(page, 'console delivery');
  await page.screenshot({ path: join(cmd.outDir, 'console-delivery.png'), fullPage: true });
  await readmeShot(page, 'console-delivery');
  // a post without the CSRF token is refused (same cookies, no token)
  const forged = await page.request.post(page.url().split('?')[0] + '/redeliver', { form: { _csrf: 'forged' }, maxRedirects: 0 });
  check(forged.status() === 403, 'a form post without the session CSRF token is refused (403)');

  // the mandate whose scope is markup: shown as text, no dialog; open a dispute with its reason
  await page.goto(`${base}/console/mandates`);
  await page.locator('#f-id').fill(k.mandateId);
  await Promise.all([page.waitForURL(`**/console/mandates/${k.mandateId}`), page.getByRole('button', { name: 'Open', exact: true }).click()]);
  check((await page.locator('#mandate-scope').textContent()) === k.scope, 'the markup scope is shown as text');
  check(await page.locator('#mandate-scope img').count() === 0, 'the markup scope made no element');
  check(await page.locator('#timeline li').count() >= 3, 'the timeline shows every transition');
  check(await page.locator('a[href$="/proof"]').count() === 1, 'link to the public proof');
  check(await page.locator('#verification').count() === 1, 'the proof verification result is shown');
  result.disputeReason = 'Not delivered ' + k.scope;
  await page.locator('#reason').fill(result.disputeReason);
  await Promise.all([page.waitForURL('**flash=disputed'), page.getByRole('button', { name: 'Open a dispute' }).click()]);
  check((await page.locator('#mandate-state').textContent()) === 'disputed', 'the mandate is disputed');
  check((await page.locator('#dispute-reason').textContent()) === result.disputeReason, 'the reason is shown as text');
  await axe(page, 'console mandate');
  await fitsWidth(page, 'console mandate');
  await page.screenshot({ path: join(cmd.outDir, 'console-mandate.png'), fullPage: true });

  // the dispute's case (issue 30's API): each side's evidence, adding evidence, the outcome
  await Promise.all([page.waitForURL(`**/console/mandates/${k.mandateId}/dispute`), page.locator('#dispute-case-link').click()]);
  if (await page.locator('#dispute-unavailable').count() === 1) {
    // a platform without dispute cases (before issue 30's mandate-service): the page says so, offers no form
    result.disputeCases = false;
    check(await page.locator('#evidence-form').count() === 0, 'no dispute cases on this platform: the page says so, no evidence form');
  } else {
    result.disputeCases = true;
    check((await page.locator('#case-status').textContent()) === 'open', 'the dispute case is open');
    check((await page.locator('#case-reason').textContent()) === result.disputeReason, 'the case shows the reason as text');
    result.evidenceText = 'Delivered on 3 May ' + k.scope;
    await page.locator('#ev-party').selectOption('counterparty');
    await page.locator('#ev-text').fill(result.evidenceText);
    await page.locator('#ev-links').fill('https://example.com/delivery-log.txt');
    await Promise.all([page.waitForURL('**flash=evidence**'), page.getByRole('button', { name: 'Add evidence' }).click()]);
    const ev = page.locator('ol.evidence[data-party="counterparty"] > li'); // its own items, not the links list inside one
    if (await ev.count() !== 1) {
      // kept for diagnosis: what the case page showed
      writeFileSync(join(cmd.outDir, 'console-dispute-unexpected.html'), await page.content());
    }
    check(await ev.count() === 1, 'the evidence is listed under the counterparty');
    check((await ev.locator('.evidence-text').textContent()) === result.evidenceText, 'the evidence text is shown as text');
    check(await ev.locator('img').count() === 0, 'the evidence markup made no element');
    check((await ev.locator('a').getAttribute('href')) === 'https://example.com/delivery-log.txt', 'the evidence link');
    check(/0x[0-9a-f]{64}/.test(await ev.textContent()), "the evidence's SHA-256 is shown");
    const forgedEvidence = await page.request.post(`${k.consoleUrl}/mandates/${k.mandateId}/dispute/evidence`,
      { form: { _csrf: 'forged', party: 'counterparty', text: 'forged' }, maxRedirects: 0 });
    check(forgedEvidence.status() === 403, 'an evidence post without the CSRF token is refused (403)');
    await axe(page, 'console dispute (open)');
    await fitsWidth(page, 'console dispute');
    await page.screenshot({ path: join(cmd.outDir, 'console-dispute-open.png'), fullPage: true });
    // the arbiter (operator, x-admin-key, not routed by the gateway) resolves it: the outcome shows, no more form
    const resolved = await fetch(`${k.mandateServiceUrl}/admin/v1/disputes/${k.mandateId}/resolve`, { method: 'POST',
      headers: { 'x-admin-key': k.adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({ to_counterparty: '0', to_proposer: '0', note: 'settled between the parties ' + k.scope }) });
    check(resolved.status === 200, `the arbiter resolves the dispute (${resolved.status})`);
    await page.goto(`${k.consoleUrl}/mandates/${k.mandateId}/dispute`);
    check((await page.locator('#case-status').textContent()) === 'resolved', 'the case is resolved');
    check(((await page.locator('#outcome').textContent()) || '').includes('Resolved by the arbiter'), 'the outcome is shown');
    check((await page.locator('#outcome-note').textContent()) === 'settled between the parties ' + k.scope, 'the note is shown as text');
    check(await page.locator('#evidence-form').count() === 0, 'a resolved case takes no more evidence');
    await axe(page, 'console dispute (resolved)');
  }
  await page.screenshot({ path: join(cmd.outDir, 'console-dispute.png'), fullPage: true });
  if (result.disputeCases) await readmeShot(page, 'console-dispute');

  // a mandate's budget: spent, reserved, remaining, and its charges linking to their payment pages
  const b = k.budget;
  await page.goto(`${k.consoleUrl}/mandates/${b.mandateId}`);
  const num = async (sel) => Number((await page.locator(sel).textContent()).trim());
  check((await num('#budget-spent')) === 0.25, 'budget: 0.25 spent (the paid charge)');
  check((await num('#budget-reserved')) === 0.25, 'budget: 0.25 reserved (the open charge)');
  check((await num('#budget-remaining')) === 0.5, 'budget: 0.5 remaining');
  check(Number(await page.locator('#budget-used').getAttribute('value')) === 0.5, 'budget meter: 0.5 used of 1');
  check((await page.locator(`tr[data-charge-id="${b.paidChargeId}"] .badge`).textContent()) === 'settled', 'the paid charge is settled');
  check((await page.locator(`tr[data-charge-id="${b.openChargeId}"] .badge`).textContent()) === 'pending', 'the open charge is pending');
  const chargeLink = page.locator(`tr[data-charge-id="${b.openChargeId}"] a`);
  check((await chargeLink.getAttribute('href')) === `/checkout/${b.openInvoiceId}`, "a charge links to its invoice's payment page");
  await axe(page, 'console budget');
  await page.screenshot({ path: join(cmd.outDir, 'console-budget.png'), fullPage: true });
  await fitsWidth(page, 'console budget');
  await readmeShot(page, 'console-budget');
  await Promise.all([page.waitForURL(`**/checkout/${b.openInvoiceId}`), chargeLink.click()]);
  check((await statusText(page)) === 'Awaiting payment', "the open charge's payment page awaits payment");

  // charts
  await page.goto(`${base}/console/charts`);
  check(((await page.locator('#volume').textContent()) || '').includes('base'), 'settled volume per day shows base');
  check(/%$/.test((await page.locator('#success-rate').textContent()).trim()), 'webhook success rate shown');
  check(/ms$/.test((await page.locator('#latency-p99').textContent()).trim()), 'webhook latency p99 shown');
  await axe(page, 'console charts');
  await fitsWidth(page, 'console charts');
  await page.screenshot({ path: join(cmd.outDir, 'console-charts.png'), fullPage: true });

  // sign out: the session is gone
  await Promise.all([page.waitForURL('**/console/login'), page.getByRole('button', { name: 'Sign out' }).click()]);
  await page.goto(`${base}/console/invoices`);
  check(new URL(page.url()).pathname === '/console/login', 'after signing out the console asks to sign in again');
  await ctx.close();
}

try {
  if (cmd.checkout) {
    const c = cmd.checkout;
    // the invoice that will expire: opened first, watched until the end without a reload
    const exp = await newPage();
    await exp.page.goto(`${base}/checkout/${c.expiringId}`);
    check((await statusText(exp.page)) === 'Awaiting payment', 'expiring invoice starts "Awaiting payment"');

    // the invoice to pay: server-rendered, headers, no wallet button without a wallet
    const { ctx, page } = await newPage();
    const resp = await page.goto(`${base}/checkout/${c.paidId}`);
    const h = resp.headers();
    check(resp.status() === 200, 'checkout page answers 200');
    check(/script-src 'self'/.test(h['content-security-policy'] || '') && !/unsafe-inline/.test(h['content-security-policy']),
      'strict CSP without inline script');
    check(/frame-ancestors 'none'/.test(h['content-security-policy'] || ''), "CSP frame-ancestors 'none'");
    check(h['referrer-policy'] === 'no-referrer', 'Referrer-Policy: no-referrer');
    check((await statusText(page)) === 'Awaiting payment', 'pending invoice says "Awaiting payment"');
    check((await page.locator('#amount').textContent()) === c.amount, 'amount shown');
    check((await page.locator('#address').inputValue()).toLowerCase() === c.address.toLowerCase(), 'payment address shown');
    check((await page.locator('#description').textContent()) === c.description, 'description shown as text (markup not interpreted)');
    check(await page.locator('.qr svg path').count() === 1, 'QR code of the payment URI drawn');
    check((await page.locator('#wallet-link').getAttribute('href')) === c.paymentUri, 'wallet link is the payment URI');
    check(await page.locator('button.copy[data-copy=address]').isVisible(), 'copy button shown with JavaScript');
    check(!(await page.locator('#wallet-pay').isVisible()), 'no browser wallet: no wallet button');
    check(/left\)$/.test(await page.locator('#countdown').textContent()), 'countdown runs');
    await fitsWidth(page, 'checkout');
    await axe(page, 'checkout (pending)');
    await page.screenshot({ path: join(cmd.outDir, 'checkout-pending.png'), fullPage: true });

    // pay on the local chain from the test; the page turns "Paid" without a reload
    const chain = viem.defineChain({ id: Number(c.payment.chainId), name: 'local', nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [c.payment.rpc] } } });
    const account = privateKeyToAccount(c.payment.privateKey);
    const wallet = viem.createWalletClient({ account, chain, transport: viem.http(c.payment.rpc) });
    const reader = viem.createPublicClient({ chain, transport: viem.http(c.payment.rpc) });
    const navigations = [];
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations.push(f.url()); });
    const hash = await wallet.writeContract({ address: c.payment.usdc, abi: viem.parseAbi(['function transfer(address to, uint256 amount) returns (bool)']),
      functionName: 'transfer', args: [c.address, BigInt(c.atomic)] });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    const mined = Date.now();
    check(receipt.status === 'success', 'payment mined');
    // beside the page, the API itself (diagnostics: how much of the time was the settlement pipeline)
    let apiSettled = null;
    const apiWatch = (async () => {
      while (apiSettled === null && Date.now() - mined < 60000) {
        const j = await (await fetch(`${base}/v1/invoices/${c.paidId}/pay`, { cache: 'no-store' })).json().catch(() => null);
        if (j && j.data && j.data.status === 'SETTLED') apiSettled = Date.now() - mined;
        else await new Promise((ok) => setTimeout(ok, 100));
      }
    })();
    const shown = await page.waitForFunction(() => document.getElementById('status-text').textContent === 'Paid', null,
      { timeout: c.paidWithinMs || 3000, polling: 100 }).then(() => true, () => false);
    result.timings.paidAfterBlockMs = Date.now() - mined;
    await apiWatch;
    result.timings.apiSettledAfterBlockMs = apiSettled;
    check(shown, `"Paid" within ${(c.paidWithinMs || 3000) / 1000} s of the confirming block (the page said "${await statusText(page)}"; the API said SETTLED `
      + `${apiSettled === null ? 'not within 60 s' : apiSettled + ' ms after the block'})`);
    check(navigations.length === 0, 'no reload or navigation while the status changed');
    check(((await page.locator('#status-tx').textContent()) || '').toLowerCase().includes(hash.toLowerCase()), 'transaction shown');
    check(((await page.locator('#tx-link').getAttribute('href')) || '').toLowerCase().endsWith(hash.toLowerCase()), 'transaction link');
    result.txHash = hash;
    await axe(page, 'checkout (paid)');
    await page.screenshot({ path: join(cmd.outDir, 'checkout-paid.png'), fullPage: true });
    await readmeShot(page, 'checkout-paid');
    await ctx.close();

    // JavaScript off: the essentials are in the HTML
    const off = await newPage({ javaScriptEnabled: false });
    await off.page.goto(`${base}/checkout/${c.paidId}`);
    check((await statusText(off.page)) === 'Paid', 'JavaScript off: status rendered by the server');
    check((await off.page.locator('#address').inputValue()).toLowerCase() === c.address.toLowerCase(), 'JavaScript off: address');
    check(await off.page.locator('.qr svg').count() === 1, 'JavaScript off: QR code');
    await off.page.screenshot({ path: join(cmd.outDir, 'checkout-no-js.png'), fullPage: true });
    await off.ctx.close();

    // an injected EIP-1193 wallet: the button appears and sends USDC transfer(address, amount)
    const w = await newPage();
    await w.ctx.addInitScript(() => {
      window.__calls = [];
      window.ethereum = { request: async ({ method, params }) => {
        window.__calls.push({ method, params });
        if (method === 'eth_requestAccounts') return ['0x00000000000000000000000000000000000000aa'];
        if (method === 'eth_chainId') return '0x1';
        if (method === 'wallet_switchEthereumChain') return null;
        if (method === 'eth_sendTransaction') return '0x' + 'ab'.repeat(32);
        throw new Error('unsupported ' + method);
      } };
    });
    await w.page.goto(`${base}/checkout/${c.walletId}`);
    check(await w.page.locator('#wallet-pay').isVisible(), 'injected wallet: "Pay with browser wallet" shown');
    await w.page.locator('#wallet-pay').click();
    await w.page.waitForFunction(() => /^Sent: /.test(document.getElementById('wallet-feedback').textContent), null, { timeout: 5000 });
    const calls = await w.page.evaluate(() => window.__calls);
    const send = calls.find((x) => x.method === 'eth_sendTransaction');
    check(calls.some((x) => x.method === 'wallet_switchEthereumChain'), 'wallet asked to switch to the invoice chain');
    check(send && send.params[0].to.toLowerCase() === c.payment.usdc.toLowerCase(), 'wallet transaction goes to the USDC contract');
    check(send && send.params[0].data === '0xa9059cbb' + c.walletAddress.toLowerCase().slice(2).padStart(64, '0')
      + BigInt(c.walletAtomic).toString(16).padStart(64, '0'), 'wallet transaction is transfer(invoice address, amount)');
    await w.page.screenshot({ path: join(cmd.outDir, 'checkout-wallet.png'), fullPage: true });
    await w.ctx.close();

    // unknown invoice: a 404 page
    const nf = await newPage();
    const r404 = await nf.page.goto(`${base}/checkout/00000000-0000-4000-8000-000000000000`);
    check(r404.status() === 404, 'unknown invoice: 404 page');
    await nf.ctx.close();

    expiring = exp;
  }

  if (cmd.console) await consoleJourney(cmd.console);
  if (cmd.console && cmd.console.oauth) await oauthJourney(cmd.console, cmd.console.oauth);

  if (cmd.checkout) {
    const c = cmd.checkout;
    const exp = expiring;
    // the expiring invoice turns "Expired" without a reload
    await exp.page.waitForFunction(() => document.getElementById('status-text').textContent === 'Expired', null,
      { timeout: c.expireWithinMs, polling: 250 });
    check(true, 'expired invoice turns "Expired" without a reload');
    await axe(exp.page, 'checkout (expired)');
    await exp.page.screenshot({ path: join(cmd.outDir, 'checkout-expired.png'), fullPage: true });
    await exp.ctx.close();
  }
  check(dialogs.length === 0, `no dialog opened (${dialogs.join(', ')})`);
  result.ok = true;
} catch (e) {
  result.ok = false;
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(result.ok ? 0 : 1);
