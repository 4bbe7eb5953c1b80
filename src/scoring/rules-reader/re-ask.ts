// A reply that asks again for what the answer was about: "Can you write a SQL query to find the
// duplicate emails?" after an answer that (says it) wrote that query. The runner gives the judge
// the assistant's answer (rules.ts turnContext); the evaluation sets give a line about what the
// agent did. Only a short answer is compared (a summary line, a one-line reply): in a long answer
// most words of any follow-up on the same topic appear somewhere.

const STOP = new Set(
  "the a an to of for in on at is it this that my me i you your with and or how do does can could would will what where which when why please from about into by be are was were as so just also now then its it's some any all more here there".split(
    ' ',
  ),
);
/** Answers longer than this are not compared (see above). */
const MAX_ANSWER_WORDS = 30;
/** Share of the reply's content words the answer must contain. */
const OVERLAP = 0.6;

const contentWords = (t: string) =>
  (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !STOP.has(w)).map((w) => w.replace(/(ing|ed|es|s)$/, ''));

/** Whether the reply (a question or request) mostly repeats the words of a short answer. */
export function reasksAnswer(reply: string, answer: string | undefined): boolean {
  if (answer === undefined || answer.split(/\s+/).length > MAX_ANSWER_WORDS) return false;
  const asked = contentWords(reply);
  if (asked.length < 3) return false;
  const said = new Set(contentWords(answer));
  return asked.filter((w) => said.has(w)).length / asked.length >= OVERLAP;
}
