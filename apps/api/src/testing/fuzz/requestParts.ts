// The pieces of a fuzzed HTTP request: path segments, query string, headers and body, each as a
// fast-check arbitrary of `{ text, shape? }` (shape labels what is odd about it, if anything).
import fc from 'fast-check';
import { keyMaterialString } from './keyMaterial';
import type { Mutation } from './mutatedValue';
import { mutatedValue } from './mutatedValue';
import type { OperationParameter } from './operations';
import { deeplyNested, toJsonText } from './rawJson';
import type { JsonSchema, ValueHints } from './validValue';
import { validValue } from './validValue';

export interface Part {
  readonly text: string;
  readonly shape?: string;
}

/**
 * Percent-encoding that survives lone surrogates (encoded as their CESU-8 bytes). A well-formed
 * string is encoded whole (the fuzzer's huge strings: one call instead of one per character,
 * the same text); only one with a lone surrogate, which encodeURIComponent refuses, goes
 * character by character.
 */
export function encodeComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // URIError: a lone surrogate.
  }
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : toJsonText(value));

/** Path segments that are not valid percent-encoding, or name things no lookup should find. */
export const RAW_PATH_SEGMENTS = [
  '%E0%A4%A',
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%ZZ',
  '%',
  '%FF%FE',
  '%C0%AF',
  '%ED%A0%80',
  '__proto__',
  'constructor',
  'toString',
  'prototype',
  'hasOwnProperty',
  '..',
  'a;b=c',
  'x'.repeat(10_000),
] as const;

const value = (parameter: OperationParameter, hints: ValueHints): fc.Arbitrary<Part> =>
  validValue(parameter.schema, { hints, name: parameter.name }).map((v) => ({
    text: encodeComponent(asText(v)),
  }));

const mutation = (parameter: OperationParameter, at: string): fc.Arbitrary<Part> =>
  mutatedValue(parameter.schema, { at }).map((m: Mutation) => ({
    text: encodeComponent(asText(m.value)),
    shape: m.shape,
  }));

/** A value for one path parameter: mostly well-formed (hinted), else garbage of every kind. */
export function pathSegment(parameter: OperationParameter, hints: ValueHints): fc.Arbitrary<Part> {
  const at = `path.${parameter.name}`;
  return fc.oneof(
    { arbitrary: value(parameter, hints), weight: 5 },
    {
      arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS).map((text) => ({
        text,
        shape: `${at}: raw segment ${text.length > 40 ? `of ${text.length} characters` : text}`,
      })),
      weight: 2,
    },
    { arbitrary: mutation(parameter, at), weight: 2 },
    {
      arbitrary: keyMaterialString.map((text) => ({
        text: encodeComponent(text),
        shape: `${at}: key material`,
      })),
      weight: 1,
    },
  );
}

const RAW_QUERY_EXTRAS: readonly Part[] = [
  { text: '__proto__=1', shape: 'query: __proto__ parameter' },
  { text: '__proto__[polluted]=1', shape: 'query: __proto__[polluted] parameter' },
  { text: 'constructor[prototype][polluted]=1', shape: 'query: constructor[prototype] parameter' },
  { text: 'a=%E0%A4%A', shape: 'query: bad percent-encoding' },
  { text: 'a=%00', shape: 'query: NUL' },
  { text: 'a[]=1&a[]=2', shape: 'query: array syntax' },
  { text: `a=${'q'.repeat(10_000)}`, shape: 'query: 10 000-character value' },
];

/** A query string for the operation's query parameters, plus garbage parameters at times. */
export function queryString(
  parameters: readonly OperationParameter[],
  hints: ValueHints,
): fc.Arbitrary<Part> {
  const declared = parameters.filter((parameter) => parameter.in === 'query');
  const pieces = declared.map((parameter) => {
    const at = `query.${parameter.name}`;
    const named = (part: Part) => ({ ...part, text: `${parameter.name}=${part.text}` });
    return fc.oneof(
      { arbitrary: fc.constant<Part | null>(null), weight: parameter.required ? 1 : 3 },
      { arbitrary: value(parameter, hints).map(named), weight: 3 },
      { arbitrary: mutation(parameter, at).map(named), weight: 2 },
      {
        arbitrary: value(parameter, hints).map((part) => ({
          text: `${parameter.name}=${part.text}&${parameter.name}=${part.text}`,
          shape: `${at}: repeated`,
        })),
        weight: 1,
      },
    );
  });
  const extra = fc.oneof(
    { arbitrary: fc.constant<Part | null>(null), weight: 6 },
    { arbitrary: fc.constantFrom(...RAW_QUERY_EXTRAS), weight: 1 },
  );
  return fc.tuple(fc.tuple(...pieces), extra).map(([parts, more]) => {
    const present = [...parts, more].filter((part): part is Part => part !== null);
    const shapes = present.flatMap((part) => (part.shape ? [part.shape] : []));
    return {
      text: present.map((part) => part.text).join('&'),
      ...(shapes.length > 0 ? { shape: shapes.join('; ') } : {}),
    };
  });
}

/** Header values no client should send; all are bytes node's HTTP client will still send. */
export const GARBAGE_HEADER_VALUES = [
  '',
  ' ',
  '\t',
  'x'.repeat(8_000),
  '\u00ff\u00fe\u0080',
  '../../etc',
  '__proto__',
  '%00',
  '${jndi:ldap://x}',
] as const;

export interface BodyPart {
  readonly bytes?: Buffer;
  readonly contentType?: string;
  readonly shape?: string;
}

/** Bodies that are not JSON, or JSON that strict parsing or our parsers may choke on. */
const RAW_BODIES: ReadonlyArray<{ readonly text: string | Buffer; readonly shape: string }> = [
  { text: '{', shape: 'truncated JSON' },
  { text: '{"a":', shape: 'truncated JSON' },
  { text: "{'a':1}", shape: 'single-quoted JSON' },
  { text: '[1,]', shape: 'trailing comma' },
  { text: 'NaN', shape: 'bare NaN' },
  { text: '"text"', shape: 'JSON string at top level' },
  { text: 'null', shape: 'JSON null at top level' },
  { text: '[]', shape: 'JSON array at top level' },
  { text: '12', shape: 'JSON number at top level' },
  { text: '\ufeff{}', shape: 'byte-order mark' },
  { text: '{"a":1}{"b":2}', shape: 'two JSON documents' },
  { text: '{"a":1,"a":2}', shape: 'duplicate keys' },
  { text: '{"__proto__":{"polluted":true}}', shape: 'top-level __proto__ key' },
  { text: '{"constructor":{"prototype":{"polluted":true}}}', shape: 'top-level constructor key' },
  { text: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), shape: 'invalid UTF-8' },
  { text: '{"a":"\\ud800\\u0000"}', shape: 'escaped lone surrogate and NUL' },
  { text: '['.repeat(10_000), shape: '10 000 unclosed brackets' },
  { text: deeplyNested(10_000, 'array').text, shape: '10 000 levels of nested arrays' },
  { text: deeplyNested(10_000, 'object').text, shape: '10 000 levels of nested objects' },
  { text: `{"a":"${'C'.repeat(70_000)}"}`, shape: 'over the body limit' },
];

/** Content types other than plain application/json, each with how odd it is. */
const ODD_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json-patch+json',
  'application/json; charset=',
  '*/*',
  'application/json, text/plain',
] as const;

const json = (text: string | Buffer) =>
  typeof text === 'string' ? Buffer.from(text, 'utf8') : text;

/** A body for an operation: valid, broken in one place, malformed, absent, or mistyped. */
export function body(schema: JsonSchema | undefined, hints: ValueHints): fc.Arbitrary<BodyPart> {
  const rawBody = fc.constantFrom(...RAW_BODIES).map(({ text, shape }) => ({
    bytes: json(text),
    contentType: 'application/json',
    shape: `body: ${shape}`,
  }));
  const oddType = fc
    .tuple(fc.constantFrom(...ODD_CONTENT_TYPES), fc.constantFrom('{}', 'a=1', '--x--'))
    .map(([contentType, text]) => ({
      bytes: json(text),
      contentType,
      shape: `Content-Type ${contentType}`,
    }));
  if (!schema) {
    const stray = fc
      .tuple(fc.constantFrom('{"a":1}', '{}', '[1]'), fc.constant('application/json'))
      .map(([text, contentType]) => ({
        bytes: json(text),
        contentType,
        shape: `body ${text} on a route without a request body`,
      }));
    return fc.oneof(
      { arbitrary: fc.constant<BodyPart>({}), weight: 12 },
      { arbitrary: stray, weight: 2 },
      { arbitrary: rawBody, weight: 1 },
      { arbitrary: oddType, weight: 1 },
    );
  }
  const valid = validValue(schema, { hints }).map((v) => ({
    bytes: json(toJsonText(v)),
    contentType: 'application/json',
  }));
  const broken = mutatedValue(schema, { hints, at: 'body' }).map((m) => ({
    bytes: json(toJsonText(m.value)),
    contentType: 'application/json',
    shape: m.shape,
  }));
  return fc.oneof(
    { arbitrary: valid, weight: 4 },
    { arbitrary: broken, weight: 8 },
    { arbitrary: rawBody, weight: 2 },
    { arbitrary: oddType, weight: 1 },
    { arbitrary: fc.constant<BodyPart>({ shape: 'body: absent' }), weight: 1 },
  );
}
