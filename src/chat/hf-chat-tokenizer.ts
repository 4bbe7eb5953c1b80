// The ChatTokenizer (token-chat-channel.ts) of a Hugging Face model: its own chat template and
// tokenizer, prompts encoded incrementally (PrefixEncoder: each turn of a session only encodes what
// is new), and Qwen3/Hermes answer parsing (think blocks, tool calls).
import type { ChatMessage } from '../engines/types.ts';
import type { ChatTokenizer } from './token-chat-channel.ts';
import { HermesOutputParser, type OutputParser } from './output-parser.ts';
import type { HfTokenizer } from '../tokenize/index.ts';
import { PrefixEncoder } from './prefix-encoder.ts';

/** Options of HfChatTokenizer. */
export interface HfChatTokenizerOptions {
  /** Extra template variables (e.g. `{ enable_thinking: false }` for Qwen3). */
  templateKwargs?: Record<string, unknown>;
  /** Recent prompts kept for incremental encoding (default 16; 0 turns it off). */
  prefixCacheSize?: number;
}

/** ChatTokenizer over a model folder's tokenizer and chat template. */
export class HfChatTokenizer implements ChatTokenizer {
  readonly stopTokenIds: number[];
  /** Incremental encoder of rendered prompts (its `stats` show what it saved). */
  readonly prompts: PrefixEncoder;
  private readonly thinkOpen?: number;
  private readonly thinkClose?: number;
  private readonly turnStart?: number;
  /** Texts of tokens seen so far (bounded by the vocabulary). */
  private readonly tokenTexts = new Map<number, string>();

  constructor(
    readonly hf: HfTokenizer,
    private readonly opts: HfChatTokenizerOptions = {},
  ) {
    this.stopTokenIds = [...hf.endOfTurnIds];
    this.prompts = new PrefixEncoder((text) => hf.encode(text), hf.splitTokens, opts.prefixCacheSize ?? 16);
    this.thinkOpen = hf.tokenToId('<think>');
    this.thinkClose = hf.tokenToId('</think>');
    this.turnStart = hf.tokenToId('<|im_start|>');
  }

  /** Prompt text of the messages with the generation prompt appended. */
  renderPrompt(messages: ChatMessage[], tools?: unknown[]): string {
    return this.hf.renderChat(messages, { tools, addGenerationPrompt: true, templateKwargs: this.opts.templateKwargs });
  }

  encodeChat(messages: ChatMessage[], tools?: unknown[]): number[] {
    return this.prompts.encode(this.renderPrompt(messages, tools));
  }

  decode(ids: number[]): string {
    return this.hf.decode(ids);
  }

  tokenText(id: number): string {
    // Every answer token needs its text for `logprobs.content`; a token's text never changes.
    let text = this.tokenTexts.get(id);
    if (text === undefined) {
      text = this.hf.decode([id]);
      this.tokenTexts.set(id, text);
    }
    return text;
  }

  /**
   * A Hermes parser; it starts inside a think block when the generation prompt opened one
   * (the last think tag after the final `<|im_start|>` is `<think>`, as with Qwen3-Thinking).
   */
  outputParser(promptIds: readonly number[]): OutputParser {
    let inThink = false;
    // Generation prompts are a handful of tokens: look at the tail only.
    for (let i = promptIds.length - 1; i >= Math.max(0, promptIds.length - 16); i--) {
      if (promptIds[i] === this.thinkClose || promptIds[i] === this.turnStart) break;
      if (promptIds[i] === this.thinkOpen) {
        inThink = true;
        break;
      }
    }
    return new HermesOutputParser({ inThink });
  }
}
