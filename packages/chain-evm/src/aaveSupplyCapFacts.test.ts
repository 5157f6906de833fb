import { aaveSupplyCapFacts } from './aaveSupplyCapFacts';
import { RAY } from './rayMath';

const ACTIVE = 1n << 56n;
const usdc = (capWholeTokens: bigint) => (6n << 48n) | ACTIVE | (capWholeTokens << 116n);

describe('aaveSupplyCapFacts', () => {
  it('no cap set: both caps null, uncapped, with the reason', () => {
    expect(
      aaveSupplyCapFacts({
        configuration: usdc(0n),
        scaledTotalSupply: 5_000_000n,
        accruedToTreasury: 0n,
        normalizedIncome: RAY,
      }),
    ).toEqual({
      totalCapUnits: null,
      capUsedUnits: null,
      maxDepositUnits: null,
      reason: 'no supply cap set (uncapped)',
    });
  });

  it('cap × 10^decimals, less the supply and the treasury share at the index', () => {
    expect(
      aaveSupplyCapFacts({
        configuration: usdc(100n),
        scaledTotalSupply: 50_000_000n,
        accruedToTreasury: 2_000_000n,
        normalizedIncome: (RAY * 11n) / 10n, // 1.1
      }),
    ).toEqual({
      totalCapUnits: 100_000_000n,
      capUsedUnits: 57_200_000n, // 52e6 × 1.1
      maxDepositUnits: 42_800_000n,
      reason: null,
    });
    const eighteen = (18n << 48n) | ACTIVE | (3n << 116n);
    expect(
      aaveSupplyCapFacts({
        configuration: eighteen,
        scaledTotalSupply: 0n,
        accruedToTreasury: 0n,
        normalizedIncome: RAY,
      }),
    ).toMatchObject({ totalCapUnits: 3n * 10n ** 18n, maxDepositUnits: 3n * 10n ** 18n });
  });

  it('what counts against the cap rounds up, so the room is never overstated', () => {
    const facts = aaveSupplyCapFacts({
      configuration: usdc(10n),
      scaledTotalSupply: 3n,
      accruedToTreasury: 0n,
      normalizedIncome: RAY + RAY / 10n, // 3 × 1.1 = 3.3: 4 counted (half up, Aave v3.0–3.4: 3)
    });
    expect(facts).toMatchObject({ capUsedUnits: 4n, maxDepositUnits: 9_999_996n });
  });

  it('over the cap (the index grew past it): no room, never negative', () => {
    expect(
      aaveSupplyCapFacts({
        configuration: usdc(1n),
        scaledTotalSupply: 1_000_000n,
        accruedToTreasury: 0n,
        normalizedIncome: RAY * 2n,
      }),
    ).toMatchObject({ totalCapUnits: 1_000_000n, capUsedUnits: 2_000_000n, maxDepositUnits: 0n });
  });

  it('an inactive, paused or frozen reserve takes no supply, capped or not', () => {
    const state = { scaledTotalSupply: 0n, accruedToTreasury: 0n, normalizedIncome: RAY };
    expect(aaveSupplyCapFacts({ ...state, configuration: usdc(100n) | (1n << 57n) })).toEqual({
      totalCapUnits: 100_000_000n,
      capUsedUnits: 0n,
      maxDepositUnits: 0n,
      reason: 'the Aave v3 reserve is frozen: it takes no supply',
    });
    expect(aaveSupplyCapFacts({ ...state, configuration: usdc(0n) | (1n << 60n) })).toEqual({
      totalCapUnits: null,
      capUsedUnits: null,
      maxDepositUnits: 0n,
      reason: 'no supply cap set (uncapped); the Aave v3 reserve is paused: it takes no supply',
    });
    expect(aaveSupplyCapFacts({ ...state, configuration: usdc(5n) & ~ACTIVE })).toMatchObject({
      maxDepositUnits: 0n,
      reason: 'the Aave v3 reserve is inactive: it takes no supply',
    });
  });
});
