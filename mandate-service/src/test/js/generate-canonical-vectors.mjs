#!/usr/bin/env node
// Canonical mandate signing: the JavaScript reference and the test-vector generator.
//
// The reference is what a JavaScript partner runs (canonicalMandate below). The generator builds
// deterministic vectors from a seeded PRNG and writes them to
//   <outDir>/vectors.json  mandates: input fields, terms as raw JSON text, canonical text, HMAC, hash
//   <outDir>/numbers.json  number texts and doubles with what JSON.stringify / String() print
// outDir defaults to ../resources/canonical next to this script. Plain Node 20, no dependencies.
// CanonicalVectorsDriftTest re-runs this script and requires byte-identical output.
//
//   node mandate-service/src/test/js/generate-canonical-vectors.mjs [outDir]

import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------------------------
// Reference canonicalizer: what a JavaScript partner computes.

export function sortKeysDeep(value) {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep(value[key]);
    return out;
  }
  return value;
}

export function canonicalMandate({ counterparty_agent_id, expires_at, id, proposer_agent_id, scope, terms }) {
  return JSON.stringify({
    counterparty_agent_id,
    expires_at: new Date(expires_at).toISOString(),
    id,
    proposer_agent_id,
    scope,
    terms: sortKeysDeep(terms),
  });
}

export function signMandate(canonical, secret) {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(canonical, 'utf8')).digest('hex');
}

export function mandateHash(canonical) {
  return '0x' + createHash('sha256').update(Buffer.from(canonical, 'utf8')).digest('hex');
}

// A second canonicalizer written differently (defineProperty, no assignment): both must agree on
// every vector, which keeps keys such as "__proto__" (where they would not) out of the data.
function sortKeysDeepDefine(value) {
  if (Array.isArray(value)) return value.map(sortKeysDeepDefine);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      Object.defineProperty(out, key, { value: sortKeysDeepDefine(value[key]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness (sfc32).

const SEED = 0x5eed_2025;

function sfc32(a, b, c, d) {
  return function next() {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
}

const u32 = sfc32(SEED, 0x9e3779b9, 0x243f6a88, 0xb7e15162);
for (let i = 0; i < 32; i++) u32();
const rnd = () => u32() / 4294967296;
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // inclusive
const pick = (xs) => xs[int(0, xs.length - 1)];
const chance = (p) => rnd() < p;

// ---------------------------------------------------------------------------------------------
// JSON text construction. A "tree" is {o: [[keyString, tree], ...]} (duplicates allowed),
// {a: [tree, ...]}, {s: string}, {n: numberText}, or {lit: 'true'|'false'|'null'}.

const WS = [' ', '\t', '\n', '\r', '  ', '\r\n'];
function ws(style) {
  return style.spaced && chance(0.3) ? pick(WS) : '';
}

function hex4(code, upper) {
  const h = code.toString(16).padStart(4, '0');
  return upper ? h.toUpperCase() : h;
}

// Writes s as a JSON string literal, choosing among the equivalent spellings JSON allows.
function stringText(s, style) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i];
    const escapeIt = style.escapes && chance(0.15);
    if (ch === '"') out += escapeIt ? '\\u0022' : '\\"';
    else if (ch === '\\') out += escapeIt ? '\\u005C' : '\\\\';
    else if (ch === '/' && escapeIt) out += '\\/';
    else if (c < 0x20) {
      const short = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' }[c];
      out += short && !escapeIt ? short : '\\u' + hex4(c, chance(0.5));
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
      if (pair && !escapeIt) { out += s[i] + s[i + 1]; i++; }
      else if (pair) { out += '\\u' + hex4(c, chance(0.5)) + '\\u' + hex4(s.charCodeAt(i + 1), chance(0.5)); i++; }
      else out += '\\u' + hex4(c, chance(0.5)); // a lone surrogate travels as an escape
    } else out += escapeIt ? '\\u' + hex4(c, chance(0.5)) : ch;
  }
  return out + '"';
}

function render(tree, style, depth = 0) {
  if (tree.o) {
    if (tree.o.length === 0) return '{' + ws(style) + '}';
    return '{' + tree.o.map(([k, v]) => ws(style) + stringText(k, style) + ws(style) + ':' + ws(style) + render(v, style, depth + 1) + ws(style)).join(',') + '}';
  }
  if (tree.a) {
    if (tree.a.length === 0) return '[' + ws(style) + ']';
    return '[' + tree.a.map((v) => ws(style) + render(v, style, depth + 1) + ws(style)).join(',') + ']';
  }
  if ('s' in tree) return stringText(tree.s, style);
  if ('n' in tree) return tree.n;
  return tree.lit;
}

// ---------------------------------------------------------------------------------------------
// Numbers.

const SPECIAL_NUMBERS = [
  '0', '-0', '-0.0', '0.0', '0e0', '-0e-5', '1', '-1', '10', '100', '1e2', '1E2', '1e+2', '1.0', '1.50', '-1.50',
  '0.1', '0.2', '0.3', '0.30000000000000004', '0.1e1', '19.99', '1999.990', '0.000001', '0.0000001', '1e-6', '1e-7',
  '1.5e-7', '-1.5e-7', '123e-20', '1e20', '1e21', '1e+21', '1E21', '-1e21', '999999999999999999999',
  '100000000000000000000', '123456789012345678901234', '12345678901234567890', '9007199254740991',
  '9007199254740992', '9007199254740993', '9007199254740995', '-9007199254740993', '18446744073709551616',
  '5e-324', '-5e-324', '4.9406564584124654e-324', '2.4703282292062327e-324', '2.4703282292062328e-324',
  '2.2250738585072014e-308', '2.2250738585072011e-308', '1.7976931348623157e308', '-1.7976931348623157e308',
  '1.7976931348623158e308', '1.7976931348623159e308', '1e308', '1e309', '1e400', '-1e400', '1e-400', '-1e-400',
  '2e23', '1e23', '8.41e21', '2.82879384806159E17', '4.35E-6', '5.0E-324', '0.1000000000000000055511151231257827',
  '3.141592653589793238462643383279', '2.718281828459045', '1.7976931348623157e+308', '0.000123456789e3',
  '12345678901234567e-5', '4294967295', '4294967296', '1e-1', '11e-1', '1.23456789e-7', '123456.789e-11',
  '0.00000000000000000000000000000000000000001', '100000000000000000000000000000000000000000',
];

function randomDouble() {
  const dv = new DataView(new ArrayBuffer(8));
  for (;;) {
    dv.setUint32(0, u32());
    dv.setUint32(4, u32());
    const x = dv.getFloat64(0);
    if (Number.isFinite(x)) return x;
  }
}

function bitsHex(x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  return dv.getUint32(0).toString(16).padStart(8, '0') + dv.getUint32(4).toString(16).padStart(8, '0');
}

// Exact decimal text of the midpoint between x (finite, > 0) and the next double up: the hardest
// round-half-even inputs for a parser.
function midpointText(x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e;
  if (expBits === 0) e = -1074; else { mant |= 1n << 52n; e = expBits - 1075; }
  const num = 2n * mant + 1n; // midpoint = num * 2^(e-1)
  const p = e - 1;
  if (p >= 0) return (num << BigInt(p)).toString();
  const digits = (num * 5n ** BigInt(-p)).toString(); // value = digits * 10^p
  return digits + 'e' + p;
}

function numberText() {
  const r = rnd();
  if (r < 0.2) return pick(SPECIAL_NUMBERS);
  if (r < 0.35) return String(int(-1000, 100000));
  if (r < 0.45) return (chance(0.5) ? '-' : '') + int(1, 99999999) + '.' + String(int(0, 99)).padStart(2, '0');
  if (r < 0.55) return String(int(1, 9)) + (chance(0.5) ? '.' + int(0, 999999) : '') + pick(['e', 'E']) + pick(['', '+', '-']) + int(0, 330);
  if (r < 0.65) {
    const a = pick([0.1, 0.2, 0.7, 1.1, 3.3, 100.01, 19.99]);
    const b = pick([0.2, 0.1, 0.3, 2.2, 0.07, 1e-3]);
    return String(pick([a + b, a * b, a - b, a / b]));
  }
  const x = randomDouble();
  const k = rnd();
  if (k < 0.4) return String(x);
  if (k < 0.6) return x.toExponential(int(0, 25));
  if (k < 0.8) return x.toPrecision(int(1, 40));
  return (x < 0 ? '-' : '') + midpointText(Math.abs(x));
}

// ---------------------------------------------------------------------------------------------
// Strings and keys.

const CHAR_POOL = [
  'a', 'b', 'z', 'A', 'Z', '0', '9', ' ', '_', '-', '.', '/', '"', '\\', "'", '<', '>', '&', '{', '}', '[', ']', ':',
  '\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\u000b', '\f', '\r', '\u001b', '\u001f', '\u007f', '\u0080',
  '\u00a0', '\u00e9', 'e\u0301', '\u00f1', '\u00df', '\u2028', '\u2029', '\u200b', '\u200d', '\ufeff', '\ufffd',
  '\uffff', '\u4e2d', '\u6587', '\u0416', '\u05d0', '\u0627', '\u20ac', '\u{1f600}', '\u{1f468}\u200d\u{1f469}',
  '\u{10348}', '\u{1d11e}', '\u{10ffff}', '\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800',
];

function randomString(maxLen) {
  const n = int(0, maxLen);
  let s = '';
  for (let i = 0; i < n; i++) s += chance(0.5) ? pick('abcdefghijklmnopqrstuvwxyz0123456789 '.split('')) : pick(CHAR_POOL);
  return s;
}

const KEY_POOL = [
  '', 'a', 'A', 'b', 'B', 'Z', '_', 'aa', 'ab', 'a b', 'amount', 'Amount', 'currency', 'price', 'items', 'meta',
  '0', '1', '2', '9', '10', '11', '42', '100', '01', '00', '-1', '-0', '1.5', '1e3', ' 1', '4294967294',
  '4294967295', '4294967296', '9007199254740993', '\u00e9', 'e\u0301', 'z\u00e9', '\u4e2d', '\u{1f600}', '\uffff',
  '\ufeff', '\u2028', 'a"b', 'a\\b', 'tab\tkey', 'line\nkey', '\u0000', '\u001f', 'key\u007f', '\ud800', '\udfff',
  'proto', '__proto', 'constructor', 'toString', 'hasOwnProperty', 'valueOf',
];

function randomKey() {
  return chance(0.7) ? pick(KEY_POOL) : randomString(8);
}

function randomTree(depth) {
  const r = rnd();
  const containers = depth < 6 ? 0.35 : 0.05;
  if (r < containers / 2) return randomObject(depth + 1);
  if (r < containers) return { a: Array.from({ length: int(0, 5) }, () => randomTree(depth + 1)) };
  const leaf = rnd();
  if (leaf < 0.4) return { n: numberText() };
  if (leaf < 0.8) return { s: randomString(12) };
  return { lit: pick(['true', 'false', 'null']) };
}

function randomObject(depth) {
  const n = int(0, 7);
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push([randomKey(), randomTree(depth)]);
  if (n > 0 && chance(0.1)) pairs.push([pick(pairs)[0], randomTree(depth)]); // duplicate key: last wins
  return { o: pairs };
}

// ---------------------------------------------------------------------------------------------
// Timestamps in the ISO format JsDate.parse accepts (and every engine reads the same way).

const MIN_MS = -8.64e15;
const MAX_MS = 8.64e15;

function yearText(y) {
  if (y >= 0 && y <= 9999) return String(y).padStart(4, '0');
  return (y < 0 ? '-' : '+') + String(Math.abs(y)).padStart(6, '0');
}

function isoInput(ms, offsetMinutes, form) {
  const local = new Date(ms + offsetMinutes * 60000);
  const pad = (v, w = 2) => String(v).padStart(w, '0');
  let year = local.getUTCFullYear();
  let s = (form.expandYear && year >= 0 && year <= 9999 ? (year < 0 ? '-' : '+') + String(year).padStart(6, '0') : yearText(year))
    + '-' + pad(local.getUTCMonth() + 1) + '-' + pad(local.getUTCDate());
  if (form.dateOnly) return s;
  s += 'T' + pad(local.getUTCHours()) + ':' + pad(local.getUTCMinutes());
  if (!form.noSeconds) {
    s += ':' + pad(local.getUTCSeconds());
    if (form.fraction > 0) s += '.' + (pad(local.getUTCMilliseconds(), 3) + form.extra).slice(0, form.fraction);
  }
  if (offsetMinutes === 0 && !form.zeroOffset) return s + 'Z';
  const sign = offsetMinutes < 0 || (offsetMinutes === 0 && form.negativeZero) ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return s + sign + pad(Math.floor(abs / 60)) + ':' + pad(abs % 60);
}

function randomExpiry() {
  const r = rnd();
  let ms;
  if (r < 0.7) ms = Date.UTC(2025, 0, 1) + Math.floor(rnd() * 5 * 365 * 86400000);
  else if (r < 0.85) ms = Math.floor((rnd() * 2 - 1) * 4102444800000); // 1840..2100
  else if (r < 0.95) ms = Math.floor((rnd() * 2 - 1) * MAX_MS * 0.999); // expanded years
  else ms = pick([MIN_MS, MAX_MS, 0, -1, 1, 253402300799999, 253402300800000, -62167219200000, -62167219200001]);
  const form = {
    dateOnly: chance(0.05),
    noSeconds: chance(0.1),
    fraction: pick([0, 0, 1, 2, 3, 3, 3, 4, 6, 9]),
    extra: String(int(0, 999999)).padStart(6, '0'),
    zeroOffset: chance(0.1),
    negativeZero: chance(0.3),
    expandYear: chance(0.05),
  };
  if (form.dateOnly) ms = Math.floor(ms / 86400000) * 86400000;
  if (form.noSeconds || form.dateOnly) ms = Math.floor(ms / 60000) * 60000;
  let offset = chance(0.4) ? int(-23 * 60 - 59, 23 * 60 + 59) : (chance(0.5) ? pick([60, -300, 330, 345, -570, 840, -720]) : 0);
  if (form.dateOnly) offset = 0;
  // Keep the local wall-clock time inside the expressible range too.
  const local = ms + offset * 60000;
  if (local < MIN_MS || local > MAX_MS) offset = 0;
  return isoInput(ms, offset, form);
}

// ---------------------------------------------------------------------------------------------
// Vectors.

function uuid() {
  const h = () => u32().toString(16).padStart(8, '0');
  const a = h() + h() + h() + h();
  return `${a.slice(0, 8)}-${a.slice(8, 12)}-4${a.slice(13, 16)}-${'89ab'[u32() % 4]}${a.slice(17, 20)}-${a.slice(20, 32)}`;
}

function agentId() {
  const r = rnd();
  if (r < 0.7) return 'agt_' + uuid();
  if (r < 0.85) return pick(['agent-alpha', 'buyer.bot', 'Seller #7', 'did:web:example.com', 'a', '']);
  return randomString(10);
}

function secret() {
  const r = rnd();
  if (r < 0.6) return 'whsec_' + Array.from({ length: 8 }, () => u32().toString(16).padStart(8, '0')).join('');
  if (r < 0.8) return Buffer.from(Array.from({ length: 32 }, () => u32() & 0xff)).toString('base64');
  if (r < 0.9) return pick(['s', 'secret', 'p\u00e4ssw\u00f6rt-\u{1f511}', 'tab\tand\nnewline', '\u4e2d\u6587\u5bc6\u94a5']);
  return 'x'.repeat(int(65, 200)); // longer than the SHA-256 block: hashed into the key
}

const SCOPES = ['purchase', 'data-access', 'compute:run', 'payments.write payments.read', 'r\u00e9servation', '', 'scope "quoted"', 'line\nbreak', '\u{1f916} tasks'];

function fixedTerms() {
  // Depth counts the terms object as level 1; 32 levels is the most the service accepts.
  const nest = (d) => (d === 1 ? '{"leaf":true}' : `{"d${d}":${nest(d - 1)},"a":[${d}]}`);
  let deepArray = '0';
  for (let i = 0; i < 31; i++) deepArray = '[' + deepArray + ']';
  return [
    ['empty object', '{}'],
    ['flat sorted keys', '{"b":2,"a":1,"c":3}'],
    ['whitespace everywhere', ' \n\t{ "b" :\r\n 2 , "a":[ 1 , 2 ] }\n '],
    ['nested objects', '{"z":{"y":{"x":{"w":1,"v":2},"u":[]},"t":{}},"a":{"c":3,"b":2}}'],
    ['arrays keep order', '{"list":[3,1,2,"b","a",null,true,false,{"b":1,"a":2},[2,1]]}'],
    ['empty and nested arrays', '{"e":[],"n":[[],[[]],[[[1]]]],"o":[{}]}'],
    ['array index keys first numerically', '{"b":1,"10":2,"2":3,"a":4,"1":5,"0":6}'],
    ['index-like keys that are not indices', '{"01":1,"-1":2,"1.5":3,"4294967295":4,"4294967294":5,"4294967296":6,"1e3":7," 1":8,"9":9}'],
    ['code unit order of astral vs BMP', '{"\uffff":1,"\u{1f600}":2,"\u00e9":3,"e\u0301":4,"E":5,"":6}'],
    ['upper before lower', '{"b":1,"B":2,"a":3,"A":4,"_":5,"Z":6}'],
    ['duplicate keys last wins', '{"a":1,"b":2,"a":3,"c":{"x":1,"x":{"y":2}}}'],
    ['keys needing escapes', '{"a\\"b":1,"a\\\\b":2,"tab\\tkey":3,"nl\\nkey":4,"\\u0000":5,"\\u001f":6,"\\u007f":7}'],
    ['escapes in values', '{"s":"quote\\" backslash\\\\ slash\\/ \\b\\f\\n\\r\\t \\u0000\\u0001\\u001F\\u007f"}'],
    ['unicode escapes decoded', '{"s":"\\u00e9\\u4E2D\\ud83d\\ude00\\u2028\\u2029\\uFEFF"}'],
    ['raw unicode', '{"bmp":"\u00e9\u4e2d\u6587\u0416","astral":"\u{1f600}\u{10348}\u{1d11e}","combining":"e\u0301 a\u0308 \u{1f468}\u200d\u{1f469}","separators":"\u2028\u2029"}'],
    ['lone surrogates via escapes', '{"hi":"\\ud800","lo":"\\udfff","reversed":"\\udc00\\ud800","mixed":"a\\ud83db","\\udbff":"key"}'],
    ['empty strings', '{"":"","e":[""],"o":{"":{"":""}}}'],
    ['big and exponent numbers', '{"a":1e21,"b":1e20,"c":999999999999999999999,"d":123456789012345678901234,"e":1E+21,"f":-1e21}'],
    ['small numbers', '{"a":1e-7,"b":0.000001,"c":1.5e-7,"d":5e-324,"e":2.4703282292062328e-324,"f":2.4703282292062327e-324}'],
    ['float sums', `{"a":${0.1 + 0.2},"b":0.30000000000000004,"c":${1.1 * 1.1},"d":${0.7 + 0.1},"e":${3 * 1.1}}`],
    ['zeros', '{"a":0,"b":-0,"c":-0.0,"d":0.0e10,"e":-0e-10}'],
    ['limits', '{"max":1.7976931348623157e308,"maxPlus":1.7976931348623158e308,"inf":1e400,"ninf":-1e400,"under":1e-400,"min":2.2250738585072014e-308}'],
    ['beyond 2^53', '{"a":9007199254740993,"b":9007199254740995,"c":18446744073709551616,"d":-9007199254740993,"e":12345678901234567890}'],
    ['fractional amounts', '{"amount":19.99,"tax":1.50,"total":21.490,"rate":0.075,"qty":3}'],
    ['long decimal texts', '{"pi":3.141592653589793238462643383279,"tenth":0.1000000000000000055511151231257827,"half":0.50000000000000000000000000000001}'],
    ['literals', '{"t":true,"f":false,"n":null,"arr":[true,false,null]}'],
    ['prototype-looking keys', '{"constructor":1,"toString":2,"hasOwnProperty":3,"valueOf":4,"__proto":5,"proto__":6}'],
    ['depth 32 objects', nest(32)],
    ['depth 32 arrays', '{"deep":' + deepArray + '}'],
    ['mixed realistic', '{"currency":"USDC","amount":250.5,"deliverables":[{"name":"report","due":"2030-01-01"},{"name":"code","due":null}],"penalties":{"late_fee_pct":2.5,"cap":1000},"notes":"Zahlung bei Lieferung \u2013 \u{1f680}"}'],
  ];
}

const FIXED_EXPIRIES = [
  '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00Z', '2030-01-01T00:00Z', '2030-01-01', '2030-06-15T12:30:45.123456789Z',
  '2030-06-15T12:30:45.9999Z', '2030-06-15T12:30:45.1Z', '2030-06-15T12:30:45.12+02:00', '2030-06-15T00:30:00-05:30',
  '2030-01-01T00:00:00.000+23:59', '2030-01-01T00:00:00.000-23:59', '2030-01-01T00:00:00+00:00', '2030-01-01T00:00:00-00:00',
  '2029-12-31T23:59:59.999-00:01', '2024-02-29T12:00:00Z', '0000-01-01T00:00:00.000Z', '-000001-06-01T00:00:00Z',
  '+010000-01-01T00:00:00.000Z', '+002030-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T01:00:00.000+01:00', '1969-12-31T23:59:59.9999Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:00:00-01:00',
];

function makeVector(name, fields, termsText, secretValue) {
  const terms = JSON.parse(termsText);
  const input = { ...fields, terms };
  const canonical = canonicalMandate(input);
  const viaDefine = JSON.stringify({ ...JSON.parse(canonical), terms: sortKeysDeepDefine(terms) });
  if (viaDefine !== canonical) throw new Error(`canonicalizers disagree on ${name}`);
  const expiresIso = new Date(fields.expires_at).toISOString();
  return {
    name,
    counterparty_agent_id: fields.counterparty_agent_id,
    proposer_agent_id: fields.proposer_agent_id,
    id: fields.id,
    scope: fields.scope,
    expires_at: fields.expires_at,
    expires_at_iso: expiresIso,
    terms: termsText,
    canonical_terms: JSON.stringify(sortKeysDeep(terms)),
    canonical,
    secret: secretValue,
    hmac: signMandate(canonical, secretValue),
    mandate_hash: mandateHash(canonical),
  };
}

function randomFields(expiresAt) {
  return {
    counterparty_agent_id: agentId(),
    proposer_agent_id: agentId(),
    id: chance(0.9) ? 'mnd_' + uuid() : randomString(12),
    scope: chance(0.7) ? pick(SCOPES) : randomString(16),
    expires_at: expiresAt,
  };
}

function buildVectors() {
  const vectors = [];
  for (const [name, text] of fixedTerms()) {
    vectors.push(makeVector(name, randomFields(pick(FIXED_EXPIRIES)), text, secret()));
  }
  FIXED_EXPIRIES.forEach((expiry, i) => {
    vectors.push(makeVector(`expiry ${i}: ${expiry}`, randomFields(expiry), '{"n":' + i + '}', secret()));
  });
  vectors.push(makeVector('unicode and escapes in every field', {
    counterparty_agent_id: 'agt_\u00e9\u{1f600}"\\\n\u0000\u2028',
    proposer_agent_id: 'agt_\ud800 lone',
    id: 'mnd_\u4e2d\u6587',
    scope: 'tab\there \u001f \u007f /slash',
    expires_at: '2031-03-04T05:06:07.089+01:00',
  }, '{"k":"v"}', 'secret'));
  const styles = [{}, { spaced: true }, { escapes: true }, { spaced: true, escapes: true }];
  let i = 0;
  while (vectors.length < 400) {
    const style = pick(styles);
    const tree = randomObject(1);
    const text = (style.spaced && chance(0.5) ? pick(WS) : '') + render(tree, style) + (style.spaced && chance(0.5) ? pick(WS) : '');
    vectors.push(makeVector(`random ${i++}`, randomFields(randomExpiry()), text, secret()));
  }
  return vectors;
}

function buildNumbers() {
  const texts = [...SPECIAL_NUMBERS];
  for (let i = 0; i < 500; i++) {
    const x = randomDouble();
    texts.push(String(x), x.toPrecision(int(1, 40)), (x < 0 ? '-' : '') + midpointText(Math.abs(x)));
  }
  for (let i = 0; i < 400; i++) texts.push(numberText());
  for (let e = -330; e <= 310; e += 7) texts.push(`1e${e}`, `9.999999999999999e${e}`, `${int(1, 9)}.${int(0, 99999)}e${e}`);
  return texts.map((text) => {
    const x = JSON.parse(text);
    return { text, bits: bitsHex(x), json: JSON.stringify(x), string: String(x) };
  });
}

// ---------------------------------------------------------------------------------------------

function linesJson(header, items) {
  return '{\n' + Object.entries(header).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},\n`).join('')
    + '  "items": [\n' + items.map((it) => '    ' + JSON.stringify(it)).join(',\n') + '\n  ]\n}\n';
}

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(process.argv[2] ?? join(here, '..', 'resources', 'canonical'));
mkdirSync(outDir, { recursive: true });
const generator = 'mandate-service/src/test/js/generate-canonical-vectors.mjs';
const vectors = buildVectors();
const numbers = buildNumbers();
writeFileSync(join(outDir, 'vectors.json'), linesJson({
  generator, seed: SEED, count: vectors.length,
  reference: 'JSON.stringify({counterparty_agent_id, expires_at: new Date(expires_at).toISOString(), id, proposer_agent_id, scope, terms: sortKeysDeep(JSON.parse(terms))}); hmac = HMAC-SHA256(utf8(secret), utf8(canonical)) hex; mandate_hash = 0x + SHA-256 hex',
}, vectors), 'utf8');
writeFileSync(join(outDir, 'numbers.json'), linesJson({
  generator, seed: SEED, count: numbers.length,
  reference: 'x = JSON.parse(text); bits = IEEE-754 bits of x; json = JSON.stringify(x); string = String(x)',
}, numbers), 'utf8');
console.log(`wrote ${vectors.length} vectors and ${numbers.length} numbers to ${outDir}`);
