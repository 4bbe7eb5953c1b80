import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hintMatches, hintSameFix, parseJudgeSet, scoreJudgeSet } from '../../bench/judge-metrics.ts';
import { parseRelabels } from '../../bench/judge-agreement.ts';
import { tempDir } from '../support/temp.ts';

test('judge set files: comments skipped, \\n unescaped, empty hint is none; malformed lines name file and line', () => {
  const items = parseJudgeSet('# header\nuser\t-1\tMake it shorter.\tMake it shorter.\ntool\t1\ta\\nb\t\n', 'x');
  assert.deepEqual(items, [
    { set: 'x', line: 2, role: 'user', text: 'Make it shorter.', score: -1, hint: 'Make it shorter.' },
    { set: 'x', line: 3, role: 'tool', text: 'a\nb', score: 1, hint: null },
  ]);
  assert.throws(() => parseJudgeSet('user\t2\tok\n', 'x'), /x\.tsv line 1: score must be 1, 0 or -1, got "2"/);
  assert.throws(() => parseJudgeSet('bot\t1\tok\n', 'x'), /x\.tsv line 1: role must be user or tool/);
  assert.throws(() => parseJudgeSet('user 1 ok\n', 'x'), /x\.tsv line 1: expected 3 or 4 tab-separated columns, got 1/);
});

test('hint matching: most expected words covered, mostly expected words given (CJK by character)', () => {
  assert.equal(hintMatches('Make it shorter.', 'make it shorter'), true);
  assert.equal(
    hintMatches('Fix the date.', 'This is wrong, the deadline is Friday not Thursday. Fix the date.'),
    false,
    'too much extra text',
  );
  assert.equal(hintMatches('Keep it under 50 words.', 'Keep it short.'), false, 'the limit is missing');
  assert.equal(hintMatches('以后回答短一点', '以后回答短一点'), true);
  assert.equal(hintMatches('以后回答短一点', '谢谢'), false);
  assert.equal(hintMatches('email', "Property 'email' is missing"), false);
  assert.equal(hintMatches("'email'", 'email'), true, 'quotes around a word are not part of it');
  assert.equal(hintMatches("it's red", 'its red'), false, 'an apostrophe inside a word stays');
});

test('same fix at either extent: the value inside its phrase matches, a whole reply around it does not', () => {
  assert.equal(hintMatches('our codebase is snake_case', 'snake_case'), false, 'the strict match wants most of the phrase');
  assert.equal(hintSameFix('our codebase is snake_case', 'snake_case'), true);
  assert.equal(hintSameFix('use pathlib instead of os.path', 'use pathlib'), true);
  assert.equal(hintSameFix('先给结论，再解释', '先给结论'), true, 'CJK by character: 4 of 7, within 2 × 4 + 4');
  assert.equal(
    hintSameFix('WHERE clause', 'Wow. You ran an UPDATE on the whole table. You forgot the WHERE clause and now every row says shipped.'),
    false,
    'the longer one may have at most 2 × the shorter + 4 words',
  );
  assert.equal(hintSameFix('use pathlib', 'use os.path'), false, 'half of the shorter one is not enough');
  assert.equal(hintSameFix('Make it shorter.', 'make it shorter'), true, 'a strict match is a same-fix match');
});

test('relabel files: judgements by set and id; a bad label names file and line', () => {
  const m = parseRelabels(
    'rid\tset\tid\tlabel\thint\nr-001\theldout-7\th7-001\t-1\tuse tabs\nr-002\theldout-7\th7-002\t0\t\n',
    'relabel-x',
  );
  assert.deepEqual(
    [...m],
    [
      ['heldout-7:h7-001', { score: -1, hint: 'use tabs' }],
      ['heldout-7:h7-002', { score: 0, hint: null }],
    ],
  );
  assert.throws(
    () => parseRelabels('rid\tset\tid\tlabel\thint\nr-1\ts\ti\t2\t\n', 'relabel-x'),
    /relabel-x\.tsv line 2: label must be 1, 0 or -1, got "2"/,
  );
  assert.throws(() => parseRelabels('id\tlabel\n', 'relabel-x'), /relabel-x\.tsv: header must be rid set id label hint/);
});

test('npm run bench:judge-agreement: people agree on verdicts; the strict hint match splits them on extent, either extent does not', () => {
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../bench/judge-agreement.ts')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(res.status, 0, res.stderr);
  const line = (name: string) => res.stdout.split('\n').find((l) => l.startsWith(name))!;
  const num = (l: string, re: RegExp) => Number(re.exec(l)![1]);
  const a = line('writer / relabel-a all');
  assert.ok(num(a, /accuracy ([\d.]+)/) >= 0.9, a);
  assert.ok(num(a, /hint recall ([\d.]+)/) < 0.7, a);
  assert.ok(num(a, /hint recall [\d.]+ {2}either extent ([\d.]+)/) >= 0.9, a);
  const whole = line('writer / whole reply all');
  assert.ok(num(whole, /hint recall [\d.]+ {2}either extent ([\d.]+)/) < 0.5, whole);
});

test('metrics: accuracy, per-class recall, hint recall/precision and false hints on non-negative replies', () => {
  const item = (score: 1 | 0 | -1, hint: string | null) => ({ set: 's', line: 1, role: 'user' as const, text: 't', score, hint });
  const m = scoreJudgeSet([
    { item: item(-1, 'use tabs'), got: { score: -1, hint: 'use tabs' } },
    { item: item(-1, 'no emojis'), got: { score: 0, hint: null } },
    { item: item(1, null), got: { score: 1, hint: 'thanks a lot' } },
    { item: item(0, null), got: { score: 0, hint: null } },
  ]);
  assert.equal(m.accuracy, 0.75);
  assert.deepEqual(m.recall, { [-1]: 0.5, 0: 1, 1: 1 });
  assert.equal(m.hintRecall, 0.5);
  assert.equal(m.hintPrecision, 0.5);
  assert.deepEqual([m.hintRecallEither, m.hintPrecisionEither], [0.5, 0.5]);
  assert.deepEqual([m.falseHints, m.noHintNonNegative, m.falseHintRate], [1, 2, 0.5]);
});

test('npm run bench:judge prints the metrics of both sets and meets the issue-17 targets', () => {
  // The sealed held-out-2 set is scored only when someone reports on it, not on every test run.
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../bench/judge.ts'), '--sets', 'dev,heldout'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(res.status, 0, res.stderr);
  for (const set of ['dev', 'heldout', 'all']) {
    const line = res.stdout.split('\n').find((l) => l.startsWith(set));
    assert.ok(line !== undefined, res.stdout);
    const num = (re: RegExp) => Number(re.exec(line)![1]);
    assert.ok(num(/accuracy ([\d.]+)/) >= 0.85, line);
    assert.ok(num(/recall −1 ([\d.]+)/) >= 0.85, line);
    assert.ok(num(/hint recall ([\d.]+)/) >= 0.8, line);
    assert.ok(num(/false hints ([\d.]+)%/) <= 5, line);
  }
  assert.match(res.stdout, /CPU time per reply: [\d.]+ ms/);
});

test('bench:judge --judge-config refuses a config whose judge is not a model, naming the file', () => {
  const dir = tempDir('bench-judge-');
  const cfg = join(dir, 'c.yaml');
  writeFileSync(cfg, 'judge:\n  provider: rules\n');
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../bench/judge.ts'), '--judge-config', cfg], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.notEqual(res.status, 0);
  assert.match(res.stderr, /c\.yaml: judge\.provider is rules; --judge-config needs an openai_compatible judge/);
});

test('bench:judge --judge-config scores a judge model over HTTP on the same set', async () => {
  const { createServer } = await import('node:http');
  let calls = 0;
  // A judge model that always answers −1: every reply is judged negative, no hint is ever given.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          model: 'j',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Looks bad. \\boxed{-1}' } }],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const dir = tempDir('bench-judge-');
  const cfg = join(dir, 'judge.yaml');
  writeFileSync(cfg, `judge:\n  provider: openai_compatible\n  base_url: http://127.0.0.1:${port}/v1\n  model_id: j\n`);
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../../bench/judge.ts'), '--judge-config', cfg, '--sets', 'dev,heldout'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  server.close();
  assert.equal(code, 0, err);
  assert.match(out, new RegExp(`judge: model from ${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  const all = out.split('\n').find((l) => l.startsWith('all'))!;
  const items = ['dev', 'heldout'].flatMap((s) =>
    parseJudgeSet(readFileSync(join(import.meta.dirname, `../../bench/judge-set/${s}.tsv`), 'utf8'), s),
  );
  const negatives = items.filter((i) => i.score === -1).length;
  assert.match(all, new RegExp(`accuracy ${(negatives / items.length).toFixed(2)} `));
  assert.match(all, /recall −1 1\.00 \/ 0 0\.00 \/ \+1 0\.00 {2}hint recall 0\.00/);
  assert.match(all, /false hints 0\.0%/);
  assert.equal(calls, 2 * items.length, 'one PRM and one hint-judge call per reply');
});
