import request from 'supertest';
import { SdkDocument, VersionDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// Issue 21: version negotiation. Where a client stands, in the documents and on every answer;
// an old client is warned, never refused, in v1.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    SVC_API_LATEST_VERSION: '1.2.0',
    SVC_API_MIN_SUPPORTED_VERSION: '1.1.0',
    SVC_CLIENT_INSTALL: 'npm install @yieldrouter/sdk@1.2.0',
    SVC_CLIENT_RELEASE_URL: 'https://example.com/releases/1.2.0',
  });
});
afterAll(async () => {
  await t.close();
});

const expectVersionHeaders = (headers: Record<string, string>) => {
  expect(headers).toMatchObject({
    'api-version': '1.0.0',
    'x-svc-api-version': '1.0.0',
    'x-svc-api-latest': '1.2.0',
    'x-svc-api-min': '1.1.0',
  });
};

describe('version documents', () => {
  it.each(['/api/v1/svc/version', '/api/v1/svc/sdk'])(
    '%s gives the latest and minimum versions and how to update',
    async (path) => {
      const res = await request(t.app).get(path).expect(200);
      expect(res.body).toMatchObject({
        latestVersion: '1.2.0',
        minSupportedVersion: '1.1.0',
        install: 'npm install @yieldrouter/sdk@1.2.0',
        releaseUrl: 'https://example.com/releases/1.2.0',
        repoUrl: null,
      });
      expect(res.body.client).toBeUndefined();
      expectVersionHeaders(res.headers);
    },
  );

  it.each([
    ['1.0.0', { upToDate: false, updateAvailable: true, belowMinimum: true }, /below the minimum/],
    [
      '1.1.5',
      { upToDate: false, updateAvailable: true, belowMinimum: false },
      /1\.2\.0 is available/,
    ],
    ['1.2.0', { upToDate: true, updateAvailable: false, belowMinimum: false }, /up to date/],
    ['1.2.0-rc.1', { upToDate: false, updateAvailable: true, belowMinimum: false }, /available/],
    ['2.0.0', { upToDate: true, updateAvailable: false, belowMinimum: false }, /up to date/],
  ])('?client=%s says where that client stands', async (client, flags, message) => {
    const version = await request(t.app).get('/api/v1/svc/version').query({ client }).expect(200);
    expect(VersionDocument.parse(version.body).client).toMatchObject({ version: client, ...flags });
    expect(version.body.client.message).toMatch(message);
    const sdk = await request(t.app).get('/api/v1/svc/sdk').query({ client }).expect(200);
    expect(SdkDocument.parse(sdk.body).client).toEqual(version.body.client);
  });

  it.each(['1.0', 'v1.0.0', '01.0.0', '1.0.0-', 'latest'])(
    '?client=%s is a 400 naming query.client',
    async (client) => {
      const res = await request(t.app).get('/api/v1/svc/version').query({ client }).expect(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'query.client' });
    },
  );
});

describe('version headers', () => {
  it('are on every answer: public, keyed, errors, unknown paths', async () => {
    expectVersionHeaders((await request(t.app).get('/health')).headers);
    expectVersionHeaders(
      (await request(t.app).get('/api/v1/svc/status').set('X-API-Key', testKeys.owner)).headers,
    );
    expectVersionHeaders((await request(t.app).get('/api/v1/wallets/0xabc/balance')).headers);
    expectVersionHeaders((await request(t.app).get('/api/v1/nope')).headers);
  });

  it('warn a client below the minimum, and still serve it', async () => {
    const old = await request(t.app)
      .get('/api/v1/svc/status')
      .set('X-SVC-API-Client-Version', '1.0.3')
      .expect(200);
    expect(old.headers['x-svc-api-warning']).toMatch(
      /^1\.0\.3 is below the minimum supported version 1\.1\.0: update to 1\.2\.0/,
    );
    for (const current of ['1.1.0', '1.2.0', '3.0.0']) {
      const res = await request(t.app)
        .get('/api/v1/svc/status')
        .set('X-SVC-API-Client-Version', current)
        .expect(200);
      expect(res.headers['x-svc-api-warning']).toBeUndefined();
    }
    const none = await request(t.app).get('/api/v1/svc/status').expect(200);
    expect(none.headers['x-svc-api-warning']).toBeUndefined();
  });

  it('warn about an unreadable client version instead of refusing the request', async () => {
    const res = await request(t.app)
      .get('/api/v1/svc/status')
      .set('X-SVC-API-Client-Version', 'my-client/7')
      .expect(200);
    expect(res.headers['x-svc-api-warning']).toMatch(/not a semantic version/);
  });
});
