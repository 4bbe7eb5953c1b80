// Messages between a ThreadClient (main thread) and its worker thread (ThreadHost). Every request
// carries an id; the worker answers it exactly once (result or error), may first send any number
// of partial values for the same id (streamed tokens), and may send events of its own at any time.
// One-way messages (id ONE_WAY) are answered only when they fail.
// Errors cross the thread boundary as plain objects and become OpenClawError again on the main
// side, with kind, status, param and code intact.
import { OpenClawError, type ErrorKind } from '../errors/index.ts';

/** The id of one-way messages: the worker answers only if they fail (with an error of this id). */
export const ONE_WAY = 0;

/** main → worker. `cancel` aborts the in-flight request with id `target`. */
export type ThreadRequest = { id: number; op: string; args: unknown } | { id: number; op: 'cancel'; target: number };

/** An error as it crosses the thread boundary. */
export interface SerializedError {
  kind: ErrorKind;
  message: string;
  status: number;
  param: string | null;
  code: string | null;
}

/** worker → main. */
export type ThreadReply =
  | { id: number; type: 'result'; result: unknown }
  | { id: number; type: 'error'; error: SerializedError }
  | { id: number; type: 'partial'; value: unknown }
  | { type: 'event'; event: unknown };

/** Any thrown value as a SerializedError; non-OpenClawError values become 'internal', prefixed with `label`. */
export function serializeError(err: unknown, label: string): SerializedError {
  if (err instanceof OpenClawError) return { kind: err.kind, message: err.message, status: err.status, param: err.param, code: err.code };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message: `${label} failed: ${message}`, status: 500, param: null, code: null };
}

/** The OpenClawError a SerializedError stands for. */
export function deserializeError(e: SerializedError): OpenClawError {
  return new OpenClawError(e.kind, e.message, { status: e.status, param: e.param, code: e.code });
}
