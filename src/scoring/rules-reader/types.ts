// What the offline judge's readers say about one clause of a user's reply.

/** One clause (a part of a sentence between commas, "but", …) as read by english.ts or chinese.ts. */
export interface ClauseReading {
  /** The clause text, trimmed. */
  text: string;
  /** How the user feels, roughly in [−1, 1]; 0 for instructions (their words say what is wanted). */
  polarity: number;
  /** A complaint read from structure rather than sentiment words, or null. */
  complaint: string | null;
  /** Why the clause is an instruction about the answer (a hint), or null. */
  instruction: string | null;
  /** An imperative or request that starts a new task (neutral, no hint). */
  newTask: boolean;
  /** A plain follow-up question (neutral unless it complains). */
  question: boolean;
}

/** What the reader concluded about a user's reply. */
export interface FeedbackReading {
  score: 1 | 0 | -1;
  hint: string | null;
  /** What decided, for the judge record (e.g. `complaint:"too long"`, `instruction:"no X"`). */
  cues: string[];
}

/** One language's cue lists, as read by languages.ts `readOtherLanguage`. */
export interface Cues {
  approve: RegExp;
  ack: RegExp;
  negative: RegExp;
  future: RegExp;
  instruction: RegExp;
  positive: RegExp;
  /** A request for more work on a result that stands ("次は…も教えて", "jetzt noch …", "maintenant on peut …"). */
  more: RegExp;
}
