// samples: the training sample type and the durable store of a run (docs/design.md §3).
// In: finished main turns awaiting judgement (`addPendingTurn`, the acknowledgement point) and their
// outcomes (`resolvePendingTurn`: sample(s) or a drop with a reason). Out: batches for the trainer
// (`leaseBatch` → `markTrained` / `releaseLease`), counters and pages for dashboards, JSONL export.
// One SQLite file in WAL mode (`storage.synchronous`: `normal` by default, nothing acknowledged is
// lost to a crash of the process; `full` also survives power loss). On open, leased-but-untrained
// samples go back to ready while pending turns wait to be re-judged.

export type { Sample, SampleType, Vote } from './types.ts';
export type {
  DropTallyRow,
  Lease,
  LeaseOptions,
  ForgetOutcome,
  LeaseOrder,
  ListOptions,
  OpenOptions,
  PendingTurn,
  RecoveryReport,
  SampleState,
  SampleTallyRow,
  StoreCounts,
  StoredSample,
  TurnOutcome,
  TurnRef,
  TurnStatus,
  VersionEvaluationRow,
  VersionTally,
} from './store-types.ts';
export { SampleStore, SAMPLE_STORE_FILE } from './store.ts';
export { SCHEMA_VERSION } from './schema.ts';
export { exportJsonl, exportRecord } from './export.ts';
export type { ExportedSample } from './export.ts';
