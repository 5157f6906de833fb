import type { ClientOperationId, ClientRouteDomain } from '@yieldrouter/schemas';

/**
 * One row of the route table: method, canonical path, the manifest domain the route is declared
 * in, and `1` when the route takes an Idempotency-Key.
 */
export type RouteEntry = readonly [
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  domain: ClientRouteDomain,
  idempotencyKey?: 1,
];

export type RouteTable = { readonly [Id in ClientOperationId]: RouteEntry };

/** What the client needs of a route to send a call: everything but its schemas. */
export interface ClientRoute {
  readonly operationId: string;
  readonly method: RouteEntry[0];
  readonly path: string;
  readonly domain: ClientRouteDomain;
  readonly idempotencyKey: boolean;
}

export function clientRoute(operationId: string, entry: RouteEntry): ClientRoute {
  const [method, path, domain, idempotencyKey] = entry;
  return { operationId, method, path, domain, idempotencyKey: idempotencyKey === 1 };
}
