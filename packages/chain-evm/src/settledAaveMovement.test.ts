import type { EvmLog } from './evmRpc';
import { RAY, rayDiv, rayDivCeil, rayDivFloor, rayMul, rayMulFloor } from './rayMath';
import { settledAaveMovement } from './settledAaveMovement';
import { A_TOKEN, OTHER, OWNER, USDC, ZERO, aTokenEvent, usdcTransfer } from './testAaveLogs';

// Logs shaped as Aave v3 emits them, to check the arithmetic the anvil bed cannot vary freely.

/** Settles under a pool of revision 8 (v3.4: half-up rounding) unless told otherwise. */
const move = (action: 'deposit' | 'withdraw', logs: EvmLog[], poolRevision = 8n) =>
  settledAaveMovement({ aToken: A_TOKEN, action, owner: OWNER, usdc: USDC, logs, poolRevision });

const INDEX = (RAY * 11n) / 10n;

// Aave v3.5 (POOL_REVISION 9): supply mints amount.rayDivFloor(index), and Mint.value is the
// difference of floored balances, so it rarely equals amount + balanceIncrease. On main this
// first supply did not settle (4,999,999 ≠ 5,000,000).
describe('settledAaveMovement under Aave v3.5 rounding (the reproduced failure)', () => {
  it('a first supply of 5 USDC at index 1.1 settles with floor(5 / 1.1) scaled', () => {
    // scaled = floor(5_000_000 / 1.1) = 4_545_454; Mint.value = floor(4_545_454 × 1.1) = 4_999_999.
    const logs = [
      usdcTransfer(OWNER, A_TOKEN, 5_000_000n),
      aTokenEvent('Mint', [OWNER, OWNER], [4_999_999n, 0n, INDEX]),
    ];
    expect(move('deposit', logs, 9n)).toEqual({ amountMicros: 5_000_000n, shares: 4_545_454n });
    // The same logs under v3.4 rounding are not a 5 USDC supply (v3.4 would have emitted 5,000,000).
    expect(move('deposit', logs, 8n)).toBeUndefined();
  });

  it('a later supply: the Mint is a difference of floored balances, not amount + interest', () => {
    // Holder: 3 scaled since index 1.0; now 1.1. A supply of 1 USDC mints floor(1 / 1.1) = 909_090.
    // previous = 3; next = floor(3.909090 × 1.1) = 4.299999; increase = floor(3 × 1.1) − 3 = 0.3.
    const logs = [
      usdcTransfer(OWNER, A_TOKEN, 1_000_000n),
      aTokenEvent('Mint', [OWNER, OWNER], [1_299_999n, 300_000n, INDEX]),
    ];
    expect(move('deposit', logs, 9n)).toEqual({ amountMicros: 1_000_000n, shares: 909_090n });
  });

  it('a withdrawal burns ceil(amount / index); a full one burns the whole scaled balance', () => {
    // Holder: 4_545_454 scaled at 1.1. Withdrawing 1 USDC burns ceil(1 / 1.1) = 909_091.
    // previous = floor(4_545_454 × 1.1) = 4_999_999; next = floor(3_636_363 × 1.1) = 3_999_999.
    const partial = [
      usdcTransfer(A_TOKEN, OWNER, 1_000_000n),
      aTokenEvent('Burn', [OWNER, OWNER], [1_000_000n, 0n, INDEX]),
    ];
    expect(move('withdraw', partial, 9n)).toEqual({ amountMicros: 1_000_000n, shares: 909_091n });
    // Everything left: 3_636_363 scaled pays floor(3_636_363 × 1.1) = 3_999_999.
    const full = [
      usdcTransfer(A_TOKEN, OWNER, 3_999_999n),
      aTokenEvent('Burn', [OWNER, OWNER], [3_999_999n, 0n, INDEX]),
    ];
    expect(move('withdraw', full, 9n)).toEqual({ amountMicros: 3_999_999n, shares: 3_636_363n });
    // A Burn that moved a unit more or less than floor(m·i) allows is not this withdrawal.
    const off = [
      usdcTransfer(A_TOKEN, OWNER, 1_000_000n),
      aTokenEvent('Burn', [OWNER, OWNER], [1_000_002n, 0n, INDEX]),
    ];
    expect(move('withdraw', off, 9n)).toBeUndefined();
  });

  it('two Mints for the owner in one transaction do not settle (which index?)', () => {
    const logs = [
      usdcTransfer(OWNER, A_TOKEN, 2_000_000n),
      aTokenEvent('Mint', [OWNER, OWNER], [999_999n, 0n, INDEX]),
      aTokenEvent('Mint', [OWNER, OWNER], [999_999n, 0n, INDEX]),
    ];
    expect(move('deposit', logs, 9n)).toBeUndefined();
  });
});

describe('settledAaveMovement', () => {
  it('a supply: USDC from the Transfer, shares = (Mint.value - balanceIncrease) rayDiv index', () => {
    const logs = [
      usdcTransfer(OWNER, A_TOKEN, 5_500_000n),
      usdcTransfer(ZERO, OWNER, 6_400_000n, A_TOKEN), // the aToken's own Transfer: not USDC
      aTokenEvent('Mint', [OWNER, OWNER], [6_400_000n, 900_000n, INDEX]),
    ];
    expect(move('deposit', logs)).toEqual({ amountMicros: 5_500_000n, shares: 5_000_000n });
  });

  it('a withdrawal: Burn (value + balanceIncrease), or the Mint Aave emits when interest exceeds it', () => {
    const burn = [
      usdcTransfer(A_TOKEN, OWNER, 4_400_000n),
      aTokenEvent('Burn', [OWNER, OWNER], [4_000_000n, 400_000n, INDEX]),
    ];
    expect(move('withdraw', burn)).toEqual({ amountMicros: 4_400_000n, shares: 4_000_000n });
    const index12 = (RAY * 12n) / 10n;
    const mint = [
      usdcTransfer(A_TOKEN, OWNER, 600_000n),
      aTokenEvent('Mint', [OWNER, OWNER], [400_000n, 1_000_000n, index12]),
    ];
    expect(move('withdraw', mint)).toEqual({ amountMicros: 600_000n, shares: 500_000n });
  });

  it('is undefined without both sides, when they disagree, or for another owner or contract', () => {
    const transfer = usdcTransfer(OWNER, A_TOKEN, 1_000_000n);
    const mint = aTokenEvent('Mint', [OWNER, OWNER], [1_000_000n, 0n, RAY]);
    for (const logs of [
      [transfer],
      [mint],
      [transfer, aTokenEvent('Mint', [OWNER, OWNER], [999_999n, 0n, RAY])],
      [transfer, aTokenEvent('Mint', [OWNER, OTHER], [1_000_000n, 0n, RAY])],
      [transfer, aTokenEvent('Mint', [OWNER, OWNER], [1_000_000n, 0n, RAY], OTHER)],
      // A transfer's interest Mint (value = balanceIncrease) supplies nothing.
      [transfer, aTokenEvent('Mint', [OWNER, OWNER], [7n, 7n, RAY])],
    ]) {
      expect(move('deposit', logs)).toBeUndefined();
    }
    // A supply's Mint is not a withdrawal; a Burn to someone else is not the owner's.
    expect(move('withdraw', [usdcTransfer(A_TOKEN, OWNER, 5n), mint])).toBeUndefined();
    const elsewhere = aTokenEvent('Burn', [OWNER, OTHER], [5n, 0n, RAY]);
    expect(move('withdraw', [usdcTransfer(A_TOKEN, OWNER, 5n), elsewhere])).toBeUndefined();
  });
});

describe('rayMul / rayDiv and the v3.5 floor / ceil variants', () => {
  it('round as Aave v3 WadRayMath: half up; floor and ceil from v3.5', () => {
    expect(rayDivFloor(5_000_000n, INDEX)).toBe(4_545_454n);
    expect(rayDivCeil(5_000_000n, INDEX)).toBe(4_545_455n);
    expect(rayDivCeil(5_500_000n, INDEX)).toBe(5_000_000n);
    expect(rayMulFloor(4_545_454n, INDEX)).toBe(4_999_999n);
    expect(rayMul(4_545_455n, INDEX)).toBe(5_000_001n);
    expect(rayMul(1n, RAY / 2n)).toBe(1n);
    expect(rayMul(1n, RAY / 2n - 1n)).toBe(0n);
    expect(rayMul(10_000_000n, INDEX)).toBe(11_000_000n);
    expect(rayDiv(1n, 2n * RAY)).toBe(1n);
    expect(rayDiv(1n, 2n * RAY + 2n)).toBe(0n);
    expect(rayDiv(5_500_000n, INDEX)).toBe(5_000_000n);
  });
});
