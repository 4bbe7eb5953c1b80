// The embedded engine answering the Tinker training API (the wire facts in docs/tinker.md), so
// that the whole Tinker path runs and is tested on a CPU over the real protocol.
// In: the embedded checkpoint (the one base model), a state dir for saved weights.
// Out: /api/v1/… routes on the engine server — sessions, create_model (full fine-tuning: no LoRA),
// forward / forward_backward (cross_entropy, importance_sampling, ppo; SUM losses, gradients
// accumulate), optim_step (AdamW), save_weights_for_sampler (snapshots), save_weights /
// load_weights (persisted), asample (+ prompt log-probs, top-k prompt log-probs), futures with
// try_again, seq_id ordering and idempotency. See docs/tinker-local.md.
// Files: service.ts (main thread: checks, queues, futures) → handler.ts in a worker thread
// (learner.ts: losses and AdamW on the embedded Gpt); routes.ts (HTTP), schemas.ts (zod);
// profiles.ts: how each real server (hosted Tinker, SkyRL-JAX, SkyRL-Train) differs.

export { TinkerService, type TinkerServerOptions } from './service.ts';
export { registerTinkerRoutes } from './routes.ts';
export { LOSS_FNS, type LossFn } from './learner.ts';
export { formatPath, parsePath, type TinkerPath } from './paths.ts';
export { PROFILES, TINKER_PROFILES, type TinkerProfile, type TinkerProfileName } from './profiles.ts';
