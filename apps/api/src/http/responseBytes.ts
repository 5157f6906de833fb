import type { IdempotentResponse } from '@yieldrouter/engine';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { JSON_CONTENT_TYPE } from './idempotency';
import type { HandlerResult } from './mountRoutes';

const serialized = new WeakMap<object, Buffer>();

/**
 * Marks a request made in process (the MCP endpoint's tool calls): its 2xx answer's body is
 * handed back as the handler's object under {@link ANSWER_BODY} on the response, never
 * serialized to bytes only to be parsed again by the caller.
 */
export const IN_PROCESS = Symbol('in-process request');
export const ANSWER_BODY = Symbol('answer body');

/**
 * JSON bytes of a response body. Bodies that are frozen (documents built once from
 * configuration, or once per discovery snapshot) are encoded once and the bytes reused;
 * everything else is encoded per response.
 */
export function serialize(body: unknown): Buffer {
  if (typeof body !== 'object' || body === null || !Object.isFrozen(body)) {
    return Buffer.from(JSON.stringify(body));
  }
  let bytes = serialized.get(body);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(body));
    serialized.set(body, bytes);
  }
  return bytes;
}

/** The bytes a handler's result is sent (and stored) as; checked against its schema first. */
export function responseOf(
  route: RouteDefinition,
  result: HandlerResult,
  validate: boolean,
): IdempotentResponse {
  if (validate) checkResponse(route, result);
  return {
    status: result.status,
    headers: { ...result.headers, 'Content-Type': JSON_CONTENT_TYPE },
    body: serialize(result.body),
  };
}

/** Throws when a handler answers a status its route does not declare, or a body off its schema. */
export function checkResponse(route: RouteDefinition, result: HandlerResult): void {
  const schema = route.responses[result.status]?.schema;
  if (!schema) throw new Error(`${route.operationId}: undeclared response status ${result.status}`);
  const checked = schema.safeParse(result.body);
  if (!checked.success) {
    throw new Error(
      `${route.operationId}: response drifted from its schema: ${checked.error.message}`,
    );
  }
}
