import { MicrosString, toJsonSchema } from '@yieldrouter/schemas';

type JsonObject = Record<string, unknown>;

/** A short pattern for a micros string: digits without a leading zero, at most 19. */
const MICROS_TEXT = { type: 'string', pattern: '^(0|[1-9][0-9]{0,18})$' };

/** The JSON Schema pattern the OpenAPI converter writes for a micros string (≤ 2^63 − 1). */
let microsPattern: unknown;
function longMicrosPattern(): unknown {
  if (microsPattern === undefined) {
    const members = toJsonSchema(MicrosString, 'input')['anyOf'] as JsonObject[];
    microsPattern = members.find((member) => member['type'] === 'string')?.['pattern'];
  }
  return microsPattern;
}

/** An argument that is another name for one the tool already has (the manifest says so). */
const isAliasArgument = (property: JsonObject): boolean =>
  /^(Deprecated alias|Alias) of /.test(String(property['description'] ?? ''));

/** A micros amount as the route accepts it: the exact-bound string or a safe integer. */
function isMicros(property: JsonObject): boolean {
  const members = property['anyOf'];
  return (
    Array.isArray(members) &&
    (members as JsonObject[]).some((member) => member['pattern'] === longMicrosPattern())
  );
}

/**
 * A tool's input schema, shorter for a model than the route's: no alias arguments (the canonical
 * name is there), and an amount as a digits string (the rule the descriptions state) instead of
 * a 250-token exact-bound pattern or an integer. The route's own zod schemas still check every
 * call before it is sent, so the bounds are enforced and a refusal names the argument.
 */
export function compactInputSchema(
  properties: JsonObject,
  required: readonly string[],
): JsonObject {
  const compact: JsonObject = {};
  for (const [name, value] of Object.entries(properties)) {
    const property = value as JsonObject;
    if (isAliasArgument(property) && !required.includes(name)) continue;
    const description = property['description'];
    compact[name] = isMicros(property)
      ? { ...(description === undefined ? {} : { description }), ...MICROS_TEXT }
      : property;
  }
  return compact;
}
