import type { Role, RouteDefinition } from '@yieldrouter/schemas';

/** Who a tool list is built for: a key's role, or `public` without a key. */
export type Audience = Role | 'public';

export type JsonSchemaObject = { type: 'object' } & Record<string, unknown>;

/** Where each tool argument goes in the REST request. */
export interface ArgumentPlacement {
  readonly params: readonly string[];
  readonly query: readonly string[];
  /** `fields`: the body's fields are top-level arguments; `whole`: one `body` argument. */
  readonly body: 'none' | 'fields' | 'whole';
  readonly bodyFields: readonly string[];
}

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One MCP tool, generated from one manifest route. */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  /** Absent when the response is not a JSON object (then structured content is `{ result }`). */
  readonly outputSchema?: JsonSchemaObject;
  readonly annotations: ToolAnnotations;
  readonly route: RouteDefinition;
  readonly placement: ArgumentPlacement;
  /** True when the route takes an Idempotency-Key (one is derived per call). */
  readonly writesOnce: boolean;
  /** True when the route answers a plan the owner signs (ownerMustSign / submitted). */
  readonly answersPlan: boolean;
}
