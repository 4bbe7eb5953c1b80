// Sends bytes a well-behaved client never would (malformed request lines and headers, bad escapes,
// huge headers) over a plain TCP socket and reads back what the server answered: tests and the
// fuzz bench (bench/fuzz.ts) use it where fetch would refuse to send the request at all.
import { connect } from 'node:net';

/** What came back on the socket: the parsed status line, headers and body, or a hang. */
export interface RawResponse {
  /** 0 when no status line arrived. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The socket neither answered nor closed within the timeout. */
  hung: boolean;
  /** Milliseconds until the socket closed (or the timeout). */
  ms: number;
}

/** Parses one HTTP/1.1 response (Content-Length or chunked body) from raw text. */
export function parseRawResponse(text: string): Omit<RawResponse, 'hung' | 'ms'> {
  // Interim answers (100 Continue) come before the real one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(text) && text.includes('\r\n\r\n')) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = end === -1 ? '' : text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    for (let rest = body; ; ) {
      const nl = rest.indexOf('\r\n');
      const size = parseInt(rest.slice(0, nl), 16);
      if (nl === -1 || !(size > 0)) break;
      out += rest.slice(nl + 2, nl + 2 + size);
      rest = rest.slice(nl + 2 + size + 2);
    }
    body = out;
  } else if (headers['content-length'] !== undefined) {
    body = Buffer.from(body).subarray(0, Number(headers['content-length'])).toString();
  }
  return { status: m ? Number(m[1]) : 0, headers, body };
}

/**
 * Writes `request` (text or bytes) to host:port and collects the answer until the server closes
 * the socket, the first complete response has arrived, or `timeoutMs` passes (then `hung`).
 */
export function rawRequest(url: string, request: string | Buffer, timeoutMs = 5000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const start = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    let settled = false;
    const finish = (hung: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseRawResponse(Buffer.concat(chunks).toString('utf8')), hung, ms: performance.now() - start });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on('data', (c) => {
      chunks.push(c);
      if (complete(Buffer.concat(chunks).toString('utf8'))) finish(false);
    });
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
    socket.write(request);
  });
}

/** True once the text holds a whole response (a keep-alive server leaves the socket open). */
function complete(text: string): boolean {
  while (/^HTTP\/1\.[01] 1\d\d /.test(text) && text.includes('\r\n\r\n')) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const r = parseRawResponse(text);
  if (r.headers['transfer-encoding'] === 'chunked') return text.endsWith('0\r\n\r\n');
  if (r.headers['content-length'] !== undefined) return Buffer.byteLength(text.slice(end + 4)) >= Number(r.headers['content-length']);
  return false;
}
