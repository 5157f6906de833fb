import { Connection, Keypair } from '@solana/web3.js';
import { getLendingProgram } from '@jup-ag/lend/earn';
import BN from 'bn.js';
import fc from 'fast-check';
import {
  JUPITER_LEND_LENDING_LENGTH,
  JUPITER_LEND_TOKEN_RESERVE_LENGTH,
  decodeJupiterLendLending,
  decodeJupiterLendTokenReserve,
  jlTokenValue,
  jlTokensForUsdc,
  jupiterLendExchangePrice,
} from './jupiterLendState';

// The package's own Anchor coder (its `Program` over the lending IDL) encodes the accounts; no
// request is made (the connection is never used by the coder).
const program = getLendingProgram({ connection: new Connection('http://127.0.0.1:9') });
const key = () => Keypair.generate().publicKey;

describe('Jupiter Lend account decoders against @jup-ag/lend', () => {
  it('decodes a Lending account the package encodes', async () => {
    const fields = {
      mint: key(),
      fTokenMint: key(),
      lendingId: 7,
      decimals: 6,
      rewardsRateModel: key(),
      liquidityExchangePrice: new BN('1034567890123'),
      tokenExchangePrice: new BN('1045678901234'),
      lastUpdateTimestamp: new BN('1764900000'),
      tokenReservesLiquidity: key(),
      supplyPositionOnLiquidity: key(),
      bump: 254,
    };
    const data = await program.coder.accounts.encode('lending', fields);
    expect(data).toHaveLength(JUPITER_LEND_LENDING_LENGTH);
    const decoded = decodeJupiterLendLending(data);
    expect(decoded.mint.equals(fields.mint)).toBe(true);
    expect(decoded.fTokenMint.equals(fields.fTokenMint)).toBe(true);
    expect(decoded.rewardsRateModel.equals(fields.rewardsRateModel)).toBe(true);
    expect(decoded.tokenReservesLiquidity.equals(fields.tokenReservesLiquidity)).toBe(true);
    expect(decoded.supplyPositionOnLiquidity.equals(fields.supplyPositionOnLiquidity)).toBe(true);
    expect(decoded).toMatchObject({
      lendingId: 7,
      decimals: 6,
      liquidityExchangePrice: 1034567890123n,
      tokenExchangePrice: 1045678901234n,
      lastUpdateTimestamp: 1764900000n,
      bump: 254,
    });
    // And the package decodes what it encoded the same way (the round trip is its own).
    const theirs = program.coder.accounts.decode('lending', data);
    expect(theirs.tokenExchangePrice.toString()).toBe(decoded.tokenExchangePrice.toString());
  });

  it('decodes a TokenReserve account the package encodes (packed layout)', async () => {
    const fields = {
      mint: key(),
      vault: key(),
      borrowRate: 512,
      feeOnInterest: 1000,
      lastUtilization: 8123,
      lastUpdateTimestamp: new BN('1764900123'),
      supplyExchangePrice: new BN('1051234567890'),
      borrowExchangePrice: new BN('1102345678901'),
      maxUtilization: 9500,
      totalSupplyWithInterest: new BN(11),
      totalSupplyInterestFree: new BN(12),
      totalBorrowWithInterest: new BN(13),
      totalBorrowInterestFree: new BN(14),
      totalClaimAmount: new BN(15),
      interactingProtocol: key(),
      interactingTimestamp: new BN(16),
      interactingBalance: new BN(17),
    };
    const data = await program.coder.accounts.encode('tokenReserve', fields);
    expect(data).toHaveLength(JUPITER_LEND_TOKEN_RESERVE_LENGTH);
    const decoded = decodeJupiterLendTokenReserve(data);
    expect(decoded.mint.equals(fields.mint)).toBe(true);
    expect(decoded.vault.equals(fields.vault)).toBe(true);
    expect(decoded).toMatchObject({
      lastUpdateTimestamp: 1764900123n,
      supplyExchangePrice: 1051234567890n,
      borrowExchangePrice: 1102345678901n,
    });
  });

  it('refuses an account of another type', async () => {
    const data = await program.coder.accounts.encode('lendingAdmin', {
      authority: key(),
      liquidityProgram: key(),
      rebalancer: key(),
      nextLendingId: 1,
      auths: [],
      bump: 1,
    });
    expect(() => decodeJupiterLendLending(Buffer.concat([data, Buffer.alloc(200)]))).toThrow(
      /discriminator/,
    );
  });
});

describe('jlToken amounts', () => {
  it('grows the token price by the liquidity layer’s supply price, as the package does', () => {
    const lending = {
      tokenExchangePrice: 1_020_000_000_000n,
      liquidityExchangePrice: 1_030_000_000_000n,
    };
    const price = jupiterLendExchangePrice(
      { ...decodeJupiterLendLending(minimalLending()), ...lending },
      {
        ...decodeJupiterLendTokenReserve(minimalReserve()),
        supplyExchangePrice: 1_040_300_000_000n,
      },
    );
    // +1 % on the liquidity layer: 1.0302 (rounded down at each step).
    expect(price).toBe(1_030_200_000_000n);
  });

  it('a redeem sized for X USDC pays at least X, never more shares than the balance', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 13n }),
        fc.bigInt({ min: 10n ** 12n, max: 3n * 10n ** 12n }),
        (usdc, price) => {
          const balance = 10n ** 20n;
          const shares = jlTokensForUsdc(usdc, price, balance);
          expect(jlTokenValue(shares, price)).toBeGreaterThanOrEqual(usdc);
          if (shares > 1n) expect(jlTokenValue(shares - 1n, price)).toBeLessThan(usdc);
          expect(jlTokensForUsdc(usdc, price, shares - 1n)).toBe(shares - 1n);
        },
      ),
    );
  });
});

function minimalLending(): Buffer {
  const data = Buffer.alloc(JUPITER_LEND_LENDING_LENGTH);
  Buffer.from([135, 199, 82, 16, 249, 131, 182, 241]).copy(data);
  return data;
}

function minimalReserve(): Buffer {
  const data = Buffer.alloc(JUPITER_LEND_TOKEN_RESERVE_LENGTH);
  Buffer.from([21, 18, 59, 135, 120, 20, 31, 12]).copy(data);
  return data;
}
