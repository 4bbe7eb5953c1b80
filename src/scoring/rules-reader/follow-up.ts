// A request for more work on an answer that stands: "Nice. Next step: can you add retries?",
// "got the averages, now how do I plot them?", "Installed. Now how do I set up a project?",
// "Booked the trip from your plan. What should I eat there?". The independent writers label
// these +1 (the user takes the result and builds on it); the rules used to read the request as a
// correction (−1) or, without praise, as a plain question (0). Only after something that is not a
// complaint, and only without a word that amends the answer ("instead", "only", "shorter", …).

import { FUTURE } from './english.ts';
import type { ClauseReading } from './types.ts';

/** Words that continue from a result: "now …", "next step: …", "… next?", "… too?", "could you also …", "building on this". */
const CONTINUES =
  /^\W*(?:and|so|now|next(?: step| up)?|then|also|ok(?:ay)?,? (?:so|now)|moving on)\b|\b(?:next|too|as well|also)\W*$|\b(?:can|could|would) you also\b|\b(?:building|based) on (?:this|that|it)\b|\b(?:using|with) the same (?:approach|method|idea|style|format|setup|trick)\b/i;
/** A question or a request for more ("can you …", "how do I …", "let's …"). */
const ASKS =
  /\?\s*$|^\W*(?:(?:and|so|now|next(?: step| up)?|then|also)\W+)*(?:(?:can|could|would|will) (?:you|we)|how|what|where|which|when|let'?s)\b/i;
/** A plain follow-up question (no continuation word needed after a statement). */
const PLAIN_QUESTION =
  /^\W*(?:how (?:do|can|would|should) (?:i|we)|what (?:should|do|can|would) (?:i|we)|where (?:do|can|should) (?:i|we)|is there a way|(?:can|could) you (?:also )?(?:help|show|tell|explain|recommend|suggest))\b.*\?\s*$/i;
/** Words that amend the answer or doubt it: then it is a correction, not more work. */
const AMENDS =
  /\b(instead|rather|only|not|no|never|shorter|longer|less|fewer|again|wrong|fix|still|actually|but|why|without|redo|change|remove|drop)\b|n't\b/i;

const ACK_ONLY = /^(?:\W*(?:hm+|ok(?:ay)?|alright|right|i see|sure|yeah|yep|got it|understood|noted)\W*)+$/i;
const PLAN = /\b(?:i'?ll|i will|i'?m gonna|i'?m going to)\b/i;

/** Whether `sentence` (not the first thing said) asks for more work on the answer. */
export function asksForMore(sentence: string, clauses: readonly ClauseReading[]): boolean {
  if (AMENDS.test(sentence) || !ASKS.test(sentence) || FUTURE.test(sentence)) return false;
  if (CONTINUES.test(sentence)) return true;
  return PLAIN_QUESTION.test(sentence) && clauses.every((c) => c.instruction === null);
}

/** Whether what came before is a result the user took (no complaint, no correction, not a question). */
export function standsBefore(before: readonly ClauseReading[]): boolean {
  // "hm ok.", "Got it.", "I'll start monday.": an acknowledgement or a plan takes no result.
  const said = before.map((c) => c.text).join(' ');
  if (ACK_ONLY.test(said) || PLAN.test(said)) return false;
  return before.length > 0 && before.every((c) => c.complaint === null && c.instruction === null && c.polarity > -0.25);
}
