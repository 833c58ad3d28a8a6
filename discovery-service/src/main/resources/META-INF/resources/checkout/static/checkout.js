// The payment page's script (no inline script anywhere: the page's CSP forbids it). Everything it shows
// goes through textContent or attributes, never markup.
//  - refreshes the status line from /checkout/{id}/status until the invoice is paid (no reload);
//  - counts down to expiresAt;
//  - copy buttons for the address and the memo;
//  - "Pay with browser wallet" only when an injected EIP-1193 wallet (window.ethereum) exists, EVM invoices only.
const root = document.getElementById('checkout');
const $ = (id) => document.getElementById(id);

if (root) {
  const id = root.dataset.invoiceId;
  const pollMs = Math.max(500, Number(root.dataset.pollMs) || 1000);
  let state = root.dataset.state;

  function show(s) {
    state = s.state;
    root.dataset.state = s.state;
    const box = $('status');
    box.className = 'status status-' + s.state;
    $('status-text').textContent = s.text;
    const detail = $('status-detail');
    detail.textContent = s.detail || '';
    detail.hidden = !s.detail;
    const txLine = $('status-tx');
    txLine.hidden = !s.txHash;
    if (s.txHash) {
      let link = $('tx-link');
      let code = $('tx-hash');
      if (s.txUrl) {
        if (!link) {
          link = document.createElement('a');
          link.id = 'tx-link';
          link.rel = 'noreferrer noopener';
          link.target = '_blank';
          if (code) code.remove();
          txLine.append(link);
        }
        link.href = s.txUrl;
        link.textContent = s.txHash;
      } else {
        if (!code) {
          code = document.createElement('code');
          code.id = 'tx-hash';
          txLine.append(code);
        }
        code.textContent = s.txHash;
      }
    }
    if (s.state !== 'pending' && s.state !== 'partial') {
      const pay = $('wallet-pay');
      if (pay) pay.hidden = true;
    }
  }

  async function poll() {
    try {
      const r = await fetch('/checkout/' + encodeURIComponent(id) + '/status', { cache: 'no-store', credentials: 'omit' });
      if (r.ok) show((await r.json()).data);
    } catch (e) {
      // offline for a moment: the next poll tries again
    }
    // a paid invoice is final; an expired one is still watched (slower) for a late payment
    if (state !== 'paid') setTimeout(poll, state === 'expired' || state === 'paid_late' ? pollMs * 5 : pollMs);
  }
  if (state !== 'paid') setTimeout(poll, pollMs);

  const expires = root.dataset.expiresAt ? Date.parse(root.dataset.expiresAt) : NaN;
  const countdown = $('countdown');
  function tick() {
    if (!countdown || Number.isNaN(expires)) return;
    const left = Math.max(0, Math.floor((expires - Date.now()) / 1000));
    if (state === 'pending' || state === 'partial') {
      const h = Math.floor(left / 3600);
      const m = Math.floor((left % 3600) / 60);
      const sec = left % 60;
      countdown.textContent = left > 0
        ? ' (' + (h > 0 ? h + ' h ' : '') + m + ' min ' + String(sec).padStart(2, '0') + ' s left)'
        : ' (time is up)';
    } else {
      countdown.textContent = '';
    }
  }
  tick();
  setInterval(tick, 1000);

  for (const b of document.querySelectorAll('button.copy')) {
    b.hidden = !navigator.clipboard;
    b.addEventListener('click', async () => {
      const field = $(b.dataset.copy);
      try {
        await navigator.clipboard.writeText(field.value);
        $('copy-feedback').textContent = 'Copied to the clipboard.';
      } catch (e) {
        field.select();
        $('copy-feedback').textContent = 'Select the text and copy it.';
      }
    });
  }

  const pay = $('wallet-pay');
  const eth = window.ethereum;
  if (pay && eth && typeof eth.request === 'function' && root.dataset.evm === 'true'
      && (state === 'pending' || state === 'partial')) {
    pay.hidden = false;
    pay.addEventListener('click', async () => {
      const feedback = $('wallet-feedback');
      try {
        const [from] = await eth.request({ method: 'eth_requestAccounts' });
        const chainHex = '0x' + BigInt(root.dataset.chainId).toString(16);
        if ((await eth.request({ method: 'eth_chainId' })) !== chainHex) {
          await eth.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: chainHex }] });
        }
        // ERC-20 transfer(address,uint256) of the invoice's amount to its own address
        const to = root.dataset.address.toLowerCase().replace(/^0x/, '').padStart(64, '0');
        const amount = BigInt(root.dataset.atomic).toString(16).padStart(64, '0');
        const hash = await eth.request({ method: 'eth_sendTransaction',
          params: [{ from, to: root.dataset.usdc, data: '0xa9059cbb' + to + amount }] });
        feedback.textContent = 'Sent: ' + hash + '. The status above changes when the payment is confirmed.';
      } catch (e) {
        feedback.textContent = 'The wallet did not send the payment' + (e && e.message ? ': ' + e.message : '.');
      }
    });
  }
}
