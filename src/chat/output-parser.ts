// Turning a model's raw answer text into OpenAI message fields, as the text arrives (token by token,
// or all at once). Qwen3 and other Hermes-style models write `<think>…</think>` before the answer
// and call tools with `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks; clients
// expect `reasoning_content`, `content` and `tool_calls`. The parser gives the same result however
// the text is split into pieces, so a streamed answer and a whole one record the same message.
import { randomUUID } from 'node:crypto';

/** A completed tool call in OpenAI's shape (`arguments` is a JSON string). */
export interface ParsedToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** What one piece of text adds to the answer; absent fields add nothing. */
export interface OutputDelta {
  content?: string;
  reasoning?: string;
  toolCalls?: ParsedToolCall[];
}

/** Parses one answer, piece by piece. */
export interface OutputParser {
  push(text: string): OutputDelta;
  /** The text still held back (a partial tag, trailing whitespace, an unclosed block). */
  finish(): OutputDelta;
  /** Tool-call blocks whose JSON could not be read (kept as content text). */
  readonly malformedToolCalls: number;
}

/** The answer is all content (models without tags, such as the embedded one). */
export class PlainOutputParser implements OutputParser {
  readonly malformedToolCalls = 0;
  push(text: string): OutputDelta {
    return { content: text };
  }
  finish(): OutputDelta {
    return {};
  }
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const CALL_OPEN = '<tool_call>';
const CALL_CLOSE = '</tool_call>';

type State = 'start' | 'think' | 'content' | 'call';

/**
 * Qwen3/Hermes answers: an optional leading think block, then content with tool-call blocks.
 * Whitespace the chat template adds around blocks (newlines after `<think>`, before `</think>`,
 * before a `<tool_call>`) is not part of the fields, so re-rendering the message gives the text back.
 */
export class HermesOutputParser implements OutputParser {
  malformedToolCalls = 0;
  private state: State;
  private buf = '';
  /** Whether content text was already emitted (a malformed block after it gets a newline). */
  private contentStarted = false;
  private sawReasoning = false;
  private sawCall = false;
  /** Leading text the template put there, dropped once content resumes (after `</think>` or a tool call). */
  private trimLead: RegExp | null = null;

  /** @param opts.inThink the prompt already opened a think block (the generation prompt ends in `<think>`). */
  constructor(opts: { inThink?: boolean } = {}) {
    this.state = opts.inThink === true ? 'think' : 'start';
  }

  push(text: string): OutputDelta {
    this.buf += text;
    return this.drain(false);
  }

  finish(): OutputDelta {
    return this.drain(true);
  }

  /** Steps until the buffer and the state stop changing. */
  private drain(final: boolean): OutputDelta {
    const out: OutputDelta = {};
    for (;;) {
      const [buf, state] = [this.buf, this.state];
      this.step(out, final);
      if (this.buf === buf && this.state === state) return out;
    }
  }

  /** Consumes what it can of the buffer in the current state. */
  private step(out: OutputDelta, final: boolean): void {
    switch (this.state) {
      case 'start': {
        const trimmed = this.buf.replace(/^\s+/, '');
        if (trimmed.startsWith(THINK_OPEN)) {
          this.buf = trimmed.slice(THINK_OPEN.length);
          this.state = 'think';
        } else if (final || (trimmed !== '' && !THINK_OPEN.startsWith(trimmed))) {
          this.state = 'content';
        } // else: not enough text yet to know whether a think block opens
        return;
      }
      case 'think': {
        const end = this.buf.indexOf(THINK_CLOSE);
        if (end >= 0 || final) {
          add(out, 'reasoning', this.reasoningText(end >= 0 ? this.buf.slice(0, end) : this.buf, true));
          this.buf = end >= 0 ? this.buf.slice(end + THINK_CLOSE.length) : '';
          this.state = 'content';
          this.trimLead = /^\n+/;
          return;
        }
        // Held back: a partial `</think>` and the newlines before it (the template's, if it closes).
        const keep = heldBack(this.buf, THINK_CLOSE, /\n+$/);
        add(out, 'reasoning', this.reasoningText(this.buf.slice(0, this.buf.length - keep), false));
        this.buf = this.buf.slice(this.buf.length - keep);
        return;
      }
      case 'content': {
        if (this.trimLead !== null) {
          this.buf = this.buf.replace(this.trimLead, '');
          if (this.buf === '') return;
          this.trimLead = null;
        }
        const open = this.buf.indexOf(CALL_OPEN);
        if (open >= 0) {
          // Whitespace between the text and a tool call is the template's, not the content's.
          this.emitContent(out, this.buf.slice(0, open).replace(/\s+$/, ''));
          this.buf = this.buf.slice(open);
          this.state = 'call';
          return;
        }
        if (final) {
          this.emitContent(out, this.sawCall ? this.buf.replace(/\s+$/, '') : this.buf);
          this.buf = '';
          return;
        }
        const keep = heldBack(this.buf, CALL_OPEN, /\s+$/);
        this.emitContent(out, this.buf.slice(0, this.buf.length - keep));
        this.buf = this.buf.slice(this.buf.length - keep);
        return;
      }
      case 'call': {
        const close = this.buf.indexOf(CALL_CLOSE);
        if (close < 0) {
          if (final) {
            // An unclosed block (the answer hit max_tokens): the text stays, as text.
            this.malformedToolCalls++;
            this.emitContent(out, this.contentSeparator() + this.buf);
            this.buf = '';
            this.state = 'content';
          }
          return;
        }
        const block = this.buf.slice(0, close + CALL_CLOSE.length);
        this.buf = this.buf.slice(block.length);
        const call = toolCallOf(block.slice(CALL_OPEN.length, close));
        if (call === null) {
          this.malformedToolCalls++;
          this.emitContent(out, this.contentSeparator() + block);
        } else {
          this.sawCall = true;
          (out.toolCalls ??= []).push(call);
        }
        this.state = 'content';
        this.trimLead = /^\s+/;
        return;
      }
    }
  }

  /** Reasoning without the template's newlines after `<think>` and before `</think>`. */
  private reasoningText(text: string, closing: boolean): string {
    let t = text;
    if (!this.sawReasoning) t = t.replace(/^\n+/, '');
    if (closing) t = t.replace(/\n+$/, '');
    if (t !== '') this.sawReasoning = true;
    return t;
  }

  private emitContent(out: OutputDelta, text: string): void {
    if (text === '') return;
    this.contentStarted = true;
    add(out, 'content', text);
  }

  /** A malformed block kept as text after earlier content is set apart by a newline, as the model wrote it. */
  private contentSeparator(): string {
    return this.contentStarted ? '\n' : '';
  }
}

function add(out: OutputDelta, key: 'content' | 'reasoning', text: string): void {
  if (text !== '') out[key] = (out[key] ?? '') + text;
}

/** How many characters at the end of `text` to hold back: a partial `tag`, and the `tail` run before it. */
function heldBack(text: string, tag: string, tail: RegExp): number {
  let partial = 0;
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) {
      partial = n;
      break;
    }
  }
  const before = text.slice(0, text.length - partial);
  return partial + (before.length - before.replace(tail, '').length);
}

/** `{"name": …, "arguments": {…}}` → a tool call, or null when it is not one. */
export function toolCallOf(json: string): ParsedToolCall | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { name, arguments: args } = parsed as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') return null;
  // Some models write the arguments as a JSON string already; OpenAI's field is a string either way.
  const argText = typeof args === 'string' ? args : JSON.stringify(args ?? {});
  return { id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`, type: 'function', function: { name, arguments: argText } };
}
