// A recording pass-through in front of a real Tinker server (the embedded one) for tests that
// assert what went over the wire: every request is forwarded unchanged and recorded with its
// answer. `hold` keeps chosen calls in flight forever (never forwarded, never answered), which is
// how a test catches our server between two calls — no answer is ever made up here (fault
// injection with made-up answers is fake-tinker.ts's job).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readTinkerRequest, type TinkerRequest } from './fake-tinker.ts';

/** A forwarded request and the real server's answer. */
export interface RecordedCall extends TinkerRequest {
  status?: number;
  response?: any;
}

/** The running recorder. */
export interface TinkerRecorder {
  url: string;
  requests: RecordedCall[];
  /** Calls to keep in flight (checked per request; set or clear it at any time). */
  hold?: (path: string, body: Record<string, any>) => boolean;
  paths(): string[];
  /** Answers of retrieve_future that carry a result of `key` (e.g. 'sequences', 'model_id'). */
  results(key: string): any[];
  close(): Promise<void>;
}

/** Starts a recorder on 127.0.0.1 forwarding to `target` (a Tinker server root). */
export async function startTinkerRecorder(target: string): Promise<TinkerRecorder> {
  const held = new Set<import('node:http').ServerResponse>();
  const rec: TinkerRecorder = {
    url: '',
    requests: [],
    paths: () => rec.requests.map((r) => r.path),
    results: (key) => rec.requests.filter((r) => r.path === '/retrieve_future' && r.response?.[key] !== undefined).map((r) => r.response),
    close: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    void readTinkerRequest(req).then(async (request) => {
      const { path, body, text } = request;
      const call: RecordedCall = request;
      rec.requests.push(call);
      if (rec.hold?.(path, body) === true) {
        held.add(res);
        return;
      }
      try {
        const headers: Record<string, string> = { 'content-type': String(req.headers['content-type'] ?? 'application/json') };
        if (req.headers['x-api-key'] !== undefined) headers['x-api-key'] = String(req.headers['x-api-key']);
        const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : text });
        const out = await answer.text();
        call.status = answer.status;
        try {
          call.response = JSON.parse(out);
        } catch {
          call.response = out;
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(out);
      } catch (err) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: `recorder: ${(err as Error).message}` }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rec.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return rec;
}
