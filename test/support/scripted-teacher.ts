// A scripted SGLang teacher on loopback: `POST /generate` with `input_ids` and `return_logprob`
// answers like the real server (entry 0 of `input_token_logprobs` is None, entries are
// [logprob, token_id, text]), with a fake model whose log-probs tests can compute by hand.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The fake teacher's log-prob of token `id` at absolute input position `pos` (exact binary fractions). */
export function teacherLogprob(id: number, pos: number): number {
  return -((id % 10) + 1) / 8 - pos / 1024;
}

/** Expected teacher log-probs of `responseIds` after a prompt of `promptLength` tokens. */
export function expectedTeacherLogprobs(promptLength: number, responseIds: number[]): number[] {
  return responseIds.map((id, i) => teacherLogprob(id, promptLength + i));
}

/** Scripted SGLang `/generate` server. */
export class ScriptedTeacher {
  readonly received: Array<{ input_ids: number[]; logprob_start_len: number }> = [];
  /** When it returns true for a request's input ids, the answer lacks the last log-prob (a token mismatch). */
  mismatch: (inputIds: number[]) => boolean = () => false;
  url = '';
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.url !== '/generate') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
          return;
        }
        const body = JSON.parse(raw) as { input_ids: number[]; logprob_start_len: number };
        this.received.push({ input_ids: body.input_ids, logprob_start_len: body.logprob_start_len });
        const start = body.logprob_start_len;
        let entries = body.input_ids.slice(start).map((id, i) => [i === 0 ? null : teacherLogprob(id, start + i), id, null]);
        if (this.mismatch(body.input_ids)) entries = entries.slice(0, -1);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            text: '',
            meta_info: { prompt_tokens: body.input_ids.length, completion_tokens: 0, input_token_logprobs: entries },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
