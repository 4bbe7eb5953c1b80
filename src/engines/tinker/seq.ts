// The per-model seq_id counter, on disk. Every call on a training model carries seq_id 1, 2, 3…
// and SkyRL treats (model_id, seq_id) as an idempotency key: the same id with another payload is
// refused (409). Writing the counter BEFORE the request goes out means a restart of our server
// never hands out an id a request may already have used.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { OpenClawError } from '../../errors/index.ts';

/** Last used seq_id per model id, persisted as JSON in one file. */
export class SeqStore {
  private readonly path: string;
  private last: Record<string, number>;

  constructor(path: string) {
    this.path = path;
    this.last = SeqStore.read(path);
  }

  private static read(path: string): Record<string, number> {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      for (const v of Object.values(parsed)) if (!Number.isInteger(v)) throw new Error(`seq_id ${String(v)} is not an integer`);
      return parsed as Record<string, number>;
    } catch (err) {
      throw new OpenClawError(
        'data',
        `tinker seq_id file ${path} is damaged (${(err as Error).message}); move it away and resume from the last saved weights (a new model)`,
      );
    }
  }

  /** The last seq_id handed out for a model (0 = none). */
  peek(modelId: string): number {
    return this.last[modelId] ?? 0;
  }

  /** Reserves the next seq_id and writes it to disk before returning it. */
  next(modelId: string): number {
    const id = this.peek(modelId) + 1;
    this.last[modelId] = id;
    this.write();
    return id;
  }

  /**
   * Gives back a seq_id the server refused without recording (a 4xx on submit), so the next call
   * reuses it: servers that order by seq_id (or reject gaps, as TuFT does) never see a hole.
   * Only the last id handed out can be given back.
   */
  release(modelId: string, seqId: number): void {
    if (this.peek(modelId) !== seqId) return;
    this.last[modelId] = seqId - 1;
    this.write();
  }

  private write(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.last));
    // rename is atomic: a crash leaves the old or the new counter, never half a file
    renameSync(tmp, this.path);
  }
}
