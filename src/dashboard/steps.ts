// The recent training steps the charts draw: a bounded buffer fed by the trainer's `onStep`, and a
// reader that seeds it from `logs/metrics.jsonl` so a restarted server still shows its history.
import { readTailLines } from '../files/lines.ts';
import type { StepPoint } from './types.ts';

/** How many steps the dashboard keeps and ships at most. */
export const MAX_STEPS = 2000;

/** The newest `capacity` steps of the current run, in step order. */
export class StepBuffer {
  private points: StepPoint[] = [];
  readonly capacity: number;

  constructor(capacity = MAX_STEPS) {
    this.capacity = capacity;
  }

  /** Adds a step; a step number that does not grow means a new run started, so the old one is cleared. */
  push(point: StepPoint): void {
    const last = this.points[this.points.length - 1];
    if (last !== undefined && point.step <= last.step) this.points = [];
    this.points.push(point);
    // Trim in chunks so a long run does not shift the array on every step.
    if (this.points.length > this.capacity * 1.5) this.points = this.points.slice(-this.capacity);
  }

  /** Steps after `sinceStep`, oldest first; at most `limit` (the newest ones). */
  since(sinceStep: number, limit: number): StepPoint[] {
    const kept = this.points.length > this.capacity ? this.points.slice(-this.capacity) : this.points;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[mid].step <= sinceStep) lo = mid + 1;
      else hi = mid;
    }
    const after = kept.slice(lo);
    return limit <= 0 ? [] : after.slice(-limit);
  }

  /** The newest step, if any. */
  latest(): StepPoint | undefined {
    return this.points[this.points.length - 1];
  }
}

/**
 * The last run's steps from a metrics.jsonl file (one JSON object per line), newest `capacity`
 * kept. Reads at most the file's last `maxBytes`; skips lines that are not a step object (a line
 * cut by a crash). A missing file gives no steps.
 */
export function readStepsFile(path: string, capacity = MAX_STEPS, maxBytes = 8 * 1024 * 1024): StepPoint[] {
  const buffer = new StepBuffer(capacity);
  for (const line of readTailLines(path, maxBytes)) {
    const point = parseStepLine(line);
    if (point) buffer.push(point);
  }
  return buffer.since(-Infinity, capacity);
}

function parseStepLine(line: string): StepPoint | undefined {
  if (line.trim() === '') return undefined;
  try {
    const v = JSON.parse(line) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const step = (v as { step?: unknown }).step;
    return typeof step === 'number' && Number.isFinite(step) ? (v as StepPoint) : undefined;
  } catch {
    return undefined;
  }
}
