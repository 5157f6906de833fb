import type { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { IdempotencyWindow } from './idempotencyWindow';
import { splitArguments } from './splitArguments';
import { resultText, structuredOf, toolError } from './toolResult';
import type { ToolDefinition } from './toolTypes';

/**
 * Calls one API operation by operationId (the SDK client's method of that name, or the API's
 * in-process dispatch) and resolves to its 2xx body, validated with the route's schema. A
 * refusal of the API rejects with an {@link ApiCallError} (the SDK's YieldRouterError is one).
 */
export type OperationCaller = (
  operationId: string,
  parameters: {
    readonly params?: Record<string, unknown>;
    readonly query?: Record<string, unknown>;
    readonly body?: unknown;
    readonly idempotencyKey?: string;
  },
) => Promise<unknown>;

/** How a caller reports an error answer of the API: HTTP status, error code, field at fault. */
export interface ApiCallError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string | undefined;
}

export const isApiCallError = (error: unknown): error is ApiCallError =>
  error instanceof Error &&
  typeof (error as Partial<ApiCallError>).status === 'number' &&
  typeof (error as Partial<ApiCallError>).code === 'string';

/** A refusal of the API's request guard: where, which code, why (never the value). */
export interface GuardRefusal {
  readonly path: string;
  readonly code: string;
  readonly reason: string;
}

/** The request guard the API runs on every request part (key material, control characters). */
export type ArgumentGuard = (value: unknown, path: string) => GuardRefusal | undefined;

export interface CallToolOptions {
  readonly call: OperationCaller;
  readonly guard?: ArgumentGuard | undefined;
  /** Who calls, in derived Idempotency-Keys: two callers never share one. */
  readonly idempotencyScope: string;
  /** The keys of recent write calls: a retry within the window reuses the first call's key. */
  readonly idempotency: IdempotencyWindow;
}

/** The first argument a route schema refuses, named as the tool argument, and why. */
function invalidArgument(
  tool: ToolDefinition,
  schema: z.ZodType | undefined,
  value: unknown,
): { field: string; reason: string } | undefined {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  const path = issue?.path.map(String) ?? [];
  const name =
    tool.placement.body === 'whole' && schema === tool.route.request.body
      ? ['body', ...path].join('.')
      : path.join('.') || 'arguments';
  return { field: name, reason: issue?.message ?? 'invalid' };
}

/**
 * Runs one tool: the API's guard on the arguments, the route's own zod schemas (so a bad
 * argument is named before any request), then the SDK call with a derived Idempotency-Key on
 * writes. The SDK validates the answer with the route's response schema.
 */
export async function callTool(
  tool: ToolDefinition,
  rawArgs: Readonly<Record<string, unknown>>,
  options: CallToolOptions,
): Promise<CallToolResult> {
  const refusal = options.guard?.(rawArgs, 'arguments');
  if (refusal) {
    return toolError({
      code: refusal.code,
      message: `${refusal.path}: ${refusal.reason}. Nothing was sent.`,
      field: refusal.path,
    });
  }
  const split = splitArguments(tool, rawArgs);
  if (split.unknown.length > 0) {
    return toolError({
      code: 'BAD_REQUEST',
      message: `unknown argument ${split.unknown.join(', ')}`,
      field: split.unknown[0],
    });
  }
  const { params, query, body } = tool.route.request;
  const invalid =
    invalidArgument(tool, params, split.params ?? {}) ??
    invalidArgument(tool, query, split.query ?? {}) ??
    invalidArgument(tool, body, split.body ?? {});
  if (invalid) {
    return toolError({
      code: 'BAD_REQUEST',
      message: `invalid argument ${invalid.field}: ${invalid.reason}`,
      field: invalid.field,
    });
  }
  const identity = { scope: options.idempotencyScope, operationId: tool.name, args: rawArgs };
  const idempotencyKey = tool.writesOnce ? options.idempotency.keyFor(identity) : undefined;
  let answer: unknown;
  try {
    answer = await options.call(tool.name, {
      ...(split.params ? { params: split.params } : {}),
      ...(split.query ? { query: split.query } : {}),
      ...(split.body !== undefined && tool.route.request.body ? { body: split.body } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
  } catch (error) {
    if (!isApiCallError(error)) throw error;
    // A 4xx wrote nothing: a retry once its cause is fixed must run, not replay this refusal. A
    // 409 may be the first call still running (IDEMPOTENCY_IN_PROGRESS): its key is kept.
    if (idempotencyKey && error.status >= 400 && error.status < 500 && error.status !== 409) {
      options.idempotency.forget(identity);
    }
    return toolError(error);
  }
  const structured = structuredOf(answer);
  return {
    content: [{ type: 'text', text: resultText(structured) }],
    structuredContent: structured,
  };
}
