// One deterministic value for a JSON Schema, built from the schema alone (the OpenAPI walk,
// issue 41): what a client generated from the served document would send. `const`, then
// `enum[0]`, `examples[0]`, `default`; the first branch of a oneOf/anyOf (the first that is not
// `null`); strings honour format, pattern and length; numbers their bounds; objects carry their
// required properties (and `dependentRequired` ones), arrays their minItems.
import fc from 'fast-check';

export interface WalkSchema {
  readonly type?: string | readonly string[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly examples?: readonly unknown[];
  readonly default?: unknown;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly properties?: Readonly<Record<string, WalkSchema>>;
  readonly required?: readonly string[];
  readonly dependentRequired?: Readonly<Record<string, readonly string[]>>;
  readonly items?: WalkSchema;
  readonly minItems?: number;
  readonly oneOf?: readonly WalkSchema[];
  readonly anyOf?: readonly WalkSchema[];
  readonly allOf?: readonly WalkSchema[];
  readonly if?: WalkSchema;
  readonly then?: WalkSchema;
}

const FORMATS: Readonly<Record<string, string>> = {
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  'date-time': '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  email: 'walk@example.com',
  uri: 'https://example.com/walk',
  url: 'https://example.com/walk',
};

const typeOf = (schema: WalkSchema): string | undefined => {
  const type = Array.isArray(schema.type)
    ? schema.type.find((candidate) => candidate !== 'null')
    : (schema.type as string | undefined);
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
};

function stringOf(schema: WalkSchema): string {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format] as string;
  const minLength = schema.minLength ?? 1;
  const maxLength = schema.maxLength ?? Infinity;
  if (schema.pattern !== undefined) {
    // A fixed seed: the same string on every run, the pattern's own choice of characters.
    const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
    const [value] = fc.sample(fc.stringMatching(new RegExp(schema.pattern)).filter(fits), {
      seed: 41,
      numRuns: 1,
    });
    return value as string;
  }
  return 'a'.repeat(Math.max(1, Math.min(minLength, maxLength)));
}

function numberOf(schema: WalkSchema, integer: boolean): number {
  let value =
    schema.minimum ??
    (schema.exclusiveMinimum === undefined ? 0 : schema.exclusiveMinimum + (integer ? 1 : 0.5));
  if (schema.maximum !== undefined && value > schema.maximum) value = schema.maximum;
  return integer ? Math.ceil(value) : value;
}

/** The value a document-driven client sends for `schema`. */
export function exampleValue(schema: WalkSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (typeOf(schema) === 'object') return objectOf(schema);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches && branches.length > 0) {
    const first = branches.find((branch) => typeOf(branch) !== 'null') ?? branches[0];
    return exampleValue(first as WalkSchema);
  }
  if (schema.allOf && schema.allOf.length > 0) {
    const values = schema.allOf.map(exampleValue);
    return values.every((value) => typeof value === 'object' && value !== null)
      ? Object.assign({}, ...values)
      : values[0];
  }
  switch (typeOf(schema)) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleValue(schema.items ?? {}));
    case 'object':
      return objectOf(schema);
    default:
      return {};
  }
}

/**
 * The fields an object schema requires: `required`, the first branch of its oneOf/anyOf, every
 * allOf part's, and `dependentRequired` of those.
 */
function requiredOf(schema: WalkSchema): string[] {
  const out = new Set(schema.required ?? []);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches && branches.length > 0) {
    for (const name of requiredOf(branches[0] as WalkSchema)) out.add(name);
  }
  for (const part of schema.allOf ?? []) for (const name of requiredOf(part)) out.add(name);
  for (const name of [...out]) {
    for (const dependent of schema.dependentRequired?.[name] ?? []) out.add(dependent);
  }
  return [...out];
}

/** Whether `value` meets an `if` made of property consts (what the document's rules use). */
function meets(condition: WalkSchema, value: Record<string, unknown>): boolean {
  return Object.entries(condition.properties ?? {}).every(
    ([name, property]) => property.const === undefined || value[name] === property.const,
  );
}

function objectOf(schema: WalkSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fill = (names: readonly string[]) => {
    for (const name of names) {
      if (!(name in out)) out[name] = exampleValue(schema.properties?.[name] ?? {});
    }
  };
  fill(requiredOf(schema));
  for (const part of [schema, ...(schema.allOf ?? [])]) {
    if (part.if && part.then && meets(part.if, out)) fill(requiredOf(part.then));
  }
  return out;
}
