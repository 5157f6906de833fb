import { buildOpenApiDocument } from './openapi';
import { routeList } from './manifest/allRoutes';

// Issue 21: what Redocly's recommended ruleset asks of every operation (`pnpm check` runs the
// lint itself in tooling/contract); here the same facts fail fast next to the builder.
type Json = Record<string, unknown>;

const document = buildOpenApiDocument(routeList) as {
  info: Json;
  paths: Record<string, Record<string, Json>>;
  webhooks: Record<string, Record<string, Json>>;
};
const operations = [...Object.values(document.paths), ...Object.values(document.webhooks)].flatMap(
  (item) => Object.values(item),
);

it('gives every operation, webhooks included, a unique operationId', () => {
  const ids = operations.map((operation) => operation['operationId']);
  expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
});

it('declares security on every operation: [] when public, the API key otherwise', () => {
  for (const route of routeList) {
    const operation = operations.find(
      (candidate) => candidate['operationId'] === route.operationId,
    );
    expect(operation?.['security']).toEqual(route.auth === 'public' ? [] : [{ ApiKey: [] }]);
  }
  expect(operations.every((operation) => Array.isArray(operation['security']))).toBe(true);
});

it('states the license', () => {
  expect(document.info['license']).toEqual({ name: 'MIT', identifier: 'MIT' });
});

it('marks the calls the wallet audit trail keeps', () => {
  const audited = operations.filter((operation) => operation['x-audited'] === true);
  expect(audited.map((operation) => operation['operationId'])).toEqual(
    expect.arrayContaining(['routeFunds', 'withdraw', 'settlePlanLeg', 'harvest', 'setAutoYield']),
  );
});
