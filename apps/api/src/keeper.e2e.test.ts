import request from 'supertest';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { verifyLedger } from '@yieldrouter/ledger';
import { PlanDocument, PositionDocument, WebhookEvent } from '@yieldrouter/schemas';
import { verifyWebhookSignature } from '@yieldrouter/webhooks';
import { startTestReceiver } from '@yieldrouter/webhooks/testing';
import type { TestReceiver } from '@yieldrouter/webhooks/testing';
import type { TestApp } from './testing/startTestApp';
import { solanaBedSettings } from './testing/solanaBedSettings';
import { settlementWatchKeeperSettings, startInApiKeeper } from './testing/startInApiKeeper';
import { startTestApp, testKeys } from './testing/startTestApp';

// The whole loop with no manual settle call: the owner subscribes a receiver, routes funds,
// signs the leg and hands the bytes to execute (broadcast on); the keeper's settlement watch
// settles the leg from its receipt, its relay and delivery jobs send `deposit.settled` and
// `position.updated`, signed with the key the subscription returned once.

const ownerKey = `owner-all-${bs58.encode(Keypair.generate().publicKey.toBytes()).slice(0, 12)}`;

let solana: SolanaBed;
let t: TestApp;
let keeper: RunningKeeper | undefined;
let receiver: TestReceiver;
beforeAll(async () => {
  solana = await startSolanaBed();
  receiver = await startTestReceiver();
  t = await startTestApp({
    ...solanaBedSettings(solana, deployYieldRouter(solana)),
    SVC_SOLANA_EXECUTION_ENABLED: 'true',
    SVC_SOLANA_BROADCAST_ENABLED: 'true',
    SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: ['*'] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
    ...settlementWatchKeeperSettings,
    SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '200',
    SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: '200',
  });
  keeper = await startInApiKeeper(t);
});
afterAll(async () => {
  await keeper?.close();
  await t?.close();
  await receiver?.close();
  await solana?.stop();
});

it('an owner-signed route leg is settled by the keeper; the receiver gets both events, signed', async () => {
  const created = await request(t.app)
    .post('/api/v1/svc/webhooks')
    .set('X-API-Key', ownerKey)
    .send({ url: receiver.url('/events'), eventTypes: ['deposit.settled', 'position.updated'] })
    .expect(201);
  const hmacKey = String(created.body.hmacKey);
  receiver.setKeys([hmacKey]);

  const owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, 10_000_000n);
  const wallet = owner.publicKey.toBase58();
  const plan = PlanDocument.parse(
    (
      await request(t.app)
        .post(`/api/v1/wallets/${wallet}/route`)
        .set('X-API-Key', ownerKey)
        .send({ amountMicros: '3000000', token: 'USDC', chain: 'solana' })
        .expect(200)
    ).body,
  );
  const tx = VersionedTransaction.deserialize(
    Buffer.from(String(plan.legs?.[0]?.transaction), 'base64'),
  );
  tx.sign([owner]);
  const executed = await request(t.app)
    .post('/api/v1/svc/strategies/deposit/execute')
    .send({
      planId: plan.planId,
      signedTransaction: Buffer.from(tx.serialize()).toString('base64'),
    })
    .expect(200);
  expect(executed.body.txId).toBe(bs58.encode(tx.signatures[0] as Uint8Array));

  // No settle call: the keeper finds the submitted leg, reads its receipt and settles it.
  const received = await receiver.waitForAccepted(2, 20_000);
  const events = received.map((delivery) => WebhookEvent.parse(delivery.body));
  expect(events.map((event) => event.type)).toEqual(['deposit.settled', 'position.updated']);
  expect(events[0]?.data).toMatchObject({
    planId: plan.planId,
    wallet,
    txId: executed.body.txId,
    amountMicros: '3000000',
  });
  for (const delivery of received) {
    const header = String(delivery.headers['x-svc-signature']);
    expect(
      await verifyWebhookSignature({ header, rawBody: delivery.rawBody, key: hmacKey }),
    ).toEqual(expect.objectContaining({ ok: true }));
  }

  const position = PositionDocument.parse(
    (
      await request(t.app)
        .get(`/api/v1/wallets/${wallet}/position`)
        .set('X-API-Key', ownerKey)
        .expect(200)
    ).body,
  );
  expect(position).toMatchObject({ liquidMicros: '3000000', pendingInMicros: '0' });
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});
