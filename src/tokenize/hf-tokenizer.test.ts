import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadHfTokenizer, type HfTokenizer } from './index.ts';
import { qwen3TokenizerDir } from '../../test/support/qwen3-fixture.ts';
import { OpenClawError } from '../errors/index.ts';

const IM_END = 151645;
const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

let qwen: HfTokenizer;
let scratch: string;

before(async () => {
  qwen = await loadHfTokenizer(qwen3TokenizerDir());
  scratch = await mkdtemp(join(tmpdir(), 'oc-tok-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A model folder that reuses Qwen3's tokenizer.json (symlinked) with a config of our choosing. */
async function folder(name: string, config: Record<string, unknown> | string | null, jinja?: string): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir);
  await symlink(join(qwen3TokenizerDir(), 'tokenizer.json'), join(dir, 'tokenizer.json'));
  if (config !== null) await writeFile(join(dir, 'tokenizer_config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  if (jinja !== undefined) await writeFile(join(dir, 'chat_template.jinja'), jinja);
  return dir;
}

function configError(pattern: RegExp) {
  return (err: unknown) => err instanceof OpenClawError && err.kind === 'config' && pattern.test(err.message);
}

test('Qwen3 template renders tools and the generation prompt, and the text round-trips through ids', () => {
  const messages = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Weather in Paris?' },
  ];
  const text = qwen.renderChat(messages, { tools, addGenerationPrompt: true });
  assert.ok(text.startsWith('<|im_start|>system\nYou are helpful.\n\n# Tools\n'));
  assert.ok(text.includes('\n{"type": "function", "function": {"name": "get_weather", "description": "Current weather of a city"'));
  assert.ok(text.endsWith('<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n'));
  const ids = qwen.encode(text);
  assert.equal(qwen.decode(ids), text);
  // Special-token text maps to its single id, and encode adds nothing of its own.
  assert.equal(ids.filter((id) => id === IM_END).length, 2);
  assert.deepEqual(qwen.encode('<|im_end|>'), [IM_END]);
  assert.deepEqual(qwen.encode('hello world'), [14990, 1879]);
});

test('Qwen3 end-of-turn ids come from eos_token', () => {
  assert.equal(qwen.eosToken, '<|im_end|>');
  assert.equal(qwen.bosToken, null);
  assert.deepEqual([...qwen.endOfTurnIds], [IM_END]);
});

test('content part lists are joined and JSON-string tool arguments are rendered as objects', () => {
  const text = qwen.renderChat(
    [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'line one' },
          { type: 'text', text: 'line two' },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
    ],
    { addGenerationPrompt: false },
  );
  assert.ok(text.includes('<|im_start|>user\nline one\nline two<|im_end|>'));
  assert.ok(text.includes('<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call><|im_end|>'));
});

test('chat_template.jinja is used when the config has none, with bos/eos given as objects', async () => {
  const dir = await folder(
    'jinja',
    { eos_token: { content: '<|im_end|>', __type: 'AddedToken' }, bos_token: { content: '<|endoftext|>' } },
    '{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{{ eos_token }}{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}',
  );
  const tok = await loadHfTokenizer(dir);
  assert.equal(tok.bosToken, '<|endoftext|>');
  assert.equal(tok.eosToken, '<|im_end|>');
  assert.equal(
    tok.renderChat([{ role: 'user', content: 'hi' }], { addGenerationPrompt: true }),
    '<|endoftext|>[user]hi<|im_end|>[assistant]',
  );
});

test('a named template list picks tool_use when tools are given', async () => {
  const dir = await folder('named', {
    eos_token: '<|im_end|>',
    chat_template: [
      { name: 'default', template: 'plain' },
      { name: 'tool_use', template: 'tools:{{ tools | length }}' },
    ],
  });
  const tok = await loadHfTokenizer(dir);
  assert.equal(tok.renderChat([{ role: 'user', content: 'x' }], { addGenerationPrompt: true }), 'plain');
  assert.equal(tok.renderChat([{ role: 'user', content: 'x' }], { tools, addGenerationPrompt: true }), 'tools:1');
});

test('missing folder, files and template are config errors that name what is missing', async () => {
  await assert.rejects(loadHfTokenizer(join(scratch, 'nope')), configError(/nope does not exist/));
  await assert.rejects(loadHfTokenizer(await folder('no-config', null)), configError(/tokenizer_config\.json is missing/));
  const emptyDir = join(scratch, 'empty');
  await mkdir(emptyDir);
  await assert.rejects(loadHfTokenizer(emptyDir), configError(/tokenizer\.json is missing/));
  await assert.rejects(
    loadHfTokenizer(await folder('no-template', { eos_token: '<|im_end|>' })),
    configError(/no chat template.*"chat_template"/),
  );
  await assert.rejects(loadHfTokenizer(await folder('bad-json', '{ nope')), configError(/tokenizer_config\.json is not valid JSON/));
  await assert.rejects(
    loadHfTokenizer(await folder('bad-eos', { eos_token: '<no-such-token>', chat_template: 'x' })),
    configError(/"<no-such-token>" is not in the vocabulary/),
  );
});
