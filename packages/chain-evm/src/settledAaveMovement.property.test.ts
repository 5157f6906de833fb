import fc from 'fast-check';
import { aaveTokenMath } from './aaveTokenMath';
import type { EvmLog } from './evmRpc';
import { RAY, rayDiv, rayDivCeil, rayDivFloor, rayMul, rayMulFloor } from './rayMath';
import { settledAaveMovement } from './settledAaveMovement';
import { A_TOKEN, OWNER, USDC, ZERO, aTokenEvent, usdcTransfer } from './testAaveLogs';

// One holder's life on an Aave v3 reserve, replayed with the pool's published arithmetic
// (aave-v3-origin: SupplyLogic.executeSupply / executeWithdraw, TokenMath, and
// ScaledBalanceTokenBase._mintScaled / _burnScaled as of v3.5; the half-up `rayDiv` / `rayMul`
// versions before). Each step emits the logs Aave emits; our settlement must settle every one
// and leave the books equal to the holder's scaledBalanceOf, worth what balanceOf says.

interface Holder {
  scaled: bigint;
  previousIndex: bigint;
}

/** `_mintScaled` / `_burnScaled`'s events for a change of `delta` scaled units at `index`. */
function aTokenLogs(holder: Holder, delta: bigint, index: bigint, v35: boolean, amount: bigint) {
  const balance = (scaled: bigint, at: bigint) =>
    v35 ? rayMulFloor(scaled, at) : rayMul(scaled, at);
  const { scaled, previousIndex } = holder;
  const previous = balance(scaled, previousIndex);
  const increase = balance(scaled, index) - previous;
  holder.scaled = scaled + delta;
  holder.previousIndex = index;
  if (delta > 0n) {
    const value = v35 ? balance(scaled + delta, index) - previous : amount + increase;
    return [aTokenEvent('Mint', [OWNER, OWNER], [value, increase, index])];
  }
  const next = v35 ? balance(scaled + delta, index) : undefined;
  const minted = v35 && next !== undefined ? next > previous : increase > amount;
  if (minted) {
    const value = v35 && next !== undefined ? next - previous : increase - amount;
    return [aTokenEvent('Mint', [OWNER, OWNER], [value, increase, index])];
  }
  const value = v35 && next !== undefined ? previous - next : amount - increase;
  return [aTokenEvent('Burn', [OWNER, OWNER], [value, increase, index])];
}

type Step =
  | { readonly kind: 'supply'; readonly amount: bigint }
  | { readonly kind: 'interest'; readonly bps: bigint }
  | { readonly kind: 'withdraw'; readonly fractionPpm: bigint }
  | { readonly kind: 'withdrawAll' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('supply' as const), amount: fc.bigInt(1n, 10n ** 13n) }),
  fc.record({ kind: fc.constant('interest' as const), bps: fc.bigInt(0n, 5_000n) }),
  fc.record({ kind: fc.constant('withdraw' as const), fractionPpm: fc.bigInt(1n, 1_000_000n) }),
  fc.record({ kind: fc.constant('withdrawAll' as const) }),
);

/** Replays `steps` on a reserve at `startIndex`; returns how many legs settled and were tried. */
function replay(poolRevision: bigint, startIndex: bigint, steps: readonly Step[]) {
  const v35 = poolRevision >= 9n;
  const math = aaveTokenMath(poolRevision);
  const holder: Holder = { scaled: 0n, previousIndex: 0n };
  let index = startIndex;
  let books = 0n;
  const settle = (action: 'deposit' | 'withdraw', logs: EvmLog[]) =>
    settledAaveMovement({ aToken: A_TOKEN, action, owner: OWNER, usdc: USDC, logs, poolRevision });
  for (const next of steps) {
    if (next.kind === 'interest') {
      index += (index * next.bps) / 10_000n;
      continue;
    }
    if (next.kind === 'supply') {
      const scaled = v35 ? rayDivFloor(next.amount, index) : rayDiv(next.amount, index);
      if (scaled === 0n) continue; // Aave refuses: InvalidAmount / InvalidMintAmount.
      const logs = [
        usdcTransfer(OWNER, A_TOKEN, next.amount),
        usdcTransfer(ZERO, OWNER, 1n, A_TOKEN), // the aToken's own Transfer: not USDC
        ...aTokenLogs(holder, scaled, index, v35, next.amount),
      ];
      const settled = settle('deposit', logs);
      expect(settled).toEqual({ amountMicros: next.amount, shares: scaled });
      books += settled?.shares ?? 0n;
    } else {
      const balance = v35 ? rayMulFloor(holder.scaled, index) : rayMul(holder.scaled, index);
      const all = next.kind === 'withdrawAll';
      const amount = all ? balance : (balance * next.fractionPpm) / 1_000_000n;
      // Aave v3.5 burns the whole scaled balance for type(uint256).max; earlier, rayDiv(amount).
      const scaled =
        all && v35 ? holder.scaled : v35 ? rayDivCeil(amount, index) : rayDiv(amount, index);
      if (amount === 0n || scaled === 0n || scaled > holder.scaled) continue; // Aave refuses.
      const logs = [
        usdcTransfer(A_TOKEN, OWNER, amount),
        ...aTokenLogs(holder, -scaled, index, v35, amount),
      ];
      const settled = settle('withdraw', logs);
      expect(settled).toEqual({ amountMicros: amount, shares: scaled });
      books -= settled?.shares ?? 0n;
    }
    expect(books).toBe(holder.scaled);
    // Valued as the aToken's balanceOf values the holder: scaledBalanceOf × index, Aave's rounding.
    expect(math.balanceOf(books, index)).toBe(
      v35 ? rayMulFloor(holder.scaled, index) : rayMul(holder.scaled, index),
    );
  }
}

const startIndex = fc.bigInt(RAY, 3n * RAY);
const steps = fc.array(step, { minLength: 1, maxLength: 12 });

describe.each([
  ['Aave v3.5+ (POOL_REVISION 9)', 9n],
  ['Aave v3.0–v3.4 (POOL_REVISION 8)', 8n],
])('settledAaveMovement over random lives on %s', (_name, poolRevision) => {
  it('settles every supply, partial and full withdrawal; books = scaledBalanceOf', () => {
    fc.assert(
      fc.property(startIndex, steps, (index, lives) => replay(poolRevision, index, lives)),
      { numRuns: 500 },
    );
  });
});
