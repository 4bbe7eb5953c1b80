// Hint injection (docs/design.md §2): the teacher sees the student's prompt with the hint appended to
// the last user message, then scores the unchanged student response after it.

import type { ChatMessage } from '../engines/types.ts';

/** The marker that introduces the hint inside the user message. */
export const HINT_MARKER = "[user's hint / instruction]";

/**
 * A deep copy of `messages` with `"\n\n[user's hint / instruction]\n" + hint` appended to the
 * last `user` message (or to the last message when there is no user message). List contents
 * get the text appended to their last text part, or a new text part when they have none.
 * The input is never modified.
 */
export function injectHint(messages: readonly ChatMessage[], hint: string): ChatMessage[] {
  const block = `${HINT_MARKER}\n${hint.trim()}`;
  const copy = structuredClone(messages) as ChatMessage[];
  if (copy.length === 0) return [{ role: 'user', content: block }];
  let target = copy.length - 1;
  for (let i = copy.length - 1; i >= 0; i--) {
    if (copy[i].role === 'user') {
      target = i;
      break;
    }
  }
  const message = copy[target];
  message.content = appendToContent(message.content, block);
  return copy;
}

function appendToContent(content: ChatMessage['content'], block: string): ChatMessage['content'] {
  if (typeof content === 'string') return content === '' ? block : `${content}\n\n${block}`;
  if (!Array.isArray(content)) return block;
  for (let i = content.length - 1; i >= 0; i--) {
    const part = content[i];
    if (part.type === 'text' && typeof part.text === 'string') {
      part.text = part.text === '' ? block : `${part.text}\n\n${block}`;
      return content;
    }
  }
  content.push({ type: 'text', text: `\n\n${block}` });
  return content;
}
