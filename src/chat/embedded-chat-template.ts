// ChatML-style rendering for the embedded model:
//   <|im_start|>{role}\n{content}<|im_end|>\n   per message, then
//   <|im_start|>assistant\n                       when a generation prompt is asked for.
// Role names and content are encoded WITHOUT special tokens, so a message can never forge a
// turn boundary; only the template itself emits <|im_start|>/<|im_end|>.

import type { ChatMessage } from '../engines/types.ts';
import type { Tokenizer } from '../engines/embedded/tokenizer.ts';

/** Options of applyChatTemplate. */
export interface ChatTemplateOptions {
  /** Append the opening of an assistant turn so the model continues as the assistant. */
  addGenerationPrompt?: boolean;
}

/** Message content as plain text: strings as is, lists of parts joined by their `text` fields. */
export function contentText(content: ChatMessage['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function renderToolCalls(toolCalls: ChatMessage['tool_calls']): string {
  if (toolCalls === undefined || toolCalls.length === 0) return '';
  return toolCalls
    .map((call) => {
      const fn = (call.function ?? {}) as { name?: unknown; arguments?: unknown };
      const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
      return `<tool_call>\n{"name": ${JSON.stringify(fn.name ?? '')}, "arguments": ${args}}\n</tool_call>`;
    })
    .join('\n');
}

/** The text body of one message: its content, then any tool calls as <tool_call> blocks. */
export function messageBody(message: ChatMessage): string {
  const text = contentText(message.content);
  const calls = renderToolCalls(message.tool_calls);
  return text !== '' && calls !== '' ? `${text}\n${calls}` : text + calls;
}

/** Renders messages to token ids with the ChatML template. */
export function applyChatTemplate(tokenizer: Tokenizer, messages: readonly ChatMessage[], opts: ChatTemplateOptions = {}): number[] {
  const start = tokenizer.special['<|im_start|>'];
  const end = tokenizer.special['<|im_end|>'];
  const ids: number[] = [];
  for (const message of messages) {
    ids.push(start, ...tokenizer.encode(`${message.role}\n${messageBody(message)}`), end, ...tokenizer.encode('\n'));
  }
  if (opts.addGenerationPrompt === true) ids.push(start, ...tokenizer.encode('assistant\n'));
  return ids;
}
