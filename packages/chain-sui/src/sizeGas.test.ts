import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake, SuiFakePool } from '@yieldrouter/chain-beds/sui';
import { FAKE_GAS_USED } from '@yieldrouter/chain-beds/sui';
import { startGarbageServer, startSilentServer } from '@yieldrouter/chain-beds/faults';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { GasSizingQuery } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import { suiGasBudget } from './sizeGas';
import { buildSuiSwapLeg } from './swapLeg';
import { addUsdcSuiPool, poolSwapLegRequest, suiConfig, USDC } from './testFixtures';

// Sizing a plan's unsigned Sui legs: each is resolved as the owner's wallet would and dry-run
// on the fake (the bed pool's swap really runs, nothing is committed).
const SUI = '0x2::sui::SUI';
const HELD = 1_000_000n;

let fake: SuiFake;
let pool: SuiFakePool;
beforeAll(async () => {
  fake = await startSuiFake();
  pool = addUsdcSuiPool(fake);
});
afterAll(() => fake.stop());

/** A stored swap leg's payload: 10 USDC → SUI through the pool with the given threshold. */
async function swapPayload(owner: string, minimum: bigint) {
  const leg = await buildSuiSwapLeg(poolSwapLegRequest(pool, owner, minimum));
  return leg.payload as { encoding: string; transaction: unknown };
}

function funded(): string {
  const owner = new Ed25519Keypair().toSuiAddress();
  fake.setBalance(owner, SUI, HELD);
  fake.setBalance(owner, USDC, 30_000_000n);
  return owner;
}

const query = (
  owner: string,
  payloads: NonNullable<GasSizingQuery['payloads']>,
): GasSizingQuery => ({
  owner,
  calls: [],
  payloads,
});

describe('sizeGas (Sui)', () => {
  const adapter = () => createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));

  it('sums the wallet budget of each dry run, against the SUI the owner holds', async () => {
    const owner = funded();
    const { amountOut } = pool.quote(true, 9_990_000n);
    const payload = await swapPayload(owner, amountOut);
    const sizing = await adapter().sizeGas?.(query(owner, [payload, payload]));
    const used = {
      computationCost: BigInt(FAKE_GAS_USED.computationCost),
      storageCost: BigInt(FAKE_GAS_USED.storageCost),
      storageRebate: BigInt(FAKE_GAS_USED.storageRebate),
    };
    // 750 000 + 1000 × 1000 (overhead at the reference price) + 2 964 000 − 978 120, per leg.
    const budget = used.computationCost + 1000n * fake.referenceGasPrice + 2_964_000n - 978_120n;
    expect(suiGasBudget(used, fake.referenceGasPrice)).toBe(budget);
    expect(sizing).toEqual({
      status: 'ok',
      nativeRequired: 2n * budget,
      nativeHeld: HELD,
      details: {
        gasPrice: '1000',
        computationCost: '1500000',
        storageCost: '5928000',
        storageRebate: '1956240',
        gasBudget: String(2n * budget),
        suiSpent: '0',
      },
    });
    // Dry runs only: nothing executed, the pool untouched.
    expect(fake.calls()).toContain('sui_dryRunTransactionBlock');
    expect(fake.calls()).not.toContain('sui_executeTransactionBlock');
  });

  it('the budget never counts below computation + overhead when the rebate outweighs storage', () => {
    const used = { computationCost: 1_000_000n, storageCost: 100n, storageRebate: 5_000n };
    expect(suiGasBudget(used, 750n)).toBe(1_000_000n + 750_000n);
  });

  it('a dry run that aborts → reverted with the reason and the leg', async () => {
    const owner = funded();
    const { amountOut } = pool.quote(true, 9_990_000n);
    const good = await swapPayload(owner, amountOut);
    const aborts = await swapPayload(owner, amountOut + 1n);
    const sizing = await adapter().sizeGas?.(query(owner, [good, aborts]));
    expect(sizing).toMatchObject({ status: 'reverted', legIndex: 1 });
    expect(sizing?.status === 'reverted' && sizing.detail).toMatch(
      /leg 1: the dry run failed: MoveAbort.*check_coin_threshold/,
    );
  });

  it('a leg the owner cannot fund (no USDC for its coin intent) → reverted', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    fake.setBalance(owner, SUI, HELD);
    const sizing = await adapter().sizeGas?.(query(owner, [await swapPayload(owner, 1n)]));
    expect(sizing).toMatchObject({ status: 'reverted', legIndex: 0 });
    expect(sizing?.status === 'reverted' && sizing.detail).toMatch(/Insufficient balance.*USDC/);
  });

  it('no RPC, a silent one or one answering garbage → unavailable', async () => {
    const owner = funded();
    const payload = await swapPayload(owner, 1n);
    expect(await createSuiAdapter(suiConfig()).sizeGas?.(query(owner, [payload]))).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_not_configured',
    });
    const silent = await startSilentServer();
    const garbage = await startGarbageServer('{"jsonrpc":"2.0","id":1,"result":{"x":1}}');
    try {
      const slow = createSuiAdapter(suiConfig({ rpcUrl: silent.url, timeoutMs: 200 }));
      expect(await slow.sizeGas?.(query(owner, [payload]))).toMatchObject({
        status: 'unavailable',
        reason: 'rpc_timeout',
      });
      const bad = createSuiAdapter(suiConfig({ rpcUrl: garbage.url }));
      expect(await bad.sizeGas?.(query(owner, [payload]))).toMatchObject({
        status: 'unavailable',
        reason: 'rpc_bad_response',
      });
      const down = createSuiAdapter(suiConfig({ rpcUrl: 'http://127.0.0.1:9' }));
      expect(await down.sizeGas?.(query(owner, [payload]))).toMatchObject({
        status: 'unavailable',
        reason: 'rpc_error',
      });
    } finally {
      await silent.close();
      await garbage.close();
    }
  });
});
