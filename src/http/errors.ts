// The one status→error table of outgoing HTTP: which kind of OpenClawError an HTTP status (or a
// connection failure) becomes. Each service (a model channel, the teacher, Tinker) supplies only
// its hints: the message saying what to check, its error code, and a kind where it differs.
import { OpenClawError, type ErrorKind } from '../errors/index.ts';

/** Which row of the table an error status falls in. */
export type StatusClass = 'auth' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'rejected' | 'refused' | 'server';

/** The table: status → row and the kind it has unless the service says otherwise. */
export function statusClass(status: number): { cls: StatusClass; kind: ErrorKind } {
  if (status === 401) return { cls: 'auth', kind: 'authentication' };
  if (status === 403) return { cls: 'forbidden', kind: 'permission' };
  if (status === 404) return { cls: 'not_found', kind: 'not_found' };
  if (status === 409) return { cls: 'conflict', kind: 'upstream' };
  if (status === 429) return { cls: 'rate_limited', kind: 'rate_limit' };
  if (status === 400 || status === 422) return { cls: 'rejected', kind: 'invalid_request' };
  if (status >= 500) return { cls: 'server', kind: 'upstream' };
  return { cls: 'refused', kind: 'upstream' };
}

/** What a service knows of one failed answer, for its hint. */
export interface StatusContext {
  status: number;
  /** The answer body as text. */
  body: string;
  /** Attempts made, retries included (when the caller retried). */
  attempts?: number;
  /** A wait the server asked for (retry-after) that would have passed the total deadline. */
  waitMs?: number;
}

/** One hint: the message, and where the service differs from the table, its kind and status. */
export interface Hint {
  message: string;
  code: string;
  kind?: ErrorKind;
  /** HTTP status the error carries (default: the kind's). */
  status?: number;
}

/** A service's hints by row; a row it leaves out uses its `refused` hint (and the table's kind). */
export type StatusHints = { [C in StatusClass]?: (ctx: StatusContext) => Hint } & { refused: (ctx: StatusContext) => Hint };

/** An HTTP error status → the service's explained OpenClawError. */
export function statusError(hints: StatusHints, ctx: StatusContext): OpenClawError {
  const { cls, kind } = statusClass(ctx.status);
  const hint = (hints[cls] ?? hints.refused)(ctx);
  return new OpenClawError(hint.kind ?? kind, hint.message, { status: hint.status, code: hint.code });
}

/** What kind of connection failure happened, from undici's / Node's error codes. */
export type NetworkClass = 'refused' | 'dns' | 'tls' | 'reset' | 'timeout' | 'other';

/** A connection failure classified, with its code and the innermost message. */
export function networkFailure(err: unknown): { cls: NetworkClass; code: string; raw: string } {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const raw = e?.cause?.message ?? e?.message ?? String(err);
  let cls: NetworkClass = 'other';
  if (code === 'ECONNREFUSED') cls = 'refused';
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') cls = 'dns';
  else if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code + raw)) cls = 'tls';
  else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') cls = 'reset';
  else if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'timeout'
  )
    cls = 'timeout';
  return { cls, code, raw };
}

/** A body cut to `max` characters on one line, for messages. */
export function excerpt(body: string, max = 300): string {
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/** Pulls `error.message` (OpenAI shape) or `detail`/`message` out of an error body, else an excerpt. */
export function upstreamMessage(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const e = j.error;
    if (e && typeof e === 'object' && typeof (e as Record<string, unknown>).message === 'string') {
      return (e as Record<string, string>).message;
    }
    if (typeof e === 'string') return e;
    if (typeof j.detail === 'string') return j.detail;
    if (typeof j.message === 'string') return j.message;
  } catch {
    // not JSON: fall through to an excerpt
  }
  return excerpt(body);
}
