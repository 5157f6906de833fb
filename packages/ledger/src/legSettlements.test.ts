import { randomBytes } from 'node:crypto';
import type { AccountRef } from './journal';
import { LedgerError } from './journal';
import type { LegOutcomeInput } from './legSettlements';
import { LegSettlements, findLegsToSettle, recordLegOutcomes } from './legSettlements';
import type { SqlClient } from './sqlClient';
import type { TestDatabase } from './testing';
import { confirmedRouteOutcome, createTestDatabase, reserveRouteLeg } from './testing';
import { verifyLedger } from './verifyLedger';
import { readBalancesOf } from './walletReads';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const M = 1_000_000n;
const account = (wallet: string, bucket: 'liquid' | 'pending_in' | 'pending_out'): AccountRef => ({
  wallet,
  chain: 'solana',
  bucket,
});
const newWallet = () => `wallet-${randomBytes(6).toString('hex')}`;
const newTx = () => `tx${randomBytes(16).toString('hex')}`;

const routeLeg = (wallet: string, amountMicros: bigint) =>
  reserveRouteLeg(test.db, { wallet, amountMicros });

/** The outcome settleLeg records for a confirmed route leg, with its position.updated event. */
const confirmed = (planId: string, wallet: string, amountMicros: bigint, txId = newTx()) =>
  ({
    ...confirmedRouteOutcome(planId, wallet, amountMicros, txId),
    events: [
      {
        type: 'position.updated',
        wallet,
        payload: { planId, legIndex: 0, cause: 'settled' },
      },
    ],
  }) satisfies LegOutcomeInput;

const liquidOf = async (wallet: string) =>
  (await readBalancesOf(test.db, [wallet])).find((row) => row.bucket === 'liquid')?.balanceMicros ??
  0n;

describe('settlement statements', () => {
  it('finds many legs in one query, in the order asked, with the leg that claimed a txId', async () => {
    const wallet = newWallet();
    const [a, b] = [await routeLeg(wallet, 2n * M), await routeLeg(wallet, 3n * M)];
    const tx = newTx();
    await recordLegOutcomes(test.db.sql, [confirmed(a, wallet, 2n * M, tx)]);
    const found = await findLegsToSettle(test.db.sql, [
      { planId: b, legIndex: 0, txId: tx },
      { planId: 'plan_00000000000000000000000000000000', legIndex: 0, txId: tx },
      { planId: a, legIndex: 0, txId: newTx() },
    ]);
    expect(found[0]).toMatchObject({
      leg: { planId: b, status: 'unsigned', amountMicros: 3n * M, wallet, effect: 'fund_liquid' },
      txClaim: { planId: a, legIndex: 0 },
    });
    expect(found[1]).toBeUndefined();
    expect(found[2]).toMatchObject({
      leg: { planId: a, status: 'confirmed', txId: tx, settledAmountMicros: 2n * M },
      txClaim: undefined,
    });
  });

  it("brings each plan's stored simulation with its leg (null for a plan stored without one)", async () => {
    const wallet = newWallet();
    const [simulated, plain] = [await routeLeg(wallet, M), await routeLeg(wallet, 2n * M)];
    const document = { status: 'simulated', chain: 'solana', legs: [{ index: 0, changes: [] }] };
    const digest = `sha256:${'ab'.repeat(32)}`;
    await test.db.$executeRaw`
      INSERT INTO plan_simulations (plan_id, status, digest, document)
      VALUES (${simulated}, 'simulated', ${digest}, ${JSON.stringify(document)}::jsonb)`;
    const [withOne, without] = await findLegsToSettle(test.db.sql, [
      { planId: simulated, legIndex: 0, txId: newTx() },
      { planId: plain, legIndex: 0, txId: newTx() },
    ]);
    expect(withOne?.simulation).toEqual({ status: 'simulated', digest, document });
    expect(without?.simulation).toBeNull();
  });

  it('records a batch in one statement; a leg already final is reported, not written again', async () => {
    const wallet = newWallet();
    const legs = [await routeLeg(wallet, M), await routeLeg(wallet, 2n * M)];
    const first = confirmed(legs[0] as string, wallet, M);
    await recordLegOutcomes(test.db.sql, [first]);
    const states = await recordLegOutcomes(test.db.sql, [
      { ...first, txId: newTx() },
      confirmed(legs[1] as string, wallet, 2n * M),
    ]);
    expect(states).toEqual([
      expect.objectContaining({ final: true, status: 'confirmed', txId: first.txId }),
      expect.objectContaining({ final: false, status: 'confirmed', settledAmountMicros: 2n * M }),
    ]);
    expect(await liquidOf(wallet)).toBe(3n * M);
  });

  it('a batch with an overdraft writes nothing; alone, that outcome is INSUFFICIENT_BALANCE', async () => {
    const wallet = newWallet();
    const good = await routeLeg(wallet, M);
    const bad = await routeLeg(wallet, M);
    // Claims more than pending_in holds: the chain moved money the ledger never reserved.
    const overdraw = confirmed(bad, wallet, 5n * M);
    await expect(
      recordLegOutcomes(test.db.sql, [confirmed(good, wallet, M), overdraw]),
    ).rejects.toThrow(/YR001|holds/);
    expect(await liquidOf(wallet)).toBe(0n);
    const error = await recordLegOutcomes(test.db.sql, [overdraw]).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      account: account(wallet, 'pending_in'),
    });
  });

  it('refuses a batch naming a leg that does not exist', async () => {
    const wallet = newWallet();
    const planId = await routeLeg(wallet, M);
    await expect(
      recordLegOutcomes(test.db.sql, [
        confirmed(planId, wallet, M),
        { ...confirmed(planId, wallet, M), legIndex: 3 },
      ]),
    ).rejects.toThrow(/does not exist/);
    expect(await liquidOf(wallet)).toBe(0n);
  });
});

describe('LegSettlements (grouped across concurrent callers)', () => {
  it('settles concurrent callers in shared statements, each with its own answer', async () => {
    const settlements = new LegSettlements(test.db.sql, { maxBatch: 8, maxInFlight: 2 });
    const wallets = [newWallet(), newWallet(), newWallet()];
    const legs = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const wallet = wallets[index % wallets.length] as string;
        return { wallet, planId: await routeLeg(wallet, M) };
      }),
    );
    // One leg spoils its batch (an overdraft: more than the wallet's 10 legs ever reserved): the
    // rest of that batch is still written.
    const spoiler = legs[7] as { wallet: string; planId: string };
    const results = await Promise.allSettled(
      legs.map(({ wallet, planId }) =>
        settlements.record(
          planId === spoiler.planId
            ? confirmed(planId, wallet, 50n * M)
            : confirmed(planId, wallet, M),
        ),
      ),
    );
    const refused = results.filter((result) => result.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(29);
    for (const wallet of wallets) {
      expect(await liquidOf(wallet)).toBe(wallet === spoiler.wallet ? 9n * M : 10n * M);
    }
    expect((await verifyLedger(test.db)).problems).toEqual([]);
  });

  it('the same leg settled 10 times at once posts once; the rest are reported final', async () => {
    const settlements = new LegSettlements(test.db.sql, { maxBatch: 32, maxInFlight: 2 });
    const wallet = newWallet();
    const planId = await routeLeg(wallet, 4n * M);
    const outcome = confirmed(planId, wallet, 4n * M);
    const states = await Promise.all(Array.from({ length: 10 }, () => settlements.record(outcome)));
    expect(states.filter((state) => !state.final)).toHaveLength(1);
    expect(
      states.every((state) => state.status === 'confirmed' && state.txId === outcome.txId),
    ).toBe(true);
    expect(await liquidOf(wallet)).toBe(4n * M);
    const events = await test.db.outboxEvent.count({ where: { wallet } });
    expect(events).toBe(1);
  });

  it('by default runs one statement of each kind at a time, so the waiting callers share the next', async () => {
    let running = 0;
    let peak = 0;
    const sizes: number[] = [];
    const counted: SqlClient = {
      query: async (statement, values) => {
        running += 1;
        peak = Math.max(peak, running);
        sizes.push((JSON.parse(values[0] as string) as unknown[]).length);
        try {
          return await test.db.sql.query(statement, values);
        } finally {
          running -= 1;
        }
      },
    };
    const settlements = new LegSettlements(counted);
    const wallet = newWallet();
    const planIds = await Promise.all(Array.from({ length: 10 }, () => routeLeg(wallet, M)));
    const states = await Promise.all(
      planIds.map((planId) => settlements.record(confirmed(planId, wallet, M))),
    );
    expect(states.every((state) => state.status === 'confirmed' && !state.final)).toBe(true);
    // The first caller is sent alone; the nine that arrive while it runs go together.
    expect(sizes).toEqual([1, 9]);
    expect(peak).toBe(1);
    expect(await liquidOf(wallet)).toBe(10n * M);
  });

  it('reads are grouped too, each caller getting its own leg', async () => {
    const settlements = new LegSettlements(test.db.sql, { maxBatch: 4, maxInFlight: 1 });
    const wallet = newWallet();
    const planIds = await Promise.all(Array.from({ length: 9 }, () => routeLeg(wallet, M)));
    const found = await Promise.all(
      planIds.map((planId) => settlements.find({ planId, legIndex: 0, txId: newTx() })),
    );
    expect(found.map((item) => item?.leg.planId)).toEqual(planIds);
    expect(
      await settlements.find({ planId: planIds[0] as string, legIndex: 1, txId: newTx() }),
    ).toBe(undefined);
  });
});
