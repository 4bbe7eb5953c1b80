// `openclaw-rl redact`: the privacy detector on the command line, for scripts and benchmarks.
// Reads text on stdin (or, with --jsonl, lines of `{"text": …}`) and prints one JSON line per
// input: the redacted text and the findings `{type, kind, start, end}` (offsets into the input).
// Placeholders are numbered across the whole input, as within one session on the server.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { OpenClawError } from '../errors/index.ts';
import { detect, Redactor } from '../privacy/index.ts';

function line(redactor: Redactor, text: string): string {
  const findings = detect(text);
  return `${JSON.stringify({ text: redactor.redact(text, findings), findings })}\n`;
}

/** Redacts `input` to `output`; a bad JSONL line is an error naming its line number. */
export async function redactStream(input: Readable, output: Writable, jsonl: boolean): Promise<void> {
  const redactor = new Redactor();
  if (!jsonl) {
    let text = '';
    for await (const chunk of input) text += chunk;
    output.write(line(redactor, text));
    return;
  }
  let n = 0;
  for await (const raw of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    n++;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new OpenClawError('invalid_request', `stdin line ${n}: not JSON (${(err as Error).message})`);
    }
    const text = (value as { text?: unknown } | null)?.text;
    if (typeof text !== 'string')
      throw new OpenClawError('invalid_request', `stdin line ${n}: expected {"text": "…"}, got ${raw.slice(0, 80)}`);
    output.write(line(redactor, text));
  }
}
