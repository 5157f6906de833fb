import { Keypair, PublicKey } from '@solana/web3.js';
import BN from 'bn.js';
import fc from 'fast-check';
import {
  RESERVE_SIZE,
  ReserveLayout,
  parseReserve,
} from '@solendprotocol/solend-sdk/state/reserve';
import {
  SAVE_RESERVE_LENGTH,
  SAVE_WAD,
  cTokenValue,
  cTokensForDeposit,
  cTokensForUsdc,
  decodeSaveReserve,
  saveCollateralRate,
} from './saveReserveState';

const key = () => Keypair.generate().publicKey;

/** A Reserve encoded by the SDK's own `ReserveLayout`, every field set. */
function encodeReserve(overrides: Record<string, unknown>): Buffer {
  const pubkeys = [
    'lendingMarket',
    'liquidityMintPubkey',
    'liquiditySupplyPubkey',
    'liquidityPythOracle',
    'liquiditySwitchboardOracle',
    'collateralMintPubkey',
    'collateralSupplyPubkey',
    'feeReceiver',
    'extraOracle',
  ];
  const fields: Record<string, unknown> = {
    version: 1,
    lastUpdate: { slot: new BN(123_456), stale: 0 },
    liquidityMintDecimals: 6,
    liquidityAvailableAmount: new BN(0),
    liquidityBorrowedAmountWads: new BN(0),
    liquidityCumulativeBorrowRateWads: new BN(SAVE_WAD.toString()),
    liquidityMarketPrice: new BN(SAVE_WAD.toString()),
    collateralMintTotalSupply: new BN(0),
    optimalUtilizationRate: 80,
    loanToValueRatio: 75,
    liquidationBonus: 5,
    liquidationThreshold: 85,
    minBorrowRate: 0,
    optimalBorrowRate: 8,
    maxBorrowRate: 50,
    borrowFeeWad: new BN(0),
    flashLoanFeeWad: new BN(0),
    hostFeePercentage: 20,
    depositLimit: new BN('1000000000000000'),
    borrowLimit: new BN('1000000000000000'),
    protocolLiquidationFee: 10,
    protocolTakeRate: 20,
    accumulatedProtocolFeesWads: new BN(0),
    rateLimiter: {
      config: { windowDuration: new BN(1), maxOutflow: new BN(1) },
      previousQuantity: new BN(0),
      windowStart: new BN(0),
      currentQuantity: new BN(0),
    },
    addedBorrowWeightBPS: new BN(0),
    liquiditySmoothedMarketPrice: new BN(0),
    reserveType: 0,
    maxUtilizationRate: 90,
    superMaxBorrowRate: new BN(100),
    maxLiquidationBonus: 10,
    maxLiquidationThreshold: 90,
    scaledPriceOffsetBPS: new BN(0),
    liquidityExtraMarketPriceFlag: 0,
    liquidityExtraMarketPrice: new BN(0),
    attributedBorrowValue: new BN(0),
    attributedBorrowLimitOpen: new BN(0),
    attributedBorrowLimitClose: new BN(0),
    padding: Buffer.alloc(49),
    ...Object.fromEntries(pubkeys.map((name) => [name, key()])),
    ...overrides,
  };
  const data = Buffer.alloc(RESERVE_SIZE);
  ReserveLayout.encode(fields, data);
  return data;
}

describe('Save Reserve decoder against @solendprotocol/solend-sdk', () => {
  it('has the SDK’s size and decodes what the SDK’s layout encodes', () => {
    expect(RESERVE_SIZE).toBe(SAVE_RESERVE_LENGTH);
    const data = encodeReserve({
      liquidityAvailableAmount: new BN('7000000000000'),
      liquidityBorrowedAmountWads: new BN('21000000123456789012345678901234'),
      collateralMintTotalSupply: new BN('24000000000000'),
      accumulatedProtocolFeesWads: new BN('1234567890123456789012'),
    });
    const ours = decodeSaveReserve(data);
    const theirs = parseReserve(new PublicKey(key().toBase58()), {
      data,
      executable: false,
      lamports: 1,
      owner: new PublicKey(key().toBase58()),
    }).info;
    expect(ours.lendingMarket.toBase58()).toBe(theirs.lendingMarket.toBase58());
    expect(ours.liquidityMint.toBase58()).toBe(theirs.liquidity.mintPubkey.toBase58());
    expect(ours.liquiditySupply.toBase58()).toBe(theirs.liquidity.supplyPubkey.toBase58());
    expect(ours.pythOracle.toBase58()).toBe(theirs.liquidity.pythOracle.toBase58());
    expect(ours.switchboardOracle.toBase58()).toBe(theirs.liquidity.switchboardOracle.toBase58());
    expect(ours.collateralMint.toBase58()).toBe(theirs.collateral.mintPubkey.toBase58());
    expect(ours.lastUpdateSlot.toString()).toBe(theirs.lastUpdate.slot.toString());
    expect(ours.availableAmount.toString()).toBe(theirs.liquidity.availableAmount.toString());
    expect(ours.borrowedAmountWads.toString()).toBe(theirs.liquidity.borrowedAmountWads.toString());
    expect(ours.accumulatedProtocolFeesWads.toString()).toBe(
      theirs.liquidity.accumulatedProtocolFeesWads.toString(),
    );
    expect(ours.collateralMintTotalSupply.toString()).toBe(
      theirs.collateral.mintTotalSupply.toString(),
    );
  });

  it('refuses accounts that are not a version-1 Reserve', () => {
    expect(() => decodeSaveReserve(Buffer.alloc(300))).toThrow(/length/);
    expect(() => decodeSaveReserve(encodeReserve({ version: 2 }))).toThrow(/version/);
  });
});

describe('cToken amounts', () => {
  const reserve = (available: bigint, borrowedWads: bigint, feesWads: bigint, supply: bigint) =>
    decodeSaveReserve(
      encodeReserve({
        liquidityAvailableAmount: new BN(available.toString()),
        liquidityBorrowedAmountWads: new BN(borrowedWads.toString()),
        accumulatedProtocolFeesWads: new BN(feesWads.toString()),
        collateralMintTotalSupply: new BN(supply.toString()),
      }),
    );

  it('values cTokens at available + borrowed − fees over the collateral supply', () => {
    // 70 available, 30.5 borrowed, 0.5 fees: 100 USDC behind 80 cTokens, 1.25 USDC each.
    const rate = saveCollateralRate(
      reserve(70_000_000n, 30_500_000n * SAVE_WAD, 500_000n * SAVE_WAD, 80_000_000n),
    );
    expect(rate).toBe((SAVE_WAD * 4n) / 5n);
    expect(cTokenValue(8_000_000n, rate)).toBe(10_000_000n);
    expect(cTokensForDeposit(10_000_000n, rate)).toBe(8_000_000n);
  });

  it('is one to one while the reserve is empty', () => {
    expect(saveCollateralRate(reserve(0n, 0n, 0n, 0n))).toBe(SAVE_WAD);
  });

  it('a redeem sized for X USDC pays at least X, never more cTokens than the balance', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 13n }),
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.bigInt({ min: 0n, max: 10n ** 14n }),
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        (usdc, available, borrowed, supply) => {
          const rate = saveCollateralRate(reserve(available, borrowed * SAVE_WAD, 0n, supply));
          const collateral = cTokensForUsdc(usdc, rate, 10n ** 40n);
          expect(cTokenValue(collateral, rate)).toBeGreaterThanOrEqual(usdc);
          if (collateral > 1n) expect(cTokenValue(collateral - 1n, rate)).toBeLessThan(usdc);
          expect(cTokensForUsdc(usdc, rate, collateral - 1n)).toBe(collateral - 1n);
        },
      ),
      { numRuns: 200 },
    );
  });
});
