import { z } from 'zod';
import { API_VERSION } from './metaDocuments';
import { ErrorBody } from './errors';
import type { RouteDefinition } from './manifest/defineRoute';
import { routePaths } from './manifest/defineRoute';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_SCHEMAS } from './webhookEvents';

type JsonObject = Record<string, unknown>;

/**
 * The JSON Schema (draft 2020-12, no `$schema`) of a zod schema's input or output side: the one
 * converter of the OpenAPI document and of the MCP tools.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonObject;
  // zod drops `examples` from the input side of a schema that transforms (a micros string read
  // as a bigint), but a request body's examples are written as sent: keep the top level's.
  const examples = z.globalRegistry.get(schema)?.examples;
  if (io === 'input' && examples !== undefined && rest['examples'] === undefined) {
    rest['examples'] = examples;
  }
  return rest;
}

const IDEMPOTENCY_KEY_PARAMETER: JsonObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  description: [
    'Makes a retry safe: 1 to 255 printable ASCII characters (a UUID is a good choice). Anything',
    'else is 400 BAD_REQUEST naming `header.Idempotency-Key`. Guaranteed:',
    '- Exactly once. A write (a plan stored, a reservation or a harvest booked) and its answer',
    '  commit in one database transaction: a retry after a crash at any point, however late,',
    '  gets the first answer (the same planId) and never a second effect. Two runs racing (a',
    '  retry after a timeout, another API key) write once; the other answers the first outcome.',
    '- Scope: on a route naming a wallet (`/wallets/{address}/…`) the key belongs to the wallet',
    '  and operation, whichever API key of its owner sends it; elsewhere to the API key (the',
    '  client IP on public routes) and operation. The answer of a write is kept for good, like',
    '  the dedupe keys of the ledger.',
    '- Same key, same request (path, query and body as parsed): the first answer is replayed',
    '  byte for byte (status, headers, body) with `Idempotent-Replayed: true`.',
    '- Same key, different request: 422 IDEMPOTENCY_KEY_REUSED, at any time.',
    '- While the first request is still running, a retry waits up to 2 s for its answer, then',
    '  gets 409 IDEMPOTENCY_IN_PROGRESS with `Retry-After: 1`.',
    '- A final 4xx that wrote nothing (INSUFFICIENT_LIQUID, …) is replayed to the same API key',
    '  for 24 h, the first requestId in its body; 5xx and failed requests store nothing, so a',
    '  retry with the same key runs again.',
  ].join('\n'),
};

/** Every operation reads it (see VERSION_HEADERS); a client sends the API version it targets. */
const CLIENT_VERSION_PARAMETER: JsonObject = {
  name: 'X-SVC-API-Client-Version',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 64 },
  description:
    'The API version (semver) the client was built against. Below X-SVC-API-Min the answer ' +
    'carries X-SVC-API-Warning; the request is still served (v1 never refuses a version). ' +
    'A value that is not a semantic version gets a warning too, and is otherwise ignored.',
};

/** Headers on every response, declared once under components.headers. */
const VERSION_HEADERS: Record<string, JsonObject> = {
  'API-Version': { description: 'The API version this server speaks.' },
  'X-SVC-API-Version': { description: 'Same as API-Version.' },
  'X-SVC-API-Latest': { description: 'The newest API version (GET /svc/version).' },
  'X-SVC-API-Min': { description: 'The oldest client API version served without a warning.' },
  'X-SVC-API-Warning': {
    description:
      'Only when X-SVC-API-Client-Version is below X-SVC-API-Min (or unreadable): what to ' +
      'update to. The request is served anyway.',
  },
  'X-Request-Id': { description: 'The request id (also `requestId` in error bodies).' },
};

const versionHeaderRefs = Object.fromEntries(
  Object.keys(VERSION_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

function parametersOf(route: RouteDefinition): JsonObject[] {
  const out: JsonObject[] = [];
  const add = (location: 'path' | 'query', object: z.ZodObject | undefined) => {
    if (!object) return;
    for (const [name, field] of Object.entries(object.shape)) {
      const schema = toJsonSchema(field as z.ZodType, 'input');
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
  out.push(CLIENT_VERSION_PARAMETER);
  return out;
}

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** Any route may meet a database outage: 503 with Retry-After, never a 500. */
const DATABASE_UNAVAILABLE_RESPONSE = {
  ...errorRef(
    'DATABASE_UNAVAILABLE: the database cannot be reached or dropped the connection (restart, ' +
      'failover); retry after `Retry-After` seconds (with the same Idempotency-Key on a write).',
  ),
  headers: {
    'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  },
};

function responsesOf(route: RouteDefinition): JsonObject {
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = response.schema
      ? {
          description: response.description,
          content: { 'application/json': { schema: toJsonSchema(response.schema, 'output') } },
        }
      : { description: response.description };
  }
  // Every request passes the key-material and text guard, so every operation can answer 400.
  responses['400'] = errorRef(
    'BAD_REQUEST naming the input at fault in `field` (malformed, out of bounds, an unknown ' +
      'field, a control character, nesting deeper than 32, a body on a route that takes none), ' +
      'or KEY_MATERIAL_REFUSED: something in the path, query or body looks like a private key ' +
      'or seed phrase (refused unread; nothing is stored or logged).',
  );
  if (route.auth !== 'public') {
    responses['401'] = errorRef(
      'UNAUTHORIZED (no key) or INVALID_API_KEY (unknown key). Repeated failures from one ' +
        'address or key prefix are answered 429 RATE_LIMITED with a growing Retry-After.',
    );
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
  responses['503'] ??= DATABASE_UNAVAILABLE_RESPONSE;
  for (const [status, response] of Object.entries(responses)) {
    const { headers, ...rest } = response as JsonObject;
    responses[status] = { ...rest, headers: { ...(headers as JsonObject), ...versionHeaderRefs } };
  }
  return responses;
}

const WEBHOOK_HEADERS: JsonObject[] = [
  {
    name: 'X-SVC-Signature',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
    description: [
      '`t=<unix seconds>,v1=<hex>`: hex is HMAC-SHA256, keyed with the UTF-8 bytes of the',
      "subscription's hmacKey, of `<t>.<raw body>`. During a rotation overlap a second v1= (the",
      'previous key) follows the new one; accept the delivery if any v1= matches a key you hold.',
      'Check it against the raw bytes (never re-serialized JSON) in constant time, and refuse a',
      't more than 300 s from your clock (the SDK helper `verifyWebhookSignature` does all this).',
    ].join(' '),
  },
  {
    name: 'X-SVC-Event-Id',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'The event id (also `id` in the body); the same on every retry: dedupe on it.',
  },
  {
    name: 'X-SVC-Event-Type',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'The event type (also `type` in the body).',
  },
];

const WEBHOOK_DELIVERY_RULES = [
  'Delivery: POST, `Content-Type: application/json`, a 10 s timeout; only a 2xx answer counts,',
  'redirects are not followed. At least once: the same event may arrive again (dedupe on `id`).',
  'Retries after a failed attempt wait 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h',
  '(±20 % jitter), within 24 h of the event; then the delivery is final `failed`. Every attempt',
  'is listed by GET /api/v1/svc/webhooks/events. Order: per subscription, events are sent in the',
  'order they were created, one at a time; a later event waits while an earlier one is retried',
  '(a receiver that was down receives the backlog in order once it answers again).',
].join(' ');

/** `deposit.settled` → `onDepositSettled`: the receiver's operation, named after its event. */
function webhookOperationId(type: string): string {
  return `on${type
    .split(/[._-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;
}

/** The OpenAPI 3.1 `webhooks` section: one POST per event type, body = its envelope. */
function webhooksOf(): JsonObject {
  const webhooks: JsonObject = {};
  for (const [type, schema] of Object.entries(WEBHOOK_EVENT_SCHEMAS)) {
    webhooks[type] = {
      post: {
        operationId: webhookOperationId(type),
        // The receiver checks X-SVC-Signature (below), not an API key of ours.
        security: [],
        summary: WEBHOOK_EVENT_DESCRIPTIONS[type as keyof typeof WEBHOOK_EVENT_SCHEMAS],
        description: WEBHOOK_DELIVERY_RULES,
        tags: ['webhooks'],
        parameters: WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: toJsonSchema(schema, 'output') } },
        },
        responses: {
          '2XX': { description: 'Delivered.' },
          default: { description: 'Any other answer, or none in time: retried (see above).' },
        },
      },
    };
  }
  return webhooks;
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
    // Kept in the wallet's audit trail (GET /wallets/{address}/audit).
    if (route.audited) operation['x-audited'] = true;
    // Public operations say so (`[]`) rather than leave the reader to guess from a missing key.
    operation['security'] = route.auth === 'public' ? [] : [{ ApiKey: [] }];
    if (route.request.body) {
      operation['requestBody'] = {
        required: true,
        content: { 'application/json': { schema: toJsonSchema(route.request.body, 'input') } },
      };
    } else if (route.method !== 'get' && route.method !== 'delete') {
      operation['requestBody'] = {
        required: false,
        description: 'This route takes no body: send none, or `{}`.',
        content: { 'application/json': { schema: { type: 'object', maxProperties: 0 } } },
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
      license: { name: 'MIT', identifier: 'MIT' },
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
        '',
        'Security: no route takes a private key or a seed phrase. Anything in a path, query or',
        'body that looks like one (hex, base58 or base64 of key size, a JSON byte list, `suiprivkey…`,',
        '`xprv…`, 12+ BIP-39 words in any case and separator, a field named like `privateKey`)',
        'is refused with 400 KEY_MATERIAL_REFUSED before it is read, stored or logged; a Sui',
        'address, an EVM transaction hash or a Solana signature is accepted only in a field that',
        'holds one. Keyed answers carry `Cache-Control: no-store`. CORS is off unless origins are',
        'configured (SVC_CORS_ORIGINS).',
      ].join('\n'),
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    paths,
    webhooks: webhooksOf(),
    components: {
      schemas: { ErrorBody: toJsonSchema(ErrorBody, 'output') },
      headers: Object.fromEntries(
        Object.entries(VERSION_HEADERS).map(([name, header]) => [
          name,
          { ...header, schema: { type: 'string' } },
        ]),
      ),
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  };
}
