import request from 'supertest';
import { ErrorBody } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys, TEST_WALLET } from './testing/startTestApp';

let t: TestApp;
beforeAll(async () => {
  // Bridge rescue mounted without its handler, as a route that has not landed is (every route
  // of the manifest has landed): the 501 case below.
  t = await startTestApp({ SVC_BODY_LIMIT_BYTES: '2048' }, { withheldHandlers: ['rescueBridge'] });
});
afterAll(async () => {
  await t.close();
});

const expectError = (body: unknown, code: string) => {
  const parsed = ErrorBody.parse(body);
  expect(parsed.code).toBe(code);
  expect(parsed.requestId).toMatch(/^req_/);
  return parsed;
};

describe('HTTP errors', () => {
  it('unknown route → 404 NOT_FOUND with the standard body', async () => {
    const res = await request(t.app).get('/api/v1/svc/nope').expect(404);
    expectError(res.body, 'NOT_FOUND');
  });

  it('wrong method on a known path → 405 with Allow', async () => {
    const res = await request(t.app).delete('/api/v1/svc/status').expect(405);
    expectError(res.body, 'METHOD_NOT_ALLOWED');
    expect(res.headers['allow']).toBe('GET, HEAD');
  });

  it('malformed JSON → 400 BAD_REQUEST naming the body', async () => {
    const res = await request(t.app)
      .post('/api/v1/svc/discover')
      .set('Content-Type', 'application/json')
      .send('{"chain": ')
      .expect(400);
    expect(expectError(res.body, 'BAD_REQUEST').field).toBe('body');
  });

  it('oversized body → 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(t.app)
      .post('/api/v1/svc/discover')
      .send({ protocol: 'x'.repeat(4096) })
      .expect(413);
    expectError(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it('wrong content type → 415', async () => {
    const res = await request(t.app)
      .post('/api/v1/svc/discover')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('chain=sui')
      .expect(415);
    expectError(res.body, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('unknown body field → 400 naming it', async () => {
    const res = await request(t.app)
      .post('/api/v1/svc/discover')
      .send({ chain: 'sui', surprise: true })
      .expect(400);
    const body = expectError(res.body, 'BAD_REQUEST');
    expect(body.field).toBe('body.surprise');
    expect(body.message).toContain("'surprise'");
  });

  it.each([
    ['a float', '1.5'],
    ['an exponent', '1e6'],
    ['a negative', '-1'],
    ['hex', '0x10'],
    ['blank', ''],
    ['over 2^63-1', '9223372036854775808'],
    ['zero', '0'],
  ])('amount as %s → 400 naming body.amountMicros', async (_label, amountMicros) => {
    const res = await request(t.app)
      .post(`/api/v1/wallets/${TEST_WALLET}/route`)
      .set('X-API-Key', testKeys.owner)
      .send({ amountMicros, token: 'USDC', chain: 'sui' })
      .expect(400);
    expect(expectError(res.body, 'BAD_REQUEST').field).toBe('body.amountMicros');
  });

  it('a number that is not a safe integer instead of a micros string → 400', async () => {
    const res = await request(t.app)
      .post(`/api/v1/wallets/${TEST_WALLET}/route`)
      .set('X-API-Key', testKeys.owner)
      .send({ amountMicros: 1000000.5, token: 'USDC', chain: 'sui' })
      .expect(400);
    expect(expectError(res.body, 'BAD_REQUEST').field).toBe('body.amountMicros');
  });

  it('bad query value → 400 naming the query field', async () => {
    const res = await request(t.app).get('/api/v1/svc/venues?live=yes').expect(400);
    expect(expectError(res.body, 'BAD_REQUEST').field).toBe('query.live');
  });

  it('a declared route without its handler → 501 NOT_IMPLEMENTED, after validation', async () => {
    // Bridge rescue is withheld in this app (see beforeAll): 501 once its input is valid.
    const rescue = (body: object) =>
      request(t.app).post('/api/v1/svc/bridge/rescue').set('X-API-Key', testKeys.owner).send(body);
    await rescue({ planId: '' }).expect(400);
    const res = await rescue({ planId: 'plan_sample' }).expect(501);
    expect(expectError(res.body, 'NOT_IMPLEMENTED').message).toContain('rescueBridge');
  });

  it('keeps a sane incoming X-Request-Id and replaces a hostile one', async () => {
    const kept = await request(t.app).get('/api/v1/svc/nope').set('X-Request-Id', 'abc-123');
    expect(kept.body.requestId).toBe('abc-123');
    const replaced = await request(t.app).get('/api/v1/svc/nope').set('X-Request-Id', '<script>');
    expect(replaced.body.requestId).toMatch(/^req_/);
  });
});
