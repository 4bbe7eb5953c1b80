// The drift probe file (`evaluation.probe_file`): JSONL, one prompt per line, either
// `{"messages": [{"role": "user", "content": "…"}, …]}` or `{"prompt": "…"}` (one user message),
// each with optional `"tools"` in OpenAI's function shape: the answer's tool calls are then checked
// against them (the gate's tool-call validity).
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

/** A function the probe offers the model, as an OpenAI chat request lists it. */
const ProbeTool = z
  .object({
    type: z.literal('function'),
    function: z
      .object({
        name: z.string().min(1, 'must not be empty'),
        description: z.string().optional(),
        parameters: z
          .object({ required: z.array(z.string()).optional() })
          .passthrough()
          .optional(),
      })
      .passthrough(),
  })
  .strict();
export type ProbeTool = z.infer<typeof ProbeTool>;

const tools = z.array(ProbeTool).min(1, 'must list at least one tool').optional();
const MessagesLine = z.object({ messages: z.array(ProbeMessage).min(1, 'must hold at least one message'), tools }).strict();
const PromptLine = z.object({ prompt: z.string().min(1, 'must not be empty'), tools }).strict();

/** One probe: the chat messages a new version answers. */
export interface Probe {
  /** `file:line`, for messages. */
  where: string;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  /** Functions offered with the messages: an answer that calls one must call it well. */
  tools?: ProbeTool[];
}

function lineError(where: string, message: string): OpenClawError {
  return new OpenClawError('config', `evaluation.probe_file ${where}: ${message}`, { param: 'evaluation.probe_file' });
}

/** What zod says about one line, in a sentence (the first issue, with its field path). */
function describe(err: z.ZodError): string {
  const issue = err.issues[0];
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

/** A line's probe: the `messages` form or the `prompt` form, whichever key it has. */
function probeOf(json: unknown, where: string): Probe {
  const isObject = typeof json === 'object' && json !== null && !Array.isArray(json);
  if (isObject && 'messages' in json) {
    const parsed = MessagesLine.safeParse(json);
    if (!parsed.success) throw lineError(where, describe(parsed.error));
    return { where, messages: parsed.data.messages, ...(parsed.data.tools ? { tools: parsed.data.tools } : {}) };
  }
  if (isObject && 'prompt' in json) {
    const parsed = PromptLine.safeParse(json);
    if (!parsed.success) throw lineError(where, describe(parsed.error));
    return { where, messages: [{ role: 'user', content: parsed.data.prompt }], ...(parsed.data.tools ? { tools: parsed.data.tools } : {}) };
  }
  throw lineError(where, 'expected {"messages": [{"role": …, "content": …}, …]} or {"prompt": "…"}, each with optional "tools"');
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
    probes.push(probeOf(json, where));
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
