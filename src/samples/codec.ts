// Compact, exact encodings of the number arrays a sample carries, as SQLite BLOBs.
// Token ids are Int32 (every vocabulary fits), log-probs are Float64 so they come back bit for bit
// (a Float32 round trip changes a PPO ratio that should be exactly 1 on-policy). Everything is
// little-endian through DataView, so a store file reads the same on any machine.
import { OpenClawError } from '../errors/index.ts';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function dataError(message: string): OpenClawError {
  return new OpenClawError('data', message, { code: 'invalid_sample_data' });
}

const isInt32 = (v: number) => Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX;
const notInt32 = (field: string, i: number, v: unknown) => dataError(`${field}[${i}] = ${String(v)} is not a 32-bit integer token id`);

/** Throws what `encodeInt32` throws for `values`, without encoding them. */
export function checkInt32(values: readonly number[], field: string): void {
  for (let i = 0; i < values.length; i++) if (!isInt32(values[i])) throw notInt32(field, i, values[i]);
}

/** Encodes integer token ids as little-endian Int32; throws on non-integers or out-of-range ids. */
export function encodeInt32(values: readonly number[], field: string): Buffer {
  const buf = Buffer.alloc(values.length * 4);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!isInt32(v)) throw notInt32(field, i, v);
    view.setInt32(i * 4, v, true);
  }
  return buf;
}

/** Decodes a BLOB written by `encodeInt32`. */
export function decodeInt32(buf: Uint8Array): number[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out = new Array<number>(buf.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4, true);
  return out;
}

const notNumber = (field: string, i: number, v: unknown) => dataError(`${field}[${i}] is ${typeof v}, expected a number`);

/** Throws what `encodeFloat64` throws for `values`, without encoding them. */
export function checkFloat64(values: readonly number[], field: string): void {
  for (let i = 0; i < values.length; i++) if (typeof values[i] !== 'number') throw notNumber(field, i, values[i]);
}

/** Encodes numbers as little-endian Float64: exact, including -0, ±Infinity and NaN. */
export function encodeFloat64(values: readonly number[], field: string): Buffer {
  const buf = Buffer.alloc(values.length * 8);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw notNumber(field, i, v);
    view.setFloat64(i * 8, v, true);
  }
  return buf;
}

/** Decodes a BLOB written by `encodeFloat64`. */
export function decodeFloat64(buf: Uint8Array): number[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out = new Array<number>(buf.byteLength / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}

/** Per-position teacher top-K as the Sample type holds it. */
export type TopKList = { ids: number[]; logprobs: number[] }[];

/**
 * Encodes per-position top-K lists in one BLOB:
 * `u32 P | u32 k[P] | i32 ids[Σk] | f64 logprobs[Σk]` (little-endian), so K may vary by position.
 */
export function encodeTopK(list: TopKList, field: string): Buffer {
  list.forEach((pos, p) => {
    if (pos.ids.length !== pos.logprobs.length) {
      throw dataError(`${field}[${p}] has ${pos.ids.length} ids but ${pos.logprobs.length} log-probs`);
    }
  });
  const ids = encodeInt32(
    list.flatMap((pos) => pos.ids),
    `${field}.ids`,
  );
  const logprobs = encodeFloat64(
    list.flatMap((pos) => pos.logprobs),
    `${field}.logprobs`,
  );
  const header = Buffer.alloc(4 * (1 + list.length));
  header.writeUInt32LE(list.length, 0);
  list.forEach((pos, p) => header.writeUInt32LE(pos.ids.length, 4 * (1 + p)));
  return Buffer.concat([header, ids, logprobs]);
}

/** Decodes a BLOB written by `encodeTopK`. */
export function decodeTopK(blob: Uint8Array): TopKList {
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const positions = buf.readUInt32LE(0);
  const ks: number[] = [];
  for (let p = 0; p < positions; p++) ks.push(buf.readUInt32LE(4 * (1 + p)));
  const total = ks.reduce((a, b) => a + b, 0);
  const idsStart = 4 * (1 + positions);
  const lpStart = idsStart + total * 4;
  const ids = decodeInt32(buf.subarray(idsStart, lpStart));
  const logprobs = decodeFloat64(buf.subarray(lpStart, lpStart + total * 8));
  const out: TopKList = [];
  let at = 0;
  for (const k of ks) {
    out.push({ ids: ids.slice(at, at + k), logprobs: logprobs.slice(at, at + k) });
    at += k;
  }
  return out;
}
