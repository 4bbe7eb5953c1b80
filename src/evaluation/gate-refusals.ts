// The regression gate's refusals of a run, for `report`, GET /evaluation and the dashboard: read
// from the `gate_refused` events the trainer writes to logs/metrics.jsonl (its last megabytes).
import { join } from 'node:path';
import { readTailLines } from '../files/lines.ts';

/** One refused version: when, at which step, and why (the gate's reason, with its numbers). */
export interface GateRefusal {
  time: string;
  at_step: number;
  /** The version that kept serving. */
  policy_version: number;
  reason: string;
}

/** How many refusals the log's tail holds, and the newest `max` of them, newest first. */
export interface GateRefusals {
  total: number;
  newest: GateRefusal[];
}

function refusalOf(line: string): GateRefusal | undefined {
  if (!line.includes('"gate_refused"')) return undefined;
  try {
    const v = JSON.parse(line) as Record<string, unknown>;
    if (v.event !== 'gate_refused') return undefined;
    return { time: String(v.time), at_step: Number(v.at_step), policy_version: Number(v.policy_version), reason: String(v.reason) };
  } catch {
    return undefined; // a line cut by a crash
  }
}

/** The refusals in `outputDir`'s metrics log (none when there is no log). */
export function gateRefusalsOf(outputDir: string, max = 20, maxBytes = 4 * 1024 * 1024): GateRefusals {
  const all = readTailLines(join(outputDir, 'logs', 'metrics.jsonl'), maxBytes)
    .map(refusalOf)
    .filter((r): r is GateRefusal => r !== undefined);
  return { total: all.length, newest: all.slice(-max).reverse() };
}
