// Personal data by its shape and its check digits: e-mail addresses, phone numbers (libphonenumber-js,
// Google's libphonenumber metadata), card numbers (Luhn), IBANs (mod 97), government ids whose
// format or check digit a rule knows (US SSN, UK NI, Indian PAN and Aadhaar, Korean RRN, Italian
// codice fiscale, Brazilian CPF) and public IP addresses. Names and street addresses need a
// language model to find; they are not detected (docs/privacy.md says what that misses).
import { isIPv6 } from 'node:net';
import { findNumbers, type CountryCode } from 'libphonenumber-js/max';

export interface Span {
  type: string;
  start: number;
  end: number;
}

function* matches(text: string, re: RegExp): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) yield m;
}

const EXAMPLE_DOMAIN =
  /(?:^|\.)(?:example\.(?:com|org|net)|[a-z0-9-]+\.(?:test|invalid|example|localhost))$|gserviceaccount\.com$|noreply/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b/g;

function emails(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, EMAIL)) {
    const domain = m[0].slice(m[0].indexOf('@') + 1);
    const before = text.slice(Math.max(0, m.index - 8), m.index);
    if (EXAMPLE_DOMAIN.test(domain) || /UID:\s*$|git$/.test(before) || m[0].startsWith('git@')) continue;
    out.push({ type: 'email', start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Phone numbers: international ones anywhere; national ones of the countries the traffic comes from. */
const PHONE_COUNTRIES: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'BR', 'RU', 'KR', 'IN', 'CN', 'JP'];

const PHONE_WORDS =
  /(?:tel|phone|call|mobile|cell|whatsapp|fone|contact|телефон|тел|전화|휴대폰|电话|手机|cel|cellulare|número)[^\n]{0,12}$/i;

/**
 * libphonenumber finds every digit run that a numbering plan allows; the ones written as people
 * write phones are kept: international (+…) or grouped numbers, not dates ("2026-04-15"), decimals
 * ("53.5351118"), IP addresses or columns ("56814  2"); a bare run of digits only after a phone word.
 */
function phoneShaped(raw: string, text: string, start: number): boolean {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 7) return false;
  if (/^(?:19|20)\d\d[-/.]|\d\.\d{4,}|\d+\.\d+\.\d+|\s{2,}|^\d{1,3}\.\d{1,3}\./.test(raw)) return false;
  // Inside a longer token (a UUID, an id in a URL) or ending in a lone digit ("7664790 8"): not a phone.
  if (/^(?:[A-Za-z0-9_]|\.\d|-[A-Za-z0-9])/.test(text.slice(start + raw.length, start + raw.length + 2))) return false;
  if (/[A-Za-z0-9_./-]/.test(text[start - 1] ?? '') || /[ -]\d$/.test(raw)) return false;
  if (/^\d+$/.test(raw)) return PHONE_WORDS.test(text.slice(Math.max(0, start - 24), start));
  return true;
}

/** Digit runs that could be a phone number: libphonenumber reads only these, not the whole text. */
const PHONE_CANDIDATE = /(?:\+|\()?\d[\d \t().\-/]{5,22}\d/g;

function phones(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, PHONE_CANDIDATE)) {
    // International numbers first; otherwise the first country whose plan reads the run as valid.
    for (const country of [undefined, ...PHONE_COUNTRIES]) {
      const found = findNumbers(m[0], { defaultCountry: country, v2: true }).filter((f) => {
        const start = m.index + f.startsAt;
        return f.number.isValid() && phoneShaped(text.slice(start, m.index + f.endsAt), text, start);
      });
      for (const f of found) out.push({ type: 'phone', start: m.index + f.startsAt, end: m.index + f.endsAt });
      if (found.length > 0) break;
    }
  }
  return out;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const CARD = /(?<![\d.-])(?:\d[ -]?){12,18}\d(?![\d.-])/g;
const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9])|35|30[0-5]|36|38)/;

function cards(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, CARD)) {
    const digits = m[0].replace(/[ -]/g, '');
    const grouped = m[0] !== digits;
    // Written with separators, a card is in groups (4-4-4-4, 4-6-5); written solid, its prefix must be a card network's.
    if (grouped && !/^\d{4}([ -])\d{4,6}\1\d{4,5}(?:\1\d{1,4})?$/.test(m[0])) continue;
    if (!CARD_PREFIX.test(digits) || !luhn(digits)) continue;
    const before = text.slice(Math.max(0, m.index - 24), m.index);
    if (!grouped && /(?:time|ts|at|epoch|order|id|seq|#)["']?\s*[:=]?\s*["']?$/i.test(before)) continue;
    out.push({ type: 'card_number', start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;

function ibanValid(s: string): boolean {
  const v = s.replace(/ /g, '');
  if (v.length < 15 || v.length > 34) return false;
  const moved = v.slice(4) + v.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const n = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of n) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}

function ibans(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, IBAN)) if (ibanValid(m[0])) out.push({ type: 'iban', start: m.index, end: m.index + m[0].length });
  return out;
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

function verhoeff(digits: string): boolean {
  let c = 0;
  for (let i = 0; i < digits.length; i++) c = VERHOEFF_D[c][VERHOEFF_P[i % 8][digits.charCodeAt(digits.length - 1 - i) - 48]];
  return c === 0;
}

function cpfValid(s: string): boolean {
  const d = s.replace(/\D/g, '');
  if (/^(\d)\1+$/.test(d)) return false;
  const check = (n: number) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (d.charCodeAt(i) - 48) * (n + 1 - i);
    const r = (sum * 10) % 11;
    return (r === 10 ? 0 : r) === d.charCodeAt(n) - 48;
  };
  return check(9) && check(10);
}

function rrnValid(s: string): boolean {
  const d = s.replace('-', '');
  const w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (d.charCodeAt(i) - 48) * w[i];
  return (11 - (sum % 11)) % 10 === d.charCodeAt(12) - 48;
}

const GOV_IDS: Array<{ re: RegExp; valid?: (s: string) => boolean }> = [
  { re: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  { re: /\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g },
  { re: /\b[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]\b/g },
  { re: /\b[2-9]\d{3} \d{4} \d{4}\b/g, valid: (s) => verhoeff(s.replace(/ /g, '')) },
  { re: /\b\d{6}-[1-8]\d{6}\b/g, valid: rrnValid },
  { re: /\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b/g },
  { re: /\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g, valid: cpfValid },
];

function govIds(text: string): Span[] {
  const out: Span[] = [];
  for (const { re, valid } of GOV_IDS)
    for (const m of matches(text, re)) if (!valid || valid(m[0])) out.push({ type: 'gov_id', start: m.index, end: m.index + m[0].length });
  return out;
}

const IPV4 = /(?<![\d.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?![\d.])/g;
const PRIVATE_V4 =
  /^(?:10\.|127\.|0\.|169\.254\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|192\.0\.2\.|198\.51\.100\.|203\.0\.113\.|2[2-5]\d\.)/;
const IPV6 = /(?<![:\w])(?:[0-9a-f]{1,4}:){1,7}:?(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?(?![:\w])/gi;

function ips(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, IPV4)) {
    // Versions ("v1.2.3.4"), hostnames ("ip-3-4-5-6") and private ranges are not people's addresses.
    const before = text[m.index - 1] ?? '';
    if (PRIVATE_V4.test(m[0]) || /[vV-]/.test(before)) continue;
    out.push({ type: 'ip_address', start: m.index, end: m.index + m[0].length });
  }
  for (const m of matches(text, IPV6)) {
    if (!isIPv6(m[0]) || /^(?:fe80|fc|fd|2001:db8|::1$)/i.test(m[0]) || m[0].split(':').length < 4) continue;
    out.push({ type: 'ip_address', start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The personal-data spans of `text`, before overlaps are resolved. */
export function personalSpans(text: string): Span[] {
  return [...emails(text), ...cards(text), ...ibans(text), ...govIds(text), ...phones(text), ...ips(text)];
}
