// Users paste base URLs in every style: `http://h:8000`, `…/v1`, `…/api`, `…/api/v1`, with
// trailing slashes or even the full `/chat/completions` path. One normal form: `<origin><prefix>/v1`.
import { OpenClawError } from '../../errors/index.ts';

/** The parts an HTTP pool needs: origin for the connection, path prefix ending in `/v1`. */
export interface NormalizedBaseUrl {
  origin: string;
  /** Path prefix including `/v1`, without trailing slash, e.g. `/api/v1`. */
  prefix: string;
  /** `origin + prefix`, for messages. */
  url: string;
  /** Root path without `/v1` (SGLang's `/generate` lives there), e.g. `/api`. */
  root: string;
}

function parseHttpUrl(input: string, setting: string): URL {
  let u: URL | undefined;
  try {
    u = new URL(input);
  } catch {
    // explained below
  }
  // `localhost:8000/v1` parses as a URL with scheme `localhost:`: catch it here, not as a
  // baffling connection error later.
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw new OpenClawError(
      'config',
      `${setting} '${input}' is not an http(s) URL: write it with its scheme, e.g. http://localhost:8000/v1.`,
      { param: setting },
    );
  }
  return u;
}

/**
 * Normalises a base URL so `${prefix}/chat/completions` is right whichever style was given.
 * `setting` names the config key in the error for a URL that is not http(s).
 */
export function normalizeBaseUrl(input: string, setting = 'base_url'): NormalizedBaseUrl {
  const u = parseHttpUrl(input, setting);
  let path = u.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  path = path.replace(/\/(chat\/completions|completions|models)$/, '');
  // `/v1/v1` happens when a client appends /v1 to a base that already had it.
  while (/\/v1\/v1$/.test(path)) path = path.slice(0, -3);
  const root = path.endsWith('/v1') ? path.slice(0, -3) : path;
  const prefix = `${root}/v1`;
  return { origin: u.origin, prefix, url: `${u.origin}${prefix}`, root };
}
