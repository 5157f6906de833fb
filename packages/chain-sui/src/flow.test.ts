import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { fromBase64 } from '@mysten/sui/utils';
import { createSuiAdapter } from './adapter';
import { legRequest, PLAN_ID, suiConfig, USDC } from './testFixtures';

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

it('route with no venue: build → owner signs → broadcast → the node runs it → receipt confirmed', async () => {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  const gas = fake.setBalance(owner, '0x2::sui::SUI', 1_000_000_000n);
  const coin = fake.setBalance(owner, USDC, 20_000_000n);
  if (!gas || !coin) throw new Error('setup');
  const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));

  const build = await adapter.buildDepositBytes(legRequest(owner), {
    gas: [gas],
    gasPrice: fake.referenceGasPrice,
    gasBudget: 10_000_000n,
    usdcCoins: [coin],
  });
  const leg = build.status === 'prepared' ? build.legs[0] : undefined;
  if (leg?.payload.encoding !== 'sui-transaction-bcs-base64') throw new Error('no bytes');
  const { signature } = await wallet.signTransaction(fromBase64(leg.payload.transaction));

  const sent = await adapter.broadcast({
    transaction: leg.payload.transaction,
    signatures: [signature],
  });
  if (sent.status !== 'submitted') throw new Error(`not submitted: ${JSON.stringify(sent)}`);

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
    shares: null,
  });
  // Liquid on Sui stays in the owner's wallet: all 20 USDC are still theirs.
  const [usdc] = (await adapter.readBalances(owner)).filter((entry) => entry.asset === 'USDC');
  expect(usdc).toMatchObject({ status: 'ok', amount: 20_000_000n });
});
