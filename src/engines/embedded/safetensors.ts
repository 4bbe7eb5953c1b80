// The safetensors format, written by hand: 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {string: string}}, then the
// raw little-endian tensor bytes. Only F32 is used here. Python's `safetensors` and numpy open it.

import { endianness } from 'node:os';
import { OpenClawError } from '../../errors/index.ts';

/** One float32 tensor in host memory. */
export interface HostTensor {
  shape: number[];
  data: Float32Array;
}

/** Serialises tensors (sorted by name) and string metadata into safetensors bytes. */
export function encodeSafetensors(tensors: Record<string, HostTensor>, metadata: Record<string, string> = {}): Buffer {
  if (endianness() !== 'LE') throw new OpenClawError('internal', 'safetensors writer supports little-endian hosts only');
  const names = Object.keys(tensors).sort();
  const header: Record<string, unknown> = {};
  if (Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  let offset = 0;
  for (const name of names) {
    const t = tensors[name];
    const size = t.shape.reduce((a, b) => a * b, 1);
    if (size !== t.data.length)
      throw new OpenClawError('internal', `tensor ${name}: shape [${t.shape}] does not match ${t.data.length} values`);
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  let json = JSON.stringify(header);
  // Pad with spaces so the data starts 8-byte aligned, as the reference writer does.
  json += ' '.repeat((8 - ((8 + Buffer.byteLength(json)) % 8)) % 8);
  const headerBytes = Buffer.from(json, 'utf8');
  const out = Buffer.alloc(8 + headerBytes.length + offset);
  out.writeBigUInt64LE(BigInt(headerBytes.length), 0);
  headerBytes.copy(out, 8);
  let at = 8 + headerBytes.length;
  for (const name of names) {
    const t = tensors[name];
    Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).copy(out, at);
    at += t.data.byteLength;
  }
  return out;
}

/** Parses safetensors bytes (F32 tensors only) back into tensors and metadata. */
export function decodeSafetensors(
  bytes: Buffer,
  source = 'safetensors file',
): { tensors: Record<string, HostTensor>; metadata: Record<string, string> } {
  if (bytes.length < 8) throw new OpenClawError('data', `${source} is truncated (${bytes.length} bytes)`);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  if (8 + headerLength > bytes.length)
    throw new OpenClawError('data', `${source}: header length ${headerLength} runs past the end of the file`);
  let header: Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] } | Record<string, string>>;
  try {
    header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8'));
  } catch (err) {
    throw new OpenClawError('data', `${source}: header is not valid JSON`, { cause: err });
  }
  const dataStart = 8 + headerLength;
  const tensors: Record<string, HostTensor> = {};
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = entry as Record<string, string>;
      continue;
    }
    const {
      dtype,
      shape,
      data_offsets: [begin, end],
    } = entry as { dtype: string; shape: number[]; data_offsets: [number, number] };
    if (dtype !== 'F32') throw new OpenClawError('data', `${source}: tensor ${name} has dtype ${dtype}; only F32 is supported`);
    const size = shape.reduce((a, b) => a * b, 1);
    if (end - begin !== size * 4 || dataStart + end > bytes.length)
      throw new OpenClawError('data', `${source}: tensor ${name} has inconsistent offsets`);
    // Copy into a fresh, aligned buffer (the file data may sit at any offset).
    const data = new Float32Array(size);
    Buffer.from(data.buffer).set(bytes.subarray(dataStart + begin, dataStart + end));
    tensors[name] = { shape, data };
  }
  return { tensors, metadata };
}
