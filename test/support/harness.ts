// Starts the real server (startServer) on a free loopback port against a scripted upstream,
// with its output in a temp folder; `close()` stops both.
import pino from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { startServer, type RunningServer } from '../../src/app/index.ts';
import { ScriptedUpstream } from './scripted-upstream.ts';
import { tempDir } from './temp.ts';

export interface Harness {
  server: RunningServer;
  upstream: ScriptedUpstream;
  url: string;
  outDir: string;
  close(): Promise<void>;
}

/** Raw config tree merged over a loopback default; `overrides` are dotted paths. */
export async function startHarness(
  overrides: Record<string, unknown> = {},
  opts: {
    apiKey?: string /** Derives rollout.base_url from the scripted upstream's URL (`…/v1`). */;
    baseUrlOf?: (upstreamUrl: string) => string;
  } = {},
): Promise<Harness> {
  const upstream = await new ScriptedUpstream().start();
  const outDir = tempDir('ocrl-test-');
  const config = parseConfig(
    {
      rollout: {
        provider: 'openai_compatible',
        base_url: opts.baseUrlOf?.(upstream.url) ?? upstream.url,
        model_id: 'policy-upstream',
        max_tokens: 256,
        timeout_s: 5,
        first_token_timeout_s: 2,
        max_retries: 1,
      },
    },
    // Any model name is accepted unless a test says otherwise (test/gateway/model-names.test.ts).
    { env: {}, overrides: { output_dir: outDir, 'server.port': 0, 'server.model_aliases': ['*'], ...overrides } },
  );
  const server = await startServer(config, { apiKey: opts.apiKey, log: pino({ level: 'silent' }) });
  return {
    server,
    upstream,
    url: server.url,
    outDir,
    async close() {
      await server.close();
      await upstream.stop();
    },
  };
}

/** POST JSON and return status + parsed body (or text). */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Reads an SSE response into its data payloads. */
export async function readSse(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => b.slice(6));
}
