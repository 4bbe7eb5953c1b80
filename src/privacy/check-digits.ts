// The check digits of the world's numbers: Luhn (cards, SIN, Israeli id), mod 97 (IBAN), Verhoeff
// (Aadhaar) and each national id's own rule. Pure functions of the digits, true when they check.

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export function ibanValid(s: string): boolean {
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

export function verhoeff(digits: string): boolean {
  let c = 0;
  for (let i = 0; i < digits.length; i++) c = VERHOEFF_D[c][VERHOEFF_P[i % 8][digits.charCodeAt(digits.length - 1 - i) - 48]];
  return c === 0;
}

export function cpfValid(s: string): boolean {
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

export function rrnValid(s: string): boolean {
  const d = s.replace('-', '');
  const w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (d.charCodeAt(i) - 48) * w[i];
  return (11 - (sum % 11)) % 10 === d.charCodeAt(12) - 48;
}

/** Spanish DNI / NIE: eight digits (or X/Y/Z and seven) and the letter of their remainder mod 23. */
export function dniValid(s: string): boolean {
  const v = s.replace(/[\s-]/g, '').toUpperCase();
  const n = Number(v.slice(0, -1).replace(/^[XYZ]/, (c) => String('XYZ'.indexOf(c))));
  return 'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23] === v.slice(-1);
}

/** Dutch BSN: the "11-test" (weights 9…2, and −1 on the last digit). */
export function bsnValid(s: string): boolean {
  const d = s.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (d.charCodeAt(i) - 48) * (9 - i);
  return (sum - (d.charCodeAt(8) - 48)) % 11 === 0 && !/^0+$/.test(d);
}

/** German Steuer-ID: ISO 7064 MOD 11,10 over the first ten digits. */
export function steuerIdValid(s: string): boolean {
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
export function nirValid(s: string): boolean {
  const v = s.replace(/\s/g, '').toUpperCase();
  const body = v.slice(0, 13).replace('2A', '19').replace('2B', '18');
  return 97 - Number(BigInt(body) % 97n) === Number(v.slice(13));
}

/** Chinese resident id: 17 digits and an ISO 7064 MOD 11-2 check character (0–9 or X), a birth date inside. */
export function chineseIdValid(s: string): boolean {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (s.charCodeAt(i) - 48) * w[i];
  const month = Number(s.slice(10, 12));
  const day = Number(s.slice(12, 14));
  return '10X98765432'[sum % 11] === s[17].toUpperCase() && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** Italian codice fiscale: the last letter from odd- and even-position values of the first fifteen. */
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
export function codiceFiscaleValid(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = s.charCodeAt(i);
    const v = c <= 57 ? c - 48 : c - 65;
    sum += i % 2 === 0 ? CF_ODD[v] : v;
  }
  return String.fromCharCode(65 + (sum % 26)) === s[15];
}

/** Turkish TC Kimlik: 11 digits, the 10th and 11th from sums of the first ones. */
export function tcKimlikValid(s: string): boolean {
  const d = [...s].map((c) => c.charCodeAt(0) - 48);
  if (d[0] === 0) return false;
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  return (((odd * 7 - even) % 10) + 10) % 10 === d[9] && d.slice(0, 10).reduce((a, b) => a + b, 0) % 10 === d[10];
}

/** Polish PESEL: weights 1 3 7 9 over the first ten digits. */
export function peselValid(s: string): boolean {
  const w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (s.charCodeAt(i) - 48) * w[i];
  return (10 - (sum % 10)) % 10 === s.charCodeAt(10) - 48;
}

/** Portuguese NIF: weights 9…2, check digit 11 − remainder (0 for 10 and 11). */
export function nifPtValid(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (s.charCodeAt(i) - 48) * (9 - i);
  const c = 11 - (sum % 11);
  return (c >= 10 ? 0 : c) === s.charCodeAt(8) - 48;
}

/** Japanese My Number: 11 digits and a check digit (weights 2–7 from the right). */
export function myNumberValid(s: string): boolean {
  const d = s.replace(/\D/g, '');
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += (d.charCodeAt(11 - n) - 48) * (n <= 6 ? n + 1 : n - 5);
  const r = sum % 11;
  return (r <= 1 ? 0 : 11 - r) === d.charCodeAt(11) - 48;
}

/** Russian personal INN: 12 digits, the last two check digits (weighted sums mod 11 mod 10). */
export function innValid(s: string): boolean {
  const d = [...s].map((c) => c.charCodeAt(0) - 48);
  const check = (w: number[]) => (w.reduce((a, x, i) => a + x * d[i], 0) % 11) % 10;
  return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
}
