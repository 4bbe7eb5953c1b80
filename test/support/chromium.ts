// Where the browser tests find a Chromium, and what they do without one. playwright-core never
// downloads a browser, so the tests use one already on the machine: OPENCLAW_RL_CHROMIUM if set,
// else the usual system paths, else a browser Playwright installed before. None found: the test is
// skipped with the install command, so `npm test` passes on a bare clone — unless
// OPENCLAW_RL_REQUIRE_BROWSER=1 (set by .ci/run), where a missing browser is a failure.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** System paths of Chromium (Debian/Ubuntu packages) and Chrome, in order of preference. */
export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
];

export const INSTALL_HINT =
  'install it with `apt-get install chromium` (Debian/Ubuntu; .ci/run does), or set OPENCLAW_RL_CHROMIUM to a Chromium or Chrome binary';

/** Playwright's own browser, if one was installed with `npx playwright install` (never downloaded here). */
export function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined; // a platform Playwright has no build for
  }
}

/** Run with this browser, skip with this reason, or fail with this message. */
export type BrowserChoice = { path: string } | { skip: string } | { fail: string };

/** Decides from the environment and what exists; `playwrightPath` is where Playwright keeps its own browser. */
export function chooseBrowser(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean = existsSync,
  playwrightPath?: string,
): BrowserChoice {
  const explicit = env.OPENCLAW_RL_CHROMIUM;
  if (explicit !== undefined && explicit !== '') {
    // Asked for by name: a wrong path is a mistake to report, never a reason to skip.
    return exists(explicit) ? { path: explicit } : { fail: `OPENCLAW_RL_CHROMIUM is ${explicit}, which does not exist; ${INSTALL_HINT}` };
  }
  const candidates = playwrightPath ? [...SYSTEM_CHROMIUMS, playwrightPath] : SYSTEM_CHROMIUMS;
  const found = candidates.find((p) => exists(p));
  if (found !== undefined) return { path: found };
  const missing = `no Chromium found (looked for ${candidates.join(', ')}): ${INSTALL_HINT}`;
  return env.OPENCLAW_RL_REQUIRE_BROWSER === '1'
    ? { fail: `${missing}. OPENCLAW_RL_REQUIRE_BROWSER=1 makes this a failure.` }
    : { skip: missing };
}
