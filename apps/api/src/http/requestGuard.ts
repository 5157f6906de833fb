import { ApiError } from './apiError';
import { isKeyFieldName, keyMaterialKind, keyMaterialListKind } from './findKeyMaterial';

/** Why a request value is refused before any route reads it. */
export interface Refusal {
  /** Where in the request, e.g. `body.signatures[1]`, `path.address`, `query.wallet`. */
  readonly path: string;
  readonly code: 'KEY_MATERIAL_REFUSED' | 'BAD_REQUEST';
  /** What it looked like (`a 64-byte secret key (base58)`) or what is wrong with it; never the value. */
  readonly reason: string;
}

/** JSON nesting no request of ours needs more than a handful of; deeper is refused. */
export const MAX_REQUEST_DEPTH = 32;
/** C0 controls but tab, line feed and carriage return, and DEL: text never needs them. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const keyMaterial = (path: string, kind: string): Refusal => ({
  path,
  code: 'KEY_MATERIAL_REFUSED',
  reason: `looks like ${kind}`,
});

function stringRefusal(text: string, path: string): Refusal | undefined {
  const control = CONTROL.exec(text)?.[0];
  if (control !== undefined) {
    const point = control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return { path, code: 'BAD_REQUEST', reason: `contains a control character (U+${point})` };
  }
  if (LONE_SURROGATE.test(text)) {
    return { path, code: 'BAD_REQUEST', reason: 'is not well-formed Unicode (a lone surrogate)' };
  }
  const kind = keyMaterialKind(text, path);
  return kind ? keyMaterial(path, kind) : undefined;
}

/**
 * A field or parameter name no route may receive: one with a control character, one that is
 * key material itself (`{"<hex key>": 1}`, `?<phrase>=`), or one named like a key. A name that is
 * key material is never echoed: the refusal says `body[a field name]`.
 */
function nameRefusal(name: string, path: string): Refusal | undefined {
  const unnamed = `${path}[a field name]`;
  if (CONTROL.test(name) || LONE_SURROGATE.test(name)) {
    return { path: unnamed, code: 'BAD_REQUEST', reason: 'has a control character in its name' };
  }
  const kind = keyMaterialKind(name, `${path}[a field name]`);
  if (kind) return keyMaterial(unnamed, `${kind} as a field name`);
  if (isKeyFieldName(name)) {
    return keyMaterial(`${path}.${name}`, 'a field named like a private key or seed phrase');
  }
  return undefined;
}

/**
 * The first value in `value` (path parameters, a query or a parsed JSON body) that no route may
 * receive: key material (a private key, a seed phrase, a field named like one), a string with a
 * control character or a lone surrogate, or nesting deeper than {@link MAX_REQUEST_DEPTH}.
 */
export function findRefusal(value: unknown, path: string, depth = 0): Refusal | undefined {
  if (typeof value === 'string') return stringRefusal(value, path);
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_REQUEST_DEPTH) {
    return { path, code: 'BAD_REQUEST', reason: `nests deeper than ${MAX_REQUEST_DEPTH} levels` };
  }
  if (Array.isArray(value)) {
    const kind = keyMaterialListKind(value);
    if (kind) return keyMaterial(path, kind);
    for (let index = 0; index < value.length; index += 1) {
      const found = findRefusal(value[index], `${path}[${index}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const name of Object.keys(value)) {
    const refusal = nameRefusal(name, path);
    if (refusal) return refusal;
    const field = `${path}.${name}`;
    const found = findRefusal((value as Record<string, unknown>)[name], field, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuses a request part that carries key material or unusable text, before it is parsed,
 * stored or logged. The answer names the field and what it looked like, never the value.
 */
export function guardRequestPart(value: unknown, path: string): void {
  const found = findRefusal(value, path);
  if (found) guardRefusal(found);
}

function guardRefusal(found: Refusal): never {
  if (found.code === 'KEY_MATERIAL_REFUSED') {
    throw new ApiError(
      'KEY_MATERIAL_REFUSED',
      `${found.path}: ${found.reason}. This service takes owner-signed transaction bytes and ` +
        'public addresses only, never private keys or seed phrases; nothing of the request was ' +
        'stored or logged.',
      { field: found.path },
    );
  }
  throw new ApiError('BAD_REQUEST', `${found.path}: ${found.reason}`, { field: found.path });
}

/**
 * Headers that carry a credential by design (never logged, echoed or stored; compared hashed)
 * or an entity tag (a digest of our own answer): their values are not read as key material.
 */
const CREDENTIAL_HEADERS = new Set([
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'if-none-match',
  'if-match',
]);

/** `x-request-id` as `X-Request-Id`, the way the API's documents name a header. */
const headerLabel = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash, c) => dash + c.toUpperCase());

/**
 * Refuses a request whose headers carry key material (a header named like a key, a header
 * name that is key material, or a value of one, X-Request-Id and Idempotency-Key included),
 * before anything logs or echoes them. An Idempotency-Key may be any 32-byte token (a 64-hex
 * key is one); an X-Request-Id may be an id of ours or a UUID, not a 32-byte secret.
 */
export function guardHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): void {
  for (const name in headers) {
    const value = headers[name];
    // The same few headers come with every request (Host, User-Agent, Accept…): a pair found
    // clean once is clean again, and is not scanned again.
    if (typeof value === 'string' && CLEAN_HEADERS.get(name)?.has(value) === true) continue;
    guardHeader(name, value);
  }
}

const CLEAN_HEADERS = new Map<string, Set<string>>();
const CLEAN_NAMES_MAX = 64;
const CLEAN_VALUES_MAX = 256;

function rememberClean(name: string, value: string): void {
  // Short values only: what repeats is short; a long value is scanned each time.
  if (value.length > 256) return;
  let values = CLEAN_HEADERS.get(name);
  if (!values) {
    if (CLEAN_HEADERS.size >= CLEAN_NAMES_MAX) CLEAN_HEADERS.clear();
    values = new Set();
    CLEAN_HEADERS.set(name, values);
  }
  if (values.size >= CLEAN_VALUES_MAX) values.clear();
  values.add(value);
}

function guardHeader(name: string, value: string | string[] | undefined): void {
  const named = nameRefusal(name, 'header');
  if (named) guardRefusal(named);
  // Credentials are not scanned, nor remembered.
  if (value === undefined || CREDENTIAL_HEADERS.has(name)) return;
  const path = `header.${headerLabel(name)}`;
  for (const text of typeof value === 'string' ? [value] : value) {
    const kind = keyMaterialKind(text, path);
    if (kind) guardRefusal(keyMaterial(path, kind));
  }
  if (typeof value === 'string' && !PER_REQUEST_HEADERS.has(name)) rememberClean(name, value);
}

/** Headers new on every request: nothing to remember. */
const PER_REQUEST_HEADERS = new Set(['idempotency-key', 'x-request-id']);
