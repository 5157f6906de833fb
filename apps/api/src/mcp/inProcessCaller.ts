import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationCaller } from '@yieldrouter/mcp-server';
import type { z } from 'zod';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { canonicalPath } from '@yieldrouter/schemas';
import { deepFreeze } from '@yieldrouter/engine';
import { dispatchInProcess } from './dispatchInProcess';

/** An error answer of the API, as the MCP server reads one (status, code, field). */
export class InProcessCallError extends Error {
  override readonly name = 'InProcessCallError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly field: string | undefined,
  ) {
    super(message);
  }
}

export interface InProcessCallerOptions {
  readonly app: (req: IncomingMessage, res: ServerResponse) => void;
  readonly routes: ReadonlyMap<string, RouteDefinition>;
  /** The MCP caller's X-API-Key (sent on every call: the routes authenticate it). */
  readonly apiKey: string | undefined;
  readonly remoteAddress: string;
}

function urlOf(route: RouteDefinition, parameters: Parameters<OperationCaller>[1]): string {
  const path = canonicalPath(route).replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) =>
    encodeURIComponent(String(parameters.params?.[name] ?? '')),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters.query ?? {})) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

type ResponseSchema = z.ZodType;

// A frozen 2xx body (a document built once per discovery snapshot, deep-frozen) cannot change:
// its check against the route's schema is done once and the checked copy reused, frozen too,
// so the tool result's text of it is serialized once as well.
const checkedFrozen = new WeakMap<object, { schema: ResponseSchema; data: unknown }>();

/** The body checked with `schema` (its parsed copy), or undefined when it does not match. */
function checkedBody(schema: ResponseSchema, body: unknown): { data: unknown } | undefined {
  const frozen = typeof body === 'object' && body !== null && Object.isFrozen(body);
  const known = frozen ? checkedFrozen.get(body) : undefined;
  if (known?.schema === schema) return known;
  const checked = schema.safeParse(body);
  if (!checked.success) return undefined;
  if (!frozen) return { data: checked.data };
  const data: unknown = deepFreeze(checked.data);
  checkedFrozen.set(body, { schema, data });
  return { data };
}

/**
 * The MCP server's calls for the API's own /mcp endpoint: each runs the REST route in process
 * (same authentication, scopes, guard and Idempotency-Key handling), and its 2xx body is
 * checked with the route's response schema like the SDK does.
 */
export function inProcessCaller(options: InProcessCallerOptions): OperationCaller {
  return async (operationId, parameters) => {
    const route = options.routes.get(operationId);
    if (!route) throw new Error(`no route ${operationId}`);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
    if (parameters.idempotencyKey !== undefined) {
      headers['idempotency-key'] = parameters.idempotencyKey;
    }
    const response = await dispatchInProcess(options.app, {
      method: route.method.toUpperCase(),
      url: urlOf(route, parameters),
      headers,
      body: parameters.body,
      remoteAddress: options.remoteAddress,
    });
    const body: unknown = response.answer
      ? response.answer.body
      : response.text === ''
        ? undefined
        : JSON.parse(response.text);
    if (response.status >= 300) {
      const error = (body ?? {}) as { code?: string; message?: string; field?: string };
      throw new InProcessCallError(
        error.message ?? `HTTP ${response.status}`,
        response.status,
        error.code ?? 'UNKNOWN',
        error.field,
      );
    }
    const schema = route.responses[response.status]?.schema;
    if (!schema) return body;
    const checked = checkedBody(schema, body);
    if (!checked) {
      throw new InProcessCallError(
        `${operationId}: the answer does not match its schema`,
        response.status,
        'SCHEMA_MISMATCH',
        undefined,
      );
    }
    return checked.data;
  };
}
