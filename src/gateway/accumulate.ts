// Rebuilding the assistant's answer from what the upstream sent — streamed chunks or one JSON
// body — with everything training needs: text, tool calls, finish reason, per-token log-probs,
// and token ids when the engine returns them (vLLM `return_token_ids`, our engines).
import type { ChatMessage } from '../engines/types.ts';
import { LazyInts } from '../raw-json/lazy-ints.ts';
import { withoutKeys } from '../raw-json/objects.ts';

type Json = Record<string, unknown>;

interface ToolCallParts {
  id?: string;
  type?: string;
  name: string;
  arguments: string;
}

/** The answer of choice 0 as it accumulates. */
export class AnswerAccumulator {
  content = '';
  reasoning = '';
  private sawContent = false;
  private readonly calls: ToolCallParts[] = [];
  finishReason: string | null = null;
  /** The stop string that ended the answer, when the engine says (vLLM's `stop_reason`). */
  stopSequence: string | null = null;
  logprobs: number[] = [];
  logprobTokens: string[] = [];
  tokenIds: number[] = [];
  /** The engine's prompt ids; as text (LazyInts) when they came as JSON, parsed when recorded. */
  promptTokenIds?: number[] | LazyInts;
  usage?: Json;
  /** Policy version the engine reports with the answer (in-process engines do). */
  policyVersion?: number;
  extraChoices = 0;

  /** Adds one streamed chunk. */
  addChunk(chunk: Json): void {
    if (typeof chunk.policy_version === 'number') this.policyVersion = chunk.policy_version;
    if (isTokenIds(chunk.prompt_token_ids)) this.promptTokenIds = chunk.prompt_token_ids;
    if (chunk.usage && typeof chunk.usage === 'object') this.usage = chunk.usage as Json;
    const choices = chunk.choices as Json[] | undefined;
    if (!Array.isArray(choices)) return;
    for (const choice of choices) {
      if ((choice.index ?? 0) !== 0) {
        this.extraChoices++;
        continue;
      }
      const delta = (choice.delta ?? {}) as Json;
      if (typeof delta.content === 'string') {
        this.content += delta.content;
        this.sawContent = true;
      }
      if (typeof delta.reasoning_content === 'string') this.reasoning += delta.reasoning_content;
      if (Array.isArray(delta.tool_calls)) for (const tc of delta.tool_calls as Json[]) this.addToolCallDelta(tc);
      this.addChoiceTokens(choice);
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
      if (typeof choice.stop_reason === 'string') this.stopSequence = choice.stop_reason;
    }
  }

  /** Takes a whole non-streamed completion body. */
  addCompletion(body: Json): void {
    if (typeof body.policy_version === 'number') this.policyVersion = body.policy_version;
    if (isTokenIds(body.prompt_token_ids)) this.promptTokenIds = body.prompt_token_ids;
    if (body.usage && typeof body.usage === 'object') this.usage = body.usage as Json;
    const choice = ((body.choices as Json[]) ?? []).find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    this.extraChoices = (body.choices as Json[]).length - 1;
    const msg = (choice.message ?? {}) as Json;
    if (typeof msg.content === 'string') {
      this.content = msg.content;
      this.sawContent = true;
    }
    if (typeof msg.reasoning_content === 'string') this.reasoning = msg.reasoning_content;
    if (Array.isArray(msg.tool_calls)) {
      for (const tc of msg.tool_calls as Json[]) {
        const fn = (tc.function ?? {}) as Json;
        this.calls.push({
          id: tc.id as string | undefined,
          type: (tc.type as string) ?? 'function',
          name: String(fn.name ?? ''),
          arguments: String(fn.arguments ?? ''),
        });
      }
    }
    this.addChoiceTokens(choice);
    this.finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
    if (typeof choice.stop_reason === 'string') this.stopSequence = choice.stop_reason;
  }

  private addToolCallDelta(tc: Json): void {
    const index = typeof tc.index === 'number' ? tc.index : this.calls.length;
    const slot = (this.calls[index] ??= { name: '', arguments: '' });
    if (typeof tc.id === 'string') slot.id = tc.id;
    if (typeof tc.type === 'string') slot.type = tc.type;
    const fn = (tc.function ?? {}) as Json;
    if (typeof fn.name === 'string') slot.name += fn.name;
    if (typeof fn.arguments === 'string') slot.arguments += fn.arguments;
  }

  private addChoiceTokens(choice: Json): void {
    const lp = choice.logprobs as Json | null | undefined;
    if (lp && Array.isArray(lp.content)) {
      for (const entry of lp.content as Json[]) {
        this.logprobs.push(Number(entry.logprob));
        this.logprobTokens.push(String(entry.token ?? ''));
      }
    }
    if (Array.isArray(choice.token_ids)) for (const id of choice.token_ids as number[]) this.tokenIds.push(id);
  }

  /** The assistant message as a client would replay it. */
  message(): ChatMessage {
    const msg: ChatMessage = { role: 'assistant', content: this.sawContent || this.calls.length === 0 ? this.content : null };
    if (this.calls.length > 0) {
      msg.tool_calls = this.calls.filter(Boolean).map((c, i) => ({
        id: c.id ?? `call_${i}`,
        type: c.type ?? 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    if (this.reasoning !== '') msg.reasoning_content = this.reasoning;
    return msg;
  }
}

function isTokenIds(v: unknown): v is number[] | LazyInts {
  return Array.isArray(v) || v instanceof LazyInts;
}

/** Removes the log-probs (and token ids) we asked for on the client's behalf from a chunk/body. */
export function stripTokenData(obj: Json, keepLogprobs: boolean, keepTokenIds: boolean): Json {
  const choices = obj.choices as Json[] | undefined;
  const out: Json = keepTokenIds ? { ...obj } : withoutKeys(obj, PROMPT_IDS);
  if (Array.isArray(choices)) {
    out.choices = choices.map((c) => {
      const copy: Json = keepTokenIds ? { ...c } : withoutKeys(c, TOKEN_IDS);
      if (!keepLogprobs) copy.logprobs = null;
      return copy;
    });
  }
  return out;
}

const PROMPT_IDS = new Set(['prompt_token_ids']);
const TOKEN_IDS = new Set(['token_ids']);
