import type { RouteDefinition } from '@yieldrouter/schemas';
import type { ClientRoute } from '../routes/clientRoute';
import { SchemaMismatchError } from '../errors/SchemaMismatchError';
import type { ReceivedResponse } from './fetchTypes';

/**
 * The body of a 2xx response, parsed with the route's schema for that status when the route's
 * response schemas are given (so the result is the schema's output), or as plain JSON when
 * validation is off.
 */
export function readResult(
  route: ClientRoute,
  response: ReceivedResponse,
  declared: Pick<RouteDefinition, 'responses'> | undefined,
): unknown {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const mismatch = (path: string, message: string) =>
    new SchemaMismatchError({
      operationId: route.operationId,
      status: response.status,
      requestId,
      issues: [{ path, message }],
    });
  let json: unknown;
  try {
    json = response.text === '' ? undefined : (JSON.parse(response.text) as unknown);
  } catch {
    throw mismatch('', 'the body is not JSON');
  }
  if (!declared) return json;
  const schema = declared.responses[response.status]?.schema;
  if (!schema) throw mismatch('', `status ${response.status} is not declared for this route`);
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new SchemaMismatchError({
    operationId: route.operationId,
    status: response.status,
    requestId,
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    })),
  });
}
