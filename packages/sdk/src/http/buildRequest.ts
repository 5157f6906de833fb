import type { ResolvedClientConfig } from '../clientOptions';
import type { RawParameters } from '../operationTypes';
import type { ClientRoute } from '../routes/clientRoute';
import type { HttpRequest } from './HttpRequest';

const IDEMPOTENCY_KEY = 'idempotency-key';

function fillPath(route: ClientRoute, params: RawParameters['params']): string {
  return route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`${route.operationId}: params.${name} is required`);
    }
    return encodeURIComponent(String(value));
  });
}

function queryString(query: RawParameters['query']): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// Amounts are integer strings on the wire; a bigint that slips in is sent as one.
const jsonReplacer = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString(10) : value;

/** The wire request of one call: URL, headers (key, idempotency key) and JSON body. */
export function buildRequest(
  config: ResolvedClientConfig,
  route: ClientRoute,
  parameters: RawParameters,
): HttpRequest {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(parameters.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  if (config.apiKey !== undefined) headers['x-api-key'] = config.apiKey;
  if (config.userAgent !== undefined) headers['user-agent'] = config.userAgent;
  if (parameters.idempotencyKey !== undefined) {
    headers[IDEMPOTENCY_KEY] = parameters.idempotencyKey;
  } else if (route.idempotencyKey && !headers[IDEMPOTENCY_KEY]) {
    headers[IDEMPOTENCY_KEY] = globalThis.crypto.randomUUID();
  }
  const body =
    parameters.body === undefined ? undefined : JSON.stringify(parameters.body, jsonReplacer);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const method = route.method;
  return {
    operationId: route.operationId,
    method,
    url: `${config.baseUrl}${fillPath(route, parameters.params)}${queryString(parameters.query)}`,
    headers,
    body,
    idempotent: method === 'GET' || IDEMPOTENCY_KEY in headers,
  };
}
