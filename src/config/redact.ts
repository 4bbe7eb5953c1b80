// Secrets never leave the process in logs or printed config.

const SECRET_KEY = /(api_?key|secret|token|password|authorization)$/i;

/** Deep copy of a config object with secret-looking keys replaced by '***' (set) or null. */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => redact(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) && typeof v === 'string' ? (v === '' ? '' : '***') : redact(v);
    }
    return out as T;
  }
  return value;
}
