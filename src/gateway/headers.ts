// Reading request headers as Node gives them (lower-case names; a repeated header is an array).

/** `headers[name]` as one trimmed non-empty string (the first, when repeated). */
export function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(headers: Record<string, unknown>): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(headerValue(headers, 'authorization') ?? '')?.[1];
}
