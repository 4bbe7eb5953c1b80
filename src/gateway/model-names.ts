// The model names this server answers to: the served name, the upstream model id, and the aliases
// in server.model_aliases (`*` matches any run of characters, e.g. `claude-*`). Each agent sends
// the model name its user configured; an unknown one gets a 404 that lists what is served.
import { OpenClawError } from '../errors/index.ts';

function pattern(alias: string): RegExp {
  return new RegExp(
    `^${alias
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

export class ModelNames {
  private readonly exact: Set<string>;
  private readonly wildcards: RegExp[];

  constructor(
    private readonly served: string[],
    private readonly aliases: string[],
  ) {
    this.exact = new Set([...served, ...aliases.filter((a) => !a.includes('*'))]);
    this.wildcards = aliases.filter((a) => a.includes('*')).map(pattern);
  }

  accepts(name: string): boolean {
    return this.exact.has(name) || this.wildcards.some((re) => re.test(name));
  }

  /** Throws a 404 naming the accepted names when `name` is not one of them (no name: the policy). */
  check(name: string | undefined): void {
    if (name === undefined || this.accepts(name)) return;
    const names = [...new Set([...this.served, ...this.aliases])].map((n) => `'${n}'`).join(', ');
    throw new OpenClawError(
      'not_found',
      `The model '${name.slice(0, 200)}' is not served here. This server answers to ${names}: send one of them, or add '${name.slice(0, 200)}' to server.model_aliases.`,
      { code: 'model_not_found', param: 'model' },
    );
  }

  /** The names /v1/models lists (wildcard aliases are not names). */
  listed(): string[] {
    return [...new Set([...this.served, ...this.aliases.filter((a) => !a.includes('*'))])];
  }
}
