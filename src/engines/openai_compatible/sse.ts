// Incremental Server-Sent Events parsing: bytes arrive in arbitrary pieces; events end at a
// blank line; an event's `data:` lines are joined with '\n'. Comments and other fields are ignored.

/** Splits a byte stream into SSE `data` payloads as soon as each event is complete. */
export async function* sseData(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const piece of body) {
    buffer += typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true });
    let end: number;
    while ((end = eventEnd(buffer)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^(\r?\n){1,2}/, '');
      const data = dataOf(block);
      if (data !== undefined) yield data;
    }
  }
  buffer += decoder.decode();
  const data = dataOf(buffer);
  if (data !== undefined && buffer.trim() !== '') yield data;
}

function eventEnd(buffer: string): number {
  const a = buffer.indexOf('\n\n');
  const b = buffer.indexOf('\r\n\r\n');
  if (a < 0) return b;
  if (b < 0) return a;
  return Math.min(a, b);
}

function dataOf(block: string): string | undefined {
  let data: string[] | undefined;
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('data:')) (data ??= []).push(line.slice(line[5] === ' ' ? 6 : 5));
  }
  return data?.join('\n');
}
