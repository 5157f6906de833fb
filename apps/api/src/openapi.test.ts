import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { routeList, routePaths } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('OpenAPI 3.1 document', () => {
  it('is served at /api/v1/openapi.json and /openapi.json, identical', async () => {
    const versioned = await request(t.app).get('/api/v1/openapi.json').expect(200);
    const root = await request(t.app).get('/openapi.json').expect(200);
    expect(root.body).toEqual(versioned.body);
    expect(versioned.body.openapi).toBe('3.1.0');
  });

  it('is encoded once: later answers are the same bytes, not parsed and encoded again', async () => {
    const first = await request(t.app).get('/api/v1/openapi.json').expect(200);
    const encode = jest.spyOn(JSON, 'stringify');
    try {
      const again = await request(t.app).get('/api/v1/openapi.json').expect(200);
      expect(again.text).toBe(first.text);
      const encodedDocument = encode.mock.calls.filter(
        ([value]) => (value as { openapi?: unknown } | null)?.openapi === '3.1.0',
      );
      expect(encodedDocument.length).toBe(0);
    } finally {
      encode.mockRestore();
    }
  });

  it('is valid according to a real OpenAPI validator', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json').expect(200);
    await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeTruthy();
  });

  it('declares every manifest route with its auth and implementation state', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json').expect(200);
    const paths = res.body.paths as Record<string, Record<string, Record<string, unknown>>>;
    for (const route of routeList) {
      const operation = paths[routePaths(route).canonical]?.[route.method];
      expect(operation?.['operationId']).toBe(route.operationId);
      expect(operation?.['x-auth']).toEqual(route.auth === 'public' ? ['public'] : route.auth);
      expect(typeof operation?.['x-implemented']).toBe('boolean');
    }
    const operationIds = routeList.map((route) => route.operationId);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });
});
