import request from 'supertest';
import { createChainAdapters } from '@yieldrouter/engine';
import type { LegChangesReading } from '@yieldrouter/schemas';
import { StoredPlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './startTestApp';

/** The app's chain adapters, as its configuration builds them (to read what a leg moved). */
export const chainAdapters = (t: TestApp) =>
  createChainAdapters({
    chains: t.config.chains,
    ids: t.config.onChainIds,
    switches: t.config.switches,
  });

/**
 * A Solana or Sui plan of `legs` legs as prepared: leg 0 simulated (`method`) with no findings,
 * each later leg deferred, waiting for the one before it, with no changes.
 */
export function expectLaterLegsDeferred(
  simulation: unknown,
  method: 'simulateTransaction' | 'dryRunTransactionBlock',
  legs: number,
): void {
  expect(simulation).toMatchObject({
    status: 'simulated',
    method,
    findings: [],
    legs: [
      { index: 0, outcome: 'ok' },
      ...Array.from({ length: legs - 1 }, (_, offset) => ({
        index: offset + 1,
        outcome: 'deferred',
        waitsFor: offset,
        changes: [],
      })),
    ],
  });
}

/** GET the plan until leg `index` is simulated (a later leg runs once the one before settled). */
async function simulatedFor(t: TestApp, planId: string, index: number) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
    );
    const simulation = stored.simulation;
    if (simulation?.status !== 'simulated') throw new Error(JSON.stringify(simulation));
    if (simulation.legs[index]?.outcome !== 'deferred') return simulation;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`leg ${index} of ${planId} was never simulated`);
}

/**
 * Issue 44 on a Solana or Sui plan of several legs, as an honest client runs it: each leg is
 * signed only once the plan, fetched again, shows it simulated (leg 0 at prepare, each later one
 * once the leg before settled, on the state it left: its own `block`, a new digest), with no
 * findings; what it moved on the chain equals that simulation, account by account; it settles
 * with no divergence (and nothing to review for it). `send` signs, lands and settles leg `index`
 * and answers its transaction. Answers the plan as stored at the end.
 */
export async function expectEachLegAsSimulated(
  chain: 'solana' | 'sui',
  t: TestApp,
  planId: string,
  legs: number,
  send: (index: number) => Promise<string>,
  readLegChanges: (txId: string) => Promise<LegChangesReading>,
): Promise<StoredPlanDocument> {
  let digest: string | undefined;
  for (let index = 0; index < legs; index += 1) {
    const simulation = await simulatedFor(t, planId, index);
    const leg = simulation.legs[index];
    expect(leg?.outcome).toBe('ok');
    expect(simulation.findings).toEqual([]);
    if (index > 0) {
      expect(simulation.digest).not.toBe(digest);
      expect(leg?.block).toMatch(/^[0-9]+$/);
    }
    digest = simulation.digest;
    const txId = await send(index);
    const landed = await readLegChanges(txId);
    if (landed.status !== 'ok') throw new Error(JSON.stringify(landed));
    const moved = landed.changes.map(({ account, asset, delta }) => ({
      account,
      asset,
      delta: String(delta),
    }));
    expect(moved).toEqual(
      leg?.changes.map(({ account, asset, delta }) => ({ account, asset, delta })),
    );
    // Landed after the state its simulation ran on (a Solana slot: in it or after; a Sui
    // checkpoint: after the latest one then), so settlement compares the two.
    if (index > 0) {
      const after = BigInt(landed.block ?? '-1') - BigInt(leg?.block ?? 'x');
      expect(after).toBeGreaterThanOrEqual(chain === 'sui' ? 1n : 0n);
    }
  }
  const stored = StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
  );
  expect(stored.legs.map((leg) => leg.status)).toEqual(
    Array.from({ length: legs }, () => 'confirmed'),
  );
  for (const leg of stored.legs) expect(leg.reviewReason ?? '').not.toMatch(/simulation/);
  expect(stored.divergences ?? []).toEqual([]);
  return stored;
}
