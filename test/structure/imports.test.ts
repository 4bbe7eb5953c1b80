// The shape of src/'s import graph (docs/design.md §3 "Layers"): no file imports itself through
// others (a circle makes load order matter and splits one job over two files), and every arrow
// between folders points down the layer table below. A new folder gets a line in the table; an
// arrow the table forbids is fixed, or listed in ALLOWED_ARROWS with why and what removes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  findCycle,
  importSpecifiers,
  indexBypasses,
  layerViolations,
  reaches,
  readImportGraph,
  unusedAllowances,
  withoutEdges,
  type AllowedArrow,
  type Edge,
  type ImportGraph,
  type LayerTable,
} from '../support/import-graph.ts';

/**
 * From the bottom up. A folder imports only folders of lower layers; folders of one layer are
 * peers and do not import each other. Keep docs/design.md §3 in step.
 */
const LAYERS: LayerTable = [
  {
    folders: ['privacy'],
    why: 'secret and personal-data detection and redaction (pure text, no I/O): error messages are scrubbed with it',
  },
  { folders: ['errors'], why: 'the one error type and its HTTP/CLI mapping' },
  {
    folders: ['threads', 'raw-json', 'files', 'rl'],
    why: 'the worker-thread protocol; JSON kept as its text; append-only JSONL files; the pure RL math, seeds and turn keys (no I/O)',
  },
  { folders: ['config'], why: 'the validated config (reads rl defaults: clip ratios, modes)' },
  { folders: ['http'], why: 'one core for outgoing HTTP: base URLs, pools, the retry loop, status → error' },
  { folders: ['engines'], why: 'policy engines; engines/types.ts is the chat and engine vocabulary every layer above uses' },
  { folders: ['tokenize', 'samples', 'sessions'], why: 'HF tokenizer and alignment; the sample store; session tracking' },
  { folders: ['methods'], why: 'the mode table and turn rules (pure): read by the scoring stage and the trainer' },
  { folders: ['chat', 'scoring', 'gateway'], why: 'chat over token ids; judges and teacher; the HTTP gateway' },
  { folders: ['evaluation'], why: 'per-version evaluation: live tallies, replay (scored by the teacher), probes' },
  { folders: ['trainer'], why: 'the training loop, its gate and the evaluation of new versions' },
  {
    folders: ['pipeline', 'dashboard', 'pretrain', 'engine-server'],
    why: 'the scoring stage; the dashboard; the base checkpoint; `engine serve`',
  },
  { folders: ['sim', 'doctor', 'app'], why: 'simulated users; `doctor`; wiring the config into running parts' },
  { folders: ['demo'], why: '`demo`: a server, simulated users and a report' },
  { folders: ['cli'], why: 'the command line, on top of everything' },
];

/** Arrows against the table, each until the change that removes it lands. */
const ALLOWED_ARROWS: AllowedArrow[] = [];

/** File circles, each named by one of its imports, until the change that closes it lands. */
const ALLOWED_CYCLE_EDGES: Array<Edge & { why: string }> = [];

/**
 * Imports from another folder that name a file instead of its index.ts, kept on purpose: each
 * index pulls in its whole folder, and these importers must not load the embedded engine (tfjs).
 */
const ALLOWED_INDEX_BYPASSES: Array<{ from: string; to: string; why: string }> = [
  ...['chat/embedded-chat-template.ts', 'chat/embedded-chat-tokenizer.ts', 'chat/load-chat-tokenizer.ts'].map((from) => ({
    from,
    to: 'engines/embedded/tokenizer.ts',
    why: 'chat/ renders for Hugging Face policies too: the BPE tokenizer alone, not the engine',
  })),
  { from: 'cli/commands/demo.ts', to: 'sim/personas.ts', why: 'CLI start-up: the persona names, not the pretraining code' },
  { from: 'cli/commands/engine.ts', to: 'engine-server/tinker/profiles.ts', why: 'CLI start-up: the profile names, not the engine server' },
];

/** Folders whose code does no I/O (docs/design.md §3): they import no package at all. */
const PURE_FOLDERS = ['rl', 'methods'];

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const { graph, packages, unresolved } = readImportGraph(SRC);

test('every relative import of src/ names a file', () => {
  assert.ok(graph.size > 100, `read ${graph.size} files under ${SRC}`);
  assert.deepEqual(unresolved, []);
});

test('no file of src/ imports itself through other files', () => {
  const cycle = findCycle(withoutEdges(graph, ALLOWED_CYCLE_EDGES));
  assert.equal(cycle, null, `import cycle: ${cycle?.join(' -> ')}`);
  const closed = ALLOWED_CYCLE_EDGES.filter((e) => !graph.get(e.from)?.includes(e.to) || !reaches(graph, e.to, e.from));
  assert.deepEqual(closed, [], 'these circles are closed now: remove them from ALLOWED_CYCLE_EDGES');
});

test('imports from another folder go through its index.ts (the few exceptions say why)', () => {
  const bypasses = indexBypasses(graph, (dir) => existsSync(`${SRC}${dir}/index.ts`));
  const allowed = new Set(ALLOWED_INDEX_BYPASSES.map((a) => `${a.from} -> ${a.to}`));
  assert.deepEqual(
    bypasses.filter((b) => !allowed.has(b)),
    [],
    "import these through the folder's index.ts (add the name to its exports)",
  );
  assert.deepEqual(
    [...allowed].filter((a) => !bypasses.includes(a)),
    [],
    'no import needs these any more: remove them from ALLOWED_INDEX_BYPASSES',
  );
});

test('arrows between folders of src/ point down the layer table', () => {
  assert.deepEqual(layerViolations(graph, LAYERS, ALLOWED_ARROWS), []);
  assert.deepEqual(unusedAllowances(graph, ALLOWED_ARROWS), [], 'no import needs these any more: remove them from ALLOWED_ARROWS');
  const placed = LAYERS.flatMap((l) => l.folders);
  assert.deepEqual(
    placed.filter((f, i) => placed.indexOf(f) !== i),
    [],
    'a folder is in one layer only',
  );
});

test('rl/ and methods/ import no package (no I/O)', () => {
  const impure = [...packages].filter(([file, used]) => PURE_FOLDERS.some((f) => file.startsWith(`${f}/`)) && used.length > 0);
  assert.deepEqual(impure, []);
});

// The checker itself, on graphs small enough to read.

const tiny = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

test('the checker reports a planted cycle with its path, and none once it is cut', () => {
  const g = tiny({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': ['b/z.ts'], 'b/z.ts': ['a/x.ts'], 'c/w.ts': ['a/x.ts'] });
  assert.deepEqual(findCycle(g), ['a/x.ts', 'b/y.ts', 'b/z.ts', 'a/x.ts']);
  assert.equal(findCycle(withoutEdges(g, [{ from: 'b/z.ts', to: 'a/x.ts' }])), null);
  assert.deepEqual(findCycle(tiny({ 'a/x.ts': ['a/x.ts'] })), ['a/x.ts', 'a/x.ts']);
  assert.equal(reaches(g, 'a/x.ts', 'c/w.ts'), false);
});

test('the checker reports upward arrows, peers importing each other and folders missing from the table', () => {
  const layers: LayerTable = [
    { folders: ['low'], why: '' },
    { folders: ['mid', 'side'], why: '' },
    { folders: ['top'], why: '' },
  ];
  const g = tiny({
    'top/a.ts': ['mid/b.ts', 'low/c.ts'],
    'mid/b.ts': ['low/c.ts', 'top/a.ts', 'side/d.ts', 'mid/e.ts'],
    'low/c.ts': [],
    'stray/f.ts': ['low/c.ts'],
  });
  assert.deepEqual(layerViolations(g, layers), [
    "mid/b.ts -> top/a.ts: 'mid' imports 'top', a higher layer",
    "mid/b.ts -> side/d.ts: 'mid' and 'side' share a layer and may not import each other",
    "stray/f.ts: folder 'stray' is not in the layer table",
  ]);
  const allowed = [
    { from: 'mid', to: 'top', why: '' },
    { from: 'low', to: 'mid', why: '' },
  ];
  assert.equal(layerViolations(g, layers, allowed).length, 2);
  assert.deepEqual(unusedAllowances(g, allowed), [{ from: 'low', to: 'mid', why: '' }]);
});

test('the checker lists imports from other folders that pass by an index.ts', () => {
  const g = tiny({
    'app/a.ts': ['gateway/index.ts', 'gateway/server.ts', 'util/json.ts', 'app/b.ts'],
    'app/b.ts': ['gateway/server.ts'],
  });
  const withIndex = new Set(['gateway', 'app']);
  assert.deepEqual(
    indexBypasses(g, (dir) => withIndex.has(dir)),
    ['app/a.ts -> gateway/server.ts', 'app/b.ts -> gateway/server.ts'],
  );
});

test('the parser reads every import form and skips strings and comments that only mention one', () => {
  const source = [
    "import { a,\n  b } from './multi-line.ts';",
    "import type { T } from '../types.ts';",
    "import * as ns from './ns.ts';",
    "import def, { c } from './default.ts';",
    "import './side-effect.ts';",
    "export { d } from './re-export.ts';",
    "export * from './star.ts';",
    "const m = await import('./lazy.ts');",
    "const text = 'see the import from below';",
    '// we used to import x from the old place',
  ].join('\n');
  assert.deepEqual(importSpecifiers(source), [
    './multi-line.ts',
    '../types.ts',
    './ns.ts',
    './default.ts',
    './re-export.ts',
    './star.ts',
    './side-effect.ts',
    './lazy.ts',
  ]);
});
