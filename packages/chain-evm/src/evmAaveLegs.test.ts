import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { VenueOnChain } from '@yieldrouter/schemas';
import type { Hash } from 'viem';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';
import { last, ownerWallet, settleVenueLeg, startTestVenueBed, venueTarget } from './testVenueBed';

// The bed's Aave v3 stand-in, end to end on anvil: aTokens are scaled balances that rebase with
// the reserve's liquidity index. Receipts count shares as the scaled amount a supply minted or a
// withdrawal burned; readPosition values shares at the index. Nothing else supplies to this
// bed's pool, so the index moves exactly as the test pays interest. Every test runs against the
// pool in both accounting modes: v3.5+ (TokenMath's floor/ceil) and v3.0–v3.4 (half up).

describe.each(['v3.5', 'v3.4'] as const)('Aave v3 stand-in on anvil (%s)', (mode) => {
  let anvil: AnvilInstance;
  let fixtures: EvmFixtures;
  let adapter: EvmChainAdapter;
  let aave: VenueOnChain;

  beforeAll(async () => {
    ({ anvil, fixtures, adapter, aave } = await startTestVenueBed(mode));
  });
  afterAll(() => anvil?.stop());

  describe('legs', () => {
    it('receipts carry the scaled shares; the position accrues yield through the index', async () => {
      const owner = ownerWallet(anvil, 7);
      await fixtures.mintUsdc(owner.address, 20_000_000n);
      const settle = (action: 'deposit' | 'withdraw', amountMicros: bigint) =>
        settleVenueLeg(adapter, aave, owner, action, amountMicros);
      const position = (shares: bigint) => adapter.readPosition(aave, owner.address, shares);
      const confirmed = (amountMicros: bigint, shares: bigint) => ({
        status: 'confirmed',
        amountMicros,
        shares,
      });
      /** A reading of the owner's shares, all of which our legs minted here. */
      const reading = (ownerShares: bigint, valueMicros: bigint) => ({
        status: 'ok',
        ownerShares,
        sharesValueMicros: valueMicros,
        ownerValueMicros: valueMicros,
        block: expect.stringMatching(/^[1-9][0-9]*$/),
      });

      // Index 1: a supply of 9 USDC mints 9 scaled.
      expect(await settle('deposit', 9_000_000n)).toMatchObject(confirmed(9_000_000n, 9_000_000n));
      expect(await position(9_000_000n)).toMatchObject(reading(9_000_000n, 9_000_000n));

      // 0.9 USDC of interest on 9 scaled: index 1.1. The shares stay; what they are worth grows.
      await fixtures.simulateAaveYield(900_000n);
      expect(await position(9_000_000n)).toMatchObject(reading(9_000_000n, 9_900_000n));

      // At 1.1, supplying 5.5 mints 5 scaled (the Mint's value also carries the 0.9 accrued).
      expect(await settle('deposit', 5_500_000n)).toMatchObject(confirmed(5_500_000n, 5_000_000n));
      // Withdrawing 4.4 burns 4 scaled.
      expect(await settle('withdraw', 4_400_000n)).toMatchObject(confirmed(4_400_000n, 4_000_000n));

      // Index 1.2: 1.0 accrued on 10 scaled, so withdrawing 0.6 is Aave's Mint-instead-of-Burn;
      // it still burns 0.6 / 1.2 = 0.5 scaled.
      await fixtures.simulateAaveYield(1_000_000n);
      expect(await settle('withdraw', 600_000n)).toMatchObject(confirmed(600_000n, 500_000n));
      // Our legs' shares (9 + 5 - 4 - 0.5) at 1.2, read at one block.
      expect(await position(9_500_000n)).toMatchObject(reading(9_500_000n, 11_400_000n));
      // Tracking fewer shares than the owner holds: those are valued on their own, at 1.2.
      expect(await position(5_000_000n)).toMatchObject({
        ownerShares: 9_500_000n,
        sharesValueMicros: 6_000_000n,
        ownerValueMicros: 11_400_000n,
      });
    });

    it('a supply read as a withdrawal, or for another owner, is a mismatch', async () => {
      const owner = ownerWallet(anvil, 8);
      await fixtures.mintUsdc(owner.address, 1_000_000n);
      const request = {
        planId: newPlanId(),
        owner: owner.address,
        amountMicros: 1_000_000n,
        target: venueTarget(aave),
      };
      const txId: Hash = last(await owner.send(await adapter.buildDeposit(request)));
      expect(await adapter.readReceipt({ ...request, txId, action: 'deposit' })).toMatchObject({
        status: 'confirmed',
        amountMicros: 1_000_000n,
      });
      expect(await adapter.readReceipt({ ...request, txId, action: 'withdraw' })).toMatchObject({
        status: 'mismatch',
        reason: 'no withdraw by the owner in the logs',
      });
      const stranger = ownerWallet(anvil, 9).address;
      expect(
        await adapter.readReceipt({ ...request, owner: stranger, txId, action: 'deposit' }),
      ).toMatchObject({ status: 'mismatch', reason: expect.stringMatching(/not the owner/) });
    });

    it('a supply that does not divide evenly settles as the revision rounds; a full withdrawal burns all', async () => {
      // Index 1.2 (left by the first test). 5 / 1.2 = 4_166_666.67 scaled: v3.5 mints the floor and
      // values it down (4_999_999); v3.4 rounds both half up (4_166_667, worth 5_000_000).
      const v35 = mode === 'v3.5';
      const owner = ownerWallet(anvil, 6);
      await fixtures.mintUsdc(owner.address, 5_000_000n);
      await fixtures.mintUsdc(fixtures.aToken, 1_000n); // the reserve's other liquidity
      const settle = (action: 'deposit' | 'withdraw', amountMicros: bigint) =>
        settleVenueLeg(adapter, aave, owner, action, amountMicros);
      const shares = v35 ? 4_166_666n : 4_166_667n;
      const worth = v35 ? 4_999_999n : 5_000_000n;
      expect(await settle('deposit', 5_000_000n)).toMatchObject({
        status: 'confirmed',
        amountMicros: 5_000_000n,
        shares,
      });
      const position = await adapter.readPosition(aave, owner.address, shares);
      expect(position).toMatchObject({
        status: 'ok',
        ownerShares: shares,
        sharesValueMicros: worth,
        ownerValueMicros: worth,
      });
      // Withdrawing what the position is worth burns every scaled unit: the books end at 0.
      expect(await settle('withdraw', worth)).toMatchObject({
        status: 'confirmed',
        amountMicros: worth,
        shares,
      });
      expect(await adapter.readPosition(aave, owner.address, 0n)).toMatchObject({
        ownerShares: 0n,
        ownerValueMicros: 0n,
      });
    });
  });

  describe('readPosition for aave-v3', () => {
    it('reads the index of the reserve the aToken names, which must be the configured USDC', async () => {
      const nobody = '0x000000000000000000000000000000000000dEaD';
      const reading = await adapter.readPosition(aave, nobody, 2_000_000n);
      if (reading.status !== 'ok') throw new Error(JSON.stringify(reading));
      expect(reading.ownerShares).toBe(0n);
      expect(reading.ownerValueMicros).toBe(0n);
      // The index has only risen (1.2 after the test above): the shares are worth at least 1:1.
      expect(reading.sharesValueMicros).toBeGreaterThanOrEqual(2_000_000n);

      const otherUsdc = createEvmAdapter({
        chain: 'base',
        rpcUrl: anvil.rpcUrl,
        timeoutMs: 2_000,
        usdcAddress: fixtures.vault,
        registryAddress: fixtures.registry,
      });
      expect(await otherUsdc.readPosition(aave, nobody, 1n)).toMatchObject({
        status: 'unavailable',
        reason: 'asset_not_configured',
      });
    });
  });
});
