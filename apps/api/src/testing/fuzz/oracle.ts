import type { FuzzRequest } from './fuzzRequest';
import { KEY_FIELD_NAMES } from './keyMaterial';
import type { Operation } from './operations';
import type { FuzzOutcome } from './sendRequest';
import type { JsonSchema } from './validValue';

/** What is wrong with an answer; `symptom` is what a findings report groups by. */
export interface Violation {
  readonly symptom: string;
  readonly detail: string;
}

export interface OracleOptions {
  /** The served document's ErrorBody schema. */
  readonly errorBody: JsonSchema;
  /** Finds injected key material in text (the request body here). */
  readonly findKeyMaterial: (text: string) => string[];
}

const KEY_FIELD = new RegExp(`"(?:${KEY_FIELD_NAMES.join('|')})"\\s*:`);

const codeOf = (body: string): string => {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'string' ? ` ${parsed.code}` : '';
  } catch {
    return '';
  }
};

/** Why `body` is not an ErrorBody (required string fields, no others, a known code), if it is not. */
export function errorBodyProblem(body: string, schema: JsonSchema): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `not JSON: ${JSON.stringify(body.slice(0, 80))}`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return 'not an object';
  const record = parsed as Record<string, unknown>;
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (!(name in record)) return `missing ${name}`;
  }
  for (const [name, value] of Object.entries(record)) {
    const property = properties[name];
    if (!property) {
      if (schema.additionalProperties === false) return `undocumented field ${name}`;
      continue;
    }
    if (typeof value !== 'string') return `${name} is not a string`;
    if (property.enum && !property.enum.includes(value)) return `unknown code ${value}`;
  }
  return undefined;
}

/**
 * The fuzzer's oracle for one answer: an answer within the time limit; never a 5xx (501
 * NOT_IMPLEMENTED is documented for every route); a 4xx carries an ErrorBody; a success is a
 * status the operation documents; and no success for a request carrying key material or a
 * body the operation does not take.
 */
export function checkOutcome(
  operation: Operation,
  request: FuzzRequest,
  outcome: FuzzOutcome,
  options: OracleOptions,
): Violation | undefined {
  if (outcome.kind === 'timeout') {
    return { symptom: 'no answer (hang)', detail: `no answer within ${outcome.ms} ms` };
  }
  if (outcome.kind === 'connection error') {
    if (outcome.message.startsWith('not sendable')) return undefined;
    return { symptom: 'connection dropped', detail: outcome.message };
  }
  // The body is read only where it is checked: decoding every success's body (the OpenAPI
  // document's above all) was a tenth of the fuzz's CPU.
  const { status, headers } = outcome.response;
  // Node's own HTTP parser answers some requests (431, 400) before the app sees them.
  const reachedApp = headers['x-request-id'] !== undefined;
  if (status >= 500 && status !== 501) {
    const { body } = outcome.response;
    return { symptom: `${status}${codeOf(body)}`, detail: body.slice(0, 300) };
  }
  if (status >= 400) {
    if (!reachedApp || request.method === 'HEAD') return undefined;
    const problem = errorBodyProblem(outcome.response.body, options.errorBody);
    return problem ? { symptom: `${status} without an ErrorBody`, detail: problem } : undefined;
  }
  // OPTIONS answers 204 with Allow on every API path (docs/security.md: CORS).
  if (request.method === 'OPTIONS' && status === 204) return undefined;
  const ownMethod =
    request.method === operation.method ||
    (request.method === 'HEAD' && operation.method === 'GET');
  if (!ownMethod || !operation.successStatuses.has(status)) {
    return { symptom: `undocumented ${status}`, detail: `${request.method} answered ${status}` };
  }
  const bodyText = request.body?.toString('utf8') ?? '';
  // A 64-hex value is also a Sui address or digest, 64 base58 bytes a Solana signature: those
  // two count only when they reach the logs. The others are never anything but a key.
  const keys = options
    .findKeyMaterial(bodyText)
    .filter((sample) => sample !== 'hex64' && sample !== 'solanaBase58');
  if (KEY_FIELD.test(bodyText)) keys.push('a key-named field');
  if (keys.length > 0) {
    return {
      symptom: `key material in the body accepted (${status})`,
      detail: `the body carried ${keys.join(', ')}`,
    };
  }
  if (request.body && request.body.length > 0 && !operation.body && !isEmptyObject(bodyText)) {
    return {
      symptom: `body accepted by a route without a request body (${status})`,
      detail: `${request.body.length} bytes`,
    };
  }
  return undefined;
}

/** `{}` (with a byte-order mark or blanks around it): what a route without a body accepts. */
function isEmptyObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.keys(value).length === 0
    );
  } catch {
    return false;
  }
}
