// The replies each rule of the offline judge is written for (the edge cases docs/judge.md names),
// with the verdict the judge must give: score and hint. offline.test.ts checks them, and the
// simulated users' pools (src/sim/phrases.ts) must not reuse any of them.

/** One example: the reply, and the judge's expected score and hint. */
export interface RuleExample {
  text: string;
  score: 1 | 0 | -1;
  hint: string | null;
}

/** Examples by rule. */
export const RULE_EXAMPLES: Readonly<Record<string, readonly RuleExample[]>> = {
  'sentiment with negation and intensity': [
    { text: 'not bad', score: 1, hint: null },
    { text: 'not bad at all, thanks', score: 1, hint: null },
    { text: 'not what I wanted', score: -1, hint: null },
    { text: 'terrible', score: -1, hint: null },
    { text: 'This is absolutely terrible.', score: -1, hint: null },
    { text: "It doesn't work.", score: -1, hint: null },
  ],
  'complaints without a sentiment keyword': [
    { text: 'this broke the build', score: -1, hint: null },
    { text: 'why would you delete my tests??', score: -1, hint: null },
    { text: 'meh, still way too wordy', score: -1, hint: null },
    { text: 'that kills the app on launch', score: -1, hint: null },
  ],
  'instructions and constraints become hints': [
    { text: 'Make it shorter.', score: -1, hint: 'Make it shorter.' },
    { text: 'No bullet points please.', score: -1, hint: 'No bullet points please.' },
    { text: 'Only use lowercase.', score: -1, hint: 'Only use lowercase.' },
    { text: 'Keep it under 50 words.', score: -1, hint: 'Keep it under 50 words.' },
    { text: 'tabs, not spaces', score: -1, hint: 'tabs, not spaces' },
    { text: 'You should use metric units.', score: -1, hint: 'You should use metric units.' },
    { text: "Don't touch the config file.", score: -1, hint: "Don't touch the config file." },
    { text: 'Thanks! Next time use pnpm instead of npm.', score: 1, hint: 'Next time use pnpm instead of npm.' },
    { text: 'Great, but please drop the emojis next time.', score: 1, hint: 'please drop the emojis next time.' },
    { text: 'That is way too long. Cut it in half.', score: -1, hint: 'Cut it in half.' },
  ],
  'emoji and short replies': [
    { text: '👍', score: 1, hint: null },
    { text: 'ship it 🚀', score: 1, hint: null },
    { text: '👎', score: -1, hint: null },
    { text: 'ugh 🙄', score: -1, hint: null },
    { text: 'lgtm', score: 1, hint: null },
    { text: 'ok', score: 0, hint: null },
    { text: 'k', score: 0, hint: null },
    { text: 'no', score: -1, hint: null },
    { text: 'nah', score: -1, hint: null },
    { text: '', score: 0, hint: null },
  ],
  'Chinese praise, complaints and instructions': [
    { text: '谢谢，太有用了', score: 1, hint: null },
    { text: '不错不错', score: 1, hint: null },
    { text: '不对', score: -1, hint: null },
    { text: '还是报错', score: -1, hint: null },
    { text: '不要用列表，写成一段话', score: -1, hint: '不要用列表，写成一段话' },
    { text: '别再用英文了', score: -1, hint: '别再用英文了' },
    { text: '以后回答简短一点', score: -1, hint: '以后回答简短一点' },
    { text: '用中文回答', score: -1, hint: '用中文回答' },
    { text: '谢谢！下次记得加上注释', score: 1, hint: '记得加上注释' },
    { text: '这个函数的时间复杂度是多少？', score: 0, hint: null },
    { text: '帮我写一封请假邮件', score: 0, hint: null },
  ],
  'follow-up questions and new tasks are neutral, without a hint': [
    { text: 'What about Python 2?', score: 0, hint: null },
    { text: 'Does this work on Windows too?', score: 0, hint: null },
    { text: 'Now write the tests for it.', score: 0, hint: null },
    { text: 'Write a haiku about autumn.', score: 0, hint: null },
    { text: 'Can you also translate it to German?', score: 0, hint: null },
    { text: 'Thanks! Please now write the tests.', score: 1, hint: null },
  ],
  'retries, descriptions of the answer and missing things are complaints, not hints': [
    { text: 'please try that again', score: -1, hint: null },
    { text: 'Redo it please.', score: -1, hint: null },
    { text: 'It looks like a spreadsheet, not a letter.', score: -1, hint: null },
    { text: 'reads like a manual', score: -1, hint: null },
    { text: 'Too plain, no jokes or anything.', score: -1, hint: null },
    { text: 'everything in French please', score: -1, hint: 'everything in French please' },
    { text: "oh nice, didn't know that was possible", score: 1, hint: null },
  ],
};
