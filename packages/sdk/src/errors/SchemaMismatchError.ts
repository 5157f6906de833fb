import { YieldRouterError } from './YieldRouterError';

export interface SchemaIssue {
  /** Dotted path of the response field, e.g. `chains.0.label`; empty for the body itself. */
  readonly path: string;
  readonly message: string;
}

/**
 * A 2xx response whose body does not match the route's schema (the server and this SDK
 * disagree on the contract). `field` is the first mismatching field; `issues` lists them all.
 * Turn validation off with `createClient({ validateResponses: false })`.
 *
 * @example
 * if (error instanceof SchemaMismatchError) console.error(error.operationId, error.field);
 */
export class SchemaMismatchError extends YieldRouterError {
  override readonly name = 'SchemaMismatchError';
  readonly operationId: string;
  readonly issues: readonly SchemaIssue[];

  constructor(parameters: {
    operationId: string;
    status: number;
    requestId: string | undefined;
    issues: readonly SchemaIssue[];
  }) {
    const first = parameters.issues[0];
    const where = first?.path ? `field '${first.path}'` : 'body';
    super(
      `${parameters.operationId}: response ${where} does not match the schema: ${first?.message ?? 'invalid'}`,
      {
        status: parameters.status,
        code: 'SCHEMA_MISMATCH',
        requestId: parameters.requestId,
        field: first?.path,
      },
    );
    this.operationId = parameters.operationId;
    this.issues = parameters.issues;
  }
}
