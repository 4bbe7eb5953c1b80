import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HermesOutputParser, PlainOutputParser } from '../chat/index.ts';
import type { ProbeTool } from '../config/index.ts';
import { toolCallError } from './tool-calls.ts';

const TOOLS: ProbeTool[] = [
  { type: 'function', function: { name: 'set_reminder', parameters: { type: 'object', required: ['text', 'time'] } } },
];
const read = (text: string) => toolCallError(text, TOOLS, new HermesOutputParser());
const call = (json: string) => `<tool_call>\n${json}\n</tool_call>`;

test('a well-formed call, or an answer in words, is no error', () => {
  assert.equal(read(call('{"name": "set_reminder", "arguments": {"text": "dentist", "time": "09:00"}}')), null);
  assert.equal(read('<think>\nthe user wants a reminder\n</think>\n\nSure, I will remind you at 9.'), null);
});

test('each broken call says what is wrong with it', () => {
  assert.match(read(call('{"name": "set_reminder", "arguments": {"text": "dentist"')) ?? '', /not JSON with a name/);
  assert.match(read(call('{"name": "send_email", "arguments": {}}')) ?? '', /send_email, which the probe did not offer/);
  assert.match(read(call('{"name": "set_reminder", "arguments": "[1, 2]"}')) ?? '', /arguments of set_reminder are not an object/);
  assert.match(read(call('{"name": "set_reminder", "arguments": {"text": "dentist"}}')) ?? '', /set_reminder called without time/);
});

test('a model without tool syntax never calls, so it is never wrong', () => {
  assert.equal(toolCallError('<tool_call>{oops</tool_call>', TOOLS, new PlainOutputParser()), null);
});
