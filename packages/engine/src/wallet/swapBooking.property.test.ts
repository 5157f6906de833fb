import fc from 'fast-check';
import { bpsOf, computeSwapPlanFees, defaultFeeSchedule } from '@yieldrouter/fees';
import { BOOKS_ASSET, assertBalanced, assetOfAccount, keyOf } from '@yieldrouter/ledger';
import type { PostingInput } from '@yieldrouter/ledger';
import { NATIVE_ASSET, bookSwap, bookUnwrap } from './swapBooking';

// Over random sequences of swaps (either way, any amount, fee and slippage, fills short and long,
// failures) and unwraps: every asset's balances over the wallet, the chain (external) and the
// fees sum to zero after every step (nothing is made or lost in any asset), no wallet balance
// goes negative, each entry balances per asset, minAmountOut never exceeds the quote, and every
// amount is a bigint.

const WALLET = { wallet: '0x00000000000000000000000000000000000000aa', chain: 'base' } as const;
const WETH = '0x4200000000000000000000000000000000000006';
const ASSETS = [BOOKS_ASSET, WETH] as const;

type Step =
  | {
      kind: 'swap';
      from: 0 | 1;
      amountIn: bigint;
      feeBps: number;
      slippageBps: number;
      /** The fill, in bps of the quote (below 10 000 - slippage fails the leg). */
      fillBps: number;
      reverted: boolean;
    }
  | { kind: 'unwrap'; amount: bigint };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('swap' as const),
    from: fc.constantFrom(0 as const, 1 as const),
    amountIn: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    feeBps: fc.integer({ min: 0, max: 100 }),
    slippageBps: fc.integer({ min: 0, max: 500 }),
    fillBps: fc.integer({ min: 9_000, max: 10_200 }),
    reverted: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('unwrap' as const),
    amount: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  }),
);

class Books {
  readonly balances = new Map<string, { asset: string; wallet: boolean; amount: bigint }>();

  held(asset: string): bigint {
    const key = keyOf({ ...WALLET, bucket: 'liquid', asset });
    return this.balances.get(`${key.wallet}/${key.chain}/${key.bucket}`)?.amount ?? 0n;
  }

  post(postings: readonly PostingInput[]) {
    if (postings.length === 0) return;
    assertBalanced(postings);
    for (const posting of postings) {
      expect(typeof posting.amountMicros).toBe('bigint');
      const key = keyOf(posting.account);
      const id = `${key.wallet}/${key.chain}/${key.bucket}`;
      const line = this.balances.get(id) ?? {
        asset: assetOfAccount(posting.account),
        wallet: key.kind === 'wallet',
        amount: 0n,
      };
      this.balances.set(id, { ...line, amount: line.amount + posting.amountMicros });
    }
  }

  check() {
    const totals = new Map<string, bigint>();
    for (const line of this.balances.values()) {
      if (line.wallet) expect(line.amount >= 0n).toBe(true);
      totals.set(line.asset, (totals.get(line.asset) ?? 0n) + line.amount);
    }
    for (const total of totals.values()) expect(total).toBe(0n);
  }
}

describe('swaps in the books (property)', () => {
  it('conserve every asset, never overdraw a wallet, and never trust the quote', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.array(step, { maxLength: 30 }),
        (routed, steps) => {
          const books = new Books();
          const seed: PostingInput[] = [
            { account: { system: 'external', chain: 'base' }, amountMicros: -routed },
            { account: { ...WALLET, bucket: 'liquid' }, amountMicros: routed },
          ];
          if (routed > 0n) books.post(seed);
          books.check();
          for (const next of steps) {
            if (next.kind === 'unwrap') {
              books.post(bookUnwrap(WALLET, WETH, next.amount, books.held(WETH)));
              books.check();
              continue;
            }
            const inputAsset = ASSETS[next.from];
            const outputAsset = ASSETS[1 - next.from] ?? BOOKS_ASSET;
            // The source quotes 1:2 one way and 2:1 the other, less its own fee.
            const quoted = next.from === 0 ? next.amountIn * 2n : next.amountIn / 2n + 1n;
            const schedule = { ...defaultFeeSchedule, swapFeeBps: next.feeBps };
            const fees = computeSwapPlanFees({
              amountInMicros: next.amountIn,
              quotedAmountOutMicros: quoted,
              poolFee: null,
              slippageBps: next.slippageBps,
              schedule,
            });
            expect(fees.minAmountOutMicros <= quoted).toBe(true);
            expect(typeof fees.minAmountOutMicros).toBe('bigint');
            const filled = (quoted * BigInt(next.fillBps)) / 10_000n;
            const before = new Map(books.balances);
            // A revert or a fill below minAmountOut fails the leg: nothing is booked.
            if (!next.reverted && filled >= fees.minAmountOutMicros) {
              const feePaid = bpsOf(next.amountIn, next.feeBps);
              const postings = bookSwap(
                WALLET,
                { inputAsset, outputAsset, amountIn: next.amountIn, amountOut: filled, feePaid },
                books.held(inputAsset),
              );
              books.post(postings);
              const spentFromBooks = -(
                postings.find(
                  (posting) =>
                    'wallet' in posting.account && assetOfAccount(posting.account) === inputAsset,
                )?.amountMicros ?? 0n
              );
              expect(spentFromBooks <= next.amountIn).toBe(true);
            } else {
              expect(books.balances).toEqual(before);
            }
            books.check();
          }
          expect(books.held(NATIVE_ASSET) >= 0n).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
