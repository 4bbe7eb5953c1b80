// The embedded model's ChatTokenizer (token-chat-channel.ts): the ChatML template of
// embedded-chat-template.ts, the byte-level BPE for text, and <|im_end|> / <|endoftext|> as end of turn.
// Tool definitions: the tiny model was never trained on tools, and agents send many kilobytes of
// them, which would not fit its context. By default they are ignored (the prompt ids, and so the
// trained samples, do not contain them); `tools: 'system'` renders one line per function into the
// system message instead, for checkpoints trained with such a prompt.

import type { ChatMessage } from '../engines/types.ts';
import type { ChatTokenizer } from './token-chat-channel.ts';
import { applyChatTemplate, contentText } from './embedded-chat-template.ts';
import type { Tokenizer } from '../engines/embedded/tokenizer.ts';

/** Options of EmbeddedChatTokenizer. */
export interface EmbeddedChatTokenizerOptions {
  /** 'ignore' (default) drops tool definitions; 'system' lists them in the system message. */
  tools?: 'ignore' | 'system';
}

/** Renders a `tools` array as text: one `- name(params): description` line per function. */
export function toolsText(tools: readonly unknown[]): string {
  const lines = tools.map((tool) => {
    const fn = ((tool as { function?: unknown }).function ?? tool) as { name?: unknown; description?: unknown; parameters?: unknown };
    const params = fn.parameters !== undefined ? JSON.stringify(fn.parameters) : '{}';
    const description = typeof fn.description === 'string' ? `: ${fn.description}` : '';
    return `- ${String(fn.name ?? '')}(${params})${description}`;
  });
  return `# Tools\n${lines.join('\n')}`;
}

/** ChatTokenizer of the embedded model. */
export class EmbeddedChatTokenizer implements ChatTokenizer {
  readonly stopTokenIds: number[];

  constructor(
    readonly tokenizer: Tokenizer,
    private readonly opts: EmbeddedChatTokenizerOptions = {},
  ) {
    this.stopTokenIds = [tokenizer.special['<|im_end|>'], tokenizer.special['<|endoftext|>']];
  }

  encodeChat(messages: ChatMessage[], tools?: unknown[]): number[] {
    return applyChatTemplate(this.tokenizer, this.withTools(messages, tools), { addGenerationPrompt: true });
  }

  /** Plain text → ids; special-token strings become their ids, as SGLang's `text` input does. */
  encodeText(text: string): number[] {
    return this.tokenizer.encode(text, { allowSpecial: true });
  }

  decode(ids: number[]): string {
    return this.tokenizer.decode(ids);
  }

  tokenText(id: number): string {
    return this.tokenizer.decode([id]);
  }

  private withTools(messages: ChatMessage[], tools: unknown[] | undefined): ChatMessage[] {
    if ((this.opts.tools ?? 'ignore') === 'ignore' || tools === undefined || tools.length === 0) return messages;
    const block = toolsText(tools);
    if (messages[0]?.role === 'system') {
      const first = contentText(messages[0].content);
      return [{ ...messages[0], content: first === '' ? block : `${first}\n\n${block}` }, ...messages.slice(1)];
    }
    return [{ role: 'system', content: block }, ...messages];
  }
}
