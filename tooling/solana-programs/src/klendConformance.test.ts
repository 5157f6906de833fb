import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { depositReserveLiquidity } from '@kamino-finance/klend-sdk/dist/@codegen/klend/instructions/depositReserveLiquidity';
import { redeemReserveCollateral } from '@kamino-finance/klend-sdk/dist/@codegen/klend/instructions/redeemReserveCollateral';
import { Reserve } from '@kamino-finance/klend-sdk/dist/@codegen/klend/accounts/Reserve';
import { LendingMarket } from '@kamino-finance/klend-sdk/dist/@codegen/klend/accounts/LendingMarket';
import {
  klendMarketAuthority,
  klendMoveAccounts,
  klendRefreshReserve,
} from './klendStandinInstructions';
import type { KlendStandinReserve } from './klendStandinInstructions';
import { ata } from './programInstructions';
import {
  createKlendRouterFixture,
  expectRunOk as ok,
  sendRoutedKlendLeg,
} from './testing/klendRouterFixture';
import type { ProgramFixture } from './testing/programFixture';

// The klend calls our router makes, checked against what klend's own package builds and decodes
// (@kamino-finance/klend-sdk's generated instruction builders and account decoders, offline).

type DepositAccounts = Parameters<typeof depositReserveLiquidity>[1];
type Address = DepositAccounts['reserve'];
type Signer = DepositAccounts['owner'];
/** A base58 key as @solana/kit's branded Address (a string at run time). */
const kit = (key: { toBase58(): string }): Address => key.toBase58() as Address;
/** bn.js as klend-sdk resolves it (its borsh codecs take BN amounts). */
const BN = createRequire(require.resolve('@kamino-finance/klend-sdk/package.json'))(
  'bn.js',
) as new (
  value: number | string,
) => Parameters<typeof depositReserveLiquidity>[0]['liquidityAmount'];

describe('klend conformance', () => {
  let fixture: ProgramFixture;
  let reserve: KlendStandinReserve;
  let owner: Keypair;
  beforeAll(() => {
    ({ fixture, reserve, owner } = createKlendRouterFixture(50_000_000n));
  });

  const sdkAccounts = () => {
    const signer = { address: kit(owner.publicKey) } as Signer;
    return {
      owner: signer,
      reserve: kit(reserve.reserve),
      lendingMarket: kit(reserve.lendingMarket),
      lendingMarketAuthority: kit(klendMarketAuthority(reserve.program, reserve.lendingMarket)),
      reserveLiquidityMint: kit(reserve.liquidityMint),
      reserveLiquiditySupply: kit(reserve.liquiditySupply),
      reserveCollateralMint: kit(reserve.collateralMint),
      collateralTokenProgram: kit({
        toBase58: () => 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      }),
      liquidityTokenProgram: kit({ toBase58: () => 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }),
      instructionSysvarAccount: kit({
        toBase58: () => 'Sysvar1nstructions1111111111111111111111111',
      }),
    };
  };

  /** The one CPI our router made into klend for the leg. */
  const routedCall = (name: 'deposit_to_venue' | 'withdraw_from_venue', amount: bigint) => {
    const planId = randomBytes(16);
    const run = ok(sendRoutedKlendLeg({ fixture, reserve, owner }, { name, amount, planId }));
    const calls = (run.innerInstructions ?? []).filter(
      (call) => call.programId === reserve.program.toBase58(),
    );
    expect(calls).toHaveLength(1);
    return calls[0];
  };

  it("the router's deposit CPI is klend-sdk's depositReserveLiquidity, byte for byte", () => {
    const call = routedCall('deposit_to_venue', 12_345_678n);
    const sdk = depositReserveLiquidity(
      { liquidityAmount: new BN(12_345_678) },
      {
        ...sdkAccounts(),
        userSourceLiquidity: kit(ata(owner.publicKey, reserve.liquidityMint)),
        userDestinationCollateral: kit(ata(owner.publicKey, reserve.collateralMint)),
      },
    );
    expect(call?.data.toString('hex')).toBe(Buffer.from(sdk.data ?? []).toString('hex'));
    expect(call?.accounts).toEqual((sdk.accounts ?? []).map((account) => account.address));
    // The account flags the router passes on are the ones our builder gives, the IDL's roles.
    const metas = klendMoveAccounts('deposit_reserve_liquidity', reserve, owner.publicKey);
    expect(metas.map((meta) => (meta.isSigner ? 2 : 0) + (meta.isWritable ? 1 : 0))).toEqual(
      (sdk.accounts ?? []).map((account) => account.role),
    );
  });

  it("the router's withdraw CPI is klend-sdk's redeemReserveCollateral, byte for byte", () => {
    const call = routedCall('withdraw_from_venue', 2_000_000n);
    const sdk = redeemReserveCollateral(
      { collateralAmount: new BN(2_000_000) },
      {
        ...sdkAccounts(),
        userSourceCollateral: kit(ata(owner.publicKey, reserve.collateralMint)),
        userDestinationLiquidity: kit(ata(owner.publicKey, reserve.liquidityMint)),
      },
    );
    expect(call?.data.toString('hex')).toBe(Buffer.from(sdk.data ?? []).toString('hex'));
    expect(call?.accounts).toEqual((sdk.accounts ?? []).map((account) => account.address));
    const metas = klendMoveAccounts('redeem_reserve_collateral', reserve, owner.publicKey);
    expect(metas.map((meta) => (meta.isSigner ? 2 : 0) + (meta.isWritable ? 1 : 0))).toEqual(
      (sdk.accounts ?? []).map((account) => account.role),
    );
  });

  it("the bed's Reserve and LendingMarket decode with klend-sdk's decoders, interest included", () => {
    fixture.harness.svm.warpToSlot(fixture.harness.svm.getClock().slot + 1_000_000n);
    ok(fixture.harness.send([klendRefreshReserve(reserve)], [fixture.admin]));
    const data = Buffer.from(fixture.harness.data(reserve.reserve) ?? []);
    const decoded = Reserve.decode(data);
    expect(decoded.lendingMarket).toBe(reserve.lendingMarket.toBase58());
    expect(decoded.liquidity.mintPubkey).toBe(reserve.liquidityMint.toBase58());
    expect(decoded.liquidity.supplyVault).toBe(reserve.liquiditySupply.toBase58());
    expect(decoded.collateral.mintPubkey).toBe(reserve.collateralMint.toBase58());
    expect(decoded.lastUpdate.slot.toString()).toBe(fixture.harness.svm.getClock().slot.toString());
    // What the reader uses, at the same values the stand-in computed.
    const u128 = (at: number) => data.readBigUInt64LE(at) + (data.readBigUInt64LE(at + 8) << 64n);
    expect(BigInt(decoded.liquidity.totalAvailableAmount.toString())).toBe(
      data.readBigUInt64LE(224),
    );
    expect(BigInt(decoded.liquidity.borrowedAmountSf.toString())).toBe(u128(232));
    expect(BigInt(decoded.liquidity.borrowedAmountSf.toString())).toBeGreaterThan(
      50_000_000n << 60n,
    );
    expect(BigInt(decoded.liquidity.accumulatedProtocolFeesSf.toString())).toBe(u128(344));
    expect(BigInt(decoded.collateral.mintTotalSupply.toString())).toBe(data.readBigUInt64LE(2592));
    const market = LendingMarket.decode(
      Buffer.from(fixture.harness.data(reserve.lendingMarket) ?? []),
    );
    expect(market.lendingMarketOwner).toBe(fixture.admin.publicKey.toBase58());
    const [, bump] = PublicKey.findProgramAddressSync(
      [Buffer.from('lma'), reserve.lendingMarket.toBuffer()],
      reserve.program,
    );
    expect(market.bumpSeed.toString()).toBe(String(bump));
  });
});
