// A span of text a reader found, and the regex walk every reader shares.

export interface Span {
  type: string;
  start: number;
  end: number;
}

export function* matches(text: string, re: RegExp): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) yield m;
}
