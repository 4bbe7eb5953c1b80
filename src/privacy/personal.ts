// Personal data by its shape and its check digits: e-mail addresses, card numbers (Luhn), IBANs
// (mod 97) and public IP addresses here; phone numbers in phones.ts (libphonenumber-js, Google's
// numbering-plan metadata), government ids in gov-ids.ts, the digit rules in check-digits.ts.
// Names and street addresses need a language model to find; they are not detected (docs/privacy.md
// says what that misses).
import { isIPv6 } from 'node:net';
import { ibanValid, luhn } from './check-digits.ts';
import { govIds } from './gov-ids.ts';
import { phones } from './phones.ts';
import { matches, type Span } from './spans.ts';

const EXAMPLE_DOMAIN =
  /\.tld$|^(?:domain|your-?domain|my-?domain|your-?company)\.(?:com|org|net)$|(?:^|\.)(?:example\.(?:com|org|net)|[a-z0-9-]+\.(?:test|invalid|example|localhost))$|gserviceaccount\.com$|^openssh\.com$|^mail\.gmail\.com$|(?:^|\.)calendar\.google\.com$|\.amazonaws\.com$|\.(?:internal|local|lan)$|noreply/i;
/** A file name, not an address: image density variants ("hero@2x.webp") and other file extensions as the "TLD". */
const FILE_DOMAIN = /^\d+(?:\.\d+)?x\.|\.(?:png|jpe?g|webp|gif|svg|avif|ico|css|json|mp4|webm|pdf|woff2?)$/i;
/** Mail headers that hold message ids ("Message-ID: <…@mail.gmail.com>"), not mailboxes. */
const MESSAGE_ID_HEADER = /^(?:Message-ID|In-Reply-To|References|Content-ID|Resent-Message-ID|X-[\w-]*Message-ID)[ \t]*:[^\n]*<$/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b/g;

function emails(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, EMAIL)) {
    const domain = m[0].slice(m[0].indexOf('@') + 1);
    const before = text.slice(Math.max(0, m.index - 8), m.index);
    if (EXAMPLE_DOMAIN.test(domain) || FILE_DOMAIN.test(domain) || /UID:\s*$|git$|cid:$/.test(before) || m[0].startsWith('git@')) continue;
    if (MESSAGE_ID_HEADER.test(text.slice(text.lastIndexOf('\n', m.index - 1) + 1, m.index))) continue;
    // A URL's user part ("https://x-access-token:ghp_…@github.com"), or a masked one ("XXXXX@", "*****@").
    if (
      /:\/\/[\w.~%!$&'()*+;=:-]*$/.test(text.slice(Math.max(0, m.index - 100), m.index)) ||
      /[xX*]{5,}/.test(m[0].slice(0, m[0].indexOf('@')))
    )
      continue;
    out.push({ type: 'email', start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const CARD = /(?<![\d.-])(?:\d[ -]?){12,18}\d(?![\d-]|\.\d)/g;
// Visa, Mastercard, Mir (2200–2204), Amex, Diners, JCB, Discover, Maestro and Elo (50, 56–69), UnionPay (62), Troy (9792).
const CARD_PREFIX = /^(?:4|5\d|2[2-7]|3[47]|6\d|35|30[0-5]|36|38|9792)/;

/** Whether a card number's length is one its network issues (Amex 15, Diners 14 or 16, Visa 13/16/19, …). */
function cardLength(digits: string): boolean {
  const n = digits.length;
  if (/^3[47]/.test(digits)) return n === 15;
  if (/^3(?:0[0-5]|[68])/.test(digits)) return n === 14 || n === 16;
  if (/^4/.test(digits)) return n === 13 || n === 16 || n === 19;
  if (/^(?:5[1-5]|2[2-7])/.test(digits)) return n === 16;
  return n >= 16 && n <= 19;
}

/** Card networks' and payment providers' published test numbers: no one's card in a page that says it is testing. */
const TEST_PANS = new Set([
  '4111111111111111',
  '4242424242424242',
  '4000056655665556',
  '4012888888881881',
  '5555555555554444',
  '5500000000000004',
  '5105105105105100',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '340000000000009',
  '6011111111111117',
  '3056930009020004',
]);
const TESTING_WORDS =
  /(?<!\p{L})(?:test(?:ing)?[ -]?(?:cards?|mode|numbers?)|testkarten?|testzahlung\p{L}*|sandbox|tarjetas? de prueba|cartes? de test|cart(?:ão|ões) de teste|тестов\p{L}* карт\p{L}*)(?!\p{L})/iu;

/** Words that name a card number ("card", "卡号", "카드", "tarjeta"): a long solid digit run after one is a card. */
const CARD_WORDS =
  /card|carte|tarjeta|cart[ãa]o|karte|karta|kart|kaart|карт|卡|카드|カード|بطاقة|visa|master|amex|unionpay|银联|credit|debit|\bpan\b|\bcc\b/iu;

function cards(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, CARD)) {
    const digits = m[0].replace(/[ -]/g, '');
    const grouped = m[0] !== digits;
    // Written with separators, a card is in groups (4-4-4-4, 4-6-5); written solid, its prefix must be a card network's.
    if (grouped && !/^\d{4}([ -])\d{4,6}\1\d{4,5}(?:\1\d{1,4}){0,2}$/.test(m[0])) continue;
    if (!CARD_PREFIX.test(digits) || !luhn(digits)) continue;
    const before = text.slice(Math.max(0, m.index - 24), m.index);
    if (!grouped && /(?:time|ts|at|epoch|order|id|seq|#|offset|snowflake|bytes|size|count)["']?\s*[:=]?\s*["']?$/i.test(before)) continue;
    // Seventeen digits and more written solid are ids (a Steam manifest, a snowflake) unless a card word names them.
    if (!grouped && digits.length >= 17 && !CARD_WORDS.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
    if (!cardLength(digits)) continue;
    if (TEST_PANS.has(digits) && TESTING_WORDS.test(text)) continue;
    // A size or a count printed before a path (\`du -b\`: "386950173321860\t/var/lib/…").
    if (/^\t\//.test(text.slice(m.index + m[0].length, m.index + m[0].length + 2))) continue;
    out.push({ type: 'card_number', start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;

function ibans(text: string): Span[] {
  const out: Span[] = [];
  // RF… is an ISO 11649 creditor reference: the same check digits as an IBAN, no account in it.
  for (const m of matches(text, IBAN))
    if (!m[0].startsWith('RF') && ibanValid(m[0])) out.push({ type: 'iban', start: m.index, end: m.index + m[0].length });
  return out;
}

/** Where IBAN-shaped text is, valid or not: the digit groups inside one are not phones, cards or ids. */
function ibanShaped(text: string): Span[] {
  return [...matches(text, IBAN)].map((m) => ({ type: 'iban', start: m.index, end: m.index + m[0].length }));
}

const IPV4 = /(?<![\d.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?![\d.])/g;
const PRIVATE_V4 =
  /^(?:10\.|127\.|0\.|169\.254\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|192\.0\.2\.|198\.51\.100\.|203\.0\.113\.|22[4-9]\.|2[3-5]\d\.)/;
const IPV6 = /(?<![:\w])(?:[0-9a-f]{1,4}:){1,7}:?(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?(?![:\w])/gi;

function ips(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, IPV4)) {
    // Versions ("v1.2.3.4"), hostnames ("ip-3-4-5-6") and private ranges are not people's addresses.
    const before = text[m.index - 1] ?? '';
    if (PRIVATE_V4.test(m[0]) || /[vV-]/.test(before)) continue;
    // Named as a version ("Firmware version: 4.3.28.117", "build 5.1.0.22", "Firmware update available:
    // 4.10.22.7 → 4.10.23.1") or an object identifier ('OID_SUBJECT_ALT_NAME = "2.5.29.17"') earlier on its line.
    const line = text.slice(Math.max(0, text.lastIndexOf('\n', m.index - 1) + 1, m.index - 48), m.index);
    if (
      /(?<![A-Za-z])(?:version|ver\.?|firmware|bootloader|build|release|rom|bios|update|upgrade|patch|oid|object identifier|section|sec\.|clause|paragraph|para\.|chapter|item|step|art\.|pkt|punkt|ust\.|§|abschnitt|absatz|kapitel|rozdział|capitolo|sezione|sección|apartado|artigo|article|cláusula)(?![a-z])(?![^\n]*\b(?:ip|host|server|from|addr|address|client|peer|on|at|via)\b)/iu.test(
        line,
      )
    )
      continue;
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
  const shaped = ibanShaped(text);
  const numbers = [...cards(text), ...govIds(text), ...phones(text)].filter(
    (n) => !shaped.some((b) => n.start >= b.start && n.end <= b.end),
  );
  return [...emails(text), ...ibans(text), ...numbers, ...ips(text)];
}
