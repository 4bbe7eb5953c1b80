// The names of the training modes (`--mode`, config key `mode`; docs/design.md §2). Only the names
// live here, below everything that validates or reads them; what each mode uses and decides is its
// row in methods/modes.ts, which the compiler holds to exactly these names.

/** Every valid `--mode` value, in the order the CLI and docs list them. */
export const MODES = ['openclaw-rl', 'openclaw-opd', 'openclaw-combine'] as const;

/** A training mode. */
export type Mode = (typeof MODES)[number];
