import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a model reads first of a plan: whether it is one to sign, and what to sign. */
const PLAN_KEYS_FIRST = ['status', 'planId', 'submitted', 'ownerMustSign', 'blockers', 'legs'];

/** The structured content of an answer: the body when it is an object, else `{ result }`. */
export const structuredOf = (body: unknown): JsonObject =>
  isObject(body) ? body : { result: body };

const textOfFrozen = new WeakMap<JsonObject, string>();

/**
 * The text block of a result: the structured content as compact JSON (the MCP spec asks a server
 * that returns structured content to return it serialized as text too, for hosts that show only
 * text). A plan's status, money-moved flags, blockers and legs come first, so a host that cuts a
 * long text still shows what the owner must sign. A frozen answer (the API's documents built
 * once per discovery snapshot, deep-frozen) is serialized once and its text reused.
 */
export function resultText(structured: JsonObject): string {
  if (!Object.isFrozen(structured)) return textOf(structured);
  let text = textOfFrozen.get(structured);
  if (text === undefined) {
    text = textOf(structured);
    textOfFrozen.set(structured, text);
  }
  return text;
}

function textOf(structured: JsonObject): string {
  const first = PLAN_KEYS_FIRST.filter((key) => key in structured);
  if (!('ownerMustSign' in structured) || first.length === 0) return JSON.stringify(structured);
  const ordered: JsonObject = {};
  for (const key of first) ordered[key] = structured[key];
  for (const [key, value] of Object.entries(structured)) {
    if (!(key in ordered)) ordered[key] = value;
  }
  return JSON.stringify(ordered);
}

/** The API's error shape: a code, a message, and the field at fault when there is one. */
export interface ToolErrorBody {
  readonly code: string;
  readonly message: string;
  readonly field?: string | undefined;
}

/** A tool error whose text is the API's `{code, message}` as JSON. */
export const toolError = (error: ToolErrorBody): CallToolResult => ({
  isError: true,
  content: [
    {
      type: 'text',
      text: JSON.stringify({
        code: error.code,
        message: error.message,
        ...(error.field ? { field: error.field } : {}),
      }),
    },
  ],
});
