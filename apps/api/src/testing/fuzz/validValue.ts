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

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  if (schema.pattern !== undefined) {
    // Only the schema's own bounds: a pattern may need more than the free length.
    const most = schema.maxLength ?? Infinity;
    const fits = (text: string) => text.length >= minLength && text.length <= most;
    return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' }).filter(fits);
  }
  const maxLength = schema.maxLength ?? minLength + FREE_STRING_LENGTH;
  const free = fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 24) });
  // The longest allowed string, where a bound exists: the edge most often mishandled.
  const longest = fc.string({ minLength: maxLength, maxLength, unit: 'grapheme-ascii' });
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
  const alternatives = schema.anyOf ?? schema.oneOf;
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
