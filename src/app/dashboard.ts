// The dashboard's data source over the running parts: steps from the trainer's metrics log,
// sessions from SessionViews, sample counts and the per-version evaluation from the store.
import { join } from 'node:path';
import type { Config } from '../config/index.ts';
import type { ChatChannel } from '../engines/types.ts';
import type { SessionViews } from '../gateway/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { SessionTracker } from '../sessions/index.ts';
import { evaluationOf } from '../evaluation/index.ts';
import { createDashboardSource, readStepsFile, StepBuffer, storeStatusFields, type DashboardSource } from '../dashboard/index.ts';

/** Builds the dashboard source; `steps` receives each new training step. */
export function dashboardFor(
  config: Config,
  parts: { channel: ChatChannel; views: SessionViews; store: SampleStore; tracker: SessionTracker; trainerState?: () => string },
): { source: DashboardSource; steps: StepBuffer } {
  const steps = new StepBuffer();
  for (const p of readStepsFile(join(config.output_dir, 'logs', 'metrics.jsonl'))) steps.push(p);
  const source = createDashboardSource({
    steps,
    views: parts.views,
    status: () => ({
      policy_version: parts.channel.version(),
      mode: config.mode,
      step: steps.latest()?.step ?? null,
      live_sessions: parts.tracker.size,
      ...storeStatusFields(parts.store),
      ...(parts.trainerState ? { trainer_state: parts.trainerState() } : {}),
    }),
    evaluation: () => evaluationOf(parts.store, { servingVersion: parts.channel.version() }),
  });
  return { source, steps };
}
