import { Writable } from 'node:stream';
import request from 'supertest';
import { createChainAdapters, createServiceLogger } from '@yieldrouter/engine';
import { parseEnv } from './env';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp } from './testing/startTestApp';

// Issue 16, finding 2: a 500 logged its error with the SQL statement and parameters (a raw
// txId) and the stack. Now: the code, the request id, the error's name and frames only.

const TX = `0x${'cd'.repeat(32)}`;
let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const config = parseEnv({});
  const adapters = createChainAdapters({
    chains: config.chains,
    ids: config.onChainIds,
    switches: config.switches,
  });
  const failing = Object.assign(new Error(`invalid input syntax for type bigint: "${TX}"`), {
    name: 'DatabaseError',
    severity: 'ERROR',
    query: 'SELECT * FROM plan_legs WHERE tx_id = $1',
    parameters: [TX],
  });
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  t = await startTestApp(
    {},
    {
      adapters: {
        ...adapters,
        sui: { ...adapters.sui, readBalances: () => Promise.reject(failing) },
      },
      logger: createServiceLogger('api', 'info', { destination }),
    },
  );
});
afterAll(async () => {
  await t.close();
});

it('a 500 is logged with its code and request id, never the statement or its parameters', async () => {
  const res = await request(t.app)
    .get(`/api/v1/svc/sui/wallet-balance?address=${SAMPLE_ADDRESSES.sui}`)
    .expect(500);
  expect(res.body).toMatchObject({ code: 'INTERNAL_ERROR' });
  const logged = lines.find((line) => line.includes('unhandled error'));
  expect(JSON.parse(logged ?? '{}')).toMatchObject({
    code: 'INTERNAL_ERROR',
    requestId: res.body.requestId,
    err: { type: 'DatabaseError' },
  });
  expect(lines.join('')).not.toContain(TX);
  expect(lines.join('')).not.toMatch(/plan_legs|SELECT/);
});
