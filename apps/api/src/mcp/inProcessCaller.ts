import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationCaller } from '@yieldrouter/mcp-server';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { canonicalPath } from '@yieldrouter/schemas';
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
    const checked = schema.safeParse(body);
    if (!checked.success) {
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
