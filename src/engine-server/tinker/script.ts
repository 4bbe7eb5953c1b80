// Scripted answers of the stand-in (`engine serve --tinker --script FILE`): a tiny random model
// never writes a `<tool_call>` block by itself, so tests of the whole path (real chat template →
// Tinker sampling → tool-call parsing → recording → training) need answers they can predict.
// A rule whose regular expression matches the decoded prompt replaces sampling: its completion is
// encoded with the served tokenizer and returned WITH the model's own log-probs of those tokens
// (temperature 1, as sampled log-probs are), so what the client records is what the learner
// computes and a training step on it is a real one. Stop ids, stop strings and max_tokens cut a
// scripted completion exactly as they cut a sampled one.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { OpenClawError } from '../../errors/index.ts';

/** One rule: the first whose `match` (a JavaScript regular expression) finds the decoded prompt wins. */
export const ScriptRuleSchema = z
  .object({
    /** Regular expression source, tested against the whole decoded prompt (special tokens as text). */
    match: z.string().min(1),
    /** Flags of `match` (e.g. "s", "i"). */
    flags: z
      .string()
      .regex(/^[dgimsuvy]*$/)
      .optional(),
    /** The answer text; special tokens in it (e.g. `<|im_end|>`) become their ids. */
    completion: z.string().min(1),
  })
  .strict();
export type ScriptRule = z.infer<typeof ScriptRuleSchema>;

// An array of rules, or {"rules": [...]}; checked by shape so an error names the rule's field.
const RulesSchema = z.array(ScriptRuleSchema);
const ScriptObjectSchema = z.object({ rules: RulesSchema }).strict();

/** Checks rules (a bad regular expression is a config error naming the rule). */
export function parseScript(raw: unknown, where = 'script'): ScriptRule[] {
  const parsed = Array.isArray(raw) ? RulesSchema.safeParse(raw) : ScriptObjectSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OpenClawError(
      'config',
      `${where}: ${issue.path.join('.') || '(root)'}: ${issue.message} (expected [{"match", "completion", "flags"?}])`,
      {
        param: 'script',
      },
    );
  }
  const rules = Array.isArray(parsed.data) ? parsed.data : parsed.data.rules;
  rules.forEach((r, i) => {
    try {
      new RegExp(r.match, r.flags);
    } catch (err) {
      throw new OpenClawError('config', `${where}: rule ${i} has an invalid regular expression: ${(err as Error).message}`, {
        param: 'script',
      });
    }
  });
  return rules;
}

/** Reads a script file (JSON: an array of rules, or {"rules": [...]}). */
export async function loadScript(file: string): Promise<ScriptRule[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new OpenClawError('config', `--script ${file} could not be read as JSON: ${(err as Error).message}`, {
      param: 'script',
      cause: err,
    });
  }
  return parseScript(raw, file);
}

/** The first rule matching the prompt text, or null (then the model samples). */
export function matchScript(rules: readonly ScriptRule[], prompt: string): ScriptRule | null {
  return rules.find((r) => new RegExp(r.match, r.flags).test(prompt)) ?? null;
}

/** Where a scripted completion ends: its ids cut at a stop id (kept), a stop string, or max_tokens. */
export function cutScripted(
  ids: readonly number[],
  opts: { maxTokens: number; stopTokens: readonly number[]; stopStrings: readonly string[]; decode(ids: readonly number[]): string },
): { tokens: number[]; finishReason: 'stop' | 'length' } {
  const stop = new Set(opts.stopTokens);
  const out: number[] = [];
  for (const id of ids) {
    if (out.length >= opts.maxTokens) return { tokens: out, finishReason: 'length' };
    out.push(id);
    if (stop.has(id)) return { tokens: out, finishReason: 'stop' };
    if (opts.stopStrings.length > 0) {
      const text = opts.decode(out);
      if (opts.stopStrings.some((s) => text.includes(s))) return { tokens: out, finishReason: 'stop' };
    }
  }
  // The script ran out: the answer is complete as written.
  return { tokens: out, finishReason: 'stop' };
}
