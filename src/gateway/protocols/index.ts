// The wire protocols the gateway serves, one row each. Adding one (e.g. Gemini's generateContent)
// is a new file with a `WireProtocol` and one line here; the route, sessions, recording, judging
// and training are shared (docs/design.md, "Where to add a wire protocol").
import { anthropicMessages } from './anthropic-messages.ts';
import { chatCompletions } from './chat-completions.ts';
import { openaiResponses } from './openai-responses.ts';
import type { WireProtocol } from './types.ts';

/** Each row builds its protocol for one gateway (a protocol may keep state, like stored responses). */
export const PROTOCOL_TABLE: ReadonlyArray<() => WireProtocol> = [() => chatCompletions, () => anthropicMessages, () => openaiResponses()];

export type { WireProtocol, CanonicalRequest, StreamRenderer, AnswerContext } from './types.ts';
