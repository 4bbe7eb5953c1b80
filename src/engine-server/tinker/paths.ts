// tinker:// paths of saved weights and where they live under the state dir:
//   tinker://<model_id>/weights/<name>          <stateDir>/<model_id>/weights/<name>/          (weights + AdamW state)
//   tinker://<model_id>/sampler_weights/<name>  <stateDir>/<model_id>/sampler_weights/<name>/  (weights only)
// Names and ids are single path segments ([A-Za-z0-9_-], as SkyRL requires), so a path can never
// leave the state dir.

import { join } from 'node:path';
import { invalidRequest } from '../../errors/index.ts';

/** The characters allowed in model ids and checkpoint names. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;

/** What a tinker:// path names. */
export interface TinkerPath {
  modelId: string;
  kind: 'weights' | 'sampler_weights';
  name: string;
}

/** The tinker:// path of a saved checkpoint. */
export function formatPath(p: TinkerPath): string {
  return `tinker://${p.modelId}/${p.kind}/${p.name}`;
}

/** Parses a tinker:// path; a 400 naming `param` when it is not one of the two forms above. */
export function parsePath(path: string, param: string): TinkerPath {
  const m = /^tinker:\/\/([^/]+)\/(weights|sampler_weights)\/([^/]+)$/.exec(path);
  if (m === null || !ID_PATTERN.test(m[1]) || !ID_PATTERN.test(m[3])) {
    throw invalidRequest(
      `${param} must look like tinker://<model_id>/weights/<name> or tinker://<model_id>/sampler_weights/<name> (names: letters, digits, _ and -), got '${path}'`,
      param,
    );
  }
  return { modelId: m[1], kind: m[2] as TinkerPath['kind'], name: m[3] };
}

/** The folder of a checkpoint under the state dir. */
export function pathDir(stateDir: string, p: TinkerPath): string {
  return join(stateDir, p.modelId, p.kind, p.name);
}
