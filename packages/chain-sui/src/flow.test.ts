import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { fromBase64 } from '@mysten/sui/utils';
import { planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import { legRequest, PACKAGE_ID, PLAN_ID, ROUTER_ID, suiConfig, USDC } from './testFixtures';

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
  fake.addSharedObject({ type: `${PACKAGE_ID}::router::YieldRouter`, objectId: ROUTER_ID });
});
afterAll(() => fake.stop());

it('build → owner signs → broadcast → the router effects land → receipt confirmed', async () => {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  const gas = fake.setBalance(owner, '0x2::sui::SUI', 1_000_000_000n);
  const coin = fake.setBalance(owner, USDC, 20_000_000n);
  if (!gas || !coin) throw new Error('setup');
  const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));

  const [before] = (await adapter.readBalances(owner)).filter((leg) => leg.asset === 'USDC');
  expect(before).toMatchObject({ status: 'ok', amount: 20_000_000n });

  const build = await adapter.buildDepositBytes(legRequest(owner), {
    gas: [gas],
    gasPrice: fake.referenceGasPrice,
    gasBudget: 10_000_000n,
    usdcCoins: [coin],
    router: { objectId: ROUTER_ID, initialSharedVersion: '3' },
  });
  const leg = build.status === 'prepared' ? build.legs[0] : undefined;
  if (leg?.payload.encoding !== 'sui-transaction-bcs-base64') throw new Error('no bytes');
  const { signature } = await wallet.signTransaction(fromBase64(leg.payload.transaction));

  const sent = await adapter.broadcast({
    transaction: leg.payload.transaction,
    signatures: [signature],
  });
  if (sent.status !== 'submitted') throw new Error(`not submitted: ${JSON.stringify(sent)}`);

  // What the router package would emit for this transaction (the fake runs no Move code).
  fake.recordTransaction({
    digest: sent.txId,
    sender: owner,
    events: [
      {
        type: `${PACKAGE_ID}::router::Deposited`,
        parsedJson: { plan_id: [...planIdToBytes(PLAN_ID)], owner, amount: '12500000' },
      },
    ],
    balanceChanges: [{ owner, coinType: USDC, amount: -12_500_000n }],
  });
  const receipt = await adapter.readReceipt({
    txId: sent.txId,
    planId: PLAN_ID,
    owner,
    action: 'deposit',
    target: { kind: 'router' },
  });
  expect(receipt).toMatchObject({
    status: 'confirmed',
    txId: sent.txId,
    amountMicros: 12_500_000n,
  });
});
