// The doctor's table row, in a file of its own so that the per-channel checks (index.ts, tinker.ts)
// share it without importing each other.

/** One line of the doctor's table. */
export interface DoctorRow {
  channel: 'rollout' | 'judge' | 'teacher' | 'tinker' | 'privacy';
  baseUrl: string;
  model: string;
  ok: boolean;
  result: string;
  fix: string;
  /** A report, not a check: shown as INFO, never a failure. */
  info?: boolean;
}
