// Settings a config may leave out but a user rarely means to: the loader still accepts them (they
// have working defaults), and the CLI prints each as a warning at start-up so the default is never
// silent. In: the tree as written (after env expansion and flags) and the validated config.
import { DEFAULT_MODEL_ID, type Config } from './schema.ts';
import { rolloutFacts } from './providers.ts';

function has(tree: Record<string, unknown>, section: string, key: string): boolean {
  const s = tree[section];
  return s !== null && typeof s === 'object' && (s as Record<string, unknown>)[key] !== undefined;
}

/** One line per default the user should know about. */
export function configWarnings(tree: Record<string, unknown>, config: Config): string[] {
  const out: string[] = [];
  if (!has(tree, 'rollout', 'model_id')) {
    out.push(
      rolloutFacts(config).reach === 'http'
        ? `rollout.model_id is not set: requests go to ${config.rollout.base_url} as model '${DEFAULT_MODEL_ID}', which that server probably does not serve; set rollout.model_id to the name it lists at /v1/models`
        : `rollout.model_id is not set: the policy is served as model '${DEFAULT_MODEL_ID}' (the name clients send and see at /v1/models); set rollout.model_id to choose it`,
    );
  }
  return out;
}
