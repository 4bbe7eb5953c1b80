// The page and its static files, shipped in `src/dashboard/public/` and read once at start-up:
// no CDN, no build step. Only files that exist there are served (no path is ever joined from the
// request, so nothing outside the folder can be reached).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the page's files live. */
export const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** One static file, ready to send. */
export interface Asset {
  body: Buffer;
  contentType: string;
}

/** Reads every file of the public folder (flat) into memory, by file name. */
export function loadAssets(dir = PUBLIC_DIR): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const type = TYPES[extname(name)];
    if (type === undefined || !statSync(path).isFile()) continue;
    assets.set(name, { body: readFileSync(path), contentType: type });
  }
  return assets;
}

/**
 * Content-Security-Policy of the page: it may load and call only its own server, so even a
 * model answer that slipped into the DOM as markup could not run script or leak data.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * True for the page shell (HTML, JS, CSS): static files with no data in them. A server with an
 * API key lets these through without one, so a browser can open the page and then send the key
 * on its data requests (`/dashboard/api/*` stays behind the key). Takes the path without query.
 */
export function isDashboardShellPath(path: string): boolean {
  if (path.includes('..') || path.includes('%')) return false;
  return path === '/dashboard' || path === '/dashboard/' || /^\/dashboard\/assets\/[A-Za-z0-9_.-]+$/.test(path);
}
