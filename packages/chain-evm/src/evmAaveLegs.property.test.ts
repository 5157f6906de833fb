import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegBuild, VenueOnChain } from '@yieldrouter/schemas';
import fc from 'fast-check';
import { createPublicClient, createWalletClient, http, parseAbi } from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { EvmChainAdapter } from './createEvmAdapter';
import { startTestVenueBed, venueTarget } from './testVenueBed';

// Random lives on the bed's Aave stand-in, in both accounting modes, through our adapter end to
// end: every supply and withdrawal (partial or all, with interest paid between) settles, the
// books (the sum of settled shares) equal the aToken's scaledBalanceOf, and the position is
// worth what the aToken's balanceOf says.

const aTokenAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function scaledBalanceOf(address) view returns (uint256)',
]);

type Step =
  | { readonly kind: 'supply'; readonly amount: bigint }
  | { readonly kind: 'interest'; readonly amount: bigint }
  | { readonly kind: 'withdraw'; readonly fractionPpm: bigint }
  | { readonly kind: 'withdrawAll' };

// Supplies of at least 100 micros: Aave refuses a supply whose scaled amount rounds to zero
// (`INVALID_MINT_AMOUNT`; v3.5 floors amount / index), so once interest has lifted the index
// above 1 a 1-micro supply reverts on the real pool as on the stand-in: not a leg that settles.
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('supply' as const), amount: fc.bigInt(100n, 50_000_000n) }),
  fc.record({ kind: fc.constant('interest' as const), amount: fc.bigInt(1n, 3_000_000n) }),
  fc.record({ kind: fc.constant('withdraw' as const), fractionPpm: fc.bigInt(1n, 999_999n) }),
  fc.record({ kind: fc.constant('withdrawAll' as const) }),
);

describe.each(['v3.5', 'v3.4'] as const)('Aave stand-in (%s): random lives settle', (mode) => {
  let anvil: AnvilInstance;
  let fixtures: EvmFixtures;
  let adapter: EvmChainAdapter;
  let aave: VenueOnChain;
  beforeAll(async () => {
    ({ anvil, fixtures, adapter, aave } = await startTestVenueBed(mode));
    // Other suppliers' liquidity, so interest always has supply to go to and v3.4's half-up
    // payouts are covered.
    await fixtures.supplyToAave(100_000_000n);
  });
  afterAll(() => anvil?.stop());

  it('every leg confirms; books = scaledBalanceOf; value = balanceOf', async () => {
    const chain = anvilChain(8453, anvil.rpcUrl);
    const reader = createPublicClient({ chain, transport: http(anvil.rpcUrl) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const key: Hex = generatePrivateKey();
        const account = privateKeyToAccount(key);
        const owner = account.address;
        const wallet = createWalletClient({ account, chain, transport: http(anvil.rpcUrl) });
        await reader.request({
          method: 'anvil_setBalance' as never,
          params: [owner, '0x56bc75e2d63100000'] as never,
        });
        const send = async (build: LegBuild) => {
          if (build.status !== 'prepared') throw new Error(JSON.stringify(build.blockers));
          let hash: Hex | undefined;
          for (const leg of build.legs) {
            if (leg.payload.encoding !== 'evm-transaction-request') throw new Error('not EVM');
            const { to, data } = leg.payload.transaction;
            hash = await wallet.sendTransaction({
              to: to as Address,
              data: data as Hex,
              gas: 500_000n,
            });
            await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
          }
          if (!hash) throw new Error('no legs');
          return hash;
        };
        const settle = async (action: 'deposit' | 'withdraw', amountMicros: bigint) => {
          const request = { planId: newPlanId(), owner, amountMicros, target: venueTarget(aave) };
          const build =
            action === 'deposit'
              ? await adapter.buildDeposit(request)
              : await adapter.buildWithdraw(request);
          const txId = await send(build);
          const receipt = await adapter.readReceipt({ ...request, txId, action });
          if (receipt.status !== 'confirmed' || receipt.shares === null) {
            throw new Error(`${action} of ${amountMicros} did not settle: ${receipt.status}`);
          }
          expect(receipt.amountMicros).toBe(amountMicros);
          return receipt.shares;
        };
        let books = 0n;
        for (const next of steps) {
          if (next.kind === 'interest') {
            await fixtures.simulateAaveYield(next.amount);
            continue;
          }
          if (next.kind === 'supply') {
            await fixtures.mintUsdc(owner, next.amount);
            books += await settle('deposit', next.amount);
          } else {
            const position = await adapter.readPosition(aave, owner, books);
            if (position.status !== 'ok') throw new Error(position.detail);
            const worth = position.sharesValueMicros;
            const amount =
              next.kind === 'withdrawAll' ? worth : (worth * next.fractionPpm) / 1_000_000n;
            if (amount === 0n) continue;
            const burned = await settle('withdraw', amount);
            books -= burned;
          }
          const [scaled, balance] = await Promise.all([
            reader.readContract({
              address: fixtures.aToken,
              abi: aTokenAbi,
              functionName: 'scaledBalanceOf',
              args: [owner],
            }),
            reader.readContract({
              address: fixtures.aToken,
              abi: aTokenAbi,
              functionName: 'balanceOf',
              args: [owner],
            }),
          ]);
          expect(books).toBe(scaled);
          const position = await adapter.readPosition(aave, owner, books);
          expect(position).toMatchObject({
            status: 'ok',
            ownerShares: scaled,
            sharesValueMicros: balance,
          });
        }
      }),
      { numRuns: 12 },
    );
  });
});
