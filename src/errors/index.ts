// Errors as values: every failure the user can see carries a kind, an HTTP status and an
// actionable message. `toOpenAIError` and `exitCodeFor` are the only places that map them to
// the outside world (HTTP bodies and CLI exit codes).

import { redactSecrets } from '../privacy/index.ts';

/** What went wrong, coarsely: decides the HTTP status, OpenAI error `type` and CLI exit code. */
export type ErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'context_length'
  | 'rate_limit'
  | 'upstream'
  | 'upstream_connection'
  | 'upstream_timeout'
  | 'config'
  | 'data'
  | 'internal';

const STATUS: Record<ErrorKind, number> = {
  invalid_request: 400,
  context_length: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  rate_limit: 429,
  upstream: 502,
  upstream_connection: 502,
  upstream_timeout: 504,
  config: 500,
  data: 500,
  internal: 500,
};

const OPENAI_TYPE: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  context_length: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  rate_limit: 'rate_limit_error',
  upstream: 'upstream_error',
  upstream_connection: 'upstream_error',
  upstream_timeout: 'upstream_error',
  config: 'server_error',
  data: 'server_error',
  internal: 'server_error',
};

/** The one error class of the project: a kind, a message that says what to do, and details. */
export class OpenClawError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly param: string | null;
  readonly code: string | null;

  constructor(
    kind: ErrorKind,
    message: string,
    opts: { status?: number; param?: string | null; code?: string | null; cause?: unknown } = {},
  ) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'OpenClawError';
    this.kind = kind;
    this.status = opts.status ?? STATUS[kind];
    this.param = opts.param ?? null;
    this.code = opts.code ?? null;
  }
}

/** Shorthand for a 400 that names the offending request field. */
export function invalidRequest(message: string, param: string | null = null, code: string | null = null) {
  return new OpenClawError('invalid_request', message, { param, code });
}

/** OpenAI's error body: `{"error":{"message","type","param","code"}}`. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Maps any thrown value to (status, OpenAI error body); unknown errors become a 500. */
export function toOpenAIError(err: unknown): { status: number; body: OpenAIErrorBody } {
  // A message may quote a request or an upstream's answer: a secret in it is not repeated.
  if (err instanceof OpenClawError) {
    return {
      status: err.status,
      body: { error: { message: redactSecrets(err.message), type: OPENAI_TYPE[err.kind], param: err.param, code: err.code } },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    status: 500,
    body: { error: { message: `internal error: ${redactSecrets(message)}`, type: 'server_error', param: null, code: null } },
  };
}

/** CLI exit code for an error: 2 for bad config/usage, 3 for upstream trouble, 1 otherwise. */
export function exitCodeFor(err: unknown): number {
  if (!(err instanceof OpenClawError)) return 1;
  if (err.kind === 'config' || err.kind === 'invalid_request') return 2;
  if (err.kind.startsWith('upstream') || err.kind === 'authentication' || err.kind === 'not_found') return 3;
  return 1;
}
