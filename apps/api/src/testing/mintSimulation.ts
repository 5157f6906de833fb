import request from 'supertest';
import { PlanSimulation, StoredPlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './startTestApp';

/**
 * Issue 44 on a bridge's mint: the delivery's `mintSimulation` ran the served `mintLeg` on
 * `chain` (by `method`), under the index after the plan's `legs`, with no finding, crediting the
 * recipient (`owner` role) exactly `received` USDC; the simulation, parsed.
 */
export function expectMintSimulated(
  delivery: { readonly mintLeg?: unknown; readonly mintSimulation?: unknown },
  expected: {
    readonly chain: string;
    readonly method: string;
    readonly legs: number;
    readonly received: bigint;
  },
) {
  expect(delivery.mintLeg).toMatchObject({ index: expected.legs, action: 'mint' });
  const simulation = PlanSimulation.parse(delivery.mintSimulation);
  if (simulation.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  expect(simulation).toMatchObject({
    chain: expected.chain,
    method: expected.method,
    findings: [],
    legs: [{ index: expected.legs, outcome: 'ok' }],
  });
  const received = (simulation.legs[0]?.changes ?? [])
    .filter((change) => change.usdc && change.role === 'owner')
    .reduce((total, change) => total + BigInt(change.delta), 0n);
  expect(received).toBe(expected.received);
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
