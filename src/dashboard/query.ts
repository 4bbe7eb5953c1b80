// Query-string parsing of the dashboard API: integers within bounds, or a 400 that names the
// parameter and says what is allowed.
import { invalidRequest } from '../errors/index.ts';
import type { PageRequest } from './types.ts';

/** Default and largest page of the sessions and turns lists. */
export const PAGE_DEFAULT = 20;
/** Largest `limit` a list request may ask for. */
export const PAGE_MAX = 100;

type Query = Record<string, unknown>;

/** An integer query parameter in [min, max], `fallback` when absent. */
export function intParam(query: Query, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (Array.isArray(raw))
    throw invalidRequest(`Query parameter '${name}' was given ${raw.length} times; give it once.`, name, 'invalid_parameter');
  const text = String(raw);
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw invalidRequest(
      `Query parameter '${name}' must be an integer from ${min} to ${max}, got '${text.slice(0, 40)}'.`,
      name,
      'invalid_parameter',
    );
  }
  return Number(text);
}

/** `offset` (default 0) and `limit` (default PAGE_DEFAULT, at most PAGE_MAX) of a list request. */
export function pageParams(query: Query): PageRequest {
  return {
    offset: intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: intParam(query, 'limit', PAGE_DEFAULT, 0, PAGE_MAX),
  };
}
