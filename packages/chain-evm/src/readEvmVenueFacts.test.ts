import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { maxUint256 } from 'viem';
import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';
import { ownerWallet, startTestVenueBed, venueTarget } from './testVenueBed';

// Caps, native TVL and tokens read from the bed's ERC-4626 vault and Aave stand-in on anvil,
// while the vault's deposit limit changes under them.

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

  it('aave-v3: native TVL from the aToken, tokens with decimals, no cap read (reason given)', async () => {
    const facts = await factsOf(aave);
    expect(facts).toMatchObject({
      nativeTvlUnits: '0',
      maxDepositUnits: null,
      totalCapUnits: null,
      underlying: { address: fixtures.usdc, decimals: 6 },
      receipt: { address: fixtures.aToken },
    });
    expect(facts.reason).toMatch(/supply cap/);
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
