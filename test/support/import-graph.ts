// The import graph of src/ for the structure test: which file imports which (static `import … from`,
// `export … from`, side-effect `import '…'` and `import('…')` with a literal path; package imports
// are left out), and two checks over it: a cycle between files, and arrows between folders that
// run against a layer table. The checks take plain maps, so the test can plant a cycle in a tiny
// graph and see the checker catch it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** File (path relative to the source root, `/`-separated) → files it imports. */
export type ImportGraph = Map<string, string[]>;

// Statements start at the beginning of a line in this code base (biome formats them so), which
// keeps `import` in comments and strings out; a clause may span lines (`import {\n a,\n} from`).
const STATIC_IMPORT = /^(?:import|export)\s+(?:type\s+)?(?:[\w$*{][^;'"]*?\s+)?from\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT_IMPORT = /^import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module specifiers a source text imports, in order of appearance per kind. */
export function importSpecifiers(source: string): string[] {
  const out: string[] = [];
  for (const re of [STATIC_IMPORT, SIDE_EFFECT_IMPORT, DYNAMIC_IMPORT]) for (const m of source.matchAll(re)) out.push(m[1]);
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const posix = (path: string) => path.split(sep).join('/');

/**
 * The graph of the non-test `.ts` files under `root`, and the packages (`node:fs`, `zod`…) each
 * file imports. Relative specifiers that name no file are returned in `unresolved` (as
 * `file -> specifier`), so a typo cannot hide an arrow.
 */
export function readImportGraph(root: string): { graph: ImportGraph; packages: ImportGraph; unresolved: string[] } {
  const graph: ImportGraph = new Map();
  const packages: ImportGraph = new Map();
  const unresolved: string[] = [];
  for (const file of sourceFiles(root).sort()) {
    const from = posix(relative(root, file));
    const targets: string[] = [];
    const used: string[] = [];
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        used.push(spec);
        continue;
      }
      const target = resolve(dirname(file), spec);
      if (!existsSync(target) || statSync(target).isDirectory()) unresolved.push(`${from} -> ${spec}`);
      else targets.push(posix(relative(root, target)));
    }
    graph.set(from, targets);
    packages.set(from, used);
  }
  return { graph, packages, unresolved };
}

/** One cycle as a path `a → b → … → a`, or null when the graph has none. */
export function findCycle(graph: ImportGraph): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.get(node) !== undefined) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

/** The folder a file belongs to: its first path segment (a file at the root is its own folder). */
export function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file : file.slice(0, slash);
}

/** Layers from the bottom up; a folder may import folders of lower layers only. */
export type LayerTable = ReadonlyArray<{ readonly folders: readonly string[]; readonly why: string }>;

/** An arrow allowed against the table, with the reason and what would remove it. */
export interface AllowedArrow {
  from: string;
  to: string;
  why: string;
}

/**
 * Arrows that break the table: an import from a folder into a folder of the same or a higher
 * layer, and every file of a folder the table does not place. Each line names the files.
 */
export function layerViolations(graph: ImportGraph, layers: LayerTable, allowed: readonly AllowedArrow[] = []): string[] {
  const rank = new Map<string, number>();
  layers.forEach((layer, i) => {
    for (const folder of layer.folders) rank.set(folder, i);
  });
  const isAllowed = (from: string, to: string) => allowed.some((a) => a.from === from && a.to === to);
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!rank.has(from)) {
      out.push(`${file}: folder '${from}' is not in the layer table`);
      continue;
    }
    for (const target of targets) {
      const to = folderOf(target);
      if (to === from || isAllowed(from, to)) continue;
      const toRank = rank.get(to);
      if (toRank === undefined) out.push(`${file} -> ${target}: folder '${to}' is not in the layer table`);
      else if (toRank === rank.get(from))
        out.push(`${file} -> ${target}: '${from}' and '${to}' share a layer and may not import each other`);
      else if (toRank > rank.get(from)!) out.push(`${file} -> ${target}: '${from}' imports '${to}', a higher layer`);
    }
  }
  return out;
}

/** Allowed arrows that no import uses any more (so the list only ever shrinks). */
export function unusedAllowances(graph: ImportGraph, allowed: readonly AllowedArrow[]): AllowedArrow[] {
  const used = new Set<string>();
  for (const [file, targets] of graph) for (const t of targets) used.add(`${folderOf(file)} ${folderOf(t)}`);
  return allowed.filter((a) => !used.has(`${a.from} ${a.to}`));
}

/** An import between two files, named by their paths in the graph. */
export interface Edge {
  from: string;
  to: string;
}

/** The graph without the given edges (the original is left as it was). */
export function withoutEdges(graph: ImportGraph, edges: readonly Edge[]): ImportGraph {
  const out: ImportGraph = new Map();
  for (const [file, targets] of graph)
    out.set(
      file,
      targets.filter((t) => !edges.some((e) => e.from === file && e.to === t)),
    );
  return out;
}

/** Whether `to` can be reached from `from` by following imports. */
export function reaches(graph: ImportGraph, from: string, to: string): boolean {
  const seen = new Set<string>([from]);
  const todo = [from];
  while (todo.length > 0) {
    for (const next of graph.get(todo.pop()!) ?? []) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return false;
}

/**
 * Imports from another top folder that name a file beside an `index.ts` instead of the index
 * (`hasIndex(dir)` says whether `dir` has one), as `from -> to` lines.
 */
export function indexBypasses(graph: ImportGraph, hasIndex: (dir: string) => boolean): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (folderOf(file) === folderOf(target) || target.endsWith('/index.ts')) continue;
      const dir = target.slice(0, target.lastIndexOf('/'));
      if (hasIndex(dir)) out.push(`${file} -> ${target}`);
    }
  }
  return out;
}
