// A served model snapshot with a user count: publishing retires the old snapshot, and its
// weights are freed only when the last generation or scoring call that started on it ends.
import type { Gpt } from './model.ts';

/** One published version of the weights, as serving sees it. */
export class ServedSnapshot {
  private users = 0;
  private retired = false;

  constructor(
    readonly model: Gpt,
    readonly version: number,
  ) {}

  /** Runs `fn` on this snapshot; the weights stay alive until it settles. */
  async use<T>(fn: (snap: ServedSnapshot) => Promise<T>): Promise<T> {
    this.users += 1;
    try {
      return await fn(this);
    } finally {
      this.users -= 1;
      if (this.retired && this.users === 0) this.model.dispose();
    }
  }

  /** No new calls start here; frees the weights now or when the last running call ends. */
  retire(): void {
    this.retired = true;
    if (this.users === 0) this.model.dispose();
  }
}
