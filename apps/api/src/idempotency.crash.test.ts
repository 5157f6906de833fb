import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import { postJournalEntry, sweepIdempotencyKeys, verifyLedger } from '@yieldrouter/ledger';
import { PlanDocument } from '@yieldrouter/schemas';
import { storedIdempotencyKey } from './http/idempotency';
import { solanaBedSettings } from './testing/solanaBedSettings';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// Exactly-once writes across crashes, on every write that takes an Idempotency-Key: each crash
// point is made to happen (a failure injected by the database, a lease that passed, the HTTP
// record swept) and the retry must answer the first outcome with no second effect.

const ownerA = `owner-a-${randomBytes(6).toString('hex')}`;
const ownerB = `owner-b-${randomBytes(6).toString('hex')}`;

let t: TestApp;
let solana: SolanaBed;
let wallet: string;

beforeAll(async () => {
  solana = await startSolanaBed();
  t = await startTestApp({
    ...solanaBedSettings(solana, deployYieldRouter(solana)),
    SVC_IDEMPOTENCY_LOCK_MS: '45000',
    SVC_API_KEYS: JSON.stringify([
      { key: ownerA, role: 'owner', wallets: ['*'] },
      { key: ownerB, role: 'owner', wallets: ['*'] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
  wallet = solana.createFundedKeypair().publicKey.toBase58();
  // Liquid to withdraw from, as a settled route leaves it.
  await t.db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'test.funded',
      postings: [
        { account: { system: 'external', chain: 'solana' }, amountMicros: -1_000_000_000n },
        { account: { wallet, chain: 'solana', bucket: 'liquid' }, amountMicros: 1_000_000_000n },
      ],
    }),
  );
});
afterAll(async () => {
  await t?.close();
  await solana?.stop();
});

interface Write {
  readonly path: () => string;
  readonly body: (amountMicros: string) => object;
  /** Keyed by an owner key; else public. */
  readonly keyed: boolean;
  /** The plan kind the write stores and the journal entry it posts (if any). */
  readonly planKind: string;
  readonly entryKind: string | null;
}

const writes: ReadonlyArray<[string, Write]> = [
  [
    'POST /wallets/{address}/route',
    {
      path: () => `/api/v1/wallets/${wallet}/route`,
      body: (amountMicros) => ({ amountMicros, token: 'USDC', chain: 'solana' }),
      keyed: true,
      planKind: 'route',
      entryKind: 'route.prepared',
    },
  ],
  [
    'POST /wallets/{address}/withdraw',
    {
      path: () => `/api/v1/wallets/${wallet}/withdraw`,
      body: (amountMicros) => ({ amountMicros, chain: 'solana' }),
      keyed: true,
      planKind: 'exit',
      entryKind: 'exit.reserved',
    },
  ],
  [
    'POST /svc/strategies/deposit/plan',
    {
      path: () => '/api/v1/svc/strategies/deposit/plan',
      body: (amountMicros) => ({ strategyId: 'kamino', amountMicros, owner: wallet }),
      keyed: false,
      planKind: 'deposit',
      entryKind: null,
    },
  ],
  [
    'POST /svc/strategies/withdraw/plan',
    {
      path: () => '/api/v1/svc/strategies/withdraw/plan',
      body: (amountMicros) => ({ strategyId: 'kamino', amountMicros, owner: wallet }),
      keyed: false,
      planKind: 'withdraw',
      entryKind: null,
    },
  ],
];

const sql = (statement: string) => t.db.$executeRawUnsafe(statement);

/** Runs `work` while the database refuses what `check` refuses on `table`. */
async function refusing<T>(table: string, check: string, work: () => Promise<T>): Promise<T> {
  await sql(`ALTER TABLE ${table} ADD CONSTRAINT test_crash CHECK (${check}) NOT VALID`);
  try {
    return await work();
  } finally {
    await sql(`ALTER TABLE ${table} DROP CONSTRAINT test_crash`);
  }
}

describe.each(writes)('%s with an Idempotency-Key', (_name, write) => {
  const send = (key: string, amountMicros = '1000000', apiKey = ownerA) => {
    const call = request(t.app).post(write.path()).set('Idempotency-Key', key);
    return (write.keyed ? call.set('X-API-Key', apiKey) : call).send(write.body(amountMicros));
  };
  const effects = async () => ({
    plans: await t.db.plan.count({ where: { kind: write.planKind } }),
    entries: write.entryKind
      ? await t.db.journalEntry.count({ where: { kind: write.entryKind } })
      : 0,
  });
  /** The first answer, and the effects it left (one plan, and its entry if it posts one). */
  const firstWrite = async (key: string) => {
    const before = await effects();
    const first = await send(key).expect(200);
    expect(planIdOf(first.text)).toMatch(/^plan_/);
    const after = await effects();
    expect(after.plans).toBe(before.plans + 1);
    expect(after.entries).toBe(before.entries + (write.entryKind ? 1 : 0));
    return { first, after };
  };
  const expectReplay = async (retry: request.Response, first: request.Response, after: object) => {
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await effects()).toEqual(after);
  };

  /** The caller's HTTP record as a run that died after committing leaves it, lease running or not. */
  const diedAfterCommit = async (key: string, lease: 'running' | 'passed') => {
    const updated =
      await sql(`UPDATE idempotency_keys SET state = 'in_progress', response_status = NULL,
           response_headers = NULL, response_body = NULL, completed_at = NULL,
           locked_until = now() ${lease === 'running' ? '+' : '-'} interval '20 seconds'
         WHERE key = '${storedIdempotencyKey(key)}'`);
    expect(updated).toBe(1);
  };

  it('the first run died after the effect committed, its claim still held: the retry at once gets the first plan', async () => {
    const key = randomUUID();
    const { first, after } = await firstWrite(key);
    await diedAfterCommit(key, 'running');
    const started = Date.now();
    await expectReplay(await send(key), first, after);
    expect(Date.now() - started).toBeLessThan(10_000); // not after the 20 s lease
  });

  it('the first run died holding its claim and the lease passed: the retry gets the first plan', async () => {
    const key = randomUUID();
    const { first, after } = await firstWrite(key);
    await diedAfterCommit(key, 'passed');
    await expectReplay(await send(key), first, after);
  });

  it('holds its claim for SVC_IDEMPOTENCY_LOCK_MS (45 s here, not the 30 s default)', async () => {
    const key = randomUUID();
    await firstWrite(key);
    const rows = await t.db.$queryRawUnsafe<Array<{ ms: unknown }>>(
      `SELECT extract(epoch FROM locked_until - created_at) * 1000 AS ms
         FROM idempotency_keys WHERE key = '${storedIdempotencyKey(key)}'`,
    );
    expect(rows).toHaveLength(1);
    expect(Math.round(Number(rows[0]?.ms))).toBe(45_000);
  });

  it('after the HTTP records are swept the retry still gets the first plan; another body is 422', async () => {
    const key = randomUUID();
    const { first, after } = await firstWrite(key);
    await sweepIdempotencyKeys(t.db, new Date(Date.now() + 60_000));
    await expectReplay(await send(key), first, after);
    await sweepIdempotencyKeys(t.db, new Date(Date.now() + 60_000));
    const reused = await send(key, '2000000');
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      field: 'header.Idempotency-Key',
    });
    expect(await effects()).toEqual(after);
  });

  it('a failure inside the transaction, after the effect was written: nothing commits, the retry runs once', async () => {
    const key = randomUUID();
    const before = await effects();
    const failed = await refusing('idempotent_writes', 'false', () => send(key));
    expect(failed.status).toBe(500);
    expect(await effects()).toEqual(before);
    const retry = await send(key).expect(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const after = await effects();
    expect(after.plans).toBe(before.plans + 1);
    await expectReplay(await send(key), retry, after);
  });

  if (write.keyed) {
    it('another API key of the same owner gets the first plan; racing twins on both keys write once', async () => {
      const key = randomUUID();
      const { first, after } = await firstWrite(key);
      await expectReplay(await send(key, '1000000', ownerB), first, after);

      const raced = randomUUID();
      const before = await effects();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          send(raced, '1000000', index % 2 ? ownerA : ownerB),
        ),
      );
      const ok = answers.filter((answer) => answer.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(2);
      for (const answer of ok) expect(answer.text).toBe(ok[0]?.text);
      for (const answer of answers.filter((each) => each.status !== 200)) {
        expect(answer.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
      }
      const now = await effects();
      expect(now.plans).toBe(before.plans + 1);
      expect(now.entries).toBe(before.entries + (write.entryKind ? 1 : 0));
    });
  }
});

describe('withdraw: the reservation is on the plan the client holds', () => {
  it('every retry answers the plan whose reservation moved liquid, once', async () => {
    const key = randomUUID();
    const send = (apiKey: string) =>
      request(t.app)
        .post(`/api/v1/wallets/${wallet}/withdraw`)
        .set('X-API-Key', apiKey)
        .set('Idempotency-Key', key)
        .send({ amountMicros: '7000000', chain: 'solana' });
    const first = await send(ownerA).expect(200);
    await sweepIdempotencyKeys(t.db, new Date(Date.now() + 60_000));
    const retries = [await send(ownerB), await send(ownerA)];
    const planId = planIdOf(first.text);
    for (const retry of retries) expect(planIdOf(retry.text)).toBe(planId);
    const reservations = await t.db.journalEntry.findMany({
      where: { kind: 'exit.reserved', planId },
    });
    expect(reservations).toHaveLength(1);
    expect(
      await t.db.plan.count({ where: { wallet, kind: 'exit', amountMicros: 7_000_000n } }),
    ).toBe(1);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });
});

function planIdOf(text: string): string {
  const { planId } = PlanDocument.parse(JSON.parse(text));
  if (!planId) throw new Error(`no planId in ${text}`);
  return planId;
}
