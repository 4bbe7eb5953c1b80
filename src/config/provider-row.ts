// The one lookup of a provider table (judge, teacher, rollout): the row a config's provider names.
// The schema only lets known names through; a config built by hand with another one is a config
// error naming the key and the providers there are, never a silent default.
import { OpenClawError } from '../errors/index.ts';

/** `table[name]`, or a config error naming `key` (e.g. `judge.provider`) and the known names. */
export function providerRow<T>(table: Readonly<Record<string, T>>, name: string, key: string): T {
  if (!Object.hasOwn(table, name)) {
    const what = key.split('.')[0];
    throw new OpenClawError('config', `${key} ${JSON.stringify(name)} is not a ${what} provider; use ${Object.keys(table).join(', ')}`, {
      param: key,
    });
  }
  return table[name];
}
