import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenClawError } from '../errors/index.ts';
import { parseConfig } from './load.ts';
import { parseProbes, probesOf } from './probes.ts';
import { tempDir } from '../../test/support/temp.ts';

function configError(pattern: RegExp) {
  return (e: unknown) => e instanceof OpenClawError && e.kind === 'config' && pattern.test(e.message);
}

test('probe lines: messages or a prompt; blank lines skipped', () => {
  const probes = parseProbes(
    '{"prompt": "hi"}\n\n{"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "why?"}]}\n',
    'p.jsonl',
  );
  assert.equal(probes.length, 2);
  assert.deepEqual(probes[0], { where: 'p.jsonl:1', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(probes[1].where, 'p.jsonl:3');
  assert.equal(probes[1].messages[1].content, 'why?');
});

test("a probe may offer tools in OpenAI's function shape; a malformed tool names its field", () => {
  const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', required: ['city'] } } };
  const [p] = parseProbes(`${JSON.stringify({ prompt: 'weather in Oslo?', tools: [weather] })}\n`, 'p.jsonl');
  assert.deepEqual(p.tools, [weather]);
  assert.throws(
    () => parseProbes(JSON.stringify({ prompt: 'x', tools: [{ type: 'function', function: { name: '' } }] }), 'p.jsonl'),
    configError(/p\.jsonl:1: tools\.0\.function\.name: must not be empty/),
  );
  assert.throws(
    () => parseProbes(JSON.stringify({ prompt: 'x', tools: [] }), 'p.jsonl'),
    configError(/tools: must list at least one tool/),
  );
});

test('a bad probe line is a config error naming file:line and what is wrong', () => {
  assert.throws(
    () => parseProbes('{"prompt": "ok"}\n{"prompt": ', 'p.jsonl'),
    configError(/evaluation\.probe_file p\.jsonl:2: not valid JSON/),
  );
  assert.throws(() => parseProbes('{"prompt": ""}', 'p.jsonl'), configError(/p\.jsonl:1: prompt: must not be empty/));
  assert.throws(
    () => parseProbes('{"messages": [{"role": "wizard", "content": "x"}]}', 'p.jsonl'),
    configError(/p\.jsonl:1: messages\.0\.role/),
  );
  assert.throws(() => parseProbes('{"question": "x"}', 'p.jsonl'), configError(/p\.jsonl:1: expected {"messages"/));
  assert.throws(() => parseProbes('\n\n', 'p.jsonl'), configError(/holds no probes/));
});

test('the probe file is read when the config is loaded: a missing file names the key', () => {
  const dir = tempDir('ocrl-probes-');
  const overrides = (file: string) => ({ env: {}, overrides: { output_dir: dir, 'evaluation.probe_file': file } });
  assert.throws(
    () => parseConfig({}, overrides(join(dir, 'nope.jsonl'))),
    configError(/^evaluation\.probe_file: cannot read .*nope\.jsonl/),
  );
  const file = join(dir, 'probes.jsonl');
  writeFileSync(file, '{"prompt": "a"}\n{"prompt": "b"}\n');
  const config = parseConfig({}, overrides(file));
  assert.deepEqual(
    probesOf(config).map((p) => p.messages[0].content),
    ['a', 'b'],
  );
  writeFileSync(file, '{"prompt": "a"}\n{"prompt": 3}\n');
  assert.throws(() => parseConfig({}, overrides(file)), configError(/probes\.jsonl:2: prompt/));
});
