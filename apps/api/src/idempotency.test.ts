import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { claimIdempotencyKey, completeIdempotencyKey } from '@yieldrouter/ledger';
import { DepositPlanRequest, PlanDocument } from '@yieldrouter/schemas';
import { idempotencyRequestHash, storedIdempotencyKey } from './http/idempotency';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';

// Idempotency-Key on the deposit and withdraw plan routes (public: scoped by client IP, which
// the test sets through X-Forwarded-For). Each call without a key stores a new plan.
const VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';
const OWNER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const DEPOSIT = '/api/v1/svc/strategies/deposit/plan';
const IP = '203.0.113.7';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    SVC_TRUST_PROXY: 'true',
    SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: VAULT } }),
  });
});
afterAll(async () => {
  await t.close();
});

const body = (amountMicros = '25000000') => ({ strategyId: 'morpho', amountMicros, owner: OWNER });

const post = (
  payload: Record<string, unknown>,
  key?: string,
  { path = DEPOSIT, ip = IP }: { path?: string; ip?: string } = {},
) => {
  const call = request(t.app).post(path).set('X-Forwarded-For', ip);
  return (key === undefined ? call : call.set('Idempotency-Key', key)).send(payload);
};

const planCount = () => t.db.plan.count();
const planIdOf = (text: string) => PlanDocument.parse(JSON.parse(text)).planId;

describe('Idempotency-Key', () => {
  it('a retry replays the first response byte for byte and stores one plan', async () => {
    const key = randomUUID();
    const before = await planCount();
    const first = await post(body(), key).expect(200);
    const again = await post(body(), key).expect(200);
    // The legacy alias is the same operation, so the same record.
    const alias = await post(body(), key, { path: '/api/svc/strategies/deposit/plan' }).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    for (const replay of [again, alias]) {
      expect(replay.text).toBe(first.text);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.headers['content-type']).toBe(first.headers['content-type']);
      expect(replay.headers['content-length']).toBe(first.headers['content-length']);
      expect(replay.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    }
    expect(planIdOf(again.text)).toBe(planIdOf(first.text));
    expect(await planCount()).toBe(before + 1);
  });

  it('the request is compared as parsed: key order does not matter', async () => {
    const key = randomUUID();
    const first = await post({ strategyId: 'morpho', amountMicros: '3000000', owner: OWNER }, key);
    const again = await post({ owner: OWNER, amountMicros: '3000000', strategyId: 'morpho' }, key);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED and stores nothing', async () => {
    const key = randomUUID();
    await post(body('25000000'), key).expect(200);
    const before = await planCount();
    const res = await post(body('26000000'), key).expect(422);
    expect(res.body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      field: 'header.Idempotency-Key',
    });
    expect(res.body.message).toContain('header.Idempotency-Key');
    expect(await planCount()).toBe(before);
  });

  it('another operation with the same key is a separate record', async () => {
    const key = randomUUID();
    const deposit = await post(body(), key).expect(200);
    const withdraw = await post(body(), key, { path: '/api/v1/svc/strategies/withdraw/plan' });
    expect(withdraw.status).toBe(200);
    expect(withdraw.headers['idempotent-replayed']).toBeUndefined();
    expect(planIdOf(withdraw.text)).not.toBe(planIdOf(deposit.text));
  });

  it('20 concurrent requests with one key: one plan; every answer is that plan or 409', async () => {
    const key = randomUUID();
    const before = await planCount();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(body(), key)));
    expect(await planCount()).toBe(before + 1);
    const ok = responses.filter((res) => res.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const res of ok) expect(res.text).toBe(ok[0]?.text);
    expect(ok.filter((res) => res.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const res of responses.filter((each) => each.status !== 200)) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    }
  });

  it.each([
    ['an empty', ''],
    ['a 256-character', 'k'.repeat(256)],
    ['a non-ASCII', 'clé-1'],
  ])('%s key is 400 naming the header, and nothing runs', async (_name, key) => {
    const before = await planCount();
    const res = await post(body(), key).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'header.Idempotency-Key' });
    expect(res.body.message).toContain('header.Idempotency-Key');
    expect(await planCount()).toBe(before);
  });

  it('a 255-character printable ASCII key is accepted', async () => {
    await post(body(), `${'k'.repeat(250)} ~!#$`).expect(200);
  });

  it('requests without the header are unaffected: each stores its own plan', async () => {
    const before = await planCount();
    const keys = await t.db.idempotencyKey.count();
    const first = await post(body()).expect(200);
    const second = await post(body()).expect(200);
    expect(planIdOf(first.text)).not.toBe(planIdOf(second.text));
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await planCount()).toBe(before + 2);
    expect(await t.db.idempotencyKey.count()).toBe(keys);
  });

  it('two clients using the same key string never see each other', async () => {
    const key = randomUUID();
    const mine = await post(body('25000000'), key, { ip: '198.51.100.1' }).expect(200);
    const theirs = await post(body('27000000'), key, { ip: '198.51.100.2' }).expect(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(planIdOf(theirs.text)).not.toBe(planIdOf(mine.text));
    const mineAgain = await post(body('25000000'), key, { ip: '198.51.100.1' }).expect(200);
    expect(mineAgain.text).toBe(mine.text);
  });

  it('a 4xx from the handler is a final answer: replayed with its first requestId', async () => {
    const key = randomUUID();
    const payload = { strategyId: 'no-such-venue', amountMicros: '1000000' };
    const first = await post(payload, key).expect(404);
    expect(first.body.code).toBe('strategy_unknown');
    const again = await post(payload, key).expect(404);
    expect(again.text).toBe(first.text);
    expect(again.body.requestId).toBe(first.headers['x-request-id']);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('a request refused before the handler (400 body) keeps no record', async () => {
    const key = randomUUID();
    await post({ strategyId: 'morpho', amountMicros: '-1' }, key).expect(400);
    await post(body(), key).expect(200);
  });

  it('a 5xx is not stored: the retry with the same key runs again', async () => {
    const key = randomUUID();
    await t.db.$executeRawUnsafe(
      'ALTER TABLE plans ADD CONSTRAINT test_refuse_plans CHECK (false) NOT VALID',
    );
    try {
      const failed = await post(body(), key).expect(500);
      expect(failed.body.code).toBe('INTERNAL_ERROR');
    } finally {
      await t.db.$executeRawUnsafe('ALTER TABLE plans DROP CONSTRAINT test_refuse_plans');
    }
    const retry = await post(body(), key).expect(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  describe('while the first request is still running', () => {
    const ip = '192.0.2.44';
    const payload = body('4000000');
    const hold = async (key: string) => {
      // Stored as its digest (issue 41), as the API looks it up.
      const ref = {
        scope: `public:${ip}`,
        operation: 'prepareDepositPlan',
        key: storedIdempotencyKey(key),
      };
      const claim = await claimIdempotencyKey(t.db, {
        ...ref,
        wallet: null,
        requestHash: idempotencyRequestHash('prepareDepositPlan', {
          params: undefined,
          query: undefined,
          body: DepositPlanRequest.parse(payload),
        }),
        lockMs: 60_000,
      });
      if (claim.kind !== 'claimed') throw new Error(`expected a claim, got ${claim.kind}`);
      return { ...ref, claimToken: claim.claimToken };
    };

    it('a retry waits about 2 s, then 409 IDEMPOTENCY_IN_PROGRESS with Retry-After: 1', async () => {
      const key = randomUUID();
      await hold(key);
      const started = Date.now();
      const res = await post(payload, key, { ip }).expect(409);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toMatchObject({
        code: 'IDEMPOTENCY_IN_PROGRESS',
        field: 'header.Idempotency-Key',
      });
    });

    it('a retry that sees the first finish within the wait gets its response', async () => {
      const key = randomUUID();
      const held = await hold(key);
      const stored = Buffer.from('{"status":"from the first request"}');
      setTimeout(() => {
        void completeIdempotencyKey(t.db, held, {
          status: 201,
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-First': 'yes' },
          body: stored,
        });
      }, 300);
      const res = await post(payload, key, { ip }).expect(201);
      expect(res.text).toBe(stored.toString());
      expect(res.headers['x-first']).toBe('yes');
      expect(res.headers['idempotent-replayed']).toBe('true');
    });
  });
});
