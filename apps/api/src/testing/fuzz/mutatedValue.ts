// fast-check arbitraries of values that break a JSON Schema in one place, each labelled with
// where and how (the label is what a findings report groups by).
import fc from 'fast-check';
import { KEY_FIELD_NAMES, keyMaterialString, keyMaterialValue } from './keyMaterial';
import { RawJson, deeplyNested } from './rawJson';
import type { JsonSchema, ValidValueOptions } from './validValue';
import { schemaType, validValue } from './validValue';

export interface Mutation {
  readonly value: unknown;
  /** Where and how the value breaks its schema, e.g. `body.txId: control characters`. */
  readonly shape: string;
}

/** Strings that break parsers, lookups and logs, by kind. */
export const HOSTILE_STRINGS: Readonly<Record<string, readonly string[]>> = {
  'NUL byte': ['\u0000', 'a\u0000b', 'plan_\u0000'],
  'control characters': ['\u0001\u0002\u001b[31m', '\r\nX-Injected: 1', '\u007f', '\t\u000b\f'],
  'unicode separators and bidi': ['\u2028\u2029', '\u202eevil', '\ufeffbom', '\u200b'],
  'lone surrogate': ['\ud800', 'a\udfffb', '\udbff\ud7ff'],
  'prototype name': ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'],
  'path traversal': ['../../etc/passwd', '..%2F..%2F', '%00', '%E0%A4%A'],
  'numeric lookalike': ['-1', '1e400', '0x10', ' 1', '١٢٣', '1.5', 'NaN', 'Infinity', '00'],
  'injection text': ["' OR 1=1 --", '${jndi:x}', '<script>', '{{7*7}}', '%s%n'],
  empty: ['', ' '],
};

const HUGE_STRINGS = [
  { label: 'huge string (60 000 characters)', text: 'A'.repeat(60_000) },
  { label: 'huge string (200 000 characters, over the body limit)', text: 'B'.repeat(200_000) },
];

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const label = (at: string, what: string) => ({ shape: `${at}: ${what}` });

/** An object with an own enumerable property of any name, `__proto__` included. */
export function withOwnProperty(
  object: Record<string, unknown>,
  name: string,
  value: unknown,
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...object };
  Object.defineProperty(copy, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** A JSON value of another type than the schema's (than any of its alternatives'). */
function wrongType(schema: JsonSchema, at: string): fc.Arbitrary<Mutation> {
  const alternatives = schema.anyOf ?? schema.oneOf ?? [schema];
  const types = new Set(alternatives.map(schemaType));
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.string({ maxLength: 8 })],
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    [
      'object',
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    ],
  ];
  const others = candidates.filter(
    ([name]) => !types.has(name) && !(types.has('integer') && name === 'number'),
  );
  return fc.oneof(
    ...others.map(([name, arbitrary]) =>
      arbitrary.map((value) => ({ value, ...label(at, `wrong type (${name})`) })),
    ),
  );
}

/** Short strings of any code point, for values that must break a pattern (one instance). */
const SHORT_BINARY_STRING = fc.string({ minLength: 1, maxLength: 12, unit: 'binary' });

function stringMutations(schema: JsonSchema, at: string): Array<fc.Arbitrary<Mutation>> {
  const out: Array<fc.Arbitrary<Mutation>> = Object.entries(HOSTILE_STRINGS).map(
    ([kind, samples]) =>
      fc.constantFrom(...samples).map((value) => ({ value, ...label(at, kind) })),
  );
  out.push(
    fc
      .constantFrom(...HUGE_STRINGS)
      .map(({ label: what, text }) => ({ value: text, ...label(at, what) })),
  );
  if (schema.maxLength !== undefined) {
    const length = schema.maxLength + 1;
    out.push(
      fc.constant({
        value: 'x'.repeat(length),
        ...label(at, `longer than maxLength ${schema.maxLength}`),
      }),
    );
  }
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern);
    out.push(
      SHORT_BINARY_STRING.filter((text) => !pattern.test(text)).map((value) => ({
        value,
        ...label(at, 'does not match pattern'),
      })),
    );
  }
  return out;
}

function numberMutations(schema: JsonSchema, at: string): Array<fc.Arbitrary<Mutation>> {
  const values: Array<[string, unknown]> = [
    ['1e400 (overflows to Infinity)', new RawJson('1e400', '1e400')],
    ['-0', new RawJson('-0', '-0')],
    ['unsafe integer 2^53 + 1', new RawJson('9007199254740993', '9007199254740993')],
    ['number as string', String(schema.minimum ?? 1)],
    ['fraction', 0.5],
  ];
  if (schema.minimum !== undefined)
    values.push([`below minimum ${schema.minimum}`, schema.minimum - 1]);
  if (schema.maximum !== undefined)
    values.push([`above maximum ${schema.maximum}`, schema.maximum + 1]);
  return values.map(([what, value]) => fc.constant({ value, ...label(at, what) }));
}

function arrayMutations(schema: JsonSchema, at: string, options: ValidValueOptions) {
  const item = schema.items ?? {};
  const out: Array<fc.Arbitrary<Mutation>> = [
    fc.constant({ value: new Array(10_000).fill(1), ...label(at, 'array of 10 000 items') }),
    mutatedValue(item, { ...options, at: `${at}[0]` }).map((mutation) => ({
      value: [mutation.value],
      shape: mutation.shape,
    })),
  ];
  if (schema.maxItems !== undefined) {
    out.push(
      fc
        .array(validValue(item, options), {
          minLength: schema.maxItems + 1,
          maxLength: schema.maxItems + 1,
        })
        .map((value) => ({ value, ...label(at, `more than maxItems ${schema.maxItems}`) })),
    );
  }
  if ((schema.minItems ?? 0) > 0) out.push(fc.constant({ value: [], ...label(at, 'empty array') }));
  return out;
}

function objectMutations(schema: JsonSchema, at: string, options: ValidValueOptions) {
  const valid = validValue(schema, options) as fc.Arbitrary<Record<string, unknown>>;
  const properties = Object.entries(schema.properties ?? {});
  const required = schema.required ?? [];
  const out: Array<fc.Arbitrary<Mutation>> = [
    fc
      .tuple(valid, fc.constantFrom(...PROTOTYPE_KEYS), fc.jsonValue({ maxDepth: 2 }))
      .map(([object, key, value]) => ({
        value: withOwnProperty(object, key, value),
        ...label(at, `prototype key ${key}`),
      })),
    fc
      .tuple(valid, fc.string({ minLength: 1, maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }))
      .filter(([object, key]) => !(key in object) && !(schema.properties ?? {})[key])
      .map(([object, key, value]) => ({
        value: withOwnProperty(object, key, value),
        ...label(at, 'unknown extra field'),
      })),
    fc
      .tuple(valid, fc.constantFrom(...KEY_FIELD_NAMES), keyMaterialValue)
      .map(([object, key, value]) => ({
        value: withOwnProperty(object, key, value),
        ...label(at, `key-named field ${key}`),
      })),
  ];
  if (required.length > 0) {
    out.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([object, key]) => {
        const { [key]: _dropped, ...rest } = object;
        return { value: rest, ...label(at, `missing required ${key}`) };
      }),
    );
  }
  if (properties.length > 0) {
    // One arbitrary per property, built on first use and kept: building one (a pattern's
    // stringMatching above all) costs far more than drawing from it, and `chain` asks anew for
    // every value drawn. Arbitraries hold no state, so the values are the same.
    const broken = new Map<string, fc.Arbitrary<Mutation>>();
    const brokenIn = (name: string, property: JsonSchema): fc.Arbitrary<Mutation> => {
      let arbitrary = broken.get(name);
      if (!arbitrary) {
        arbitrary = fc
          .tuple(valid, mutatedValue(property, { ...options, at: `${at}.${name}`, name }))
          .map(([object, mutation]) => ({
            value: withOwnProperty(object, name, mutation.value),
            shape: mutation.shape,
          }));
        broken.set(name, arbitrary);
      }
      return arbitrary;
    };
    out.push(fc.constantFrom(...properties).chain(([name, property]) => brokenIn(name, property)));
  }
  return out;
}

/**
 * Values that break `schema` in one place: a wrong type; for strings NUL and control
 * characters, lone surrogates, prototype names, huge strings, pattern and length breaks; for
 * numbers out-of-range, `1e400`, `-0`; for arrays 10 000 items or too many; for objects a
 * missing required field, an extra field, a `__proto__`/`constructor` key, a key-named field;
 * anywhere key material or 10 000 levels of nesting. Objects are mostly broken in one
 * property of an otherwise valid value, recursively.
 *
 * @example
 * fc.sample(mutatedValue({ type: 'string', maxLength: 4 }, { at: 'body.txId' }), 1);
 * // e.g. [{ value: 'a\u0000b', shape: 'body.txId: NUL byte' }]
 */
export function mutatedValue(
  schema: JsonSchema,
  options: ValidValueOptions & { readonly at?: string } = {},
): fc.Arbitrary<Mutation> {
  const at = options.at ?? 'value';
  const type = schemaType(schema);
  const specific: Array<fc.Arbitrary<Mutation>> =
    type === 'string'
      ? stringMutations(schema, at)
      : type === 'integer' || type === 'number'
        ? numberMutations(schema, at)
        : type === 'array'
          ? arrayMutations(schema, at, options)
          : type === 'object'
            ? objectMutations(schema, at, options)
            : [];
  const anywhere: Array<fc.Arbitrary<Mutation>> = [
    wrongType(schema, at),
    keyMaterialString.map((value) => ({ value, ...label(at, 'key material') })),
    fc.constantFrom('array', 'object').map((kind) => ({
      value: deeplyNested(10_000, kind),
      ...label(at, `10 000 levels of nested ${kind}s`),
    })),
  ];
  // Type-specific breaks first: they are the interesting ones, and objects recurse through them.
  return fc.oneof(
    ...specific.map((arbitrary) => ({ arbitrary, weight: 3 })),
    ...anywhere.map((arbitrary) => ({ arbitrary, weight: 1 })),
  );
}
