// The drift probe file (`evaluation.probe_file`): JSONL, one prompt per line, either
// `{"messages": [{"role": "user", "content": "…"}, …]}` or `{"prompt": "…"}` (one user message).
// Read and validated once when the config is loaded, with errors that name file:line; the trainer
// takes the parsed probes from `probesOf(config)`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { OpenClawError } from '../errors/index.ts';
import type { Config } from './schema.ts';

const ProbeMessage = z
  .object({
    role: z.enum(['system', 'user', 'assistant']),
    content: z.string(),
  })
  .strict();

const ProbeLine = z.union([
  z.object({ messages: z.array(ProbeMessage).min(1, 'must hold at least one message') }).strict(),
  z.object({ prompt: z.string().min(1, 'must not be empty') }).strict(),
]);

/** One probe: the chat messages a new version answers. */
export interface Probe {
  /** `file:line`, for messages. */
  where: string;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
}

function lineError(where: string, message: string): OpenClawError {
  return new OpenClawError('config', `evaluation.probe_file ${where}: ${message}`, { param: 'evaluation.probe_file' });
}

/** What zod says about one line, in a sentence (the first issue, with its field path). */
function describe(err: z.ZodError): string {
  // A union reports one issue per branch: show the branch that got further (a `messages` or `prompt` key).
  const issues = err.issues.flatMap((i) => (i.code === 'invalid_union' ? i.unionErrors.flatMap((u) => u.issues) : [i]));
  const deepest = [...issues].sort((a, b) => b.path.length - a.path.length)[0];
  if (deepest === undefined || deepest.path.length === 0) return 'expected {"messages": [{"role": …, "content": …}, …]} or {"prompt": "…"}';
  return `${deepest.path.join('.')}: ${deepest.message}`;
}

/** Parses probe JSONL text; `file` names it in errors. Blank lines are skipped. */
export function parseProbes(text: string, file: string): Probe[] {
  const probes: Probe[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const where = `${file}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw lineError(where, `not valid JSON (${(err as Error).message})`);
    }
    const parsed = ProbeLine.safeParse(json);
    if (!parsed.success) throw lineError(where, describe(parsed.error));
    const messages = 'messages' in parsed.data ? parsed.data.messages : [{ role: 'user' as const, content: parsed.data.prompt }];
    probes.push({ where, messages });
  });
  if (probes.length === 0) throw lineError(file, 'holds no probes (one JSON object per line)');
  return probes;
}

/** Reads and validates a probe file; a missing file is a config error naming the key. */
export function loadProbeFile(path: string): Probe[] {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new OpenClawError('config', `evaluation.probe_file: cannot read ${file}: ${(err as Error).message}`, {
      param: 'evaluation.probe_file',
    });
  }
  return parseProbes(text, file);
}

/** Probes of configs already loaded (a config is validated once; the trainer reads them here). */
const loaded = new WeakMap<Config, Probe[]>();

/** Loads `config.evaluation.probe_file` into the config's probes (called by parseConfig). */
export function attachProbes(config: Config): void {
  const path = config.evaluation.probe_file;
  if (path !== undefined) loaded.set(config, loadProbeFile(path));
}

/** The config's probes (none without `evaluation.probe_file`). */
export function probesOf(config: Config): Probe[] {
  const path = config.evaluation.probe_file;
  if (path === undefined) return [];
  let probes = loaded.get(config);
  if (probes === undefined) {
    // A config copied after loading: read the file again (validated the same way).
    probes = loadProbeFile(path);
    loaded.set(config, probes);
  }
  return probes;
}
