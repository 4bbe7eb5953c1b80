// Outgoing HTTP for every client of the package (model channels, teacher, Tinker, simulated users):
// one place that honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY (lowercase names first, as curl and
// undici read them).
//  - NO_PROXY: entries separated by commas or spaces; `host` or `host:port` match exactly, `.suffix`
//    or `*.suffix` match that domain's hosts, `*` turns the proxy off (undici's EnvHttpProxyAgent
//    rules, lib/dispatcher/env-http-proxy-agent.js #shouldProxy).
//  - Loopback targets (localhost, *.localhost, 127.0.0.0/8, ::1) never go through a proxy, as in Go's
//    net/http ProxyFromEnvironment: a proxy on another machine cannot reach this machine's loopback,
//    and a proxy set for the internet must not capture a local model server (or the tests' servers).
//  - http:// targets are sent to the proxy as absolute-URI requests (`GET http://host/path`), https://
//    targets through a CONNECT tunnel — what curl does, and what proxies that allow CONNECT only to
//    port 443 accept.
// Why not EnvHttpProxyAgent itself: in undici 6 it prints an "experimental" process warning and
// proxies loopback; a proxied client here is a ProxyAgent, a direct one the single-origin Pool it
// always was.
import { Pool, ProxyAgent, type Dispatcher } from 'undici';

type Env = Record<string, string | undefined>;

/** Whether `hostname` (no port; IPv6 with or without brackets) is this machine's loopback. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function noProxyMatches(noProxy: string, hostname: string, port: number): boolean {
  const entries = noProxy.split(/[,\s]/).filter((e) => e !== '');
  if (entries.includes('*')) return true;
  return entries.some((raw) => {
    const m = /^(.+):(\d+)$/.exec(raw);
    const host = (m ? m[1] : raw).toLowerCase().replace(/^\[|\]$/g, '');
    if (m && Number(m[2]) !== port) return false;
    return /^[.*]/.test(host) ? hostname.endsWith(host.replace(/^\*/, '')) : hostname === host;
  });
}

/** The lowercase variable, else the uppercase one; an empty value counts as unset. */
function variable(env: Env, lower: string): string | undefined {
  const v = env[lower] || env[lower.toUpperCase()];
  return v === undefined || v === '' ? undefined : v;
}

/** The proxy URL a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: string | URL, env: Env = process.env): string | undefined {
  const url = typeof target === 'string' ? new URL(target) : target;
  const hostname = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopback(hostname)) return undefined;
  const https = url.protocol === 'https:';
  const httpProxy = variable(env, 'http_proxy');
  const proxy = https ? (variable(env, 'https_proxy') ?? httpProxy) : httpProxy;
  if (proxy === undefined) return undefined;
  const port = Number(url.port) || (https ? 443 : 80);
  if (noProxyMatches(variable(env, 'no_proxy') ?? '', hostname, port)) return undefined;
  return proxy;
}

const fetchAgents = new Map<string, ProxyAgent>();

/**
 * For `fetch` calls: the proxy agent a request to `target` must use (one per proxy and scheme,
 * kept for the process), or undefined for a direct request.
 */
export function proxyAgentFor(target: string | URL, env: Env = process.env): Dispatcher | undefined {
  const url = typeof target === 'string' ? new URL(target) : target;
  const proxy = proxyFor(url, env);
  if (proxy === undefined) return undefined;
  const key = `${url.protocol} ${proxy}`;
  let agent = fetchAgents.get(key);
  if (agent === undefined) {
    agent = new ProxyAgent({ uri: proxy, proxyTunnel: url.protocol === 'https:' });
    fetchAgents.set(key, agent);
  }
  return agent;
}

/**
 * A dispatcher for requests to one origin: a keep-alive Pool with `opts`, or, when the environment
 * names a proxy for that origin, a ProxyAgent whose connections get the same options. Callers pass
 * `origin` with every request (a Pool ignores it, the ProxyAgent routes by it).
 */
export function originDispatcher(origin: string, opts: Pool.Options = {}, env: Env = process.env): Dispatcher {
  const proxy = proxyFor(origin, env);
  if (proxy === undefined) return new Pool(origin, opts);
  // Every pool the agent makes — to the proxy, or through a tunnel — keeps the caller's timeouts.
  const factory = (o: string | URL, extra: object) => new Pool(o, { ...extra, ...opts });
  return new ProxyAgent({ uri: proxy, proxyTunnel: origin.startsWith('https:'), factory });
}
