// fast-check arbitraries of values that satisfy a JSON Schema (the subset the served OpenAPI
// document uses: type, enum, const, properties/required/additionalProperties, items with
// minItems/maxItems, minLength/maxLength/pattern, minimum/maximum, anyOf/oneOf).
import fc from 'fast-check';

export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
}

/** Well-formed values to prefer for fields of a given name (wallet addresses, plan ids, …). */
export type ValueHints = Readonly<Record<string, readonly unknown[]>>;

export interface ValidValueOptions {
  readonly hints?: ValueHints;
  /** The property name the schema is for, to look up `hints`. */
  readonly name?: string;
}

/** Longest string generated for a schema without maxLength, and extra items past minItems. */
const FREE_STRING_LENGTH = 24;
const FREE_ITEMS = 4;

/** The JSON type a schema describes (the first when several are allowed). */
export function schemaType(schema: JsonSchema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type[0] : (schema.type as string | undefined);
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  if (schema.enum !== undefined && schema.enum.length > 0) return typeof schema.enum[0];
  return undefined;
}

/**
 * From this length on, `asciiStringOfLength` draws a 32-bit seed and expands it into the
 * characters in one loop: fast-check draws a string one character at a time, ~120 ms for a
 * 256 KiB bound (signedTransaction), which made up most of the fuzzer's generation time.
 */
const LONG_STRING_LENGTH = 4096;

/**
 * `length` characters of U+0000–U+007F from `seed`: xorshift32, the top seven bits a character
 * (no Math.imul, which is ~100 times slower inside jest's vm context than outside).
 */
function expandAscii(seed: number, length: number): string {
  const bytes = Buffer.allocUnsafe(length);
  let state = seed | 0 || 0x2545f491;
  for (let index = 0; index < length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state >>> 25;
  }
  return bytes.toString('latin1');
}

/**
 * Strings of exactly `length` characters from fast-check's 'grapheme-ascii' alphabet (U+0000–
 * U+007F, control characters and NUL included); past LONG_STRING_LENGTH, a random seed's
 * expansion (the same alphabet and length, drawn in one step).
 */
export function asciiStringOfLength(length: number): fc.Arbitrary<string> {
  if (length < LONG_STRING_LENGTH) {
    return fc.string({ minLength: length, maxLength: length, unit: 'grapheme-ascii' });
  }
  return fc.integer().map((seed) => expandAscii(seed, length));
}

/**
 * Strings matching a pattern, by pattern and bounds. Building fc.stringMatching costs a few
 * milliseconds (fast-check tokenizes its default slices for every quantifier: the int64 pattern
 * has twenty), far more than drawing from it, and the fuzzer builds a pattern's arbitrary for
 * every place it occurs; an arbitrary holds no state, so one per pattern serves them all.
 */
const matching = new Map<string, fc.Arbitrary<string>>();

function patternArbitrary(pattern: string, minLength: number, most: number): fc.Arbitrary<string> {
  const key = JSON.stringify([pattern, minLength, most]);
  let arbitrary = matching.get(key);
  if (!arbitrary) {
    const fits = (text: string) => text.length >= minLength && text.length <= most;
    arbitrary = fc.stringMatching(new RegExp(pattern), { size: 'small' }).filter(fits);
    matching.set(key, arbitrary);
  }
  return arbitrary;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  if (schema.pattern !== undefined) {
    // Only the schema's own bounds: a pattern may need more than the free length.
    return patternArbitrary(schema.pattern, minLength, schema.maxLength ?? Infinity);
  }
  const maxLength = schema.maxLength ?? minLength + FREE_STRING_LENGTH;
  const free = fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 24) });
  // The longest allowed string, where a bound exists: the edge most often mishandled.
  const longest = asciiStringOfLength(maxLength);
  return schema.maxLength === undefined ? free : fc.oneof({ arbitrary: free, weight: 4 }, longest);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  if (integer) {
    const min = Math.max(
      Math.ceil(low ?? Number.MIN_SAFE_INTEGER) + (schema.exclusiveMinimum === undefined ? 0 : 1),
      Number.MIN_SAFE_INTEGER,
    );
    const max = Math.min(
      Math.floor(high ?? Number.MAX_SAFE_INTEGER) - (schema.exclusiveMaximum === undefined ? 0 : 1),
      Number.MAX_SAFE_INTEGER,
    );
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    min: low ?? -1e12,
    max: high ?? 1e12,
    minExcluded: schema.exclusiveMinimum !== undefined,
    maxExcluded: schema.exclusiveMaximum !== undefined,
  });
}

function objectArbitrary(
  schema: JsonSchema,
  options: ValidValueOptions,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    model[name] = validValue(property, { ...options, name });
  }
  const requiredKeys = (schema.required ?? []).filter((name) => name in properties);
  return fc.record(model, { requiredKeys });
}

/**
 * Values that satisfy `schema`. Strings stay short unless the schema bounds them (then the
 * longest allowed length is tried too); numbers include their bounds. Fields named in
 * `options.hints` mostly take one of the hinted values, so requests get past lookups.
 *
 * @example
 * fc.sample(validValue({ type: 'integer', minimum: 1, maximum: 3 }), 5); // e.g. [1, 3, 2, 1, 3]
 */
export function validValue(
  schema: JsonSchema,
  options: ValidValueOptions = {},
): fc.Arbitrary<unknown> {
  const generated = byType(schema, options);
  const type = schemaType(schema);
  // Hints name leaf values: an array's hints are for its items.
  const leaf = type !== 'array' && type !== 'object';
  const hinted = !leaf || options.name === undefined ? undefined : options.hints?.[options.name];
  if (!hinted || hinted.length === 0) return generated;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...hinted), weight: 3 },
    { arbitrary: generated, weight: 1 },
  );
}

function byType(schema: JsonSchema, options: ValidValueOptions): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  // On an object with properties, anyOf/oneOf state cross-field rules (`required` sets), not
  // alternative types: the object is generated from its properties.
  const alternatives = schema.properties === undefined ? (schema.anyOf ?? schema.oneOf) : undefined;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alternative) => byType(alternative, options)));
  }
  switch (schemaType(schema)) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + FREE_ITEMS, minLength + FREE_ITEMS);
      const items = schema.items
        ? validValue(schema.items, options)
        : fc.jsonValue({ maxDepth: 1 });
      return fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, options);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
