// Every provider row against the rest of the code, as src/methods/modes.test.ts does for modes: each
// role's facts table (config/providers.ts) names the same providers as the schema and as the table
// that builds them; the schema asks for exactly the keys a row requires; doctor reaches exactly the
// providers whose row says they run over HTTP; `train` refuses exactly the rows that do not train; and no file outside the tables compares a provider
// name (docs/design.md "Where to add …").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JUDGE_FACTS, ROLLOUT_FACTS, TEACHER_FACTS, parseConfig, type ProviderFacts } from '../../src/config/index.ts';
import { JudgeSchema, RolloutSchema, TeacherSchema } from '../../src/config/schema.ts';
import { ROLLOUT_PROVIDERS, assertTrainable } from '../../src/app/index.ts';
import { JUDGE_PROVIDERS } from '../../src/scoring/judge/providers.ts';
import { TEACHER_PROVIDERS } from '../../src/scoring/teacher/providers.ts';
import { runDoctor } from '../../src/doctor/index.ts';
import { OpenClawError } from '../../src/errors/index.ts';
import { tempDir } from '../support/temp.ts';

const UNREACHABLE = 'http://127.0.0.1:9/v1';

const ROLES = [
  { role: 'rollout', facts: ROLLOUT_FACTS, builds: ROLLOUT_PROVIDERS, schema: RolloutSchema },
  { role: 'judge', facts: JUDGE_FACTS, builds: JUDGE_PROVIDERS, schema: JudgeSchema },
  { role: 'teacher', facts: TEACHER_FACTS, builds: TEACHER_PROVIDERS, schema: TeacherSchema },
] as const;

/** A config with `role`'s provider set to `name` and every key its row requires (a Tinker base model for tinker). */
function configWith(role: string, name: string, facts: ProviderFacts, drop?: string) {
  // Tinker's learner computes log-probs at T = 1, so its rollout samples there (config/tinker.ts).
  const section: Record<string, unknown> = { provider: name, ...(facts.reach === 'tinker' ? { temperature: 1 } : {}) };
  // A teacher is asked in the first log-prob API its row speaks.
  if ('logprobApis' in facts) section.logprob_api = (facts.logprobApis as readonly string[])[0];
  for (const key of facts.requires) if (key !== drop) section[key] = key === 'base_url' ? UNREACHABLE : 'm';
  const tinker = facts.reach === 'tinker' ? { tinker: { base_url: 'http://127.0.0.1:9', base_model: 'Qwen/Qwen3-8B' } } : {};
  return parseConfig({ output_dir: tempDir('ocrl-prov-'), [role]: section, ...tinker }, { env: {} });
}

test('each role names the same providers in its facts row, its build table and the config schema', () => {
  for (const { role, facts, builds, schema } of ROLES) {
    const accepted = [...schema.shape.provider.removeDefault().options].sort();
    assert.deepEqual(Object.keys(facts).sort(), accepted, `${role}: facts vs schema`);
    assert.deepEqual(Object.keys(builds).sort(), accepted, `${role}: build table vs schema`);
  }
});

test('the schema accepts each provider with the keys its row requires, and names each one left out', () => {
  for (const { role, facts } of ROLES) {
    for (const [name, row] of Object.entries(facts) as Array<[string, ProviderFacts]>) {
      assert.equal(configWith(role, name, row)[role].provider, name);
      for (const key of row.requires) {
        assert.throws(
          () => configWith(role, name, row, key),
          (e: unknown) => e instanceof OpenClawError && e.message.includes(`${role}.${key}: required when ${role}.provider is ${name}`),
          `${role}.provider ${name} without ${key}`,
        );
      }
    }
  }
});

test("a teacher's row lists the log-prob APIs it speaks; the schema refuses the others naming teacher.logprob_api", () => {
  for (const [name, row] of Object.entries(TEACHER_FACTS)) {
    for (const api of ['sglang', 'vllm', 'embedded', 'tinker'] as const) {
      const raw = { teacher: { provider: name, base_url: UNREACHABLE, logprob_api: api }, tinker: { base_model: 'Qwen/Qwen3-8B' } };
      const speaks = (row.logprobApis as readonly string[]).includes(api);
      if (speaks) assert.equal(parseConfig(raw, { env: {} }).teacher.logprob_api, api);
      else assert.throws(() => parseConfig(raw, { env: {} }), /teacher\.logprob_api: must be sglang or vllm/, `${name} + ${api}`);
    }
  }
});

test('doctor reaches the rollout and judge providers whose row runs over HTTP, and only those', async () => {
  for (const { role, facts } of ROLES.filter((r) => r.role !== 'teacher')) {
    for (const [name, row] of Object.entries(facts) as Array<[string, ProviderFacts]>) {
      const rows = await runDoctor(configWith(role, name, row), 2000);
      const mine = rows.filter((r) => r.channel === role);
      if (row.reach === 'tinker') {
        assert.deepEqual(mine, [], `${role} ${name}: checked with the Tinker rows`);
        assert.ok(
          rows.some((r) => r.channel === 'tinker' && !r.ok && !r.info),
          `${role} ${name}: a failing Tinker row`,
        );
      } else if (row.reach === 'http') {
        assert.equal(mine.length, 1);
        assert.equal(mine[0].ok, false, `${role} ${name}: nothing listens at ${UNREACHABLE}, so the check fails`);
      } else {
        assert.equal(mine.length, 1);
        assert.match(mine[0].result, new RegExp(`in-process \\(${name}\\): nothing to reach`));
      }
    }
  }
});

test('`train` accepts each rollout row that trains in this process and refuses the others, naming those that train', () => {
  const trainers = Object.entries(ROLLOUT_PROVIDERS).filter(([, r]) => r.trainingKind !== undefined);
  assert.ok(trainers.length >= 1);
  for (const [name, row] of Object.entries(ROLLOUT_PROVIDERS)) {
    const config = configWith('rollout', name, ROLLOUT_FACTS[name as keyof typeof ROLLOUT_FACTS]);
    if (row.trainingKind !== undefined) assert.doesNotThrow(() => assertTrainable(config), name);
    else
      assert.throws(
        () => assertTrainable(config),
        (e: unknown) =>
          e instanceof OpenClawError &&
          e.kind === 'config' &&
          e.param === 'rollout.provider' &&
          trainers.every(([t, r]) => e.message.includes(`${t} (${r.about})`)),
        name,
      );
  }
});

test('no file of src/ outside the provider tables compares a provider name', () => {
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  const files = (function walk(dir: string): string[] {
    return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  })(src).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const compare = /provider\s*[!=]==?\s*['"]|case\s+'(openai_compatible|embedded|tinker|rules)'/;
  const found = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (compare.test(line) ? [`${relative(src, f)}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(found, []);
});
