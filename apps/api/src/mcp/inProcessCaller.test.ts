import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { deepFreeze } from '@yieldrouter/engine';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { ANSWER_BODY } from '../http/responseBytes';
import { inProcessCaller } from './inProcessCaller';

// A tool call of /mcp checks the route's 2xx body with its response schema, like the SDK. A
// document the API builds once per discovery snapshot is deep-frozen: it is checked once, and
// every later call hands over the same checked (frozen) copy, so its text is serialized once.

const schema = z.object({ items: z.array(z.object({ id: z.string() })) });
const route = {
  operationId: 'listThings',
  method: 'get',
  path: '/things',
  versioned: true,
  auth: 'public',
  summary: 'things',
  tags: [],
  request: {},
  responses: { 200: { description: 'the things', schema } },
} as unknown as RouteDefinition;

/** An app whose route answers `body()` in process, as mountRoutes does for a 2xx. */
const appAnswering =
  (body: () => unknown) =>
  (_req: IncomingMessage, res: ServerResponse): void => {
    (res as unknown as Record<symbol, unknown>)[ANSWER_BODY] = body();
    res.statusCode = 200;
    res.end();
  };

const callerFor = (body: () => unknown) =>
  inProcessCaller({
    app: appAnswering(body),
    routes: new Map([[route.operationId, route]]),
    apiKey: undefined,
    remoteAddress: '127.0.0.1',
  });

describe('inProcessCaller', () => {
  it('checks a frozen document once and hands over the same frozen checked copy', async () => {
    const document = deepFreeze({ items: [{ id: 'a' }, { id: 'b' }] });
    const parse = jest.spyOn(schema, 'safeParse');
    try {
      const call = callerFor(() => document);
      const first = await call('listThings', {});
      const second = await call('listThings', {});
      expect(first).toEqual(document);
      expect(second).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen((first as { items: object[] }).items[0])).toBe(true);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('checks every answer that is not frozen, and refuses one off its schema', async () => {
    const parse = jest.spyOn(schema, 'safeParse');
    try {
      const call = callerFor(() => ({ items: [{ id: 'a' }] }));
      await call('listThings', {});
      await call('listThings', {});
      expect(parse).toHaveBeenCalledTimes(2);
      const drifted = deepFreeze({ items: [{ id: 1 }] });
      await expect(callerFor(() => drifted)('listThings', {})).rejects.toMatchObject({
        code: 'SCHEMA_MISMATCH',
      });
    } finally {
      parse.mockRestore();
    }
  });
});
