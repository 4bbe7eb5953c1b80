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
    if (EXAMPLE_DOMAIN.test(domain) || FILE_DOMAIN.test(domain) || /UID:\s*$|git$|cid:$|:\/\/$/.test(before) || m[0].startsWith('git@'))
      continue;
    if (MESSAGE_ID_HEADER.test(text.slice(text.lastIndexOf('\n', m.index - 1) + 1, m.index))) continue;
    out.push({ type: 'email', start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Phone numbers: international ones anywhere; national ones of the countries the traffic comes from. */
const PHONE_COUNTRIES: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'BR', 'RU', 'KR', 'IN', 'CN', 'JP'];
/** More countries' plans, read only after a phone word: each plan added alone also reads business ids as phones. */
const WORDED_COUNTRIES: CountryCode[] = [...PHONE_COUNTRIES, 'SA', 'AE', 'MX', 'TR', 'NG', 'PL', 'NL', 'ID', 'VN', 'PK', 'EG', 'UA'];

// Latin and Cyrillic words start a word ("Parcel 2: DHL 1191066044" is not "cel …"); CJK and Arabic ones need no space.
const PHONE_WORDS =
  /(?:(?<![A-Za-z])(?:tel|phone|call|mobile|cell|whatsapp|fone|contact|cel|cellulare|número|mobil|handy|telefon)|(?<![а-яё])(?:телефон|тел)|(?<!\p{L})(?:τηλ|утас|simu|waya|ucingo|telepono)|전화|휴대폰|电话|手机|جوال|هاتف|رقم|تلفن|携帯|電話|मोबाइल|फ़ोन|फोन|ስልክ|ስልኬ|ტელეფონ|հեռախոս|טלפון|נייד|දුරකථන|ទូរស័ព្ទ|ဖုန်း|ໂທລະສັບ)[^\n]{0,12}$/iu;

/** The word "phone" itself, after a word that names another number ("No. Telefon:", "Nr. tel."): then it is a phone. */
const PHONE_NOUN = /(?<!\p{L})(?:tel|phone|telefon|téléphone|telefone|teléfono|telefono|mobile|mobil|cell|handy|whatsapp|телефон|тел)/iu;

/** What a digit run after these words is: a meeting, ticket, invoice or order number, not a phone. */
const NOT_PHONE_WORDS =
  /(?<w>\bID|\bPIN|meeting|conference|webinar|ticket|invoice|order|booking|confirmation|tracking|reference|ref\.?|fattura|factura|rechnung|commande|заказ|счёт|счет|n[°º.]|nr\.?|no\.|(?<!\p{L})(?:EIN|NIP|REGON|VAT|tax ?id|USt|SIRE[NT]|KVK|ИНН|INN)|사업자등록번호|(?<=\p{L})(?<!telefon|handy|mobil|ruf|fax)nummer|número de (?:pedido|reserva)|nosso n[úu]mero|linha digit[áa]vel|bilhete|billete|billet|طلبك|طلبية|numéro de (?:commande|réservation)|agizo|ufuatiliaji|zásilky|objednávky|zamówienia|przesyłki|pesanan|resi|bestelnummer|bestelling|ordernummer|الطلب|طلب|الشحنة|شحنة|الحجز|伝票番号|伝票|注文番号|追跡番号|お問い合わせ番号|订单号?|运单号?|快递单号|주문번호|송장번호|운송장|parcel|package|shipment|colis|paquete|Paket|Sendung|посылк\p{L}*|包裹|(?<!\p{L})(?:UPS|USPS|DHL|FedEx|DPD|GLS|TNT|Rx|prescription|receta|ordonnance|Rezept|ISSN|ISBN|EAN|UPC|GTIN|SKU|DOI|MPN))(?![\p{L}])[^\d\n]{0,16}$/iu;

/**
 * libphonenumber finds every digit run that a numbering plan allows; the ones written as people
 * write phones are kept: international (+…) or grouped numbers, not dates ("2026-04-15"), decimals
 * ("53.5351118"), IP addresses or columns ("56814  2"); a bare run of digits only after a phone word.
 */
function phoneShaped(raw: string, text: string, start: number): boolean {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 7) return false;
  // WHOIS and EPP write "+CC.NUMBER" ("+254.755343299"); a postcode after 〒 ("〒530-0001") is no phone.
  if (/^\+\d{1,3}\.\d{6,14}$/.test(raw)) return true;
  if (text[start - 1] === '〒') return false;
  // Dotted the way French and North American numbers are written: "01.80.65.19.04", "604.965.1961".
  const dotted = /^\d{2}(?:\.\d{2}){4}$|^\d{3}\.\d{3}\.\d{4}$/.test(raw);
  if (
    !dotted &&
    /^\(?(?:19|20)\d\d[-/.]|\d\.\d{4,}|\d+\.\d+\.\d+|\s{2,}|^\d{1,3}\.\d{1,3}\.|\/(?:19|20)\d\d$|^\d{4} \d{6} \d{5}$/.test(raw)
  )
    return false;
  // SSN and EIN shapes ("666-12-3456", "12-3456789") are ids, not phones.
  if (/^\d{3}-\d{2}-\d{4}$|^\d{2}-\d{7}$|^\d{4} \d{4} \d{4}$/.test(raw)) return false;
  // A card number in its four groups (one that fails Luhn is still not a phone), a US ZIP+4
  // ("94107-1234") and a Brazilian CEP ("01311-300").
  if (/^\d{4}([ -])\d{4}\1\d{4}\1\d{4}$|^\d{5}-\d{4}$|^\d{5}-\d{3}$|^\d{6}-\d{7}$/.test(raw)) return false;
  // Epoch seconds or milliseconds (`ls -l --time-style=+%s`: "8812 1717401300"): a time, not a phone.
  if (/(?<!\d)1[5-9]\d{8}(?:\d{3})?(?!\d)/.test(raw) && /\s/.test(raw)) return false;
  // Counting up ("1234 5678 901"): an example in a test or a form, not someone's number.
  if (/0123456|1234567|2345678|3456789/.test(digits)) return false;
  // The seconds of a time and a zone offset ("14:22:10 +0100 40" in `git blame`).
  if (/\d:$/.test(text.slice(Math.max(0, start - 2), start))) return false;
  // A size or a count ("298276483 bytes").
  if (/^\)?\s*(?:bytes|B|KB|MB|GB|KiB|MiB|ms|tokens|%)\b/.test(text.slice(start + raw.length, start + raw.length + 8))) return false;
  // A long number in parentheses ("Timeticks: (5975209) 12 days") is no area code; an address written
  // with dashes ("178-73-216-194.static.isp.net") or an id after "#" ("Rx#5861527-47251") is no phone.
  if (/^\(\d{6,}\)/.test(raw) || text[start - 1] === '#') return false;
  // An EAN-13 barcode as printed under its bars ("4 006381 333931"), a Belgian structured payment
  // reference ("+++906/3195/65573+++").
  if (/^\d \d{6} \d{6}$/.test(raw) || /^\+?\d{3}\/\d{4}\/\d{5}$/.test(raw)) return false;
  if (/^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)-){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/.test(raw)) return false;
  // An amount ("27 136 069,00 ₽") or a number named as something else ("Meeting ID: 244 4217 7377").
  // (A comma then more digits is the next CSV field: "+1-218-772-2144,78500".)
  if (/^[.,]\d{1,3}(?!\d)/.test(text.slice(start + raw.length, start + raw.length + 5))) return false;
  const before = text.slice(Math.max(0, start - 24), start);
  const named = NOT_PHONE_WORDS.exec(before);
  if (named !== null && !PHONE_NOUN.test(before.slice(named.index + named.groups!.w.length))) return false;
  // Inside a longer token (a UUID, an id in a URL) or ending in a lone digit ("7664790 8"): not a phone.
  if (/^(?:[A-Za-z0-9_]|\.\d|-[A-Za-z0-9])/.test(text.slice(start + raw.length, start + raw.length + 2))) return false;
  if (/[A-Za-z0-9_./-]/.test(text[start - 1] ?? '') || /[ -]\d$/.test(raw)) return false;
  if (/^\d+$/.test(raw)) return PHONE_WORDS.test(text.slice(Math.max(0, start - 24), start));
  return true;
}

/** Digit runs that could be a phone number: libphonenumber reads only these, not the whole text. */
const PHONE_CANDIDATE = /(?:\+|\()?\d[\d \t().\-/]{5,22}\d/g;

/** findNumbers' options: `leniency` exists in libphonenumber-js but not in its types; international runs are read as POSSIBLE (see below). */
const leniency = (country: CountryCode | undefined) =>
  ({ defaultCountry: country, v2: true, leniency: country ? 'VALID' : 'POSSIBLE' }) as { defaultCountry?: CountryCode; v2: true };

function phones(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, PHONE_CANDIDATE)) {
    // International numbers first; otherwise the first country whose plan reads the run as valid.
    const worded = PHONE_WORDS.test(text.slice(Math.max(0, m.index - 24), m.index));
    for (const country of [undefined, ...(worded ? WORDED_COUNTRIES : PHONE_COUNTRIES)]) {
      const found = findNumbers(m[0], leniency(country)).filter((f) => {
        const start = m.index + f.startsAt;
        // Written in international form, a number whose length its country allows is kept even where
        // the plan has no such range yet (new mobile ranges, test numbers people really get).
        const plausible = f.number.isValid() || (text[start] === '+' && f.number.isPossible());
        return plausible && phoneShaped(text.slice(start, m.index + f.endsAt), text, start);
      });
      for (const f of found) out.push({ type: 'phone', start: m.index + f.startsAt, end: m.index + f.endsAt });
      if (found.length > 0) break;
    }
    // Right after a phone word, an international number in groups is someone's number even when its
    // length is one the country's plan does not allow (a digit too many or too few, as people type them).
    const grouped = /^\+\d{1,3}(?:[ -]\d{2,4}){2,5}/.exec(m[0]);
    if (worded && grouped !== null && !out.some((p) => p.start >= m.index && p.start < m.index + m[0].length)) {
      const digits = grouped[0].replace(/\D/g, '').length;
      if (digits >= 9 && digits <= 15) out.push({ type: 'phone', start: m.index, end: m.index + grouped[0].length });
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
    if (!cardLength(digits)) continue;
    if (TEST_PANS.has(digits) && TESTING_WORDS.test(text)) continue;
    // A size or a count printed before a path (\`du -b\`: "386950173321860\t/var/lib/…").
    if (/^\t\//.test(text.slice(m.index + m[0].length, m.index + m[0].length + 2))) continue;
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
  // RF… is an ISO 11649 creditor reference: the same check digits as an IBAN, no account in it.
  for (const m of matches(text, IBAN))
    if (!m[0].startsWith('RF') && ibanValid(m[0])) out.push({ type: 'iban', start: m.index, end: m.index + m[0].length });
  return out;
}

/** Where IBAN-shaped text is, valid or not: the digit groups inside one are not phones, cards or ids. */
function ibanShaped(text: string): Span[] {
  return [...matches(text, IBAN)].map((m) => ({ type: 'iban', start: m.index, end: m.index + m[0].length }));
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

/** Spanish DNI / NIE: eight digits (or X/Y/Z and seven) and the letter of their remainder mod 23. */
function dniValid(s: string): boolean {
  const v = s.replace(/[\s-]/g, '').toUpperCase();
  const n = Number(v.slice(0, -1).replace(/^[XYZ]/, (c) => String('XYZ'.indexOf(c))));
  return 'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23] === v.slice(-1);
}

/** Dutch BSN: the "11-test" (weights 9…2, and −1 on the last digit). */
function bsnValid(s: string): boolean {
  const d = s.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (d.charCodeAt(i) - 48) * (9 - i);
  return (sum - (d.charCodeAt(8) - 48)) % 11 === 0 && !/^0+$/.test(d);
}

/** German Steuer-ID: ISO 7064 MOD 11,10 over the first ten digits. */
function steuerIdValid(s: string): boolean {
  const d = s.replace(/\D/g, '');
  if (d[0] === '0') return false;
  let product = 10;
  for (let i = 0; i < 10; i++) {
    const sum = (d.charCodeAt(i) - 48 + product) % 10 || 10;
    product = (2 * sum) % 11;
  }
  return (11 - product) % 10 === d.charCodeAt(10) - 48;
}

/** French NIR (numéro de sécurité sociale): its two-digit key is 97 − (number mod 97); Corsica's 2A/2B count as 19/18. */
function nirValid(s: string): boolean {
  const v = s.replace(/\s/g, '').toUpperCase();
  const body = v.slice(0, 13).replace('2A', '19').replace('2B', '18');
  return 97 - Number(BigInt(body) % 97n) === Number(v.slice(13));
}

/**
 * Ids that are only told apart from other numbers by the word before them ("CPF 92272043003",
 * "BSN: 680342965", "Aadhaar No: 826895222553", "SIN 257 844 225"), each checked by its own digit rule.
 */
/** Chinese resident id: 17 digits and an ISO 7064 MOD 11-2 check character (0–9 or X), a birth date inside. */
function chineseIdValid(s: string): boolean {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (s.charCodeAt(i) - 48) * w[i];
  const month = Number(s.slice(10, 12));
  const day = Number(s.slice(12, 14));
  return '10X98765432'[sum % 11] === s[17].toUpperCase() && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** Italian codice fiscale: the last letter from odd- and even-position values of the first fifteen. */
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
function codiceFiscaleValid(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = s.charCodeAt(i);
    const v = c <= 57 ? c - 48 : c - 65;
    sum += i % 2 === 0 ? CF_ODD[v] : v;
  }
  return String.fromCharCode(65 + (sum % 26)) === s[15];
}

/** Turkish TC Kimlik: 11 digits, the 10th and 11th from sums of the first ones. */
function tcKimlikValid(s: string): boolean {
  const d = [...s].map((c) => c.charCodeAt(0) - 48);
  if (d[0] === 0) return false;
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  return (((odd * 7 - even) % 10) + 10) % 10 === d[9] && d.slice(0, 10).reduce((a, b) => a + b, 0) % 10 === d[10];
}

/** Polish PESEL: weights 1 3 7 9 over the first ten digits. */
function peselValid(s: string): boolean {
  const w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (s.charCodeAt(i) - 48) * w[i];
  return (10 - (sum % 10)) % 10 === s.charCodeAt(10) - 48;
}

/** Portuguese NIF: weights 9…2, check digit 11 − remainder (0 for 10 and 11). */
function nifPtValid(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (s.charCodeAt(i) - 48) * (9 - i);
  const c = 11 - (sum % 11);
  return (c >= 10 ? 0 : c) === s.charCodeAt(8) - 48;
}

/** Japanese My Number: 11 digits and a check digit (weights 2–7 from the right). */
function myNumberValid(s: string): boolean {
  const d = s.replace(/\D/g, '');
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += (d.charCodeAt(11 - n) - 48) * (n <= 6 ? n + 1 : n - 5);
  const r = sum % 11;
  return (r <= 1 ? 0 : 11 - r) === d.charCodeAt(11) - 48;
}

/** Russian personal INN: 12 digits, the last two check digits (weighted sums mod 11 mod 10). */
function innValid(s: string): boolean {
  const d = [...s].map((c) => c.charCodeAt(0) - 48);
  const check = (w: number[]) => (w.reduce((a, x, i) => a + x * d[i], 0) % 11) % 10;
  return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
}

const NAMED_IDS: Array<{ words: string; value: string; valid: (s: string) => boolean }> = [
  { words: 'ИНН|INN', value: String.raw`\d{12}`, valid: innValid },
  { words: 'TC|T\\.C\\.|kimlik|tckn|tc_?kimlik_?no', value: String.raw`[1-9]\d{10}`, valid: tcKimlikValid },
  { words: 'תעודת זהות|ת\\.ז\\.?|teudat zehut', value: String.raw`\d{9}`, valid: (s) => luhn(s) },
  { words: 'PESEL', value: String.raw`\d{11}`, valid: peselValid },
  { words: 'NIF|contribuinte', value: String.raw`[1-35-9]\d{8}`, valid: nifPtValid },
  { words: 'マイナンバー|個人番号|My ?Number', value: String.raw`\d{4} ?\d{4} ?\d{4}`, valid: myNumberValid },
  {
    words: String.raw`SSN|social security(?: number| no\.?)?`,
    value: String.raw`(?!000|666|9)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}`,
    valid: () => true,
  },
  { words: 'CPF', value: String.raw`\d{3}\.?\d{3}\.?\d{3}-?\d{2}`, valid: cpfValid },
  { words: 'BSN|burgerservicenummer|sofinummer', value: String.raw`\d{4}\.?\d{2}\.?\d{3}|\d{9}`, valid: bsnValid },
  { words: 'Aadhaar|आधार|UIDAI', value: String.raw`[2-9]\d{3} ?\d{4} ?\d{4}`, valid: (s) => verhoeff(s.replace(/ /g, '')) },
  {
    words: 'SIN|NAS|social insurance|assurance sociale',
    value: String.raw`\d{3}[ -]?\d{3}[ -]?\d{3}`,
    valid: (s) => luhn(s.replace(/\D/g, '')),
  },
  {
    words: 'Steuer-?ID|Steuer-Identifikationsnummer|Steueridentifikationsnummer|Identifikationsnummer|IdNr',
    value: String.raw`[1-9]\d ?\d{3} ?\d{3} ?\d{3}`,
    valid: steuerIdValid,
  },
  {
    words: 'NIR|INSEE|s[ée]curit[ée] sociale|num[ée]ro de s[ée]cu',
    value: String.raw`[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}`,
    valid: nirValid,
  },
];
const NAMED_ID_RES = NAMED_IDS.map(({ words, value, valid }) => ({
  // Latin and Cyrillic words end at a letter; a Japanese or Hebrew one may have a particle glued on (マイナンバーは).
  re: new RegExp(String.raw`(?<![\p{L}])(?:${words})(?![A-Za-zÀ-ɏЀ-ӿ])[^\d\n]{0,40}?(?<v>${value})(?![\dA-Za-z])`, 'giud'),
  valid,
}));

const GOV_IDS: Array<{ re: RegExp; valid?: (s: string) => boolean }> = [
  { re: /(?<!\d)[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])\d{5}[\dXx](?![\dA-Za-z])/g, valid: chineseIdValid },
  { re: /\b784-\d{4}-\d{7}-\d\b/g, valid: (s) => luhn(s.replace(/-/g, '')) },
  { re: /\b(?:\d{8}|[XYZ]\d{7})-?[A-Z]\b/g, valid: dniValid },
  { re: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  { re: /\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g },
  { re: /\b[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]\b/g },
  { re: /\b[2-9]\d{3} \d{4} \d{4}\b/g, valid: (s) => verhoeff(s.replace(/ /g, '')) },
  { re: /\b\d{6}-[1-8]\d{6}\b/g, valid: rrnValid },
  { re: /\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b/g, valid: codiceFiscaleValid },
  { re: /\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g, valid: cpfValid },
];

/** A named id's header cell ("Aadhaar", "PESEL", "SSN") and its whole value, for ids in table columns. */
const NAMED_ID_CELLS = NAMED_IDS.map(({ words, value, valid }) => ({
  header: new RegExp(String.raw`^(?:${words})(?![\p{L}])[^\d]{0,24}$`, 'iu'),
  cell: new RegExp(String.raw`^(?:${value})$`, 'u'),
  valid,
}));

/**
 * Ids in a table whose header names them (a Markdown, CSV, TSV or semicolon table: "| Name | Aadhaar |",
 * "name,pesel"): each cell below that header, while the lines keep the table's separator.
 */
function columnIds(text: string): Span[] {
  const out: Span[] = [];
  let columns: Array<{ at: number; cell: RegExp; valid: (s: string) => boolean }> = [];
  let separator = '';
  let offset = 0;
  for (const line of text.split('\n')) {
    const sep = ['|', '\t', ';', ','].find((c) => line.includes(c)) ?? '';
    const cells: Array<{ value: string; start: number }> = [];
    if (sep !== '') {
      let at = 0;
      for (const raw of line.split(sep)) {
        const lead = raw.length - raw.trimStart().length;
        cells.push({ value: raw.trim().replace(/^"(.*)"$/, '$1'), start: offset + at + lead + (raw.trim().startsWith('"') ? 1 : 0) });
        at += raw.length + 1;
      }
    }
    const named = cells.flatMap((c, at) => NAMED_ID_CELLS.filter((n) => n.header.test(c.value)).map((n) => ({ at, ...n })));
    if (named.length > 0) {
      columns = named;
      separator = sep;
    } else if (sep !== separator || sep === '') columns = [];
    else
      for (const { at, cell, valid } of columns) {
        const c = cells[at];
        if (c !== undefined && cell.test(c.value) && valid(c.value))
          out.push({ type: 'gov_id', start: c.start, end: c.start + c.value.length });
      }
    offset += line.length + 1;
  }
  return out;
}

/**
 * Ids every guide prints as the example: the Woolworth wallet SSN, Social Security's own sample numbers,
 * "Mario Rossi"'s codice fiscale, the Indian PAN and UK NI of form guides. No one's id.
 */
const DOCUMENTED_IDS = new Set(['078051120', '219099999', '457555462', 'RSSMRA80A01H501U', 'ABCDE1234F', 'AB123456C']);
/** An id whose digits count up ("123-45-6789", "2345 6789 0123") is a form's example, not a person's. */
const exampleId = (id: string) =>
  DOCUMENTED_IDS.has(id.replace(/[\s.-]/g, '').toUpperCase()) || /0123456|1234567|2345678|3456789/.test(id.replace(/\D/g, ''));

function govIds(text: string): Span[] {
  return govIdSpans(text).filter((f) => !exampleId(text.slice(f.start, f.end)));
}

function govIdSpans(text: string): Span[] {
  const out: Span[] = [];
  for (const { re, valid } of GOV_IDS)
    for (const m of matches(text, re)) if (!valid || valid(m[0])) out.push({ type: 'gov_id', start: m.index, end: m.index + m[0].length });
  out.push(...columnIds(text));
  for (const { re, valid } of NAMED_ID_RES)
    for (const m of matches(text, re)) {
      const [start, end] = m.indices!.groups!.v;
      if (valid(text.slice(start, end))) out.push({ type: 'gov_id', start, end });
    }
  return out;
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
