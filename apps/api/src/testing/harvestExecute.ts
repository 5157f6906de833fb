import request from 'supertest';
import { HarvestResult, StoredPlanDocument } from '@yieldrouter/schemas';
import type { HarvestPositionResult } from '@yieldrouter/schemas';
import type { TestApp } from './startTestApp';

/**
 * POST /wallets/{owner}/harvest with `execute: true` (202): the wallet's one position with yield,
 * prepared, and the stored plan that realises it (GET /svc/plans/{planId}).
 */
export async function harvestExecute(
  t: TestApp,
  owner: string,
): Promise<{ readonly position: HarvestPositionResult; readonly plan: StoredPlanDocument }> {
  const prepared = HarvestResult.parse(
    (
      await request(t.app)
        .post(`/api/v1/wallets/${owner}/harvest`)
        .send({ execute: true })
        .expect(202)
    ).body,
  );
  const [position] = prepared.positions;
  expect(position).toMatchObject({ outcome: 'prepared', planId: expect.any(String) });
  if (!position?.planId) throw new Error(JSON.stringify(prepared));
  const plan = StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${position.planId}`).expect(200)).body,
  );
  return { position, plan };
}
