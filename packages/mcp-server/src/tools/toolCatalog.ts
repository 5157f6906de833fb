import type { RouteDefinition } from '@yieldrouter/schemas';
import { clientRoutes, toJsonSchema } from '@yieldrouter/schemas';
import type { Toolset } from './coreToolset';
import { CORE_TOOLS } from './coreToolset';
import { compactInputSchema } from './compactInputSchema';
import { EXCLUDED_OPERATIONS } from './excludedOperations';
import { toolDescription } from './toolDescription';
import type {
  ArgumentPlacement,
  Audience,
  JsonSchemaObject,
  ToolAnnotations,
  ToolDefinition,
} from './toolTypes';

type JsonObject = Record<string, unknown>;

const isObjectSchema = (schema: JsonObject): boolean =>
  schema['type'] === 'object' && typeof schema['properties'] === 'object';

const propertiesOf = (schema: JsonObject): JsonObject =>
  (schema['properties'] as JsonObject | undefined) ?? {};

const requiredOf = (schema: JsonObject): string[] =>
  Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];

/**
 * Path, query and body merged into one object schema (bounds, patterns and descriptions kept,
 * converted by the OpenAPI document's converter). A body that is not an object is one `body`
 * argument. Two parts naming the same field would be ambiguous: that throws.
 */
function inputOf(route: RouteDefinition): {
  schema: JsonSchemaObject;
  placement: ArgumentPlacement;
} {
  const properties: JsonObject = {};
  const required: string[] = [];
  const add = (part: JsonObject, where: string): string[] => {
    for (const [name, property] of Object.entries(propertiesOf(part))) {
      if (name in properties) {
        throw new Error(`${route.operationId}: argument ${name} is in two parts (${where})`);
      }
      properties[name] = property;
    }
    required.push(...requiredOf(part));
    return Object.keys(propertiesOf(part));
  };
  const { params, query, body } = route.request;
  const placement = {
    params: params ? add(toJsonSchema(params, 'input'), 'path') : [],
    query: query ? add(toJsonSchema(query, 'input'), 'query') : [],
    body: 'none' as ArgumentPlacement['body'],
    bodyFields: [] as string[],
  };
  if (body) {
    const bodySchema = toJsonSchema(body, 'input');
    if (isObjectSchema(bodySchema)) {
      placement.body = 'fields';
      placement.bodyFields = add(bodySchema, 'body');
    } else {
      placement.body = 'whole';
      properties['body'] = bodySchema;
      required.push('body');
    }
  }
  const schema: JsonSchemaObject = {
    type: 'object',
    properties: compactInputSchema(properties, required),
    additionalProperties: false,
  };
  if (required.length > 0) schema['required'] = [...new Set(required)];
  return { schema, placement };
}

/** The 2xx answers' schema as an MCP output schema (an object at the top), if it is one. */
function outputOf(route: RouteDefinition): JsonSchemaObject | undefined {
  const schemas = [
    ...new Set(Object.values(route.responses).flatMap((response) => response.schema ?? [])),
  ].map((schema) => toJsonSchema(schema, 'output'));
  const [first, ...others] = schemas;
  if (!first) return undefined;
  if (others.length === 0 && first['type'] === 'object') return first as JsonSchemaObject;
  const members = schemas.flatMap((schema) =>
    Array.isArray(schema['anyOf']) ? (schema['anyOf'] as JsonObject[]) : [schema],
  );
  if (!members.every((member) => member['type'] === 'object')) return undefined;
  return { type: 'object', anyOf: members };
}

function annotationsOf(route: RouteDefinition, writesOnce: boolean): ToolAnnotations {
  const reads = route.method === 'get';
  return {
    title: route.summary,
    readOnlyHint: reads,
    // Owner writes change what the owner holds or has configured. Public prepares only store a
    // plan that moves nothing until the owner signs it, and what an agent key may call is a
    // read or a preview (SPEC roles).
    destructiveHint:
      !reads &&
      route.auth !== 'public' &&
      route.auth.includes('owner') &&
      !route.auth.includes('agent'),
    idempotentHint: reads || route.method === 'put' || route.method === 'delete' || writesOnce,
    openWorldHint: false,
  };
}

/** The tool of one manifest route. */
export function toolOfRoute(route: RouteDefinition): ToolDefinition {
  const { schema: inputSchema, placement } = inputOf(route);
  const outputSchema = outputOf(route);
  const writesOnce = route.request.headers?.includes('Idempotency-Key') === true;
  const answersPlan = outputSchema !== undefined && 'ownerMustSign' in propertiesOf(outputSchema);
  const takesAmounts = JSON.stringify(inputSchema).includes('Micros"');
  return {
    name: route.operationId,
    title: route.summary,
    description: toolDescription({ route, takesAmounts, answersPlan, writesOnce }),
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: annotationsOf(route, writesOnce),
    route,
    placement,
    writesOnce,
    answersPlan,
  };
}

let catalog: readonly ToolDefinition[] | undefined;

/**
 * A tool for every client operation of the manifest but the {@link EXCLUDED_OPERATIONS} and
 * the deprecated ones (keeper-only routes are not client operations: they never become tools).
 * Built once.
 */
export function toolCatalog(): readonly ToolDefinition[] {
  catalog ??= Object.entries(clientRoutes)
    .filter(
      ([operationId, route]) =>
        !(operationId in EXCLUDED_OPERATIONS) && (route as RouteDefinition).deprecated !== true,
    )
    .map(([operationId, route]) => toolOfRoute({ ...(route as RouteDefinition), operationId }));
  return catalog;
}

/** Whether `audience` may call the route: public routes for everyone, others by role. */
export const audienceMayCall = (route: RouteDefinition, audience: Audience): boolean =>
  route.auth === 'public' || (audience !== 'public' && route.auth.includes(audience));

/**
 * The tools of `toolset` (default `core`) a key of `audience` may call, without the operations
 * the API has not implemented (they answer 501 whoever calls; listing them would only invite
 * failing calls).
 */
export function toolsFor(
  audience: Audience,
  implemented?: ReadonlySet<string>,
  toolset: Toolset = 'core',
): readonly ToolDefinition[] {
  return toolCatalog().filter(
    (tool) =>
      (toolset === 'full' || tool.name in CORE_TOOLS) &&
      audienceMayCall(tool.route, audience) &&
      (implemented === undefined || implemented.has(tool.name)),
  );
}
