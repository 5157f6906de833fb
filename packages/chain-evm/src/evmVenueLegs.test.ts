import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { Receipt, VenueOnChain } from '@yieldrouter/schemas';
import type { Hash } from 'viem';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';
import { last, ownerWallet as walletOf, startTestVenueBed, venueTarget } from './testVenueBed';

// A deposit into the bed's ERC-4626 vault, end to end on anvil: the adapter builds the legs, the
// owner's wallet (the test holds the anvil key) signs and sends them, and the adapter reads the
// receipts back from the chain. The Aave stand-in has its own file (evmAaveLegs.test.ts).

let anvil: AnvilInstance;
let fixtures: EvmFixtures;
let adapter: EvmChainAdapter;
let vault: VenueOnChain;

beforeAll(async () => {
  ({ anvil, fixtures, adapter, vault } = await startTestVenueBed());
});
afterAll(() => anvil?.stop());

function ownerWallet(index: number) {
  return walletOf(anvil, index);
}

describe('ERC-4626 vault on anvil', () => {
  it('deposit: legs sent by the owner settle; the receipt is confirmed with the exact amount', async () => {
    const owner = ownerWallet(1);
    await fixtures.mintUsdc(owner.address, 50_000_000n);
    const planId = newPlanId();
    const request = {
      planId,
      owner: owner.address,
      amountMicros: 12_500_000n,
      target: venueTarget(vault),
    };
    const hashes = await owner.send(await adapter.buildDeposit(request));
    expect(hashes).toHaveLength(2);

    const receipt = await adapter.readReceipt({
      ...request,
      txId: last(hashes),
      action: 'deposit',
    });
    expect(receipt).toEqual({
      status: 'confirmed',
      txId: last(hashes),
      planId,
      amountMicros: 12_500_000n,
      shares: 12_500_000n,
      block: expect.stringMatching(/^[1-9][0-9]*$/),
    });
    const [, usdc] = await adapter.readBalances(owner.address);
    expect(usdc).toMatchObject({ status: 'ok', amount: 37_500_000n });
    expect(await adapter.readPosition(vault, owner.address, 12_500_000n)).toMatchObject({
      status: 'ok',
      ownerShares: 12_500_000n,
      sharesValueMicros: 12_500_000n,
      ownerValueMicros: 12_500_000n,
      block: expect.stringMatching(/^[1-9][0-9]*$/),
    });

    // The same transaction read for another plan, by another owner, or as the approve leg.
    expect(
      await adapter.readReceipt({
        ...request,
        planId: newPlanId(),
        txId: last(hashes),
        action: 'deposit',
      }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringMatching(/^tagged for plan_/) });
    expect(
      await adapter.readReceipt({
        ...request,
        owner: ownerWallet(2).address,
        txId: last(hashes),
        action: 'deposit',
      }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringMatching(/not the owner/) });
    expect(
      await adapter.readReceipt({ ...request, txId: hashes[0] as Hash, action: 'deposit' }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringMatching(/^sent to 0x/) });
    expect(
      await adapter.readReceipt({ ...request, txId: last(hashes), action: 'withdraw' }),
    ).toMatchObject({ status: 'mismatch', reason: 'no withdraw by the owner in the logs' });
  });

  it('a deposit without its approve is mined, reverted: failed', async () => {
    const owner = ownerWallet(4);
    await fixtures.mintUsdc(owner.address, 1_000_000n);
    const planId = newPlanId();
    const request = {
      planId,
      owner: owner.address,
      amountMicros: 1_000_000n,
      target: venueTarget(vault),
    };
    const build = await adapter.buildDeposit(request);
    if (build.status !== 'prepared') throw new Error('blocked');
    const [hash] = await owner.send({ status: 'prepared', legs: build.legs.slice(1) });
    expect(
      await adapter.readReceipt({ ...request, txId: hash as Hash, action: 'deposit' }),
    ).toEqual({
      status: 'failed',
      txId: hash,
      reason: expect.stringMatching(/^reverted in block \d+$/),
    });
  });

  it('withdraw: confirmed with the exact amount; position value follows simulated yield', async () => {
    const owner = ownerWallet(5);
    await fixtures.mintUsdc(owner.address, 20_000_000n);
    const deposit = {
      planId: newPlanId(),
      owner: owner.address,
      amountMicros: 20_000_000n,
      target: venueTarget(vault),
    };
    await owner.send(await adapter.buildDeposit(deposit));
    const before = await adapter.readPosition(vault, owner.address, 1_000_000n);
    if (before.status !== 'ok') throw new Error(JSON.stringify(before));
    expect(before.ownerValueMicros).toBe(20_000_000n);

    // Yield accrues to every share: the same shares are worth more, read from convertToAssets.
    await fixtures.simulateYield(10_000_000n);
    const after = await adapter.readPosition(vault, owner.address, 1_000_000n);
    if (after.status !== 'ok') throw new Error(JSON.stringify(after));
    expect(after.ownerShares).toBe(before.ownerShares);
    expect(after.ownerValueMicros).toBeGreaterThan(before.ownerValueMicros);
    expect(after.sharesValueMicros).toBeGreaterThan(before.sharesValueMicros);
    expect(after.asOf).toBeInstanceOf(Date);

    const withdraw = {
      planId: newPlanId(),
      owner: owner.address,
      amountMicros: 7_000_000n,
      target: venueTarget(vault),
    };
    const [hash] = await owner.send(await adapter.buildWithdraw(withdraw));
    expect(
      await adapter.readReceipt({ ...withdraw, txId: hash as Hash, action: 'withdraw' }),
    ).toMatchObject({
      status: 'confirmed',
      planId: withdraw.planId,
      amountMicros: 7_000_000n,
    });
    const [, usdc] = await adapter.readBalances(owner.address);
    expect(usdc).toMatchObject({ status: 'ok', amount: 7_000_000n });
  });

  it('an unknown transaction is pending; a malformed txId throws', async () => {
    const query = {
      txId: `0x${'ab'.repeat(32)}`,
      planId: newPlanId(),
      owner: ownerWallet(1).address,
      action: 'deposit',
      target: venueTarget(vault),
    } as const;
    expect(await adapter.readReceipt(query)).toEqual({ status: 'pending', txId: query.txId });
    await expect(adapter.readReceipt({ ...query, txId: '0x1234' })).rejects.toMatchObject({
      name: 'InvalidChainInputError',
      field: 'txId',
    });
  });

  it('a transaction without a plan tag is a mismatch', async () => {
    const owner = ownerWallet(6);
    const txId = await owner.sendRaw(fixtures.vault, '0x');
    const receipt: Receipt = await adapter.readReceipt({
      txId,
      planId: newPlanId(),
      owner: owner.address,
      action: 'deposit',
      target: venueTarget(vault),
    });
    expect(receipt).toMatchObject({
      status: 'mismatch',
      reason: 'the calldata carries no plan tag',
    });
  });
});

describe('readPosition', () => {
  it('is 0 for a wallet without shares, and no_standard_reader for router-adapter venues', async () => {
    const nobody = '0x000000000000000000000000000000000000dEaD';
    expect(await adapter.readPosition(vault, nobody, 0n)).toMatchObject({
      status: 'ok',
      ownerShares: 0n,
      sharesValueMicros: 0n,
      ownerValueMicros: 0n,
    });
    expect(
      await adapter.readPosition(
        { venueId: 'r', chain: 'base', standard: 'router-adapter', ids: {} },
        nobody,
        0n,
      ),
    ).toMatchObject({ status: 'unavailable', reason: 'no_standard_reader' });
    await expect(adapter.readPosition(vault, 'nope', 0n)).rejects.toMatchObject({
      field: 'owner',
    });
  });
});

describe('readRegistryFeeConfig', () => {
  it('reads 500 / 0 / 1000 bps from the deployed registry', async () => {
    expect(await adapter.readRegistryFeeConfig()).toEqual({
      status: 'ok',
      yieldSkimBps: 500,
      depositFeeBps: 0,
      maxYieldSkimBps: 1000,
    });
  });

  it('without a registry address it is unavailable, never a default', async () => {
    const bare = createEvmAdapter({
      chain: 'base',
      rpcUrl: anvil.rpcUrl,
      timeoutMs: 2_000,
      usdcAddress: fixtures.usdc,
      registryAddress: undefined,
    });
    expect(await bare.readRegistryFeeConfig()).toMatchObject({
      status: 'unavailable',
      reason: 'asset_not_configured',
    });
  });
});
