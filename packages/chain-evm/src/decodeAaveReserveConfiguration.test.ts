import { decodeAaveReserveConfiguration } from './decodeAaveReserveConfiguration';

// Words built from Aave v3's ReserveConfiguration bit positions, independently of the decoder.
const at = (value: bigint, bit: bigint) => value << bit;

describe('decodeAaveReserveConfiguration', () => {
  it('reads decimals (48–55), active (56), frozen (57), paused (60) and the supply cap (116–151)', () => {
    const data = at(6n, 48n) | at(1n, 56n) | at(2_000_000_000n, 116n);
    expect(decodeAaveReserveConfiguration(data)).toEqual({
      decimals: 6,
      supplyCapWholeTokens: 2_000_000_000n,
      active: true,
      frozen: false,
      paused: false,
    });
    expect(decodeAaveReserveConfiguration(data | at(1n, 57n))).toMatchObject({ frozen: true });
    expect(decodeAaveReserveConfiguration(data | at(1n, 60n))).toMatchObject({ paused: true });
    expect(decodeAaveReserveConfiguration(at(18n, 48n))).toMatchObject({
      decimals: 18,
      active: false,
      supplyCapWholeTokens: 0n,
    });
  });

  it('keeps each field to its bits when every neighbouring field is full', () => {
    // Base mainnet USDC-like: LTV 7500, threshold 7800, bonus 10500, borrowing and flash loans
    // on, reserve factor 10%, borrow cap, liquidation fee, eMode, debt ceiling: none leak in.
    const neighbours =
      7_500n |
      at(7_800n, 16n) |
      at(10_500n, 32n) |
      at(1n, 58n) |
      at(1n, 63n) |
      at(1_000n, 64n) |
      at(2n ** 36n - 1n, 80n) | // borrow cap, bits 80–115
      at(2n ** 16n - 1n, 152n) | // liquidation protocol fee, bits 152–167
      at(2n ** 84n - 1n, 168n); // eMode, unbacked mint cap, debt ceiling, unused: 168–255
    const data = neighbours | at(6n, 48n) | at(1n, 56n) | at(2n ** 36n - 1n, 116n);
    expect(decodeAaveReserveConfiguration(data)).toEqual({
      decimals: 6,
      supplyCapWholeTokens: 2n ** 36n - 1n,
      active: true,
      frozen: false,
      paused: false,
    });
    expect(decodeAaveReserveConfiguration(neighbours)).toMatchObject({
      decimals: 0,
      supplyCapWholeTokens: 0n,
    });
    expect(decodeAaveReserveConfiguration(2n ** 256n - 1n)).toEqual({
      decimals: 255,
      supplyCapWholeTokens: 2n ** 36n - 1n,
      active: true,
      frozen: true,
      paused: true,
    });
  });

  it('a value outside uint256 is a RangeError, never a figure', () => {
    expect(() => decodeAaveReserveConfiguration(2n ** 256n)).toThrow(RangeError);
    expect(() => decodeAaveReserveConfiguration(-1n)).toThrow(RangeError);
  });
});
