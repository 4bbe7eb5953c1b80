import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedUpstream } from '../support/scripted-upstream.ts';
import { SampleStore, SAMPLE_STORE_FILE } from '../../src/samples/index.ts';
import { makeSample } from '../support/sample-fixtures.ts';
import { tempDir } from '../support/temp.ts';
import { CLI_BIN, runCli } from '../support/cli.ts';

const BIN = CLI_BIN;

const cli = runCli;

function tmpConfig(text: string): string {
  const dir = tempDir('ocrl-cli-');
  const path = join(dir, 'config.yaml');
  writeFileSync(path, text);
  return path;
}

test('--help lists api-server, train, doctor and export', async () => {
  const r = await cli(['--help']);
  assert.equal(r.code, 0);
  for (const c of ['api-server', 'train', 'doctor', 'export']) assert.match(r.stdout, new RegExp(`\\b${c}\\b`));
});

test('--version prints the package version and exits 0', async () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V']) {
    const r = await cli([flag]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${pkg.version}\n`);
  }
});

test('usage errors exit 2 with the parser’s message', async () => {
  const cases: Array<[string[], RegExp]> = [
    [
      ['train', '--mode', 'foo'],
      /option '--mode <mode>' argument 'foo' is invalid\. Allowed choices are openclaw-rl, openclaw-opd, openclaw-combine/,
    ],
    [['train', '--kl-coef', 'abc'], /--kl-coef expects a number ≥ 0, got 'abc'/],
    [['api-server', '--clip-ratio', '-1'], /--clip-ratio expects a number > 0, got '-1'/],
    [['train', '--bogus'], /unknown option '--bogus'/],
    [['bogus'], /unknown command 'bogus'/],
    [[], /no command given; choose one of the commands listed above/],
    [['engine'], /no command given/],
    [['doctor', '--timeout', 'abc'], /--timeout expects a number > 0, got 'abc'/],
    [['doctor', '--timeout', '0'], /--timeout expects a number > 0, got '0'/],
    [['demo', '--steps', '0'], /--steps expects an integer ≥ 1, got '0'/],
    [['engine', 'serve', '--port', '70000'], /--port expects an integer 0-65535, got '70000'/],
    [
      ['engine', 'serve', '--tinker', '--profile', 'skyrl'],
      /argument 'skyrl' is invalid\. Allowed choices are hosted, skyrl-jax, skyrl-train/,
    ],
    [['engine', 'serve', '--tinker', '--max-lora-adapters', '1'], /--max-lora-adapters expects an integer ≥ 2, got '1'/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stdout, '', `${args.join(' ')} prints nothing on stdout`);
  }
});

test('help, asked for, exits 0', async () => {
  for (const args of [['--help'], ['help'], ['help', 'train'], ['train', '--help']]) {
    const r = await cli(args);
    assert.equal(r.code, 0, args.join(' '));
    assert.match(r.stdout, /Usage: openclaw-rl/);
  }
});

test('demo with an unknown persona exits 2 before printing its banner', async () => {
  const r = await cli(['demo', '--persona', 'pirate']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /argument 'pirate' is invalid\. Allowed choices are no-markdown, terse, casual, lowercase, friendly-signoff/);
  assert.doesNotMatch(r.stdout + r.stderr, /openclaw-rl demo:/);
});

test('a bad config exits 2 and names the key path', async () => {
  const r = await cli(['api-server', '--config', tmpConfig('rollout:\n  temprature: 0.5\n'), '--port', '0']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /rollout\.temprature: unknown key/);
});

test('a bad flag value is refused with the flag named', async () => {
  const r = await cli(['train', '--majority-vote', 'three']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--majority-vote expects a positive integer, got 'three'/);
});

test('doctor: a healthy channel passes; a wrong key fails with the explanation; exit code says which', async () => {
  const up = await new ScriptedUpstream().start();
  try {
    const good = tmpConfig(`rollout:\n  provider: openai_compatible\n  base_url: ${up.url}\n  model_id: m\n`);
    const ok = await cli(['doctor', '--config', good, '--timeout', '5']);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /rollout\s+http:\/\/127\.0\.0\.1:\d+\/v1\s+m\s+PASS ok: .*log-probs ok/);
    assert.match(ok.stdout, /judge .*PASS in-process \(rules\)/);
    assert.match(ok.stdout, /privacy .*judge\s+INFO reads turns in this process: unredacted, nothing leaves/);

    up.script({ kind: 'status', status: 401, body: { error: { message: 'Invalid API key' } } });
    const bad = await cli(['doctor', '--config', good, '--timeout', '5']);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /rollout .*FAIL 401 upstream_auth .*rollout\.api_key/);
  } finally {
    await up.stop();
  }
});

test('doctor: the teacher row sends a real scoring request; a server that 404s /generate fails it', async () => {
  const up = await new ScriptedUpstream().start();
  try {
    const cfg = tmpConfig(
      `rollout:\n  provider: openai_compatible\n  base_url: ${up.url}\n  model_id: m\nteacher:\n  provider: openai_compatible\n  base_url: ${up.url}\n  logprob_api: sglang\n`,
    );
    const r = await cli(['doctor', '--config', cfg, '--timeout', '5']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /rollout .*PASS ok/);
    assert.match(
      r.stdout,
      /teacher .*FAIL 404 teacher_unavailable: scoring request to http:\/\/127\.0\.0\.1:\d+\/generate failed .*check teacher\.base_url and teacher\.logprob_api \(sglang\)/,
    );
  } finally {
    await up.stop();
  }
});

test('doctor without --config warns that it checks the built-in defaults; a missing rollout.model_id warns', async () => {
  const bare = await cli(['doctor', '--timeout', '5']);
  assert.equal(bare.code, 0, bare.stderr);
  assert.match(bare.stderr, /^openclaw-rl: warning: no --config given: checking the built-in defaults/m);
  const up = await new ScriptedUpstream().start();
  try {
    const r = await cli([
      'doctor',
      '--config',
      tmpConfig(`rollout:\n  provider: openai_compatible\n  base_url: ${up.url}\n`),
      '--timeout',
      '5',
    ]);
    assert.match(r.stderr, /openclaw-rl: warning: rollout\.model_id is not set: requests go to .* as model 'openclaw-rl-policy'/);
    assert.doesNotMatch(r.stderr, /no --config given/);
  } finally {
    await up.stop();
  }
});

test('doctor: an unreachable base URL fails with a connection explanation', async () => {
  const cfg = tmpConfig('rollout:\n  provider: openai_compatible\n  base_url: http://127.0.0.1:9/v1\n');
  const r = await cli(['doctor', '--config', cfg, '--timeout', '5']);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /FAIL 502 upstream_unreachable .*connection refused/);
});

test('export without a sample store explains where it looked', async () => {
  const dir = tempDir('ocrl-cli-');
  const r = await cli(['export', '--format', 'jsonl', '--output-dir', dir]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no sample store at .*samples\.sqlite/);
});

/** A run folder whose sample store holds n samples. */
function runWithSamples(n: number): string {
  const dir = tempDir('ocrl-cli-export-');
  const store = SampleStore.open(join(dir, SAMPLE_STORE_FILE));
  for (let i = 0; i < n; i++) store.addSample(makeSample('s', i));
  store.close();
  return dir;
}

test('export writes snake_case JSONL and says how many samples on stderr', async () => {
  const r = await cli(['export', '--output-dir', runWithSamples(3)]);
  assert.equal(r.code, 0);
  const lines = r.stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.id, l.session_id, l.turn_id, l.prompt_ids]),
    [
      ['s:0', 's', 0, [1, 2, 0]],
      ['s:1', 's', 1, [1, 2, 1]],
      ['s:2', 's', 2, [1, 2, 2]],
    ],
  );
  assert.match(r.stderr, /^openclaw-rl: exported 3 samples from .*samples\.sqlite\n$/);
});

test('export | head -1 prints one line and exits 0, with no EPIPE stack trace', async () => {
  // 5000 lines (~0.8 MB) overflow the pipe's buffer, so export is still writing when head exits.
  const dir = runWithSamples(5000);
  const script = `"${process.execPath}" "${BIN}" export --output-dir "${dir}" 2>"${dir}/stderr" | head -1; echo "\${PIPESTATUS[0]}" >"${dir}/rc"`;
  const r = await new Promise<{ stdout: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', () => resolve({ stdout }));
  });
  assert.equal(JSON.parse(r.stdout.trimEnd()).id, 's:0');
  assert.equal(r.stdout.trimEnd().split('\n').length, 1);
  assert.equal(readFileSync(join(dir, 'rc'), 'utf8').trim(), '0');
  assert.equal(readFileSync(join(dir, 'stderr'), 'utf8'), '');
});

test('train --config configs/embedded.yaml serves the bundled model and stops cleanly on SIGTERM', async () => {
  const outDir = tempDir('ocrl-cli-train-');
  const config = join(import.meta.dirname, '..', '..', 'configs', 'embedded.yaml');
  const child = spawn(process.execPath, [BIN, 'train', '--config', config, '--port', '0', '--output-dir', outDir, '--batch-size', '4'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OPENCLAW_RL_LOG_LEVEL: 'warn' },
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /serving .* at (http:\/\/\S+)\/v1 \(mode openclaw-combine, training\)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`train exited ${code}: ${stderr}`)));
  });
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': 'cli-train' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'How do I boil an egg?' }], max_tokens: 24 }),
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(typeof body.choices[0].message.content, 'string');
  const health = await (await fetch(`${url}/healthz`)).json();
  assert.equal(health.trainer.batch_size, 4);
  const code = await new Promise<number | null>((resolve) => {
    child.on('exit', resolve);
    child.kill('SIGTERM');
  });
  assert.equal(code, 0, stderr);
});
