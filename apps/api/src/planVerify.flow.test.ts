import { createHash } from 'node:crypto';
import request from 'supertest';
import { loadMigrations } from '@yieldrouter/ledger';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { VerifiablePlan } from '@yieldrouter/verify';
import { verifyPlan } from '@yieldrouter/verify';
import type { TestApp } from './testing/startTestApp';
import type { VaultBedApp } from './testing/startVaultBedApp';
import { startVaultBedApp } from './testing/startVaultBedApp';

// Issue #44 on the EVM bed: an honest plan verifies offline as prepared and as read back. The
// plan is stored in JSONB, which keeps object keys in its own order (an EVM request comes back
// as `{to, data, from, value, chainId}`), so each leg's bytes digest must not depend on the
// order of the transaction's keys. The bodies are verified as served, never parsed with zod
// first (a zod parse would put the keys back in the schema's order and hide the difference).
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let t: TestApp;
let evm: EvmBed;
let bed: VaultBedApp;
beforeAll(async () => {
  bed = await startVaultBedApp({}, { aave: true });
  ({ t, evm } = bed);
}, 120_000);
afterAll(() => bed?.close());

const prepare = async (strategyId: string): Promise<VerifiablePlan> =>
  (
    await request(t.app)
      .post('/api/v1/svc/strategies/deposit/plan')
      .send({ strategyId, amountMicros: '4000000', owner: OWNER })
      .expect(200)
  ).body as VerifiablePlan;
const readBack = async (planId: string): Promise<VerifiablePlan> =>
  (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body as VerifiablePlan;

describe.each([
  ['morpho', () => [evm.fixtures.usdc, evm.fixtures.vault]],
  ['aave-v3', () => [evm.fixtures.usdc, evm.fixtures.aavePool]],
])('an honest %s deposit plan on Base', (strategyId, venuesOf) => {
  it('is verified offline as prepared and as GET /svc/plans/{planId} serves it', async () => {
    const venues: string[] = venuesOf();
    await evm.fixtures.mintUsdc(OWNER, 4_000_000n);
    const prepared = await prepare(strategyId);
    expect(prepared.simulation).toMatchObject({ status: 'simulated', findings: [] });
    const options = { owner: OWNER, venues };
    expect(verifyPlan(prepared, options)).toMatchObject({ status: 'verified', reasons: [] });

    const fetched = await readBack(String(prepared.planId));
    expect(fetched.simulation).toEqual(prepared.simulation);
    expect(verifyPlan(fetched, options)).toMatchObject({ status: 'verified', reasons: [] });
    // What the store does to it: JSONB keeps the request's keys in an order of its own.
    const [stored] = await t.db.$queryRaw<{ payload: { transaction: object } }[]>`
      SELECT "payload" FROM "plan_legs" WHERE "plan_id" = ${prepared.planId} AND "leg_index" = 0`;
    expect(Object.keys(stored?.payload.transaction ?? {})).toEqual([
      'to',
      'data',
      'from',
      'value',
      'chainId',
    ]);
    // Both served in canonical order (a verifier digesting the text as served agrees too).
    for (const plan of [prepared, fetched]) {
      for (const leg of plan.legs ?? []) {
        expect(Object.keys(leg.transaction)).toEqual(['chainId', 'data', 'from', 'to', 'value']);
      }
    }
  });
});

describe('an EVM plan simulated before the digest was canonical', () => {
  it("verifies once 0071 recomputed its legs' digests from the stored requests", async () => {
    await evm.fixtures.mintUsdc(OWNER, 4_000_000n);
    const prepared = await prepare('morpho');
    const planId = String(prepared.planId);
    // What the digests were before: of the request's JSON text in the order prepare built it.
    for (const leg of prepared.legs ?? []) {
      if (typeof leg.transaction === 'string') throw new Error('not EVM');
      const { chainId, from, to, data, value } = leg.transaction;
      const text = `${leg.encoding}\n${JSON.stringify({ chainId, from, to, data, value })}`;
      const old = `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
      await t.db.$executeRaw`
        UPDATE "plan_simulations"
        SET "document" = jsonb_set("document", ${`{legs,${leg.index},bytesDigest}`}::text[], to_jsonb(${old}::text))
        WHERE "plan_id" = ${planId}`;
    }
    const options = { owner: OWNER, venues: [evm.fixtures.usdc, evm.fixtures.vault] };
    const before = verifyPlan(await readBack(planId), options);
    expect(before.reasons.map((reason) => reason.code)).toEqual([
      'bytes_digest_mismatch',
      'bytes_digest_mismatch',
    ]);

    const migration = loadMigrations().find((entry) => entry.name.startsWith('0071_'));
    await t.db.$executeRawUnsafe(migration?.script ?? 'not found');
    const after = await readBack(planId);
    expect(after.simulation).toEqual(prepared.simulation);
    expect(verifyPlan(after, options)).toMatchObject({ status: 'verified', reasons: [] });
  });
});
