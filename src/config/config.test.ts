import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, parseConfig, redact, TRAIN_DEFAULTS } from './index.ts';
import { OpenClawError } from '../errors/index.ts';
import { tempDir } from '../../test/support/temp.ts';

function writeTmp(text: string): string {
  const dir = tempDir('ocrl-config-');
  const path = join(dir, 'config.yaml');
  writeFileSync(path, text);
  return path;
}

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof OpenClawError, 'expected an OpenClawError');
    assert.equal(err.kind, 'config');
    return err.message;
  }
  assert.fail('expected a config error');
}

test('a good file loads with defaults filled and env expanded', () => {
  const path = writeTmp(`
rollout:
  provider: openai_compatible
  base_url: \${ROLLOUT_URL}
  api_key: \${ROLLOUT_KEY}
  model_id: qwen3-4b
  temperature: 0.6
judge:
  provider: openai_compatible
  base_url: \${JUDGE_URL:-http://127.0.0.1:9000/v1}
  model_id: judge
teacher:
  provider: openai_compatible
  base_url: http://127.0.0.1:9001
  logprob_api: sglang
`);
  const cfg = loadConfig(path, { env: { ROLLOUT_URL: 'http://127.0.0.1:8000/v1', ROLLOUT_KEY: 'sk-secret' } });
  assert.equal(cfg.rollout.base_url, 'http://127.0.0.1:8000/v1');
  assert.equal(cfg.rollout.api_key, 'sk-secret');
  assert.equal(cfg.rollout.temperature, 0.6);
  assert.equal(cfg.rollout.max_tokens, 2048);
  assert.equal(cfg.judge.base_url, 'http://127.0.0.1:9000/v1');
  assert.equal(cfg.judge.temperature, 0);
  assert.equal(cfg.teacher.temperature, 0.7);
  assert.equal(cfg.scoring.majority_vote, 3);
  assert.equal(cfg.training.clip_ratio_high, 0.28);
  assert.equal(cfg.server.default_turn_type, 'main');
});

test('a missing variable names the variable and the key path', () => {
  const msg = configError(() => parseConfig({ rollout: { api_key: '${NOPE_KEY}' } }, { env: {} }));
  assert.match(msg, /rollout\.api_key/);
  assert.match(msg, /NOPE_KEY/);
});

test('unknown keys are errors naming the full path', () => {
  assert.match(
    configError(() => parseConfig({ rollout: { temprature: 0.5 } })),
    /rollout\.temprature: unknown key/,
  );
  assert.match(
    configError(() => parseConfig({ rollouts: {} })),
    /rollouts: unknown key/,
  );
});

test('wrong types and values name the key path', () => {
  assert.match(
    configError(() => parseConfig({ rollout: { temperature: 'hot' } })),
    /rollout\.temperature: Expected number/,
  );
  assert.match(
    configError(() => parseConfig({ rollout: { provider: 'openai' } })),
    /rollout\.provider/,
  );
  assert.match(
    configError(() => parseConfig({ server: { port: 70000 } })),
    /server\.port/,
  );
  assert.match(
    configError(() => parseConfig({ rollout: { base_url: 'not a url' } })),
    /rollout\.base_url/,
  );
  assert.match(
    configError(() => parseConfig([1, 2])),
    /top level must be a mapping/,
  );
});

test('cross-field rules: openai_compatible needs base_url; remote teacher needs a remote logprob_api', () => {
  assert.match(
    configError(() => parseConfig({ rollout: { provider: 'openai_compatible' } })),
    /rollout\.base_url: required/,
  );
  assert.match(
    configError(() => parseConfig({ teacher: { provider: 'openai_compatible', base_url: 'http://x:1' } })),
    /teacher\.logprob_api: must be sglang or vllm/,
  );
});

test('bad YAML and missing files are config errors with the file named', () => {
  assert.match(
    configError(() => loadConfig(writeTmp('rollout: [unclosed'))),
    /not valid YAML/,
  );
  assert.match(
    configError(() => loadConfig('/nonexistent/openclaw.yaml')),
    /cannot read config file \/nonexistent/,
  );
});

test('overrides (CLI flags) win over the file', () => {
  const cfg = parseConfig(
    { training: { batch_size: 4 } },
    { overrides: { 'training.batch_size': 8, 'server.port': 0, mode: 'openclaw-rl' } },
  );
  assert.equal(cfg.training.batch_size, 8);
  assert.equal(cfg.server.port, 0);
  assert.equal(cfg.mode, 'openclaw-rl');
});

test('redaction hides every secret but keeps the rest', () => {
  const cfg = parseConfig({
    server: { api_key: 'server-secret' },
    rollout: { provider: 'openai_compatible', base_url: 'http://h:1/v1', api_key: 'sk-123', max_tokens: 64, tokenizer: '/models/q' },
  });
  const shown = JSON.stringify(redact(cfg));
  assert.ok(!shown.includes('sk-123'));
  assert.ok(!shown.includes('server-secret'));
  const r = redact(cfg);
  assert.equal(r.rollout.api_key, '***');
  assert.equal(r.rollout.max_tokens, 64);
  assert.equal(r.rollout.tokenizer, '/models/q');
});

test('clip_ratio_high below clip_ratio is an error naming the key (also when only clip_ratio was raised)', () => {
  const msg = configError(() => parseConfig({ training: { clip_ratio: 0.3, clip_ratio_high: 0.2 } }, { env: {} }));
  assert.match(msg, /training\.clip_ratio_high: must be ≥ training\.clip_ratio \(0\.3\), got 0\.2/);
  const flag = configError(() => parseConfig({}, { env: {}, overrides: { 'training.clip_ratio': 0.4 } }));
  assert.match(flag, /training\.clip_ratio_high: must be ≥ training\.clip_ratio \(0\.4\), got 0\.28: .*the default is 0\.28/);
  assert.equal(parseConfig({ training: { clip_ratio: 0.25, clip_ratio_high: 0.25 } }, { env: {} }).training.clip_ratio_high, 0.25);
});

test('a missing rollout.model_id is a warning that names the default, per provider; a set one is not', () => {
  const warnings = (tree: unknown) => {
    const out: string[] = [];
    parseConfig(tree, { env: {}, onWarning: (w) => out.push(w) });
    return out;
  };
  const [upstream] = warnings({ rollout: { provider: 'openai_compatible', base_url: 'http://127.0.0.1:8000/v1' } });
  assert.match(upstream, /rollout\.model_id is not set: requests go to http:\/\/127\.0\.0\.1:8000\/v1 as model 'openclaw-rl-policy'/);
  const [embedded] = warnings({});
  assert.match(embedded, /rollout\.model_id is not set: the policy is served as model 'openclaw-rl-policy'/);
  assert.deepEqual(warnings({ rollout: { model_id: 'mine' } }), []);
  // a flag or an env-expanded value counts as set
  const out: string[] = [];
  parseConfig({ rollout: { model_id: '${M}' } }, { env: { M: 'x' }, onWarning: (w) => out.push(w) });
  assert.deepEqual(out, []);
});

test("'train' defaults: the gate on with a held-out share where the config says nothing; the config's own words win", () => {
  const train = (raw: Record<string, unknown>) => parseConfig(raw, { env: {}, defaults: TRAIN_DEFAULTS });
  const on = train({});
  assert.equal(on.evaluation.holdout_fraction, 0.1);
  assert.equal(on.evaluation.gate?.max_drop, 0.5, 'every gate setting at its default');
  assert.equal(on.evaluation.gate?.probes.enabled, true);
  const off = train({ evaluation: { gate: false } });
  assert.equal(off.evaluation.gate, undefined, 'gate: false turns it off');
  assert.equal(train({ evaluation: { holdout_fraction: 0.3, gate: { max_drop: 1 } } }).evaluation.holdout_fraction, 0.3);
  assert.equal(train({ evaluation: { gate: { max_drop: 1 } } }).evaluation.gate?.max_drop, 1);
  assert.throws(
    () => train({ evaluation: { holdout_fraction: 0 } }),
    (e: unknown) =>
      e instanceof OpenClawError &&
      /evaluation\.holdout_fraction: must be > 0 when evaluation\.gate is on .*unless evaluation\.gate is false/.test(e.message),
  );
  // Without the train defaults (api-server, demo, tests): off unless asked for; true asks with the defaults.
  assert.equal(parseConfig({}, { env: {} }).evaluation.gate, undefined);
  assert.equal(parseConfig({ evaluation: { gate: true, holdout_fraction: 0.2 } }, { env: {} }).evaluation.gate?.min_samples, 8);
  assert.throws(
    () => parseConfig({ evaluation: { gate: 'yes' } }, { env: {} }),
    (e: unknown) =>
      e instanceof OpenClawError && /evaluation\.gate: expected false \(off\), true \(on with the defaults\) or a mapping/.test(e.message),
  );
});
