// Incremental Server-Sent Events parsing: bytes arrive in arbitrary pieces; events end at a
// blank line; an event's `data:` lines are joined with '\n'. Comments and other fields are ignored.

/** Splits pieces of a byte stream into SSE `data` payloads as soon as each event is complete. */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';

  /** The payloads of the events this piece completes, in order. */
  push(piece: Uint8Array | string): string[] {
    const b = (this.buffer += typeof piece === 'string' ? piece : this.decoder.decode(piece, { stream: true }));
    const out: string[] = [];
    let start = 0;
    // A cursor over the buffer: one pass per piece, however many events it holds.
    for (let end = eventEnd(b, start); end >= 0; end = eventEnd(b, start)) {
      const data = dataOf(b.slice(start, b[end - 1] === '\r' ? end - 1 : end));
      if (data !== undefined) out.push(data);
      start = skipLineBreaks(b, end);
    }
    if (start > 0) this.buffer = b.slice(start);
    return out;
  }

  /** The payload of a last event the body ended without its blank line, if any. */
  end(): string[] {
    this.buffer += this.decoder.decode();
    const data = this.buffer.trim() === '' ? undefined : dataOf(this.buffer);
    this.buffer = '';
    return data === undefined ? [] : [data];
  }
}

/** `sseData` over an async byte stream (one payload at a time). */
export async function* sseData(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const parser = new SseParser();
  for await (const piece of body) yield* parser.push(piece);
  yield* parser.end();
}

/** Where the event starting at `from` ends: the '\n' of its last line when a blank line follows, or -1. */
function eventEnd(b: string, from: number): number {
  for (let i = b.indexOf('\n', from); i >= 0; i = b.indexOf('\n', i + 1)) {
    if (b[i + 1] === '\n' || (b[i + 1] === '\r' && b[i + 2] === '\n')) return i;
  }
  return -1;
}

/** Past the '\n' ending an event's last line and the blank line after it. */
function skipLineBreaks(b: string, i: number): number {
  return b[i + 1] === '\n' ? i + 2 : i + 3;
}

function dataOf(block: string): string | undefined {
  // The common event: one data line.
  if (block.startsWith('data:') && !block.includes('\n')) return block.slice(block[5] === ' ' ? 6 : 5);
  let data: string[] | undefined;
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('data:')) (data ??= []).push(line.slice(line[5] === ' ' ? 6 : 5));
  }
  return data?.join('\n');
}
