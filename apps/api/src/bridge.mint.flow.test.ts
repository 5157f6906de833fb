import request from 'supertest';
import type { Hex } from 'viem';
import { createPublicClient, encodeFunctionData, http, parseAbi } from 'viem';
import { BridgePlanDocument } from '@yieldrouter/schemas';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import { burnAndSettle as settleBurn } from './testing/bridgeBurnHelpers';
import { divergencesOf, expectMintSimulated } from './testing/mintSimulation';
import { expectSimulatedAsMined } from './testing/simulatedAsMined';
import { startCctpBridgeApp } from './testing/cctpBridgeApp';
import type { CctpBridgeApp } from './testing/cctpBridgeApp';
import { testKeys } from './testing/startTestApp';

// Issue 44 on a bridge's mint (Base → Arbitrum on the two anvils): the mint leg
// /svc/bridge/delivery serves is simulated on Arbitrum (eth_simulateV1) and kept; the delivery
// compares what the delivering transaction moved with it. Honest: the relayed mint moves exactly
// what was simulated, no divergence. A mint of the same burn under another attestation (Iris
// attests it again with a fast fee, within the burn's maxFee, so it is credited): the owner got
// less than the simulated mint said, recorded and sent as `plan.divergence`.
const owner = anvilAccount(4);
const relayer = anvilAccount(6);
const bridgeOwnerKey = 'test-bridge-owner-0123456789abcdef';
const TRANSMITTER = parseAbi(['function receiveMessage(bytes message, bytes attestation)']);

let app: CctpBridgeApp;
beforeAll(async () => {
  app = await startCctpBridgeApp(owner.address, bridgeOwnerKey, 500_000_000n);
}, 120_000);
afterAll(() => app?.close());
afterEach(() => app.cctp.iris.setFastFeeBps(1));

const prepare = async (speed: 'standard' | 'fast') => {
  const body = {
    sourceChain: 'base',
    destChain: 'arbitrum',
    amountMicros: '25000000',
    sourceAddress: owner.address,
    destinationAddress: owner.address,
    speed,
  };
  const res = await request(app.t.app).post('/api/v1/svc/bridge/plan').send(body).expect(200);
  const document = BridgePlanDocument.parse(res.body);
  expect(document.status).toBe('prepared');
  const { burnTx } = await settleBurn(app.t.app, app.cctp, document, {
    owner: owner.privateKey,
    keeper: testKeys.keeper,
  });
  return { document, burnTx, burned: BigInt(document.burnAmountMicros ?? '0') };
};
const deliver = (body: Record<string, unknown>) =>
  request(app.t.app)
    .post('/api/v1/svc/bridge/delivery')
    .set('X-API-Key', testKeys.keeper)
    .send(body);
const arbitrumReader = () =>
  createPublicClient({ transport: http(app.cctp.arbitrum.anvil.rpcUrl) });

describe("a bridge's mint leg, simulated on the destination and compared at delivery", () => {
  it('honest: the relayed mint moves what its simulation said; no divergence', async () => {
    const { document, burned } = await prepare('standard');
    const mintIndex = document.legs?.length ?? 0;
    const ready = await deliver({ planId: document.planId }).expect(200);
    const simulation = expectMintSimulated(ready.body, 'arbitrum', mintIndex, burned);
    expect(simulation.legs[0]?.changes).toEqual([
      expect.objectContaining({ account: owner.address, role: 'owner', delta: String(burned) }),
    ]);

    // Anyone may relay it: the relayer's transaction moves what the owner's simulation said.
    const mintTx = await app.cctp.send(
      'arbitrum',
      ready.body.mintLeg.transaction,
      relayer.privateKey,
    );
    await expectSimulatedAsMined(
      arbitrumReader(),
      { planId: document.planId, simulation },
      { [mintIndex]: mintTx },
    );
    const delivered = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect(delivered.body).toMatchObject({ credited: true, deliveredMicros: String(burned) });
    expect(await divergencesOf(app.t, document.planId)).toEqual({ divergences: [], events: [] });
  });

  it('a mint attested again with a fee, landing short of its simulation, diverges', async () => {
    const { document, burnTx, burned } = await prepare('fast');
    const railFee = BigInt(
      document.feeLines?.find((line) => line.kind === 'rail_fee')?.amountMicros ?? '0',
    );
    expect(railFee).toBeGreaterThan(0n);
    const mintIndex = document.legs?.length ?? 0;

    // Attested with no fee when the owner fetched (and the service simulated) the mint leg.
    app.cctp.iris.setFastFeeBps(0);
    const ready = await deliver({ planId: document.planId }).expect(200);
    const simulation = expectMintSimulated(ready.body, 'arbitrum', mintIndex, burned);

    // A relayer takes the message Iris attests now, with the fast fee: same burn, same nonce.
    app.cctp.iris.setFastFeeBps(1);
    const answer = (await (
      await fetch(`${app.cctp.iris.url}/v2/messages/6?transactionHash=${burnTx}`)
    ).json()) as { messages: { message: Hex; attestation: Hex }[] };
    const [attested] = answer.messages;
    if (!attested) throw new Error('no attested message');
    const mintTx = await app.cctp.send(
      'arbitrum',
      {
        to: app.cctp.contracts.arbitrum.messageTransmitter,
        data: encodeFunctionData({
          abi: TRANSMITTER,
          functionName: 'receiveMessage',
          args: [attested.message, attested.attestation],
        }),
      },
      relayer.privateKey,
    );

    // Within the burn's maxFee: credited from the receipt, as the books always are.
    const delivered = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    const received = BigInt(delivered.body.deliveredMicros);
    expect(received).toBeLessThan(burned);
    expect(received).toBeGreaterThanOrEqual(burned - railFee);
    const { divergences, events } = await divergencesOf(app.t, document.planId);
    const [divergence] = divergences;
    expect(divergences).toHaveLength(1);
    expect(divergence).toMatchObject({
      legIndex: mintIndex,
      txId: mintTx.toLowerCase(),
      simulationDigest: simulation.digest,
    });
    expect(divergence?.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          account: owner.address,
          role: 'owner',
          simulated: String(burned),
          actual: String(received),
        }),
      ]),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      wallet: owner.address,
      payload: { legIndex: mintIndex, chain: 'arbitrum', txId: mintTx.toLowerCase() },
    });
    // Reported again: a replay, nothing recorded twice.
    await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect((await divergencesOf(app.t, document.planId)).events).toHaveLength(1);
  });
});
