// A judge or teacher that is not on this machine reads only redacted text (issue 38). The scripted
// judge and teacher run on loopback but are declared remote (privacy.local_hosts): what reaches the
// judge has placeholders for the e-mail address and the key in the turn, its hint comes back in
// placeholders; a teacher here scores the hinted prompt with the real address put back, a remote
// one with the placeholders. privacy.mode strict also keeps turns with personal data from training.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { hintAnswer } from '../support/scripted-judge.ts';
import { outcomeOf, runSession, samplesByTurn, startScoring, type ScoringHarness } from './helpers.ts';

const EMAIL = 'marta.vidal@correo-ejemplo.es';
const KEY = `ghp_${'Zk4Qw8Rt2Yp6'.repeat(3)}`;
let h: ScoringHarness;
let local: ScoringHarness;
let remoteBoth: ScoringHarness;
let strict: ScoringHarness;

const script = (v: { kind: string; nextState: string }) => {
  if (v.kind !== 'hint') return undefined;
  const to = /\[EMAIL_\d+\]|[\w.]+@[\w.-]+/.exec(v.nextState)?.[0];
  return to === undefined ? undefined : hintAnswer(`Send the summary to ${to}, not to the team list.`);
};

before(async () => {
  // The judge is reached as `localhost`, which is not among the local hosts here; the teacher as 127.0.0.1, which is.
  h = await startScoring({
    mode: 'openclaw-opd',
    script,
    overrides: ({ judge }) => ({ 'privacy.local_hosts': ['127.0.0.1'], 'judge.base_url': judge.replace('127.0.0.1', 'localhost') }),
  });
  local = await startScoring({ mode: 'openclaw-opd', script });
  remoteBoth = await startScoring({ mode: 'openclaw-opd', script, overrides: { 'privacy.local_hosts': [] } });
  strict = await startScoring({ mode: 'openclaw-opd', script, overrides: { 'privacy.mode': 'strict' } });
});
after(async () => {
  await Promise.all([h.close(), local.close(), remoteBoth.close(), strict.close()]);
});

const USERS = [`Summarise the meeting. My token is ${KEY} if you need the repo.`, `No — send it to ${EMAIL} please.`, 'ok'];
const ANSWERS = ['Here is the summary, sent to the team list.', 'Sent it.', 'Done.'];

test('a remote judge reads placeholders, never the e-mail or the key; the local teacher gets the value back', async () => {
  await runSession(h, 'priv-1', USERS, ANSWERS);
  await h.server.pipeline.whenIdle();
  const sent = JSON.stringify(h.judge.received.map((r) => r.body));
  assert.ok(h.judge.received.length > 0, 'the judge was asked');
  assert.equal(sent.includes(EMAIL), false, 'no e-mail address reached the judge');
  assert.equal(sent.includes(KEY), false, 'no key reached the judge');
  assert.match(sent, /\[EMAIL_1\]/);
  assert.match(sent, /\[SECRET:github_token\]/);
  const t1 = samplesByTurn(h, 'priv-1').get(1)!;
  assert.equal(t1.hint, 'Send the summary to [EMAIL_1], not to the team list.', 'the stored hint keeps the placeholder');
  const hinted = JSON.stringify(h.rendered.at(-1));
  assert.match(
    hinted,
    new RegExp(`Send the summary to ${EMAIL.replace(/\./g, '\\.')}`),
    "the teacher's hinted prompt has the real address",
  );
});

test('a judge on a local host reads the turn as recorded (privacy.local_hosts)', async () => {
  await runSession(local, 'priv-2', USERS, ANSWERS);
  await local.server.pipeline.whenIdle();
  const sent = JSON.stringify(local.judge.received.map((r) => r.body));
  assert.ok(sent.includes(EMAIL));
});

test('a remote teacher scores the hinted prompt with placeholders: neither the e-mail nor the key reaches it', async () => {
  await runSession(remoteBoth, 'priv-3', USERS, ANSWERS);
  await remoteBoth.server.pipeline.whenIdle();
  const hinted = JSON.stringify(remoteBoth.rendered.at(-1));
  assert.match(hinted, /Send the summary to \[EMAIL_1\], not to the team list/);
  assert.match(hinted, /\[SECRET:github_token\]/);
  assert.equal(hinted.includes(EMAIL), false);
  assert.equal(hinted.includes(KEY), false);
  assert.ok((samplesByTurn(remoteBoth, 'priv-3').get(1)?.teacherLogprobs?.length ?? 0) > 0, 'the teacher still scored it');
});

test('privacy.mode strict: a turn whose prompt or answer holds personal data is never a sample (personal_in_sample)', async () => {
  await runSession(strict, 'priv-4', ['What is the capital of Peru?', `Thanks! Mail it to ${EMAIL}`, 'ok'], ['Lima.', 'Will do.', 'Bye.']);
  await strict.server.pipeline.whenIdle();
  assert.equal(outcomeOf(strict, 'priv-4', 1), 'sample', 'no personal data in turn 1');
  assert.equal(outcomeOf(strict, 'priv-4', 2), 'dropped:personal_in_sample');
});
