// The dashboard's data source over the running parts: steps from the trainer's metrics log,
// sessions from SessionViews, sample counts and the per-version evaluation from the store (the
// same evaluation GET /evaluation answers with).
import { join } from 'node:path';
import type { Config } from '../config/index.ts';
import type { ChatChannel } from '../engines/types.ts';
import type { SessionViews } from '../gateway/index.ts';
import type { SampleStore } from '../samples/index.ts';
import type { SessionTracker } from '../sessions/index.ts';
import { evaluationOf, gateRefusalsOf, type Evaluation } from '../evaluation/index.ts';
import { createDashboardSource, readStepsFile, StepBuffer, storeStatusFields, type DashboardSource } from '../dashboard/index.ts';

/** Builds the dashboard source; `steps` receives each new training step; `evaluation` is read per request. */
export function dashboardFor(
  config: Config,
  parts: { channel: ChatChannel; views: SessionViews; store: SampleStore; tracker: SessionTracker; trainerState?: () => string },
): { source: DashboardSource; steps: StepBuffer; evaluation: () => Evaluation } {
  const steps = new StepBuffer();
  const evaluation = () => ({
    ...evaluationOf(parts.store, { servingVersion: parts.channel.version() }),
    gate_refusals: gateRefusalsOf(config.output_dir),
  });
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
    evaluation,
  });
  return { source, steps, evaluation };
}
