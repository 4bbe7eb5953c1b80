// `npm run bench:fuzz`: malformed requests against a real gateway (loopback, scripted upstream),
// all sent over raw sockets: bodies with wrong types, deep nesting, huge strings, bad UTF-8 and
// unknown fields; bad session ids; bad headers, bad URL escapes and malformed HTTP; for Anthropic
// Messages and OpenAI Responses also bad block and item types, orphan tool results, wrong
// max_tokens. For each endpoint it prints how many requests got a 5xx, an error body not in that
// endpoint's protocol shape (OpenAI's, or Anthropic's `{"type":"error","error":{type,message}}`),
// or no answer at all (hung). Targets: all three 0, with ≥ 1000 requests per endpoint.
// FUZZ_N (default 1000) requests per endpoint, FUZZ_SEED (default 1), FUZZ_CONCURRENCY (default 8).
import { startHarness } from '../test/support/harness.ts';
import { rawRequest, type RawResponse } from '../test/support/raw-http.ts';

const N = Number(process.env.FUZZ_N ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
/** No answer and no close within this long counts as hung (the header timeout is 10 s). */
const HANG_MS = 15_000;

// mulberry32: a small seeded generator, so a failing case can be replayed with the same seed.
let state = SEED >>> 0;
function rand(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];

const WEIRD_STRINGS = [
  '',
  ' ',
  '会话',
  '😀',
  'a\r\nb',
  'nul\u0000x',
  '\ud800',
  '%',
  '%ZZ',
  '../..',
  '__proto__',
  'constructor',
  '<script>',
  'x'.repeat(300),
  '\u202e',
  '\t',
];
/** A value of a random JSON type (sometimes nested, sometimes huge). */
function randomValue(depth = 0): unknown {
  switch (int(depth > 2 ? 7 : 10)) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 99999999999]);
    case 3:
      return pick(WEIRD_STRINGS);
    case 4:
      return 'y'.repeat(int(5000));
    case 5:
      return [];
    case 6:
      return {};
    case 7:
      return Array.from({ length: int(4) }, () => randomValue(depth + 1));
    case 8:
      return Object.fromEntries(
        Array.from({ length: int(4) }, () => [
          pick(['role', 'content', 'type', 'x', '__proto__', 'constructor', 'toString']),
          randomValue(depth + 1),
        ]),
      );
    default:
      return { toString: 1, valueOf: 2 };
  }
}

/** A valid-looking body for each JSON endpoint, mutated below. */
function baseBody(path: string): Record<string, unknown> {
  const messages = [{ role: 'user', content: 'hello' }];
  if (path === '/session') return { session_id: `fz-${int(50)}`, messages };
  if (path === '/v1/feedback') return { session_id: `fz-${int(50)}`, turn_id: 1 + int(3), score: pick([1, -1, 0]) };
  if (path === '/v1/messages') return anthropicBody();
  if (path === '/v1/responses') return responsesBody();
  return { messages, session_id: `fz-${int(50)}`, stream: rand() < 0.3 };
}

/** A Claude Code-like Messages body: blocks of every kind, a tool use and its result. */
function anthropicBody(): Record<string, unknown> {
  return {
    model: pick(['policy-upstream', 'claude-sonnet-4-5', 'nope']),
    max_tokens: pick([1, 64, 32000]),
    stream: rand() < 0.3,
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
    tools: [
      { name: 'Bash', input_schema: { type: 'object' } },
      { type: 'web_search_20250305', name: 'web_search' },
    ],
    thinking: { type: 'enabled', budget_tokens: 1024 },
    metadata: { user_id: JSON.stringify({ session_id: `fz-${int(50)}` }) },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'list files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: '' },
          { type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'ls' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'a.txt', is_error: rand() < 0.5 }] },
    ],
  };
}

/** A Codex-like Responses body: developer message, function call and output, reasoning. */
function responsesBody(): Record<string, unknown> {
  return {
    model: pick(['policy-upstream', 'gpt-5-codex', 'nope']),
    instructions: 'You are Codex.',
    stream: rand() < 0.3,
    store: false,
    include: ['reasoning.encrypted_content'],
    tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' } }, { type: 'web_search' }],
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sandbox' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }] },
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'function_call_output', call_id: 'c1', output: 'a.txt' },
    ],
  };
}

/** The members of a protocol body where a wrong value does the most harm. */
function protocolMutation(body: Record<string, unknown>): boolean {
  const list = (body.messages ?? body.input) as Array<Record<string, unknown>> | undefined;
  if (!Array.isArray(list)) return false;
  const item = list[int(list.length)];
  if (typeof item !== 'object' || item === null) return false;
  const blocks = Array.isArray(item?.content) ? (item.content as Array<Record<string, unknown>>) : undefined;
  switch (int(6)) {
    case 0:
      if (blocks && blocks.length > 0)
        blocks[int(blocks.length)].type = pick(['video', 'image', 'tool_result', 'input_image', '', 'function_call']);
      return true;
    case 1:
      if (blocks && blocks.length > 0) blocks[int(blocks.length)][pick(['tool_use_id', 'text', 'input', 'id', 'content'])] = randomValue();
      return true;
    case 2:
      item.type = pick(['function_call_output', 'mystery', 'message', 'reasoning']);
      item.call_id = pick(['orphan', 'c1', 5]);
      return true;
    case 3:
      body[pick(['max_tokens', 'max_output_tokens'])] = pick<unknown>([0, -1, 1.5, '10', null, 1e12]);
      return true;
    case 4:
      body[pick(['tool_choice', 'thinking', 'system', 'instructions', 'tools', 'previous_response_id', 'stop_sequences'])] = randomValue();
      return true;
    default:
      list.splice(0, list.length);
      return true;
  }
}

/** Sets `value` at a random place in the body (a top-level key, a message field, or a new key). */
function mutate(body: Record<string, unknown>): void {
  if ((body.model !== undefined || body.input !== undefined) && rand() < 0.6 && protocolMutation(body)) return;
  const r = int(4);
  const keys = [
    'messages',
    'session_id',
    'turn_id',
    'score',
    'stream',
    'max_tokens',
    'temperature',
    'tools',
    'stream_options',
    'logprobs',
    'turn_type',
    'session_done',
    'prompt_cache_key',
    'hint',
    'n',
    'top_p',
  ];
  if (r === 0) body[pick(keys)] = randomValue();
  else if (r === 1 && Array.isArray(body.messages)) (body.messages as unknown[])[int(2)] = randomValue();
  else if (r === 2 && Array.isArray(body.messages) && typeof body.messages[0] === 'object' && body.messages[0] !== null)
    (body.messages[0] as Record<string, unknown>)[pick(['role', 'content', 'tool_calls', 'tool_call_id', 'name'])] = randomValue();
  else body[`unknown_${int(1000)}`] = randomValue();
}

/** A whole HTTP/1.1 request. */
function request(method: string, path: string, headers: Record<string, string>, body: Buffer | string = ''): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (method === 'POST' && headers['Content-Length'] === undefined && headers['Transfer-Encoding'] === undefined)
    lines.push(`Content-Length: ${b.length}`);
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), b]);
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** One malformed request for `endpoint`, and the name of its kind. */
function malformed(endpoint: Endpoint): { kind: string; bytes: Buffer } {
  const path = endpoint.path();
  const post = endpoint.method === 'POST';
  const kind = pick(post ? BODY_KINDS : GET_KINDS);
  const body = baseBody(endpoint.route);
  switch (kind) {
    case 'wrong_types': {
      for (let i = 0, n = 1 + int(3); i < n; i++) mutate(body);
      return { kind, bytes: request(endpoint.method, path, JSON_HEADERS, JSON.stringify(body)) };
    }
    case 'deep_nesting': {
      const depth = pick([60, 101, 1000, 20_000, 100_000]);
      const open = rand() < 0.5 ? '['.repeat(depth) : '{"a":'.repeat(depth);
      const close = open.startsWith('[') ? ']'.repeat(depth) : '}'.repeat(depth);
      const text = JSON.stringify(body).replace(/}$/, `,"deep":${open}1${close}}`);
      return { kind, bytes: request(endpoint.method, path, JSON_HEADERS, text) };
    }
    case 'huge_string': {
      body[pick(['session_id', 'extra', 'hint', 'turn_type', 'prompt_cache_key'])] = 'z'.repeat(pick([10_000, 300_000, 1_200_000]));
      return { kind, bytes: request(endpoint.method, path, JSON_HEADERS, JSON.stringify(body)) };
    }
    case 'bad_utf8': {
      const text = JSON.stringify(body);
      const at = 1 + int(text.length - 2);
      const junk = Buffer.from(pick([[0xff], [0xc3], [0xed, 0xa0, 0x80], [0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x00]]));
      return {
        kind,
        bytes: request(
          endpoint.method,
          path,
          JSON_HEADERS,
          Buffer.concat([Buffer.from(text.slice(0, at)), junk, Buffer.from(text.slice(at))]),
        ),
      };
    }
    case 'unknown_fields': {
      for (let i = 0; i < 1 + int(20); i++) body[pick(['__proto__', 'constructor', `f${int(1e6)}`, '', ' ', '😀'])] = randomValue();
      const text = JSON.stringify(body).replace('{', '{"__proto__":{"polluted":1},');
      return { kind, bytes: request(endpoint.method, path, JSON_HEADERS, text) };
    }
    case 'bad_session_id': {
      body.session_id = pick<unknown>([...WEIRD_STRINGS, 12, 1.5, -0, [], {}, { toString: 1 }, true, 'x'.repeat(257)]);
      const headers: Record<string, string> = { ...JSON_HEADERS };
      if (rand() < 0.4) headers['X-Session-Id'] = pick(['\u00e9t\u00e9', 'a'.repeat(300), ' ', '%E4', 'ok-id']);
      return { kind, bytes: request(endpoint.method, path, headers, JSON.stringify(body)) };
    }
    case 'bad_json': {
      const text = JSON.stringify(body);
      return {
        kind,
        bytes: request(
          endpoint.method,
          path,
          JSON_HEADERS,
          pick([text.slice(0, int(text.length)), `${text}}`, text.replace(/"/g, "'"), 'null', '[]', '"str"', '1e999', 'NaN', '']),
        ),
      };
    }
    case 'bad_content_type':
      return {
        kind,
        bytes: request(
          endpoint.method,
          path,
          {
            'Content-Type': pick([
              'text/plain',
              'application/x-www-form-urlencoded',
              'multipart/form-data; boundary=x',
              'application/json; charset=latin9',
              '',
            ]),
          },
          JSON.stringify(body),
        ),
      };
    default:
      return { kind, bytes: malformedHttp(endpoint.method, path, JSON.stringify(body)) };
  }
}

/** Malformed HTTP: bad request lines and headers, bad escapes, oversized headers, odd framing. */
function malformedHttp(method: string, path: string, body: string): Buffer {
  const b = Buffer.from(body);
  const cases: Array<() => Buffer> = [
    () => request(method, `${path}%`, JSON_HEADERS, b),
    () => request(method, `${path}%zz`, JSON_HEADERS, b),
    () => request(method, `/sessions/${'%F0%9F%98%80'.repeat(1 + int(600))}`, {}),
    () => request(method, path, { ...JSON_HEADERS, 'X-Big': 'a'.repeat(17_000 + int(20_000)) }, b),
    () => request(method, path, { ...JSON_HEADERS, Expect: pick(['200-ok', 'something', '100-continue-ish']) }, b),
    () => Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n`, 'latin1'),
    () => Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n`, 'latin1'),
    () => Buffer.from(`${method} ${path} HTTP/9.9\r\nHost: x\r\n\r\n`, 'latin1'),
    () => Buffer.from(`${pick(['G ET', 'FOO', '', 'POST\u0000'])} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'),
    () =>
      Buffer.from(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${pick(['abc', '-1', '1, 2', '99999999999999999999'])}\r\n\r\n${body}`,
        'latin1',
      ),
    () =>
      Buffer.from(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`,
        'latin1',
      ),
    () =>
      Buffer.from(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${b.length}\r\nTransfer-Encoding: chunked\r\n\r\n${body}`,
        'latin1',
      ),
    () =>
      request(
        method,
        path,
        {
          ...JSON_HEADERS,
          Authorization: pick(['Bearer', 'Bearer \u00ff\u00fe', 'x'.repeat(5000)]),
          'X-Turn-Type': pick(['', 'main\u00e9', 'side']),
        },
        b,
      ),
    () => request(method, `${path}?${'q=%'.repeat(1 + int(50))}`, JSON_HEADERS, b),
  ];
  return pick(cases)();
}

const BODY_KINDS = [
  'wrong_types',
  'deep_nesting',
  'huge_string',
  'bad_utf8',
  'unknown_fields',
  'bad_session_id',
  'bad_json',
  'bad_content_type',
  'malformed_http',
  'malformed_http',
] as const;
const GET_KINDS = ['malformed_http'] as const;

/** A session id as a path segment: encoded, or with a raw '%', or an encoded lone surrogate (bad UTF-8). */
function sessionPathPart(): string {
  const id = pick([...WEIRD_STRINGS, 'fz-1', '长'.repeat(1 + int(300))]);
  if (rand() < 0.1) return `${id.replace(/[^\x21-\x7e]/g, '')}%`;
  try {
    return encodeURIComponent(id);
  } catch {
    return 'half-%ED%A0%80';
  }
}

interface Endpoint {
  route: string;
  method: 'GET' | 'POST';
  path(): string;
  /** True when an error body has the endpoint's protocol shape (OpenAI's unless given). */
  shape?: (body: string) => boolean;
}

const ENDPOINTS: Endpoint[] = [
  { route: '/v1/chat/completions', method: 'POST', path: () => '/v1/chat/completions' },
  { route: '/v1/messages', method: 'POST', path: () => pick(['/v1/messages', '/v1/messages?beta=true']), shape: isAnthropicError },
  { route: '/v1/responses', method: 'POST', path: () => '/v1/responses' },
  { route: '/session', method: 'POST', path: () => '/session' },
  { route: '/v1/feedback', method: 'POST', path: () => '/v1/feedback' },
  { route: '/sessions/:id', method: 'GET', path: () => `/sessions/${sessionPathPart()}` },
  { route: '/v1/models', method: 'GET', path: () => '/v1/models' },
];

/** True when `body` is exactly `{"error":{"message","type","param","code"}}`. */
function isOpenAIError(body: string): boolean {
  try {
    const b = JSON.parse(body) as { error?: Record<string, unknown> };
    const keys = Object.keys(b);
    if (keys.length !== 1 || keys[0] !== 'error' || typeof b.error !== 'object' || b.error === null) return false;
    return (
      Object.keys(b.error).sort().join() === 'code,message,param,type' &&
      typeof b.error.message === 'string' &&
      typeof b.error.type === 'string'
    );
  } catch {
    return false;
  }
}

/** True when `body` is exactly Anthropic's `{"type":"error","error":{"type","message"}}`. */
function isAnthropicError(body: string): boolean {
  try {
    const b = JSON.parse(body) as { type?: unknown; error?: Record<string, unknown> };
    return (
      Object.keys(b).sort().join() === 'error,type' &&
      b.type === 'error' &&
      typeof b.error === 'object' &&
      b.error !== null &&
      Object.keys(b.error).sort().join() === 'message,type' &&
      typeof b.error.type === 'string' &&
      typeof b.error.message === 'string'
    );
  } catch {
    return false;
  }
}

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  fiveXX: number;
  nonOpenAI: number;
  hung: number;
  noAnswer: number;
  examples: string[];
}

function classify(t: Tally, kind: string, bytes: Buffer, res: RawResponse, shape: (body: string) => boolean): void {
  t.requests++;
  t.byStatus.set(res.status, (t.byStatus.get(res.status) ?? 0) + 1);
  const note = (what: string) => {
    if (t.examples.length < 5)
      t.examples.push(
        `${what} [${kind}] ${res.status} ${res.body.slice(0, 120)} ← ${bytes.subarray(0, 100).toString('latin1').replace(/\r\n/g, '⏎')}`,
      );
  };
  if (res.hung) {
    t.hung++;
    note('hung');
  } else if (res.status === 0) {
    t.noAnswer++; // closed without a status line: counted, not a target (e.g. a client error on a dead socket)
  } else if (res.status >= 500) {
    t.fiveXX++;
    note('5xx');
  }
  if (res.status >= 400 && !shape(res.body)) {
    t.nonOpenAI++;
    note('body outside the protocol shape');
  }
}

async function main(): Promise<void> {
  const h = await startHarness({ 'server.body_limit_mb': 1 });
  h.upstream.keepRequests = false;
  const results: Array<[string, Tally]> = [];
  const started = performance.now();
  try {
    for (const endpoint of ENDPOINTS) {
      const t: Tally = { requests: 0, byStatus: new Map(), fiveXX: 0, nonOpenAI: 0, hung: 0, noAnswer: 0, examples: [] };
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < N) {
            next++;
            const { kind, bytes } = malformed(endpoint);
            // A malformed-HTTP case may aim elsewhere (/sessions/…): judged by the shape of what it aimed at.
            const aimed = bytes.subarray(0, 200).toString('latin1').includes(` ${endpoint.route}`);
            classify(t, kind, bytes, await rawRequest(h.url, bytes, HANG_MS), aimed ? (endpoint.shape ?? isOpenAIError) : isOpenAIError);
          }
        }),
      );
      results.push([`${endpoint.method} ${endpoint.route}`, t]);
    }
  } finally {
    await h.close();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`bench:fuzz — ${N} malformed requests per endpoint, seed ${SEED}, concurrency ${CONCURRENCY}, ${seconds.toFixed(1)} s`);
  console.log('endpoint                     requests   5xx  off-shape  hung  closed-without-answer  statuses');
  let bad = 0;
  for (const [name, t] of results) {
    const statuses = [...t.byStatus.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    console.log(
      `${name.padEnd(28)} ${String(t.requests).padStart(8)} ${String(t.fiveXX).padStart(5)} ${String(t.nonOpenAI).padStart(10)} ${String(t.hung).padStart(5)} ${String(t.noAnswer).padStart(22)}  ${statuses}`,
    );
    for (const e of t.examples) console.log(`    ${e}`);
    bad += t.fiveXX + t.nonOpenAI + t.hung;
  }
  console.log(
    bad === 0
      ? "targets met: 0 × 5xx, 0 bodies outside the endpoint's protocol shape, 0 hung connections"
      : `targets MISSED: ${bad} bad answers`,
  );
  if (bad > 0) process.exitCode = 1;
}

await main();
