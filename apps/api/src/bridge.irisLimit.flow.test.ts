import request from 'supertest';
import { BridgePlanDocument } from '@yieldrouter/schemas';
import type { CctpBed, IrisFake } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import { burnAndSettle } from './testing/bridgeBurnHelpers';
import type { TestApp } from './testing/startTestApp';
import { startCctpBridgeApp } from './testing/cctpBridgeApp';
import { testKeys } from './testing/startTestApp';

// Circle's attestation service blocks a client for 5 minutes past 35 requests per second: the
// API reads a lane's fee once per SVC_CCTP_FEE_TTL_MS, and after a 429 sends nothing to it until
// Retry-After, failing plans and deliveries closed meanwhile.
const owner = anvilAccount(4);
const bridgeOwnerKey = 'test-bridge-owner-0123456789abcdef';

let cctp: CctpBed;
let iris: IrisFake;
let t: TestApp;

beforeAll(async () => {
  ({ cctp, t } = await startCctpBridgeApp(owner.address, bridgeOwnerKey, 100_000_000n));
  iris = cctp.iris;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await cctp?.stop();
});

const plan = (extra: Record<string, unknown> = {}) =>
  request(t.app)
    .post('/api/v1/svc/bridge/plan')
    .send({
      sourceChain: 'base',
      destChain: 'arbitrum',
      amountMicros: '5000000',
      sourceAddress: owner.address,
      destinationAddress: owner.address,
      ...extra,
    });
const deliver = (planId: string | undefined) =>
  request(t.app)
    .post('/api/v1/svc/bridge/delivery')
    .set('X-API-Key', testKeys.keeper)
    .send({ planId });

describe('the attestation service rate limit (Base → Arbitrum)', () => {
  it('20 bridge plans of both speeds read the lane fee once', async () => {
    const before = iris.counts().fees;
    const plans = await Promise.all(
      Array.from({ length: 20 }, (_, index) => plan({ speed: index % 2 ? 'fast' : 'standard' })),
    );
    for (const res of plans) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'prepared' });
    }
    expect(iris.counts().fees - before).toBe(1);
  });

  it('a 429 blocks plans (bridge_rail_unavailable) and deliveries (503), sending nothing more until Retry-After', async () => {
    const prepared = BridgePlanDocument.parse((await plan({ speed: 'fast' }).expect(200)).body);
    const { settled } = await burnAndSettle(t.app, cctp, prepared, {
      owner: owner.privateKey,
      keeper: testKeys.keeper,
    });
    expect(settled.status).toBe('confirmed');

    iris.setMode('rate_limited');
    iris.setRetryAfter('3');
    const limited = await deliver(prepared.planId).expect(503);
    expect(limited.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('the attestation service answered 429 (rate limited)'),
    });
    const heldAt = iris.counts().all;
    // Iris answers again, but the hold-off runs: nothing reaches it.
    iris.setMode('ok');
    // A lane whose fee is kept still plans from it; one not read yet is blocked.
    await plan({ speed: 'standard' }).expect(200);
    const blocked = await plan({ sourceChain: 'arbitrum', destChain: 'base' });
    expect(blocked.status).toBe(200);
    const document = BridgePlanDocument.parse(blocked.body);
    expect(document.status).toBe('blocked');
    expect(document.blockers).toEqual([
      expect.objectContaining({
        code: 'bridge_rail_unavailable',
        details: {
          detail: expect.stringMatching(
            /^the attestation service answered 429 \(rate limited\): no request to it until \d{4}-/,
          ),
        },
      }),
    ]);
    await deliver(prepared.planId).expect(503);
    expect(iris.counts().all).toBe(heldAt);

    // After Retry-After, reads resume.
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const attested = await deliver(prepared.planId).expect(200);
    expect(attested.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(iris.counts().all).toBeGreaterThan(heldAt);
  }, 60_000);
});
