// Dialogues → token sequences for supervised pretraining. The prompt is rendered exactly as at
// serving time (chat template of all messages but the last, then the assistant generation
// prompt), and the target is the last answer followed by <|im_end|>, so what the model learns to
// continue is byte for byte what it will be asked to continue.

import type { ChatMessage } from '../engines/types.ts';
import { applyChatTemplate, messageBody } from '../chat/index.ts';
import type { SupervisedExample } from '../engines/embedded/index.ts';
import type { Tokenizer } from '../engines/embedded/index.ts';
import type { Dialogue } from './corpus.ts';

/** The prompt ids of a conversation, ready for the assistant's answer. */
export function promptIds(tokenizer: Tokenizer, messages: readonly ChatMessage[]): number[] {
  return applyChatTemplate(tokenizer, messages, { addGenerationPrompt: true });
}

/** One training example: the dialogue's last (assistant) message after the rest. */
export function dialogueExample(tokenizer: Tokenizer, dialogue: Dialogue): SupervisedExample {
  const last = dialogue.messages[dialogue.messages.length - 1];
  return {
    promptIds: promptIds(tokenizer, dialogue.messages.slice(0, -1)),
    targetIds: [...tokenizer.encode(messageBody(last)), tokenizer.special['<|im_end|>']],
  };
}

/** The texts the BPE merges are learned from: every message as the chat template renders it. */
export function tokenizerTexts(dialogues: readonly Dialogue[]): string[] {
  return dialogues.flatMap((d) => d.messages.map((m) => `${m.role}\n${messageBody(m)}\n`));
}
