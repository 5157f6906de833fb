import request from 'supertest';
import { PlanSimulation, StoredPlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './startTestApp';

const METHOD = {
  base: 'eth_simulateV1',
  arbitrum: 'eth_simulateV1',
  solana: 'simulateTransaction',
  sui: 'dryRunTransactionBlock',
} as const;

/**
 * Issue 44 on a bridge's mint: the delivery's `mintSimulation` ran the served `mintLeg` on
 * `chain` (by its method), under the index after the plan's `legs`, with no finding, crediting
 * the recipient (`owner` role) exactly `received` USDC; the simulation, parsed.
 */
export function expectMintSimulated(
  delivery: { readonly mintLeg?: unknown; readonly mintSimulation?: unknown },
  chain: keyof typeof METHOD,
  legs: number | undefined,
  received: bigint,
) {
  const expected = { chain, method: METHOD[chain], legs: legs ?? 0, received };
  expect(delivery.mintLeg).toMatchObject({ index: expected.legs, action: 'mint' });
  const simulation = PlanSimulation.parse(delivery.mintSimulation);
  if (simulation.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  expect(simulation).toMatchObject({
    chain: expected.chain,
    method: expected.method,
    findings: [],
    legs: [{ index: expected.legs, outcome: 'ok' }],
  });
  const credited = (simulation.legs[0]?.changes ?? [])
    .filter((change) => change.usdc && change.role === 'owner')
    .reduce((total, change) => total + BigInt(change.delta), 0n);
  expect(credited).toBe(expected.received);
  return simulation;
}

/** What `GET /svc/plans/{planId}` shows as `divergences`, and the plan's `plan.divergence` events. */
export async function divergencesOf(t: TestApp, planId: string | undefined) {
  const stored = StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
  );
  const events = (await t.db.outboxEvent.findMany({ where: { type: 'plan.divergence' } })).filter(
    (event) => (event.payload as { planId?: string }).planId === planId,
  );
  return { divergences: stored.divergences ?? [], events };
}
