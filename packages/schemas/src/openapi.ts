import { z } from 'zod';
import { API_VERSION } from './documents';
import { ErrorBody } from './errors';
import type { RouteDefinition } from './manifest/defineRoute';
import { routePaths } from './manifest/defineRoute';

type JsonObject = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonObject;
  return rest;
}

const IDEMPOTENCY_KEY_PARAMETER: JsonObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  description: [
    'Makes a retry safe: 1 to 255 printable ASCII characters (a UUID is a good choice), scoped',
    'to the API key (to the client IP on public routes) and the operation. Anything else is 400',
    'BAD_REQUEST naming `header.Idempotency-Key`.',
    '- Same key, same request (path, query and body as parsed): the stored response is replayed',
    '  byte for byte (status, headers and body, an error body with the first requestId) with',
    '  `Idempotent-Replayed: true`.',
    '- Same key, different request: 422 IDEMPOTENCY_KEY_REUSED.',
    '- While the first request is still running, a retry waits up to 2 s for its response, then',
    '  gets 409 IDEMPOTENCY_IN_PROGRESS with `Retry-After: 1`.',
    '- Final answers (2xx, and 4xx errors such as INSUFFICIENT_LIQUID) are kept 24 h; 5xx and',
    '  failed requests are not stored, so a retry with the same key runs again.',
  ].join('\n'),
};

function parametersOf(route: RouteDefinition): JsonObject[] {
  const out: JsonObject[] = [];
  const add = (location: 'path' | 'query', object: z.ZodObject | undefined) => {
    if (!object) return;
    for (const [name, field] of Object.entries(object.shape)) {
      const schema = toSchema(field as z.ZodType, 'input');
      out.push({
        name,
        in: location,
        required: location === 'path' || !(field as z.ZodType).safeParse(undefined).success,
        schema,
      });
    }
  };
  add('path', route.request.params);
  add('query', route.request.query);
  for (const header of route.request.headers ?? []) {
    out.push(
      header === 'Idempotency-Key'
        ? IDEMPOTENCY_KEY_PARAMETER
        : { name: header, in: 'header', required: false, schema: { type: 'string' } },
    );
  }
  return out;
}

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

function responsesOf(route: RouteDefinition): JsonObject {
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = response.schema
      ? {
          description: response.description,
          content: { 'application/json': { schema: toSchema(response.schema, 'output') } },
        }
      : { description: response.description };
  }
  if (route.request.params || route.request.query || route.request.body) {
    responses['400'] = errorRef('BAD_REQUEST: the message and `field` name the input at fault.');
  }
  if (route.request.refusesKeyMaterial) {
    responses['400'] = errorRef(
      'BAD_REQUEST naming the field, or KEY_MATERIAL_REFUSED: the body looks like it carries a ' +
        'private key or seed phrase (refused unread; nothing is stored or logged).',
    );
  }
  if (route.auth !== 'public') {
    responses['401'] = errorRef('UNAUTHORIZED (no key) or INVALID_API_KEY (unknown key).');
    responses['403'] = errorRef('UNAUTHORIZED (wrong role), WALLET_SCOPE or CHARACTER_SCOPE.');
  }
  if (route.request.params) {
    responses['404'] = errorRef('NOT_FOUND, strategy_unknown or PLAN_NOT_FOUND.');
  }
  if (route.request.headers?.includes('Idempotency-Key')) {
    responses['409'] = errorRef('IDEMPOTENCY_IN_PROGRESS: retry after Retry-After seconds.');
    responses['422'] = errorRef('IDEMPOTENCY_KEY_REUSED: the key was used with another request.');
  }
  responses['429'] = errorRef('RATE_LIMITED; see Retry-After.');
  responses['500'] = errorRef('INTERNAL_ERROR; nothing internal is disclosed.');
  responses['501'] = errorRef(
    'NOT_IMPLEMENTED: declared, handler not landed yet (see /svc/routes).',
  );
  return responses;
}

export interface BuildOpenApiDocumentOptions {
  readonly serverUrl?: string;
  /** Operation ids whose handlers are live; others are marked `x-implemented: false`. */
  readonly implemented?: ReadonlySet<string>;
}

/** Builds the OpenAPI 3.1 document from the route manifest. */
export function buildOpenApiDocument(
  routes: readonly RouteDefinition[],
  options: BuildOpenApiDocumentOptions = {},
): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const { canonical, aliases } = routePaths(route);
    const operation: JsonObject = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [...route.tags],
      parameters: parametersOf(route),
      responses: responsesOf(route),
      'x-auth': route.auth === 'public' ? ['public'] : [...route.auth],
      'x-legacy-aliases': aliases,
      'x-implemented': options.implemented ? options.implemented.has(route.operationId) : true,
    };
    if (route.description) operation['description'] = route.description;
    if (route.deprecated) operation['deprecated'] = true;
    if (route.request.refusesKeyMaterial) operation['x-refuses-key-material'] = true;
    if (route.auth !== 'public') operation['security'] = [{ ApiKey: [] }];
    if (route.request.body) {
      operation['requestBody'] = {
        required: true,
        content: { 'application/json': { schema: toSchema(route.request.body, 'input') } },
      };
    }
    const openApiPath = canonical;
    paths[openApiPath] = { ...paths[openApiPath], [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Yield Router API',
      version: API_VERSION,
      description: [
        'Non-custodial yield router for software agents and their owners.',
        '',
        'Conventions: amounts are integer micros strings ("1000000" is 1 USDC). Errors are',
        '`{code, message, requestId}` (catalog: GET /api/v1/svc/errors). Authentication is the',
        '`X-API-Key` header; `X-Role` is ignored. Legacy aliases `/api/svc/*` and `/api/wallets/*`',
        'are served by the same handlers (see `x-legacy-aliases`).',
        '',
        'Blocked plans: every plan endpoint answers HTTP 200 with `status: "blocked"` and',
        '`blockers[]` when a precondition fails; clients must inspect the body. 4xx is kept for',
        'requests that are malformed or not allowed.',
      ].join('\n'),
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    paths,
    components: {
      schemas: { ErrorBody: toSchema(ErrorBody, 'output') },
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  };
}
