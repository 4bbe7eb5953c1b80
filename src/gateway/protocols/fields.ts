// Reading a request body field by field, for the protocols whose bodies are walked by hand
// (their block lists nest and branch on `type`, which zod words poorly). Every failure is a 400
// that names the field by its path, e.g. `messages[2].content[0].tool_use_id`.
import { OpenClawError, invalidRequest } from '../../errors/index.ts';

export type Json = Record<string, unknown>;

/** The 400 for field `param`. */
export function badField(param: string, message: string) {
  return invalidRequest(`Invalid value for '${param}': ${message}`, param, 'invalid_value');
}

/** The 400 for a missing required field. */
export function missingField(param: string) {
  return invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function object(v: unknown, param: string): Json {
  if (!isObject(v)) throw badField(param, `expected an object, got ${kindOf(v)}`);
  return v;
}

export function string(v: unknown, param: string): string {
  if (v === undefined) throw missingField(param);
  if (typeof v !== 'string') throw badField(param, `expected a string, got ${kindOf(v)}`);
  return v;
}

export function optionalString(v: unknown, param: string): string | undefined {
  return v === undefined || v === null ? undefined : string(v, param);
}

export function list(v: unknown, param: string, min = 0): unknown[] {
  if (v === undefined) throw missingField(param);
  if (!Array.isArray(v)) throw badField(param, `expected an array, got ${kindOf(v)}`);
  if (v.length < min) throw badField(param, `expected at least ${min} item${min === 1 ? '' : 's'}, got none`);
  return v;
}

export function optionalBoolean(v: unknown, param: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badField(param, `expected a boolean, got ${kindOf(v)}`);
  return v;
}

/** A number in [min, max]; `int` demands an integer. */
export function optionalNumber(
  v: unknown,
  param: string,
  range: { min?: number; max?: number; int?: boolean; exclusiveMin?: boolean } = {},
): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || Number.isNaN(v)) throw badField(param, `expected a number, got ${kindOf(v)}`);
  if (range.int && !Number.isInteger(v)) throw badField(param, `expected an integer, got ${v}`);
  if (range.min !== undefined && (range.exclusiveMin ? v <= range.min : v < range.min))
    throw badField(param, `expected a number ${range.exclusiveMin ? '>' : '≥'} ${range.min}, got ${v}`);
  if (range.max !== undefined && v > range.max) throw badField(param, `expected a number ≤ ${range.max}, got ${v}`);
  return v;
}

/** The text blocks of a content list joined (`{type:"text", text}` items); other types → `other(type, path)`. */
export function textOfBlocks(
  blocks: unknown[],
  param: string,
  textTypes: ReadonlySet<string>,
  other: (type: string, path: string) => void,
): string[] {
  const texts: string[] = [];
  for (let j = 0; j < blocks.length; j++) {
    const path = `${param}[${j}]`;
    const b = object(blocks[j], path);
    const type = string(b.type, `${path}.type`);
    if (textTypes.has(type)) texts.push(string(b.text, `${path}.text`));
    else other(type, path);
  }
  return texts;
}

/** A Chat Completions function tool from a protocol's tool `t`: its name, its schema (member `schemaKey`, default {type: object}), its description. */
export function functionTool(t: Json, param: string, schemaKey: string): Json {
  const schema = t[schemaKey];
  const fn: Json = {
    name: string(t.name, `${param}.name`),
    parameters: schema === undefined || schema === null ? { type: 'object' } : object(schema, `${param}.${schemaKey}`),
  };
  const description = optionalString(t.description, `${param}.description`);
  if (description !== undefined) fn.description = description;
  return { type: 'function', function: fn };
}

/** The request body as an object, or the 400 every protocol gives for anything else. */
export function requestObject(body: unknown): Json {
  if (!isObject(body))
    throw new OpenClawError('invalid_request', 'Request body must be a JSON object (sent with Content-Type: application/json).', {
      code: 'invalid_body',
    });
  return body;
}
