// Conversions between store rows and objects, with the invariants checked where data enters the
// store (docs/design.md §8): one rollout log-prob and at most one teacher log-prob per response token.
import { OpenClawError } from '../errors/index.ts';
import type { Sample, SampleType, Vote } from './types.ts';
import type { PendingTurn, SampleState, StoredSample } from './store-types.ts';
import { checkFloat64, checkInt32, decodeFloat64, decodeInt32, decodeTopK, encodeFloat64, encodeInt32, encodeTopK } from './codec.ts';

const SAMPLE_TYPES: readonly SampleType[] = ['rl', 'opd', 'opd+rl'];

function invalid(what: string, message: string): OpenClawError {
  return new OpenClawError('data', `${what}: ${message}`, { code: 'invalid_sample_data' });
}

function checkRef(what: string, sessionId: unknown, turnId: unknown, policyVersion: unknown): void {
  if (typeof sessionId !== 'string' || sessionId === '') throw invalid(what, 'sessionId must be a non-empty string');
  if (!Number.isInteger(turnId)) throw invalid(what, `turnId must be an integer, got ${String(turnId)}`);
  if (!Number.isInteger(policyVersion) || (policyVersion as number) < 0) {
    throw invalid(what, `policyVersion must be a non-negative integer, got ${String(policyVersion)}`);
  }
}

function checkPerToken(what: string, field: string, values: readonly unknown[] | null, tokens: number): void {
  if (values !== null && values.length !== tokens) {
    throw invalid(what, `${field} has ${values.length} entries for ${tokens} response tokens`);
  }
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function parse<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** Row shape of `pending_turns` (without `seq`). */
export interface PendingRow {
  session_id: string;
  turn_id: number;
  policy_version: number;
  prompt_messages: string;
  prompt_ids: Buffer;
  response_text: string;
  response_ids: Buffer;
  rollout_logprobs: Buffer;
  tool_calls: string | null;
  next_state: string | null;
  extra: string | null;
  created_at: number;
}

/** The checks of a pending turn's shape (its numbers are checked as they are encoded). */
function checkPendingShape(t: PendingTurn): void {
  const what = `pending turn ${t.sessionId}:${t.turnId}`;
  checkRef(what, t.sessionId, t.turnId, t.policyVersion);
  checkPerToken(what, 'rolloutLogprobs', t.rolloutLogprobs, t.responseIds.length);
  if (!Array.isArray(t.promptMessages)) throw invalid(what, 'promptMessages must be an array of chat messages');
  if (t.nextState !== null && !Array.isArray(t.nextState)) throw invalid(what, 'nextState must be an array or null');
}

/** Throws what `pendingToRow` throws for `t`, without encoding it (for a row written later, or never). */
export function checkPending(t: PendingTurn): void {
  checkPendingShape(t);
  checkInt32(t.promptIds, 'promptIds');
  checkInt32(t.responseIds, 'responseIds');
  checkFloat64(t.rolloutLogprobs, 'rolloutLogprobs');
}

/** Validates a pending turn and encodes it as a row. */
export function pendingToRow(t: PendingTurn): PendingRow {
  checkPendingShape(t);
  return {
    session_id: t.sessionId,
    turn_id: t.turnId,
    policy_version: t.policyVersion,
    prompt_messages: JSON.stringify(t.promptMessages),
    prompt_ids: encodeInt32(t.promptIds, 'promptIds'),
    response_text: t.responseText,
    response_ids: encodeInt32(t.responseIds, 'responseIds'),
    rollout_logprobs: encodeFloat64(t.rolloutLogprobs, 'rolloutLogprobs'),
    tool_calls: json(t.toolCalls),
    next_state: json(t.nextState),
    extra: json(t.extra ?? null),
    created_at: t.createdAt,
  };
}

/** Decodes a `pending_turns` row. */
export function rowToPending(r: PendingRow): PendingTurn {
  return {
    sessionId: r.session_id,
    turnId: r.turn_id,
    policyVersion: r.policy_version,
    promptMessages: JSON.parse(r.prompt_messages),
    promptIds: decodeInt32(r.prompt_ids),
    responseText: r.response_text,
    responseIds: decodeInt32(r.response_ids),
    rolloutLogprobs: decodeFloat64(r.rollout_logprobs),
    toolCalls: parse(r.tool_calls),
    nextState: parse(r.next_state),
    createdAt: r.created_at,
    extra: parse(r.extra),
  };
}

/** Row shape of `samples` as inserted (state columns get their defaults). */
export interface SampleRow {
  id: string;
  session_id: string;
  turn_id: number;
  policy_version: number;
  prompt_ids: Buffer;
  response_ids: Buffer;
  rollout_logprobs: Buffer;
  loss_mask: number;
  reward: number;
  teacher_logprobs: Buffer | null;
  teacher_topk: Buffer | null;
  type: string;
  votes: string;
  hint: string | null;
  created_at: number;
  teacher_prompt_ids: Buffer | null;
}

/** Row shape of `samples` as read back. */
export interface StoredSampleRow extends SampleRow {
  seq: number;
  state: SampleState;
  drop_reason: string | null;
  lease_id: string | null;
  lease_count: number;
}

/** Validates a sample and encodes it as a row. */
export function sampleToRow(s: Sample): SampleRow {
  const what = `sample ${s.id}`;
  if (typeof s.id !== 'string' || s.id === '') throw invalid('sample', 'id must be a non-empty string');
  checkRef(what, s.sessionId, s.turnId, s.policyVersion);
  const tokens = s.responseIds.length;
  checkPerToken(what, 'rolloutLogprobs', s.rolloutLogprobs, tokens);
  checkPerToken(what, 'teacherLogprobs', s.teacherLogprobs, tokens);
  checkPerToken(what, 'teacherTopK', s.teacherTopK, tokens);
  if (s.lossMask !== 0 && s.lossMask !== 1) throw invalid(what, `lossMask must be 0 or 1, got ${String(s.lossMask)}`);
  if (!Number.isFinite(s.reward)) throw invalid(what, `reward must be a finite number, got ${String(s.reward)}`);
  if (!SAMPLE_TYPES.includes(s.type)) throw invalid(what, `type must be one of ${SAMPLE_TYPES.join(', ')}`);
  return {
    id: s.id,
    session_id: s.sessionId,
    turn_id: s.turnId,
    policy_version: s.policyVersion,
    prompt_ids: encodeInt32(s.promptIds, 'promptIds'),
    response_ids: encodeInt32(s.responseIds, 'responseIds'),
    rollout_logprobs: encodeFloat64(s.rolloutLogprobs, 'rolloutLogprobs'),
    loss_mask: s.lossMask,
    reward: s.reward,
    teacher_logprobs: s.teacherLogprobs === null ? null : encodeFloat64(s.teacherLogprobs, 'teacherLogprobs'),
    teacher_topk: s.teacherTopK === null ? null : encodeTopK(s.teacherTopK, 'teacherTopK'),
    type: s.type,
    votes: JSON.stringify(s.votes),
    hint: s.hint,
    created_at: s.createdAt,
    teacher_prompt_ids: s.teacherPromptIds == null ? null : encodeInt32(s.teacherPromptIds, 'teacherPromptIds'),
  };
}

/** Decodes a `samples` row. */
export function rowToSample(r: StoredSampleRow): StoredSample {
  return {
    id: r.id,
    sessionId: r.session_id,
    turnId: r.turn_id,
    policyVersion: r.policy_version,
    promptIds: decodeInt32(r.prompt_ids),
    responseIds: decodeInt32(r.response_ids),
    rolloutLogprobs: decodeFloat64(r.rollout_logprobs),
    lossMask: r.loss_mask === 1 ? 1 : 0,
    reward: r.reward,
    teacherLogprobs: r.teacher_logprobs === null ? null : decodeFloat64(r.teacher_logprobs),
    teacherTopK: r.teacher_topk === null ? null : decodeTopK(r.teacher_topk),
    type: r.type as SampleType,
    votes: JSON.parse(r.votes) as Vote[],
    hint: r.hint,
    createdAt: r.created_at,
    // Only where one was kept (a held-out distillation sample); a schema-2 store has no such column.
    ...(r.teacher_prompt_ids != null ? { teacherPromptIds: decodeInt32(r.teacher_prompt_ids) } : {}),
    state: r.state,
    dropReason: r.drop_reason,
    leaseId: r.lease_id,
    leaseCount: r.lease_count,
  };
}
