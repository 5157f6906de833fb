import type { JsonSchema } from './validValue';

/** A parameter of an operation, as the served OpenAPI document declares it. */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: JsonSchema;
}

/** One operation of the served OpenAPI document, reduced to what the fuzzer needs. */
export interface Operation {
  readonly operationId: string;
  readonly method: string;
  /** The canonical path, with `{param}` segments. */
  readonly path: string;
  readonly aliases: readonly string[];
  readonly auth: readonly string[];
  readonly parameters: readonly OperationParameter[];
  readonly body?: JsonSchema;
  /** The non-error statuses the operation documents (2xx, and 304 where an ETag is served). */
  readonly successStatuses: ReadonlySet<number>;
  readonly refusesKeyMaterial: boolean;
}

interface OpenApiOperationObject {
  readonly operationId: string;
  readonly parameters?: readonly OperationParameter[];
  readonly requestBody?: { readonly content: Record<string, { readonly schema: JsonSchema }> };
  readonly responses: Record<string, unknown>;
  readonly 'x-auth'?: readonly string[];
  readonly 'x-legacy-aliases'?: readonly string[];
  readonly 'x-refuses-key-material'?: boolean;
}

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, OpenApiOperationObject>>;
  readonly components?: { readonly schemas?: Record<string, JsonSchema> };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** Every operation of an OpenAPI 3.1 document, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const body = operation.requestBody?.content['application/json']?.schema;
      out.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        aliases: operation['x-legacy-aliases'] ?? [],
        auth: operation['x-auth'] ?? ['public'],
        parameters: operation.parameters ?? [],
        ...(body ? { body } : {}),
        successStatuses: new Set(
          Object.keys(operation.responses)
            .map(Number)
            .filter((status) => status >= 200 && status < 400),
        ),
        refusesKeyMaterial: operation['x-refuses-key-material'] === true,
      });
    }
  }
  return out;
}
