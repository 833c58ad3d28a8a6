// Shared by the x402 test clients: the request every call sends and an answer's headers as an object.
export const requestInit = (cmd) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(cmd.headers ?? {}) },
  body: cmd.body ?? '{}',
});

export function headersOf(res) {
  const out = {};
  res.headers.forEach((v, k) => { out[k] = v; });
  return out;
}
