import { OTHER_WALLET, TEST_WALLET, testKeys } from '@yieldrouter/api/testing/startTestApp';
import { createClient } from './createClient';
import {
  AuthenticationError,
  NotFoundError,
  NotImplementedError,
  PermissionError,
  ValidationError,
} from './errors/httpErrors';
import type { ListeningTestApp } from './testing/listenTestApp';
import { listenTestApp } from './testing/listenTestApp';

let api: ListeningTestApp;
beforeAll(async () => {
  // Bridge rescue is mounted without its handler here, as a route that has not landed is.
  api = await listenTestApp({}, { withheldHandlers: ['rescueBridge'] });
});
afterAll(() => api.close());

const rejection = <T>(promise: Promise<T>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('API errors become typed SDK errors (real API)', () => {
  it('401 AuthenticationError: no key on an owner route', async () => {
    const client = createClient({ baseUrl: api.baseUrl });
    const error = await rejection(client.getPosition({ params: { address: TEST_WALLET } }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', name: 'AuthenticationError' });
    expect((error as AuthenticationError).requestId).toMatch(/^req_/);
  });

  it('401 AuthenticationError: unknown key', async () => {
    const client = createClient({ baseUrl: api.baseUrl, apiKey: 'not-a-key' });
    const error = await rejection(client.getPosition({ params: { address: TEST_WALLET } }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });

  it('403 PermissionError WALLET_SCOPE: a wallet outside the key', async () => {
    const client = createClient({ baseUrl: api.baseUrl, apiKey: testKeys.agent });
    const error = await rejection(client.getPosition({ params: { address: OTHER_WALLET } }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'WALLET_SCOPE', field: 'path.address' });
  });

  it('403 PermissionError UNAUTHORIZED: the wrong role', async () => {
    const client = createClient({ baseUrl: api.baseUrl, apiKey: testKeys.keeper });
    const error = await rejection(client.getPosition({ params: { address: TEST_WALLET } }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'UNAUTHORIZED' });
  });

  it('400 ValidationError names the field', async () => {
    const client = createClient({ baseUrl: api.baseUrl });
    const error = await rejection(client.getBaseWalletBalance({ query: { address: '0x1234' } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', field: 'query.address' });
  });

  it('404 NotFoundError for an unknown path', async () => {
    const client = createClient({ baseUrl: `${api.baseUrl}/not-the-api` });
    const error = await rejection(client.getStatus());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('501 NotImplementedError for a declared route whose handler has not landed', async () => {
    // Every route has landed; this app withholds bridge rescue (as apps/api http.error.test.ts).
    const client = createClient({ baseUrl: api.baseUrl, apiKey: testKeys.owner });
    const planned = (await client.getRoutes()).routes.find(
      (route) => route.operationId === 'rescueBridge',
    );
    if (planned?.implemented !== false) throw new Error('rescueBridge is not withheld here');
    const error = await rejection(client.rescueBridge({ body: { planId: 'plan_sample' } }));
    expect(error).toBeInstanceOf(NotImplementedError);
    expect(error).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
  });
});
