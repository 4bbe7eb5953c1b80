// One check for the base URLs of the channels the server calls (Tinker, the teacher): a value
// that is not a URL is a config error naming the key and showing what one looks like.
import { OpenClawError } from '../errors/index.ts';

/** Parses a channel's base URL, or throws a config error naming `key` with an `example`. */
export function parseBaseUrl(value: string, key: string, example: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new OpenClawError('config', `${key} ${JSON.stringify(value)} is not a URL (${example})`, { param: key });
  }
}
