// Request checks shared by the engine server's routes: zod issues become OpenAI-style 400s naming
// the offending field, and the tokenizer the server needs (a ChatTokenizer that may also encode
// plain text, for SGLang's `text` input).

import type { z } from 'zod';
import { invalidRequest, type OpenClawError } from '../errors/index.ts';
import type { ChatTokenizer } from '../chat/index.ts';

/** The model's chat tokenizer; `encodeText` enables SGLang's `text` input on /generate. */
export interface EngineServerTokenizer extends ChatTokenizer {
  encodeText?(text: string): number[];
}

/** The first zod issue as a 400 that names the field (`messages[0].role`). */
export function zodToInvalid(err: z.ZodError): OpenClawError {
  const issue = err.issues[0];
  const param = issue.path
    .map(String)
    .join('.')
    .replace(/\.(\d+)/g, '[$1]');
  return invalidRequest(`Invalid value for '${param}': ${issue.message}`, param === '' ? null : param, 'invalid_value');
}
