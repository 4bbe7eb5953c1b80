// The model-judge check of the replay evaluation: does a new answer do what the user's hint asked
// for? Our own short prompt (not the reference's): the hint and the answer, and a boxed yes/no at
// the end. m votes at the judge temperature; the majority decides, a tie or no valid vote leaves the
// answer undecided (not in the rate).
import type { ChatMessage } from '../engines/types.ts';
import { majorityYes } from '../rl/index.ts';
import { lastBoxed, truncateMiddle, type JudgeCall } from '../scoring/index.ts';

/** How the judge is asked. */
export interface HintCheckSettings {
  call: JudgeCall;
  /** Votes per answer (scoring.majority_vote). */
  m: number;
  temperature: number;
  maxTokens: number;
}

/** Longest hint and answer shown to the judge (the middle is cut). */
const MAX_CHARS = 6000;

const INSTRUCTIONS = [
  'You review one reply written by an AI assistant.',
  'Earlier, a user explained what a good reply to the same request should do. That explanation is the GUIDANCE below.',
  'Decide whether the REPLY follows the GUIDANCE: it does what the guidance asks and avoids what it rules out.',
  'Judge only against the guidance, not general quality. If the guidance does not apply to this reply at all, answer no.',
  'Think briefly, then end with \\boxed{yes} or \\boxed{no}.',
].join('\n');

/** The judge prompt for one answer. */
export function hintCheckMessages(hint: string, answer: string): ChatMessage[] {
  return [
    { role: 'system', content: INSTRUCTIONS },
    {
      role: 'user',
      content: `GUIDANCE:\n${truncateMiddle(hint, MAX_CHARS)}\n\nREPLY:\n${truncateMiddle(answer, MAX_CHARS) || '(empty)'}`,
    },
  ];
}

/** The judge's yes/no: the last \boxed{…} when it says yes or no (any case), else null. */
export function parseYesNo(text: string): boolean | null {
  const box = lastBoxed(text)?.trim().toLowerCase();
  if (box === 'yes') return true;
  if (box === 'no') return false;
  return null;
}

/** Whether `answer` satisfies `hint`: the majority of m judge votes (null: tie or no valid vote). */
export async function hintSatisfied(s: HintCheckSettings, hint: string, answer: string): Promise<boolean | null> {
  const messages = hintCheckMessages(hint, answer);
  const votes = await Promise.all(
    Array.from({ length: s.m }, () =>
      s
        .call(messages, { temperature: s.temperature, maxTokens: s.maxTokens })
        .then(parseYesNo)
        .catch(() => null),
    ),
  );
  return majorityYes(votes);
}
