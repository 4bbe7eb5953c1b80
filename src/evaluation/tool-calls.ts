// Tool-call validity of an answer to a probe that offers tools (the gate's probe check, issue 37):
// an agent's policy that starts writing tool calls no one can execute is broken even when its
// text still reads well. The answer is read with the policy's own output parser (Qwen3/Hermes
// `<tool_call>` blocks; a model without tool syntax never calls, and is never wrong here).
import type { OutputParser } from '../chat/index.ts';
import type { ProbeTool } from '../config/index.ts';

/**
 * What is wrong with the tool calls in `text`, or null when there is none or every one is
 * well-formed: a call block that is not JSON, a tool the probe did not offer, arguments that are
 * not a JSON object, or a required argument left out. An answer without a call is not an error:
 * answering in words is allowed.
 */
export function toolCallError(text: string, tools: readonly ProbeTool[], parser: OutputParser): string | null {
  const delta = parser.push(text);
  const rest = parser.finish();
  if (parser.malformedToolCalls > 0) return `${parser.malformedToolCalls} tool-call block(s) that are not JSON with a name`;
  for (const call of [...(delta.toolCalls ?? []), ...(rest.toolCalls ?? [])]) {
    const tool = tools.find((t) => t.function.name === call.function.name);
    if (tool === undefined) return `a call to ${call.function.name}, which the probe did not offer`;
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments);
    } catch {
      return `arguments of ${call.function.name} are not JSON`;
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return `arguments of ${call.function.name} are not an object`;
    const missing = (tool.function.parameters?.required ?? []).filter((k) => !(k in args));
    if (missing.length > 0) return `${call.function.name} called without ${missing.join(', ')}`;
  }
  return null;
}
