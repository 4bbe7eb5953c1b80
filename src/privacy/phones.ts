// Phone numbers: libphonenumber-js (Google's numbering-plan metadata) finds every digit run a plan
// allows; these rules keep the ones written as people write phones, and drop numbers named as
// something else (orders, tickets, ids, barcodes, dates, sizes).
import { findNumbers, type CountryCode } from 'libphonenumber-js/max';
import { matches, type Span } from './spans.ts';

/** Phone numbers: international ones anywhere; national ones of the countries the traffic comes from. */
const PHONE_COUNTRIES: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'BR', 'RU', 'KR', 'IN', 'CN', 'JP'];
/** More countries' plans, read only after a phone word: each plan added alone also reads business ids as phones. */
const WORDED_COUNTRIES: CountryCode[] = [...PHONE_COUNTRIES, 'SA', 'AE', 'MX', 'TR', 'NG', 'PL', 'NL', 'ID', 'VN', 'PK', 'EG', 'UA'];

// Latin and Cyrillic words start a word ("Parcel 2: DHL 1191066044" is not "cel …"); CJK and Arabic ones need no space.
const PHONE_WORDS =
  /(?:(?<![A-Za-z])(?:tel|phone|call|mobile|cell|whatsapp|fone|contact|cel|cellulare|número|mobil|handy|telefon)|(?<!\p{L})(?:WA|HP)(?!\p{L})|(?<![а-яё])(?:телефон|тел)|(?<!\p{L})(?:τηλ|утас|simu|waya|ucingo|telepono)|전화|휴대폰|电话|手机|جوال|هاتف|رقم|تلفن|携帯|電話|मोबाइल|फ़ोन|फोन|ስልክ|ስልኬ|ტელეფონ|հեռախոս|טלפון|נייד|දුරකථන|ទូរស័ព្ទ|ဖုန်း|ໂທລະສັບ)[^\n]{0,12}$/iu;

/** A phone word just before `start`, read through OCR's digits for letters ("Te1éfono", "M0bile"). */
function phoneWordBefore(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 24), start);
  return PHONE_WORDS.test(before.replace(/(?<=\p{L})1(?=\p{L})/gu, 'l').replace(/(?<=\p{L})0(?=\p{L})/gu, 'o'));
}

/** The word "phone" itself, after a word that names another number ("No. Telefon:", "Nr. tel."): then it is a phone. */
const PHONE_NOUN =
  /(?<!\p{L})(?:tel|phone|telefon|téléphone|telefone|teléfono|telefono|mobile|mobil|cell|handy|whatsapp|WA|HP|телефон|тел)(?!\p{L})/iu;

/** What a digit run after these words is: a meeting, ticket, invoice or order number, not a phone. */
const NOT_PHONE_WORDS =
  /(?<w>\bID|\bPIN|meeting|conference|webinar|ticket|invoice|order|booking|confirmation|tracking|reference|ref\.?|fattura|factura|rechnung|commande|заказ|счёт|счет|n[°º.]|nr\.?|no\.|(?<!\p{L})(?:EIN|NIP|REGON|VAT|tax ?id|USt|SIRE[NT]|KVK|ИНН|INN)|사업자등록번호|(?<=\p{L})(?<!telefon|handy|mobil|ruf|fax)nummer|número de (?:pedido|reserva)|nosso n[úu]mero|linha digit[áa]vel|bilhete|billete|billet|طلبك|طلبية|numéro de (?:commande|réservation)|agizo|ufuatiliaji|zásilky|objednávky|zamówienia|przesyłki|pesanan|resi|bestelnummer|bestelling|ordernummer|الطلب|طلب|الشحنة|شحنة|الحجز|伝票番号|伝票|注文番号|追跡番号|お問い合わせ番号|订单号?|运单号?|快递单号|주문번호|송장번호|운송장|parcel|package|shipment|colis|paquete|Paket|Sendung|посылк\p{L}*|包裹|(?<!\p{L})(?:UPS|USPS|DHL|FedEx|DPD|GLS|TNT|Rx|prescription|receta|ordonnance|Rezept|ISSN|ISBN|EAN|UPC|GTIN|SKU|DOI|MPN|plot|lot|makani|permit|MPAN|MPRN|meter|licen[cs]e|policy|serial|batch|claim|contract|member(?:ship)?|customer|account|acct))(?![\p{L}])[^\d\n]{0,16}$/iu;

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
  // An opening parenthesis never closed ("(5056 1204 1971) fails") is the text's, not an area code's.
  if (raw.startsWith('(') && !raw.includes(')')) return false;
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
  if (/^\d+$/.test(raw)) return phoneWordBefore(text, start);
  return true;
}

/** Digit runs that could be a phone number: libphonenumber reads only these, not the whole text. */
const PHONE_CANDIDATE = /(?:\+|\()?\d[\d \t().\-/]{5,22}\d/g;

/** findNumbers' options: `leniency` exists in libphonenumber-js but not in its types; international runs are read as POSSIBLE (see below). */
const leniency = (country: CountryCode | undefined) =>
  ({ defaultCountry: country, v2: true, leniency: country ? 'VALID' : 'POSSIBLE' }) as { defaultCountry?: CountryCode; v2: true };

export function phones(text: string): Span[] {
  const out: Span[] = [];
  for (const m of matches(text, PHONE_CANDIDATE)) {
    // International numbers first; otherwise the first country whose plan reads the run as valid.
    const worded = phoneWordBefore(text, m.index);
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
    const grouped = /^\+\d{1,3}(?:[ -]\d{1,4}){2,5}/.exec(m[0]);
    if (worded && grouped !== null && !out.some((p) => p.start >= m.index && p.start < m.index + m[0].length)) {
      const digits = grouped[0].replace(/\D/g, '').length;
      if (digits >= 9 && digits <= 15) out.push({ type: 'phone', start: m.index, end: m.index + grouped[0].length });
    }
  }
  return out;
}
