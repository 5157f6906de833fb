// Cross-field rules stated in the OpenAPI document (issue 41). A `.refine`/`.superRefine` rule is
// invisible to z.toJSONSchema, so a client generated from the document would send requests the
// handler refuses with 400. Each rule a request schema enforces is also declared here as JSON
// Schema (anyOf / oneOf of `required` sets, if/then per discriminator) through `.meta()`, which
// the generator copies into the schema; the zod checks stay the runtime authority, unchanged.

type JsonObject = Record<string, unknown>;

/**
 * `required` with each name declared (as `{}`: the object's own `properties` give its schema),
 * so a linter reading the branch alone finds every required property defined.
 */
const requiring = (names: readonly string[]): JsonObject => ({
  required: [...names],
  properties: Object.fromEntries(names.map((name) => [name, {}])),
});

/** At least one of these field sets is present (a field or its alias). */
export function anyOfRequired(...sets: readonly (readonly string[])[]): JsonObject {
  return { anyOf: sets.map(requiring) };
}

/** Exactly one of these field sets is present. */
export function oneOfRequired(...sets: readonly (readonly string[])[]): JsonObject {
  return { oneOf: sets.map(requiring) };
}

/**
 * Per value of `discriminator`: the fields it requires, and the fields it refuses (of `fields`,
 * those not in `allowed`), as one if/then each.
 */
export function requiredPerValue(
  discriminator: string,
  required: Readonly<Record<string, readonly string[]>>,
  allowed: Readonly<Record<string, readonly string[]>>,
  fields: readonly string[],
): JsonObject[] {
  return Object.entries(required).map(([value, names]) => ({
    if: { properties: { [discriminator]: { const: value } }, required: [discriminator] },
    then: {
      required: [...names],
      properties: {
        ...(requiring(names)['properties'] as JsonObject),
        ...Object.fromEntries(
          fields
            .filter((field) => !allowed[value]?.includes(field))
            .map((field) => [field, { not: {} }]),
        ),
      },
    },
  }));
}
