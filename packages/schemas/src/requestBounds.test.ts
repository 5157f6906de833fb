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
    case 'object': {
      // A map (guardrails' maxAllocationBps) is bounded by its size, names and values.
      const map = schema['additionalProperties'];
      if (typeof map === 'object' && map !== null && schema['maxProperties'] !== undefined) {
        unbounded((schema['propertyNames'] ?? {}) as Json, `${at}{name}`, problems);
        unbounded(map as Json, `${at}{}`, problems);
      } else if (schema['additionalProperties'] !== false && schema['maxProperties'] !== 0) {
        problems.push(`${at}: object open to unknown fields`);
      }
      for (const [name, property] of Object.entries((schema['properties'] ?? {}) as Json)) {
        unbounded(property as Json, `${at}.${name}`, problems);
      }
      return;
    }
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

// Issue 21: the named bounds a third-party generator reads from the document, not only from our
// handlers: slippage 0..500 bps, every other bps 0..10 000, micros strings up to 2^63 − 1 by
// pattern and length, at most 50 wallets in a batch.
function namedFields(schema: Json, at: string, out: Array<[string, string, Json]>): void {
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const option of (schema[key] as Json[] | undefined) ?? []) namedFields(option, at, out);
  }
  if (schema['items']) namedFields(schema['items'] as Json, `${at}[]`, out);
  for (const [name, property] of Object.entries((schema['properties'] ?? {}) as Json)) {
    out.push([`${at}.${name}`, name, property as Json]);
    namedFields(property as Json, `${at}.${name}`, out);
  }
}

function requestFields(): Array<[string, string, Json]> {
  const document = buildOpenApiDocument(routeList) as { paths: Record<string, Json> };
  const out: Array<[string, string, Json]> = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations as Record<string, Json>)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of (operation['parameters'] as Json[]) ?? []) {
        const name = String(parameter['name']);
        out.push([
          `${where} ${String(parameter['in'])}.${name}`,
          name,
          parameter['schema'] as Json,
        ]);
      }
      const body = (operation['requestBody'] as Json | undefined)?.['content'] as Json | undefined;
      const schema = (body?.['application/json'] as Json | undefined)?.['schema'];
      if (schema) namedFields(schema as Json, `${where} body`, out);
    }
  }
  return out;
}

/**
 * The leaf schemas of a field (its anyOf options, a nullable's non-null side, a map's values);
 * a constant (rebalance's `"all"`) bounds itself.
 */
function leaves(schema: Json): Json[] {
  const options = [...((schema['anyOf'] as Json[]) ?? []), ...((schema['oneOf'] as Json[]) ?? [])];
  if (options.length > 0) return options.flatMap(leaves);
  if ('const' in schema || 'enum' in schema) return [];
  const map = schema['additionalProperties'];
  return schema['type'] === 'object' && typeof map === 'object' && map !== null
    ? leaves(map as Json)
    : [schema];
}

it('bounds every bps, micros and wallets-batch field by name', () => {
  const fields = requestFields();
  const problems: string[] = [];
  for (const [at, name, schema] of fields) {
    for (const leaf of leaves(schema).filter((option) => option['type'] !== 'null')) {
      if (name.endsWith('Bps') && leaf['type'] === 'string') {
        // A query parameter: the pattern carries the bound.
        const pattern = new RegExp(String(leaf['pattern']));
        if (!pattern.test('10000') || pattern.test('10001') || pattern.test('01')) {
          problems.push(`${at}: ${name} must be a string bounded by pattern to 0..10000`);
        }
      } else if (name.endsWith('Bps') && leaf['type'] !== undefined) {
        const maximum = name === 'slippageBps' ? 500 : 10_000;
        // A share that cannot be zero (a guardrail's maxAllocationBps) starts at 1.
        const minimum = name === 'maxAllocationBps' ? 1 : 0;
        if (leaf['minimum'] !== minimum || leaf['maximum'] !== maximum) {
          problems.push(`${at}: ${name} must be ${leaf['type']} 0..${maximum}`);
        }
      }
      if (name.endsWith('Micros') && leaf['type'] === 'string') {
        const pattern = new RegExp(String(leaf['pattern']));
        const exact =
          leaf['maxLength'] === 19 &&
          pattern.test('9223372036854775807') &&
          !pattern.test('9223372036854775808') &&
          !pattern.test('01');
        if (!exact) problems.push(`${at}: micros string must be bounded by pattern to 2^63 − 1`);
      }
      if (name === 'wallets' && leaf['type'] === 'array' && leaf['maxItems'] !== 50) {
        problems.push(`${at}: wallets must have maxItems 50`);
      }
    }
  }
  expect(problems).toEqual([]);
  // The walk saw the fields it is about (a renamed field must not make it vacuous).
  const names = new Set(fields.map(([, name]) => name));
  for (const name of ['slippageBps', 'shareBps', 'minApyBps', 'amountMicros', 'wallets']) {
    expect(names).toContain(name);
  }
});
