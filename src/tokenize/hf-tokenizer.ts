// Loads a Hugging Face tokenizer and its chat template from a local model folder. Nothing is
// ever downloaded: `rollout.tokenizer` must name a folder that already holds the files.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { Template } from '@huggingface/jinja';
import { OpenClawError } from '../errors/index.ts';
import type { ChatMessage } from '../engines/types.ts';

/** How to render a conversation with the model's chat template. */
export interface RenderOptions {
  /** OpenAI-style tool definitions (`{type:'function', function:{…}}`), passed to the template as-is. */
  tools?: unknown[];
  /** Append the "assistant is about to speak" header, as a server does before generating. */
  addGenerationPrompt: boolean;
  /** Extra template variables, e.g. `{ enable_thinking: false }` for Qwen3; must match the server's. */
  templateKwargs?: Record<string, unknown>;
}

/** A model's tokenizer plus chat template, loaded from a local folder. */
export interface HfTokenizer {
  /** The folder the files came from. */
  readonly dir: string;
  readonly bosToken: string | null;
  readonly eosToken: string | null;
  /** Token ids that end an assistant turn (eos plus generation_config eos ids plus extras). */
  readonly endOfTurnIds: ReadonlySet<number>;
  /**
   * Added tokens the tokenizer always cuts text at (no lstrip/rstrip/single_word, not normalised):
   * the ids of text that starts with one of them do not depend on the text before it.
   */
  readonly splitTokens: readonly string[];
  /** Renders messages to prompt text with the model's chat template. */
  renderChat(messages: ChatMessage[], opts: RenderOptions): string;
  /** Encodes rendered text; special-token text in it (e.g. `<|im_end|>`) maps to its id, nothing is added. */
  encode(text: string): number[];
  /** Decodes ids back to text, special tokens included unless asked otherwise. */
  decode(ids: readonly number[], opts?: { skipSpecialTokens?: boolean }): string;
  /** Id of one token string, or undefined if the vocabulary lacks it. */
  tokenToId(token: string): number | undefined;
}

/** Options of `loadHfTokenizer`. */
export interface LoadTokenizerOptions {
  /** Token strings that also end an assistant turn, besides the configured eos token(s). */
  endOfTurnTokens?: string[];
}

type JsonObject = Record<string, unknown>;

const SETTING = 'rollout.tokenizer';

/** Loads `tokenizer.json`, `tokenizer_config.json` and the chat template from a local folder. */
export async function loadHfTokenizer(dir: string, opts: LoadTokenizerOptions = {}): Promise<HfTokenizer> {
  await requireFolder(dir);
  const tokenizerJson = await readJson(join(dir, 'tokenizer.json'), true);
  const config = (await readJson(join(dir, 'tokenizer_config.json'), true)) as JsonObject;
  const generationConfig = await readJson(join(dir, 'generation_config.json'), false);

  // Templates first: a folder without one fails fast, before the costly vocabulary build.
  const templates = await loadTemplates(dir, config);
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(tokenizerJson as object, config);
  } catch (err) {
    throw new OpenClawError('config', `${join(dir, 'tokenizer.json')} could not be loaded as a Hugging Face tokenizer: ${errText(err)}`, {
      param: SETTING,
      cause: err,
    });
  }
  const bosToken = tokenText(config.bos_token);
  const eosToken = tokenText(config.eos_token);
  const splitTokens = cleanSplitTokens(tokenizerJson);
  const endOfTurnIds = collectEndOfTurnIds(tokenizer, eosToken, generationConfig, opts.endOfTurnTokens ?? []);
  // Templates read these names (Llama puts bos_token in the text itself, hence encode adds nothing).
  const specialVars = {
    bos_token: bosToken ?? '',
    eos_token: eosToken ?? '',
    pad_token: tokenText(config.pad_token) ?? '',
    unk_token: tokenText(config.unk_token) ?? '',
  };

  return {
    dir,
    bosToken,
    eosToken,
    endOfTurnIds,
    splitTokens,
    renderChat(messages, renderOpts) {
      const tools = renderOpts.tools !== undefined && renderOpts.tools.length > 0 ? renderOpts.tools : undefined;
      const template = pickTemplate(templates, tools !== undefined);
      try {
        return template.render({
          ...specialVars,
          ...(renderOpts.templateKwargs ?? {}),
          messages: toTemplateMessages(messages),
          tools,
          add_generation_prompt: renderOpts.addGenerationPrompt,
        });
      } catch (err) {
        throw new OpenClawError('data', `the chat template of ${dir} failed to render these messages: ${errText(err)}`, {
          code: 'template_render_failed',
          cause: err,
        });
      }
    },
    encode(text) {
      return tokenizer.encode(text, { add_special_tokens: false }).ids;
    },
    decode(ids, decodeOpts = {}) {
      if (ids.length === 0) return ''; // the library refuses an empty list
      return tokenizer.decode([...ids], { skip_special_tokens: decodeOpts.skipSpecialTokens ?? false });
    },
    tokenToId(token) {
      return tokenizer.token_to_id(token);
    },
  };
}

/**
 * Shapes OpenAI messages the way serving engines do before templating: text content parts are
 * joined with "\n", null content becomes "", and JSON-string tool-call arguments become objects
 * (vLLM and SGLang do this, so our renders match theirs; non-JSON strings are kept verbatim).
 */
export function toTemplateMessages(messages: ChatMessage[]): JsonObject[] {
  return messages.map((m) => {
    const out: JsonObject = { ...m, content: contentText(m.content) };
    if (Array.isArray(m.tool_calls)) out.tool_calls = m.tool_calls.map(normaliseToolCall);
    return out;
  });
}

function contentText(content: ChatMessage['content']): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
}

function normaliseToolCall(call: Record<string, unknown>): Record<string, unknown> {
  const fn = call.function as JsonObject | undefined;
  if (fn === undefined || typeof fn.arguments !== 'string') return call;
  try {
    const parsed: unknown = JSON.parse(fn.arguments);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return call;
    return { ...call, function: { ...fn, arguments: parsed } };
  } catch {
    return call;
  }
}

interface Templates {
  default: Template;
  named: Map<string, Template>;
}

function pickTemplate(t: Templates, hasTools: boolean): Template {
  if (hasTools) return t.named.get('tool_use') ?? t.default;
  return t.default;
}

async function loadTemplates(dir: string, config: JsonObject): Promise<Templates> {
  // Newer transformers save the template to chat_template.jinja and drop it from the config.
  const jinjaPath = join(dir, 'chat_template.jinja');
  const fromFile = await readText(jinjaPath);
  if (fromFile !== null) return { default: compile(fromFile, jinjaPath), named: new Map() };

  const raw = config.chat_template;
  const where = `${join(dir, 'tokenizer_config.json')} field chat_template`;
  if (typeof raw === 'string') return { default: compile(raw, where), named: new Map() };
  if (Array.isArray(raw)) {
    const named = new Map<string, Template>();
    for (const entry of raw as JsonObject[]) {
      if (typeof entry?.name === 'string' && typeof entry.template === 'string') {
        named.set(entry.name, compile(entry.template, `${where} (${entry.name})`));
      }
    }
    const fallback = named.get('default') ?? named.values().next().value;
    if (fallback !== undefined) return { default: fallback, named };
  }
  throw new OpenClawError(
    'config',
    `${dir} has no chat template: neither chat_template.jinja nor a "chat_template" field in tokenizer_config.json. ` +
      `Point ${SETTING} at the policy model's own folder (instruct/chat models ship one).`,
    { param: SETTING },
  );
}

function compile(source: string, where: string): Template {
  try {
    return new Template(source);
  } catch (err) {
    throw new OpenClawError('config', `the chat template in ${where} does not parse: ${errText(err)}`, { param: SETTING, cause: err });
  }
}

/** Added tokens matched verbatim, with nothing stripped around them (see `HfTokenizer.splitTokens`). */
function cleanSplitTokens(tokenizerJson: unknown): string[] {
  const added = (tokenizerJson as JsonObject).added_tokens;
  if (!Array.isArray(added)) return [];
  return (added as JsonObject[])
    .filter(
      (t) =>
        typeof t.content === 'string' &&
        t.content !== '' &&
        t.lstrip !== true &&
        t.rstrip !== true &&
        t.single_word !== true &&
        t.normalized !== true,
    )
    .map((t) => t.content as string);
}

/** Special tokens appear as plain strings or as AddedToken objects `{content: "…"}`. */
function tokenText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && typeof (value as JsonObject).content === 'string') {
    return (value as JsonObject).content as string;
  }
  return null;
}

function collectEndOfTurnIds(tokenizer: Tokenizer, eosToken: string | null, generationConfig: unknown, extra: string[]): Set<number> {
  const ids = new Set<number>();
  for (const token of [eosToken, ...extra]) {
    if (token === null) continue;
    const id = tokenizer.token_to_id(token);
    if (id === undefined) {
      throw new OpenClawError('config', `end-of-turn token ${JSON.stringify(token)} is not in the vocabulary of the tokenizer`, {
        param: SETTING,
      });
    }
    ids.add(id);
  }
  const genEos = (generationConfig as JsonObject | null)?.eos_token_id;
  for (const id of Array.isArray(genEos) ? genEos : [genEos]) {
    if (typeof id === 'number' && Number.isInteger(id)) ids.add(id);
  }
  return ids;
}

async function requireFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new OpenClawError(
      'config',
      `tokenizer folder ${dir} does not exist or is not a folder; set ${SETTING} to a local Hugging Face model folder (with tokenizer.json and tokenizer_config.json)`,
      { param: SETTING },
    );
  }
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new OpenClawError('config', `cannot read ${path}: ${errText(err)}`, { param: SETTING, cause: err });
  }
}

async function readJson(path: string, required: boolean): Promise<unknown> {
  const text = await readText(path);
  if (text === null) {
    if (!required) return null;
    throw new OpenClawError(
      'config',
      `${path} is missing; ${SETTING} must be a local Hugging Face model folder containing tokenizer.json and tokenizer_config.json`,
      { param: SETTING },
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new OpenClawError('config', `${path} is not valid JSON: ${errText(err)}`, { param: SETTING, cause: err });
  }
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
