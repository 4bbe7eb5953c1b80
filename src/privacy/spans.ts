// A span of text a reader found, and what every reader shares: the regex walk, and a table line's fields.

export interface Span {
  type: string;
  start: number;
  end: number;
}

export function* matches(text: string, re: RegExp): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) yield m;
}

/** Splits one line of a table (CSV, TSV, semicolons, Markdown pipes) into its fields with their offsets (quotes kept out of the span). */
export function tableFields(line: string, separator: string): Array<{ value: string; start: number }> {
  const out: Array<{ value: string; start: number }> = [];
  const other = separator === '\t' ? '\\t' : `\\${separator}`;
  const re = new RegExp(`"((?:[^"]|"")*)"|([^${other}]*)`, 'g');
  for (let m = re.exec(line); m !== null && m.index <= line.length; m = re.exec(line)) {
    out.push({ value: m[1] ?? m[2] ?? '', start: m.index + (m[1] !== undefined ? 1 : 0) });
    if (re.lastIndex >= line.length || line[re.lastIndex] !== separator) break;
    re.lastIndex++;
  }
  return out;
}
