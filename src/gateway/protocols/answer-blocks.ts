// An answer as the block-structured protocols see it (Anthropic content blocks, Responses output
// items): reasoning, text and tool calls, one block each, in the order the policy produced them.
// `BlockStream` follows streamed Chat Completions chunks and tells a sink when a block opens, grows
// and closes; `answerBlocks` gives the same blocks for a whole answer.
import type { AnswerAccumulator } from '../accumulate.ts';

type Json = Record<string, unknown>;

export type BlockKind = 'reasoning' | 'text' | 'tool';

/** One block of an answer, complete. */
export interface AnswerBlock {
  kind: BlockKind;
  /** The reasoning or text; for a tool call, its arguments (JSON text). */
  text: string;
  /** Tool calls: the call id and the tool's name. */
  id?: string;
  name?: string;
}

/** What a protocol writes as blocks open, grow and close; each returns the bytes to send. */
export interface BlockSink {
  open(block: AnswerBlock, index: number): string;
  delta(block: AnswerBlock, index: number, text: string): string;
  close(block: AnswerBlock, index: number): string;
}

/** The blocks of a whole answer, in the order a stream would have opened them. */
export function answerBlocks(acc: AnswerAccumulator): AnswerBlock[] {
  const msg = acc.message();
  const out: AnswerBlock[] = [];
  if (acc.reasoning !== '') out.push({ kind: 'reasoning', text: acc.reasoning });
  if (typeof msg.content === 'string' && msg.content !== '') out.push({ kind: 'text', text: msg.content });
  for (const tc of msg.tool_calls ?? []) {
    const fn = (tc.function ?? {}) as Json;
    out.push({ kind: 'tool', id: String(tc.id), name: String(fn.name ?? ''), text: String(fn.arguments ?? '') });
  }
  return out;
}

/** Follows choice 0 of streamed chunks, block by block. */
export class BlockStream {
  private current?: AnswerBlock;
  private currentToolIndex = -1;
  private count = 0;

  constructor(
    private readonly sink: BlockSink,
    private readonly newCallId: (n: number) => string,
  ) {}

  chunk(chunk: Json): string {
    const choices = chunk.choices as Json[] | undefined;
    if (!Array.isArray(choices)) return '';
    let out = '';
    for (const choice of choices) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = (choice.delta ?? {}) as Json;
      if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '')
        out += this.grow('reasoning', delta.reasoning_content);
      if (typeof delta.content === 'string' && delta.content !== '') out += this.grow('text', delta.content);
      if (Array.isArray(delta.tool_calls)) for (const tc of delta.tool_calls as Json[]) out += this.tool(tc);
    }
    return out;
  }

  /** Closes the open block (the answer ended). */
  finish(): string {
    return this.closeCurrent();
  }

  private grow(kind: 'reasoning' | 'text', text: string): string {
    let out = '';
    if (this.current?.kind !== kind) out += this.closeCurrent() + this.open({ kind, text: '' });
    const block = this.current!;
    block.text += text;
    return out + this.sink.delta(block, this.count - 1, text);
  }

  private tool(tc: Json): string {
    const index = typeof tc.index === 'number' ? tc.index : this.currentToolIndex + 1;
    const fn = (tc.function ?? {}) as Json;
    let out = '';
    if (this.current?.kind !== 'tool' || index !== this.currentToolIndex) {
      out += this.closeCurrent();
      this.currentToolIndex = index;
      const id = typeof tc.id === 'string' && tc.id !== '' ? tc.id : this.newCallId(index);
      out += this.open({ kind: 'tool', id, name: typeof fn.name === 'string' ? fn.name : '', text: '' });
    }
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    if (args === '') return out;
    const block = this.current!;
    block.text += args;
    return out + this.sink.delta(block, this.count - 1, args);
  }

  private open(block: AnswerBlock): string {
    this.current = block;
    return this.sink.open(block, this.count++);
  }

  private closeCurrent(): string {
    const block = this.current;
    if (block === undefined) return '';
    this.current = undefined;
    return this.sink.close(block, this.count - 1);
  }
}
