// Government ids whose format or check digit a rule knows: by shape alone where the shape is
// distinctive (US SSN, UK NI, Indian PAN and Aadhaar, Korean RRN, codice fiscale, CPF, Chinese
// resident id, DNI), after the word that names them, or under a table header that names them.
import {
  luhn,
  verhoeff,
  cpfValid,
  rrnValid,
  dniValid,
  bsnValid,
  steuerIdValid,
  nirValid,
  chineseIdValid,
  codiceFiscaleValid,
  tcKimlikValid,
  peselValid,
  nifPtValid,
  myNumberValid,
  innValid,
} from './check-digits.ts';
import { matches, type Span, tableFields } from './spans.ts';

/**
 * Ids that are only told apart from other numbers by the word before them ("CPF 92272043003",
 * "BSN: 680342965", "Aadhaar No: 826895222553", "SIN 257 844 225"), each checked by its own digit rule.
 */
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
  // (Not the first three groups of a card's four: "4450 0423 6352 7145".)
  { re: /(?<!\d )\b[2-9]\d{3} \d{4} \d{4}\b(?! \d)/g, valid: (s) => verhoeff(s.replace(/ /g, '')) },
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
    // Markdown pads its cells with spaces (and a padded cell may still be quoted): a cell is its field without them.
    const cells = (sep === '' ? [] : tableFields(line, sep)).map((f) => {
      const lead = f.value.length - f.value.trimStart().length;
      const quoted = /^"(.*)"$/.exec(f.value.trim());
      return { value: quoted ? quoted[1] : f.value.trim(), start: offset + f.start + lead + (quoted ? 1 : 0) };
    });
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

export function govIds(text: string): Span[] {
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
