// The one base-URL normaliser of every outgoing client (model channels, teacher, Tinker). Users
// paste base URLs in every style: `http://h:8000`, `…/v1`, `…/api`, `…/api/v1`, with trailing
// slashes or even the full `/chat/completions` path. One normal form: `<origin><root>/v1`; a client
// whose API lives elsewhere (SGLang's `/generate`, Tinker's `/api/v1`) builds on `root`.
import { OpenClawError } from '../errors/index.ts';

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

/** Parses an http(s) URL, or throws a config error naming `setting` and showing `example`. */
export function parseHttpUrl(input: string, setting: string, example = 'http://localhost:8000/v1'): URL {
  let u: URL | undefined;
  try {
    u = new URL(input);
  } catch {
    // explained below
  }
  // `localhost:8000/v1` parses as a URL with scheme `localhost:`: catch it here, not as a
  // baffling connection error later.
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw new OpenClawError('config', `${setting} '${input}' is not an http(s) URL: write it with its scheme, e.g. ${example}.`, {
      param: setting,
    });
  }
  return u;
}

/**
 * Normalises a base URL so `${prefix}/chat/completions` is right whichever style was given.
 * `setting` names the config key in the error for a URL that is not http(s).
 */
export function normalizeBaseUrl(input: string, setting = 'base_url', example?: string): NormalizedBaseUrl {
  const u = parseHttpUrl(input, setting, example);
  let path = u.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  path = path.replace(/\/(chat\/completions|completions|models)$/, '');
  // `/v1/v1` happens when a client appends /v1 to a base that already had it.
  while (/\/v1\/v1$/.test(path)) path = path.slice(0, -3);
  const root = path.endsWith('/v1') ? path.slice(0, -3) : path;
  const prefix = `${root}/v1`;
  return { origin: u.origin, prefix, url: `${u.origin}${prefix}`, root };
}
