import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { fixedHeaders, recordStaticHeaders } from './staticHeaders';

const options = { referrerPolicy: { policy: 'no-referrer' as const } };

/** The answer's headers but those set per answer. */
const headersOf = (res: request.Response) =>
  Object.fromEntries(
    Object.entries(res.headers).filter(
      ([name]) => !['date', 'connection', 'keep-alive', 'etag'].includes(name),
    ),
  );

describe('helmet recorded once', () => {
  it('sets the very headers helmet sets per request', async () => {
    const withHelmet = express();
    withHelmet.use(helmet(options));
    withHelmet.get('/x', (_req, res) => {
      res.json({ ok: true });
    });
    const recorded = recordStaticHeaders([helmet(options)]);
    const withRecord = express();
    // helmet removes X-Powered-By per answer; the app never sends it (as createApp).
    withRecord.disable('x-powered-by');
    withRecord.use(fixedHeaders(recorded));
    withRecord.get('/x', (_req, res) => {
      res.json({ ok: true });
    });
    const expected = headersOf(await request(withHelmet).get('/x'));
    expect(headersOf(await request(withRecord).get('/x'))).toEqual(expected);
    expect(expected['content-security-policy']).toContain("default-src 'self'");
    expect(recorded.length).toBeGreaterThan(10);
  });
});
