// Start-up's second step: the turn journal and the watch on the run folder. A forget a crash cut
// short is finished first, then the journal is replayed from the store's checkpoint (what the
// store missed before a crash is found there) and opened for appending. In: the config, the open
// store, and what to do when storage degrades (hold the trainer). Out: the journal writer, the
// replay's result, the storage monitor and the checkpoint keeper.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { SampleStore } from '../samples/index.ts';
import { RecordWriter, type ReplayResult } from '../sessions/index.ts';
import { JournalCheckpoints, replayFromCheckpoint } from './journal.ts';
import { finishForgets, runFiles, type RunFiles } from './forget.ts';
import { StorageMonitor } from './storage.ts';

/** What openJournal opened. */
export interface OpenedJournal {
  files: RunFiles;
  records: RecordWriter;
  replay: ReplayResult;
  storage: StorageMonitor;
  checkpoints: JournalCheckpoints;
  /** Where the store's and the judge log's writers report a failed write. */
  onStorageError: (err: unknown, path: string) => void;
}

export async function openJournal(
  config: Config,
  store: SampleStore,
  log: Logger,
  onDegraded: (degraded: boolean) => void,
): Promise<OpenedJournal> {
  const files = runFiles(config.output_dir);
  // A forget a crash cut short is finished before anything reads the journal (forget.ts).
  await finishForgets(store, files, log);
  // The journal is the source of truth: what the store missed before a crash is found here.
  const replay = replayFromCheckpoint(files.journalPath, store, log);
  const records = new RecordWriter(files.journalPath, {
    segmentBytes: Math.round(config.storage.records_segment_mb * 1024 * 1024),
    sync: config.storage.synchronous === 'full',
  });
  // Storage faults (a removed folder, read-only or full disk) become /healthz's `degraded`, a 503
  // for new turns and a held trainer, never a loop (storage.ts).
  const storage = new StorageMonitor({ outputDir: config.output_dir, journal: records, log, onChange: onDegraded });
  const onStorageError = (err: unknown, path: string) => storage.report(path === store.path ? 'store' : 'judge_log', path, err);
  const checkpoints = new JournalCheckpoints(store, records, log, (err) => storage.report('store', store.path, err));
  return { files, records, replay, storage, checkpoints, onStorageError };
}
