import { buildOpenApiDocument } from './openapi';
import { routeList } from './manifest/allRoutes';

// Issue 16, finding 9: bounds live in the schemas, not in handlers. Every request schema the
// manifest declares (path, query, body) is bounded: strings by length, enum, const or format,
// numbers by range, arrays by length, objects closed to unknown fields.

type Json = Record<string, unknown>;

function unbounded(schema: Json, at: string, problems: string[]): void {
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [index, option] of ((schema[key] as Json[] | undefined) ?? []).entries()) {
      unbounded(option, `${at}|${index}`, problems);
    }
  }
  if ('enum' in schema || 'const' in schema) return;
  switch (schema['type']) {
    case 'string':
      if (schema['maxLength'] === undefined && schema['format'] === undefined) {
        problems.push(`${at}: string without maxLength`);
      }
      return;
    case 'integer':
    case 'number':
      if (schema['maximum'] === undefined && schema['exclusiveMaximum'] === undefined) {
        problems.push(`${at}: number without maximum`);
      }
      if (schema['minimum'] === undefined && schema['exclusiveMinimum'] === undefined) {
        problems.push(`${at}: number without minimum`);
      }
      return;
    case 'array':
      if (schema['maxItems'] === undefined) problems.push(`${at}: array without maxItems`);
      unbounded((schema['items'] ?? {}) as Json, `${at}[]`, problems);
      return;
    case 'object':
      if (schema['additionalProperties'] !== false && schema['maxProperties'] !== 0) {
        problems.push(`${at}: object open to unknown fields`);
      }
      for (const [name, property] of Object.entries((schema['properties'] ?? {}) as Json)) {
        unbounded(property as Json, `${at}.${name}`, problems);
      }
      return;
  }
}

it('every request path, query and body schema is bounded', () => {
  const document = buildOpenApiDocument(routeList) as { paths: Record<string, Json> };
  const problems: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations as Record<string, Json>)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of (operation['parameters'] as Json[]) ?? []) {
        if (parameter['in'] === 'header') continue;
        unbounded(
          parameter['schema'] as Json,
          `${where} ${String(parameter['in'])}.${String(parameter['name'])}`,
          problems,
        );
      }
      const body = (operation['requestBody'] as Json | undefined)?.['content'] as Json | undefined;
      const schema = (body?.['application/json'] as Json | undefined)?.['schema'];
      if (schema) unbounded(schema as Json, `${where} body`, problems);
    }
  }
  expect(problems).toEqual([]);
});
