import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { maxUint256 } from 'viem';
import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';
import { ownerWallet, startTestVenueBed, venueTarget } from './testVenueBed';

// Caps, native TVL and tokens read from the bed's ERC-4626 vault and Aave stand-in on anvil,
// while the vault's deposit limit and the Aave reserve's supply cap change under them.

let anvil: AnvilInstance;
let fixtures: EvmFixtures;
let adapter: EvmChainAdapter;
let vault: VenueOnChain;
let aave: VenueOnChain;

beforeAll(async () => {
  ({ anvil, fixtures, adapter, vault, aave } = await startTestVenueBed());
});
afterAll(() => anvil?.stop());

const factsOf = async (venue: VenueOnChain) => {
  const reading = await adapter.readVenueFacts(venue);
  if (reading.status !== 'ok') throw new Error(`unavailable: ${reading.detail}`);
  return reading;
};

describe('readVenueFacts on an ERC-4626 vault whose maxDeposit changes', () => {
  it('uncapped: maxDeposit is 2^256 − 1, so the cap is null with the reason', async () => {
    const facts = await factsOf(vault);
    expect(facts).toMatchObject({
      nativeTvlUnits: '0',
      maxDepositUnits: null,
      totalCapUnits: null,
      underlying: { address: fixtures.usdc, decimals: 6 },
      receipt: { address: fixtures.vault, decimals: 6 },
    });
    expect(facts.reason).toMatch(/uncapped/);
  });

  it('a limit, then a deposit, then a full vault: maxDeposit follows the chain', async () => {
    await fixtures.setVaultDepositLimit(100_000_000n);
    expect(await factsOf(vault)).toMatchObject({
      nativeTvlUnits: '0',
      maxDepositUnits: '100000000',
      totalCapUnits: null,
    });
    const owner = ownerWallet(anvil, 1);
    await fixtures.mintUsdc(owner.address, 150_000_000n);
    await owner.send(
      await adapter.buildDeposit({
        planId: newPlanId(),
        owner: owner.address,
        amountMicros: 30_000_000n,
        target: venueTarget(vault),
      }),
    );
    expect(await factsOf(vault)).toMatchObject({
      nativeTvlUnits: '30000000',
      maxDepositUnits: '70000000',
    });
    await fixtures.setVaultDepositLimit(30_000_000n);
    expect(await factsOf(vault)).toMatchObject({ maxDepositUnits: '0' });
    await fixtures.setVaultDepositLimit(maxUint256);
    expect(await factsOf(vault)).toMatchObject({ maxDepositUnits: null });
  });
});

describe('readVenueFacts on the Aave stand-in as its reserve supply cap changes', () => {
  it('no supply cap set: TVL and tokens from the aToken, caps null with the reason', async () => {
    const facts = await factsOf(aave);
    expect(facts).toEqual({
      status: 'ok',
      nativeTvlUnits: '0',
      maxDepositUnits: null,
      totalCapUnits: null,
      capUsedUnits: null,
      underlying: { address: fixtures.usdc, decimals: 6 },
      receipt: { address: fixtures.aToken, decimals: 6 },
      reason: 'no supply cap set (uncapped)',
    });
  });

  it('a cap: total, used and room follow supplies, the treasury share and the index', async () => {
    await fixtures.setAaveSupplyCap(100n); // whole USDC
    expect(await factsOf(aave)).toMatchObject({
      nativeTvlUnits: '0',
      totalCapUnits: '100000000',
      capUsedUnits: '0',
      maxDepositUnits: '100000000',
      reason: null,
    });

    const owner = ownerWallet(anvil, 2);
    await fixtures.mintUsdc(owner.address, 200_000_000n);
    const deposit = (amountMicros: bigint) =>
      adapter
        .buildDeposit({
          planId: newPlanId(),
          owner: owner.address,
          amountMicros,
          target: venueTarget(aave),
        })
        .then((build) => owner.send(build));
    await deposit(30_000_000n);
    expect(await factsOf(aave)).toMatchObject({
      nativeTvlUnits: '30000000',
      capUsedUnits: '30000000',
      maxDepositUnits: '70000000',
    });

    // The treasury's accrued share counts against the cap, not in the aToken's TVL.
    await fixtures.simulateAaveTreasuryAccrual(5_000_000n);
    expect(await factsOf(aave)).toMatchObject({
      nativeTvlUnits: '30000000',
      capUsedUnits: '35000000',
      maxDepositUnits: '65000000',
    });

    // Interest lifts the index to 1.1: supply and treasury share both grow.
    await fixtures.simulateAaveYield(3_500_000n);
    expect(await factsOf(aave)).toMatchObject({
      nativeTvlUnits: '33000000',
      totalCapUnits: '100000000',
      capUsedUnits: '38500000',
      maxDepositUnits: '61500000',
    });

    // The room read never overstates Aave's: v3.5 checks the floored scaled amount, so
    // 61_500_001 (55_909_091 scaled; 90_909_091 × 1.1 = 100_000_000.1, floored) still fits, and
    // the refusals start a unit later.
    await expect(fixtures.supplyToAave(61_500_002n)).rejects.toThrow(/reverted/);
    // 61.5 at 1.1 mints floor(55_909_090.9) scaled: the supply is worth a unit less than paid in
    // (TVL 85_909_090 × 1.1 = 94_499_999), and that unit is room again.
    await deposit(61_500_000n);
    expect(await factsOf(aave)).toMatchObject({
      nativeTvlUnits: '94499999',
      totalCapUnits: '100000000',
      maxDepositUnits: '1',
    });

    await fixtures.setAaveSupplyCap(0n);
    expect(await factsOf(aave)).toMatchObject({
      totalCapUnits: null,
      maxDepositUnits: null,
      reason: 'no supply cap set (uncapped)',
    });
  });

  it("an aToken whose POOL() is not the configured pool: unavailable, no cap of another pool's", async () => {
    const reading = await adapter.readVenueFacts({
      ...aave,
      ids: { ...aave.ids, pool: fixtures.vault },
    });
    expect(reading).toMatchObject({ status: 'unavailable', reason: 'asset_not_configured' });
    expect(reading.status === 'unavailable' && reading.detail).toMatch(/POOL\(\)/);
  });
});

describe('readVenueFacts fails closed', () => {
  it('no vault id: unavailable naming it, nothing invented', async () => {
    const reading = await adapter.readVenueFacts({ ...vault, ids: {} });
    expect(reading).toMatchObject({ status: 'unavailable', reason: 'asset_not_configured' });
  });

  it('an RPC that refuses connections: unavailable, never a figure', async () => {
    const down = createEvmAdapter({
      chain: 'base',
      rpcUrl: await closedPortUrl(),
      timeoutMs: 500,
      usdcAddress: fixtures.usdc,
      registryAddress: fixtures.registry,
    });
    const reading = await down.readVenueFacts(vault);
    expect(reading.status).toBe('unavailable');
    expect(reading).not.toHaveProperty('nativeTvlUnits');
  });

  it('a router-adapter venue has no EVM reader', async () => {
    const reading = await adapter.readVenueFacts({ ...vault, standard: 'router-adapter' });
    expect(reading).toMatchObject({ status: 'unavailable', reason: 'no_standard_reader' });
  });
});
