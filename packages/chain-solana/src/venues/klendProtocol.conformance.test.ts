import { createRequire } from 'node:module';
import { PublicKey } from '@solana/web3.js';
import { depositReserveLiquidity } from '@kamino-finance/klend-sdk/dist/@codegen/klend/instructions/depositReserveLiquidity';
import { redeemReserveCollateral } from '@kamino-finance/klend-sdk/dist/@codegen/klend/instructions/redeemReserveCollateral';
import { newPlanId } from '@yieldrouter/schemas';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { decodeRouterInstructionData } from '../instructions/routerInstructionData';
import {
  bedAdapter,
  kaminoVenue,
  legTransaction,
  onlyLeg,
  signLeg,
  startRouterBed,
} from '../testing/bedAdapter';
import type { RouterBed } from '../testing/bedAdapter';
import { associatedTokenAccount } from '../tokenAccounts';

// chain-solana's klend legs against klend's own package: the protocol accounts our router call
// carries (after its 10 fixed accounts) are klend-sdk's depositReserveLiquidity /
// redeemReserveCollateral accounts with the IDL's roles, and the argument is the one klend-sdk
// encodes. (The router's CPI bytes themselves: tooling/solana-programs klendConformance.test.ts.)

type DepositAccounts = Parameters<typeof depositReserveLiquidity>[1];
type Address = DepositAccounts['reserve'];
const kit = (key: string | PublicKey): Address =>
  (typeof key === 'string' ? key : key.toBase58()) as Address;
const BN = createRequire(require.resolve('@kamino-finance/klend-sdk/package.json'))(
  'bn.js',
) as new (value: string) => Parameters<typeof depositReserveLiquidity>[0]['liquidityAmount'];

let bed: RouterBed;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  venue = kaminoVenue(bed);
});
afterAll(() => bed.stop());

/** The router call of a built leg: its argument and the protocol's accounts with roles. */
function routerCall(transaction: ReturnType<typeof legTransaction>) {
  const message = transaction.message;
  const keys = message.getAccountKeys();
  const call = message.compiledInstructions.find(
    (instruction) => keys.get(instruction.programIdIndex)?.toBase58() === bed.router.programId,
  );
  if (!call) throw new Error('no router call');
  const data = decodeRouterInstructionData(call.data);
  const protocolAccounts = call.accountKeyIndexes.slice(10).map((index) => ({
    address: keys.get(index)?.toBase58(),
    signer: message.isAccountSigner(index),
    writable: message.isAccountWritable(index),
  }));
  return { argument: data?.amountMicros, protocolAccounts };
}

/** klend-sdk's accounts as the compiled message shows them (the owner, fee payer, is writable). */
function sdkAccounts(accounts: ReadonlyArray<{ address: string; role: number }>, owner: string) {
  return accounts.map((account) => ({
    address: account.address,
    signer: account.role >= 2,
    writable: account.role % 2 === 1 || account.address === owner,
  }));
}

const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSVAR = 'Sysvar1nstructions1111111111111111111111111';

describe('klend legs match klend-sdk', () => {
  const ids = () => bed.router.kamino.ids;
  const common = (owner: PublicKey) => ({
    owner: { address: kit(owner) } as DepositAccounts['owner'],
    reserve: kit(ids().reserve),
    lendingMarket: kit(ids().lendingMarket),
    // klend's seeds ["lma", market] (klend-sdk's LENDING_MARKET_AUTH_SEED; its seeds module does
    // not load offline, its farms-sdk import is missing)
    lendingMarketAuthority: kit(
      PublicKey.findProgramAddressSync(
        [Buffer.from('lma'), new PublicKey(ids().lendingMarket).toBuffer()],
        new PublicKey(ids().klendProgram),
      )[0],
    ),
    reserveLiquidityMint: kit(bed.usdcMint),
    reserveLiquiditySupply: kit(ids().reserveLiquiditySupply),
    reserveCollateralMint: kit(ids().reserveCollateralMint),
    collateralTokenProgram: kit(TOKEN),
    liquidityTokenProgram: kit(TOKEN),
    instructionSysvarAccount: kit(SYSVAR),
  });

  it('deposit: deposit_reserve_liquidity(liquidity_amount) with its 12 accounts', async () => {
    const owner = bed.createFundedKeypair().publicKey;
    const build = await bedAdapter(bed).buildDeposit({
      planId: newPlanId(),
      owner: owner.toBase58(),
      amountMicros: 7_654_321n,
      target: { kind: 'venue', venue },
    });
    const ours = routerCall(legTransaction(onlyLeg(build)));
    const sdk = depositReserveLiquidity(
      { liquidityAmount: new BN('7654321') },
      {
        ...common(owner),
        userSourceLiquidity: kit(associatedTokenAccount(owner, new PublicKey(bed.usdcMint))),
        userDestinationCollateral: kit(
          associatedTokenAccount(owner, new PublicKey(ids().reserveCollateralMint)),
        ),
      },
    );
    expect(ours.protocolAccounts).toEqual(sdkAccounts(sdk.accounts ?? [], owner.toBase58()));
    expect(Buffer.from(sdk.data ?? []).readBigUInt64LE(8)).toBe(ours.argument);
  });

  it('withdraw: redeem_reserve_collateral(collateral_amount) with its 12 accounts', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    const deposit = await bedAdapter(bed).buildDeposit({
      planId: newPlanId(),
      owner: owner.publicKey.toBase58(),
      amountMicros: 10_000_000n,
      target: { kind: 'venue', venue },
    });
    await bedAdapter(bed).broadcast({ transaction: signLeg(onlyLeg(deposit), owner) });
    const build = await bedAdapter(bed).buildWithdraw({
      planId: newPlanId(),
      owner: owner.publicKey.toBase58(),
      amountMicros: 4_000_000n,
      target: { kind: 'venue', venue },
    });
    const ours = routerCall(legTransaction(onlyLeg(build)));
    const sdk = redeemReserveCollateral(
      { collateralAmount: new BN(String(ours.argument)) },
      {
        ...common(owner.publicKey),
        userSourceCollateral: kit(
          associatedTokenAccount(owner.publicKey, new PublicKey(ids().reserveCollateralMint)),
        ),
        userDestinationLiquidity: kit(
          associatedTokenAccount(owner.publicKey, new PublicKey(bed.usdcMint)),
        ),
      },
    );
    expect(ours.protocolAccounts).toEqual(
      sdkAccounts(sdk.accounts ?? [], owner.publicKey.toBase58()),
    );
    expect(ours.argument).toBeGreaterThan(0n);
    expect(ours.argument).toBeLessThanOrEqual(4_000_000n);
  });
});
