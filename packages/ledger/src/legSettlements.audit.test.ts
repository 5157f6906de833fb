import { randomBytes } from 'node:crypto';
import type { AuditEventInput } from './auditEvents';
import type { LegOutcomeInput } from './legSettlements';
import { LegSettlements, recordLegOutcomes } from './legSettlements';
import type { SqlClient } from './sqlClient';
import type { TestDatabase } from './testing';
import { confirmedRouteOutcome, createTestDatabase, reserveRouteLeg } from './testing';
import { verifyLedger } from './verifyLedger';

// Issue 21: a settle call's audit row commits with the leg outcome it records. Outcomes are
// group-committed (one statement for several callers), so each carries its call's rows into
// the statement (migration 0019).

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const M = 1_000_000n;
const newWallet = () => `wallet-${randomBytes(6).toString('hex')}`;
const newTx = () => `tx${randomBytes(16).toString('hex')}`;

const auditRow = (wallet: string, planId: string, requestId: string): AuditEventInput => ({
  wallet,
  operation: 'settlePlanLeg',
  method: 'POST',
  path: '/svc/plans/{planId}/legs/{legIndex}/settle',
  actorRole: 'owner',
  keyId: 'static_0123456789ab',
  requestId,
  planId,
  outcome: 'ok',
  status: 200,
  errorCode: null,
});

/** A confirmed route leg (pending_in → liquid), carrying its call's audit row. */
const confirmed = (planId: string, wallet: string, amountMicros: bigint, requestId: string) =>
  ({
    ...confirmedRouteOutcome(planId, wallet, amountMicros, newTx()),
    audit: [auditRow(wallet, planId, requestId)],
  }) satisfies LegOutcomeInput;

const rowsOf = async (wallet: string) =>
  (
    await test.db.$queryRaw<{ request_id: string; plan_id: string }[]>`
      SELECT request_id, plan_id FROM audit_events WHERE wallet = ${wallet} ORDER BY id`
  ).map((row) => row.request_id);
const statusOf = async (planId: string) =>
  (
    await test.db.$queryRaw<{ status: string }[]>`
      SELECT status FROM plan_legs WHERE plan_id = ${planId} AND leg_index = 0`
  )[0]?.status;

/** While `work` runs, the audit row of request `requestId` cannot be inserted. */
async function refusingAuditOf(requestId: string, work: () => Promise<void>): Promise<void> {
  await test.db.$executeRawUnsafe(`
    CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit refused'; END $$`);
  await test.db.$executeRawUnsafe(`
    CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW
    WHEN (NEW.request_id = '${requestId}') EXECUTE FUNCTION refuse_audit()`);
  try {
    await work();
  } finally {
    await test.db.$executeRawUnsafe('DROP TRIGGER refuse_audit ON audit_events');
    await test.db.$executeRawUnsafe('DROP FUNCTION refuse_audit()');
  }
}

describe('audit rows carried with leg outcomes', () => {
  it('are written in the statement that writes the outcome, and only then', async () => {
    const wallet = newWallet();
    const [a, b] = [
      await reserveRouteLeg(test.db, { wallet, amountMicros: M }),
      await reserveRouteLeg(test.db, { wallet, amountMicros: M }),
    ];
    const first = confirmed(a, wallet, M, 'req-a');
    const states = await recordLegOutcomes(test.db.sql, [
      first,
      // Computed from a status the leg is not in: stale, nothing written.
      { ...confirmed(b, wallet, M, 'req-b-stale'), expect: ['submitted'] },
    ]);
    expect(states.map(({ final, stale }) => ({ final, stale }))).toEqual([
      { final: false, stale: false },
      { final: false, stale: true },
    ]);
    // A replay of the final leg writes nothing, and no row: its caller records the call itself.
    const [replay] = await recordLegOutcomes(test.db.sql, [
      { ...first, audit: [auditRow(wallet, a, 'req-a-again')] },
    ]);
    expect(replay).toMatchObject({ final: true, status: 'confirmed' });
    expect(await rowsOf(wallet)).toEqual(['req-a']);
    expect(await statusOf(b)).toBe('unsigned');
  });

  it('a refused audit row refuses its outcome: the leg does not settle', async () => {
    const wallet = newWallet();
    const planId = await reserveRouteLeg(test.db, { wallet, amountMicros: M });
    await refusingAuditOf('req-refused', async () => {
      await expect(
        recordLegOutcomes(test.db.sql, [confirmed(planId, wallet, M, 'req-refused')]),
      ).rejects.toThrow(/audit refused/);
    });
    expect(await statusOf(planId)).toBe('unsigned');
    expect(await rowsOf(wallet)).toEqual([]);
    const journal = await test.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM journal_entries WHERE plan_id = ${planId}`;
    expect(journal[0]?.n).toBe(1);
  });

  it('stay grouped: a batch that fails is retried outcome by outcome, each with its own rows', async () => {
    let statements = 0;
    const counted: SqlClient = {
      query: (statement, values) => {
        statements += 1;
        return test.db.sql.query(statement, values);
      },
    };
    const settlements = new LegSettlements(counted, { maxBatch: 8, maxInFlight: 2 });
    const wallets = [newWallet(), newWallet(), newWallet()];
    const legs = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const wallet = wallets[index % wallets.length] as string;
        const planId = await reserveRouteLeg(test.db, { wallet, amountMicros: M });
        return { wallet, planId, requestId: `req-${index}` };
      }),
    );
    // Two outcomes spoil their batches: an overdraft, and an audit row the database refuses.
    const [overdraft, refused] = [legs[7], legs[20]] as [
      (typeof legs)[number],
      (typeof legs)[number],
    ];
    let results: PromiseSettledResult<unknown>[] = [];
    await refusingAuditOf(refused.requestId, async () => {
      results = await Promise.allSettled(
        legs.map(({ wallet, planId, requestId }) =>
          settlements.record(
            confirmed(planId, wallet, planId === overdraft.planId ? 50n * M : M, requestId),
          ),
        ),
      );
    });
    const failed = legs.filter((_, index) => results[index]?.status === 'rejected');
    expect(failed.map((leg) => leg.requestId).sort()).toEqual(
      [overdraft.requestId, refused.requestId].sort(),
    );
    // Grouped: far fewer statements than callers, even with the retries alone.
    expect(statements).toBeLessThan(30);
    for (const wallet of wallets) {
      const expected = legs
        .filter((leg) => leg.wallet === wallet && !failed.includes(leg))
        .map((leg) => leg.requestId)
        .sort();
      expect((await rowsOf(wallet)).sort()).toEqual(expected);
    }
    expect(await statusOf(overdraft.planId)).toBe('unsigned');
    expect(await statusOf(refused.planId)).toBe('unsigned');
    expect((await verifyLedger(test.db)).problems).toEqual([]);
  });
});
