import fc from 'fast-check';
import { keyMaterialString } from './keyMaterial';
import type { Operation } from './operations';
import type { BodyPart, Part } from './requestParts';
import { GARBAGE_HEADER_VALUES, body, pathSegment, queryString } from './requestParts';
import type { ValueHints } from './validValue';

/** Who sends a request: no key, a role's key, or a key the server does not know. */
export type Identity = 'none' | 'unknown key' | (string & {});

export interface FuzzRequest {
  readonly method: string;
  /** Path and query string exactly as sent. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly identity: Identity;
  /** What is odd about the request, e.g. `body.txId: NUL byte`; empty for a well-formed one. */
  readonly shapes: readonly string[];
}

export interface FuzzRequestOptions {
  /** Raw API keys by role. */
  readonly keys: Readonly<Record<string, string>>;
  readonly hints: ValueHints;
  /** Only well-formed parts (the per-role sweep); mutations otherwise. */
  readonly wellFormed?: boolean;
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;

function identityOf(
  operation: Operation,
  keys: FuzzRequestOptions['keys'],
): fc.Arbitrary<Identity> {
  const roles = Object.keys(keys);
  const allowed = operation.auth.includes('public')
    ? roles
    : roles.filter((r) => operation.auth.includes(r));
  const others = roles.filter((role) => !allowed.includes(role));
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(allowed.length > 0 ? allowed : roles)), weight: 8 },
    { arbitrary: fc.constantFrom<Identity>('none', 'unknown key'), weight: 1 },
    ...(others.length > 0 ? [{ arbitrary: fc.constantFrom(...others), weight: 1 }] : []),
  );
}

interface HeaderPart {
  readonly name: string;
  readonly value: string;
  readonly shape?: string;
}

function headerParts(operation: Operation): fc.Arbitrary<HeaderPart[]> {
  const idempotent = operation.parameters.some(
    (p) => p.in === 'header' && p.name === 'Idempotency-Key',
  );
  const garbage = (name: string) =>
    fc.oneof(
      fc.constantFrom(...GARBAGE_HEADER_VALUES).map((value) => ({
        name,
        value,
        shape: `header ${name}: ${JSON.stringify(value.length > 40 ? `${value.length} characters` : value)}`,
      })),
      keyMaterialString
        .filter((value) => !/[\n\r\u00a0]/.test(value))
        .map((value) => ({ name, value, shape: `header ${name}: key material` })),
    );
  const optional = (arbitrary: fc.Arbitrary<HeaderPart>, weightAbsent: number) =>
    fc.oneof(
      { arbitrary: fc.constant<HeaderPart | null>(null), weight: weightAbsent },
      { arbitrary, weight: 1 },
    );
  const idempotencyKey = fc.oneof(
    fc.uuid().map((value) => ({ name: 'Idempotency-Key', value })),
    garbage('Idempotency-Key'),
  );
  return fc
    .tuple(
      optional(idempotencyKey, idempotent ? 1 : 6),
      optional(
        fc.oneof(
          fc.uuid().map((value) => ({ name: 'X-Request-Id', value })),
          garbage('X-Request-Id'),
        ),
        2,
      ),
      optional(
        fc.constantFrom(
          { name: 'X-Role', value: 'keeper', shape: 'header X-Role: keeper' },
          { name: 'If-None-Match', value: '*', shape: 'header If-None-Match: *' },
          { name: 'Accept', value: 'application/xml', shape: 'header Accept: application/xml' },
          { name: 'Content-Encoding', value: 'gzip', shape: 'header Content-Encoding: gzip' },
          {
            name: 'Content-Encoding',
            value: 'br, zstd',
            shape: 'header Content-Encoding: br, zstd',
          },
          {
            name: 'X-Forwarded-For',
            value: '1.2.3.4, ::1, garbage',
            shape: 'header X-Forwarded-For garbage',
          },
        ),
        4,
      ),
    )
    .map((parts) => parts.filter((part): part is HeaderPart => part !== null));
}

function fillPath(path: string, segments: Readonly<Record<string, Part>>): string {
  return path.replace(
    /\{([A-Za-z0-9_]+)\}/g,
    (_match, name: string) => segments[name]?.text ?? name,
  );
}

/**
 * Requests for one operation: mostly its own method and a key of a role it allows, with path
 * parameters, query, headers and body each well-formed or broken in one of many ways.
 */
export function fuzzRequest(
  operation: Operation,
  options: FuzzRequestOptions,
): fc.Arbitrary<FuzzRequest> {
  const { hints, keys } = options;
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const segments = fc.record(
    Object.fromEntries(
      pathParameters.map((parameter) => [
        parameter.name,
        options.wellFormed
          ? pathSegment(parameter, hints).filter((part) => part.shape === undefined)
          : pathSegment(parameter, hints),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, Part>>;
  const query = queryString(operation.parameters, hints);
  const payload = body(operation.body, hints);
  const method = fc.oneof(
    { arbitrary: fc.constant(operation.method), weight: 30 },
    { arbitrary: fc.constantFrom(...OTHER_METHODS), weight: options.wellFormed ? 0 : 1 },
  );
  const path = fc.constantFrom(operation.path, ...operation.aliases);
  return fc
    .record({
      identity: identityOf(operation, keys),
      method,
      path,
      segments,
      query,
      payload,
      headers: options.wellFormed ? fc.constant<HeaderPart[]>([]) : headerParts(operation),
    })
    .filter(({ query, payload }) => !options.wellFormed || (!query.shape && !payload.shape))
    .map((parts) => assemble(operation, parts, keys));
}

function assemble(
  operation: Operation,
  parts: {
    identity: Identity;
    method: string;
    path: string;
    segments: Record<string, Part>;
    query: Part;
    payload: BodyPart;
    headers: HeaderPart[];
  },
  keys: FuzzRequestOptions['keys'],
): FuzzRequest {
  const headers: Record<string, string> = {};
  const shapes: string[] = [];
  if (parts.identity === 'unknown key') headers['X-API-Key'] = 'fuzz-unknown-key-0000';
  else if (parts.identity !== 'none') headers['X-API-Key'] = keys[parts.identity] ?? '';
  if (parts.method !== operation.method) shapes.push(`method ${parts.method}`);
  for (const segment of Object.values(parts.segments))
    if (segment.shape) shapes.push(segment.shape);
  if (parts.query.shape) shapes.push(parts.query.shape);
  if (parts.payload.shape) shapes.push(parts.payload.shape);
  if (parts.payload.contentType) headers['Content-Type'] = parts.payload.contentType;
  for (const header of parts.headers) {
    headers[header.name] = header.value;
    if (header.shape) shapes.push(header.shape);
  }
  const path = fillPath(parts.path, parts.segments);
  return {
    method: parts.method,
    target: parts.query.text ? `${path}?${parts.query.text}` : path,
    headers,
    ...(parts.payload.bytes ? { body: parts.payload.bytes } : {}),
    identity: parts.identity,
    shapes,
  };
}
