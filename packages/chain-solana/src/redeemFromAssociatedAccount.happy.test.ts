import {
  ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  createInitializeAccount3Instruction,
  createTransferInstruction,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { deployJupiterLend, deploySave } from '@yieldrouter/chain-beds';
import type { ChainAdapter, VenueOnChain } from '@yieldrouter/schemas';
import { bedAdapter, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { routedVenueRun } from './testing/routedVenueRun';
import { sendOnBed } from './testing/sendOnBed';
import { associatedTokenAccount } from './tokenAccounts';

// A full exit redeems what the owner's associated token account holds: the leg redeems from that
// account only, so receipts the owner keeps in another token account of the same mint must not
// size the redeem (the venue would refuse to burn more than the account holds).
let bed: RouterBed;
let adapter: ChainAdapter;
const venues: Record<string, { venue: VenueOnChain; receiptMint: PublicKey }> = {};
beforeAll(async () => {
  bed = await startRouterBed();
  adapter = bedAdapter(bed);
  const jupiter = deployJupiterLend(bed, { router: bed.router });
  const save = deploySave(bed, { router: bed.router });
  const venue = (venueId: string, ids: Readonly<Record<string, string>>): VenueOnChain => ({
    venueId,
    chain: 'solana',
    standard: 'router-adapter',
    ids,
  });
  venues['jupiter-lend'] = {
    venue: venue('jupiter-lend', jupiter.ids),
    receiptMint: new PublicKey(jupiter.fTokenMint),
  };
  venues.save = { venue: venue('save', save.ids), receiptMint: new PublicKey(save.collateralMint) };
  venues.kamino = {
    venue: venue('kamino', bed.router.kamino.ids),
    receiptMint: new PublicKey(bed.router.kamino.ids.reserveCollateralMint),
  };
});
afterAll(() => bed.stop());

/** The owner opens a second (non-associated) token account of `mint` and moves `amount` there. */
function moveOutOfAssociatedAccount(owner: Keypair, mint: PublicKey, amount: bigint): PublicKey {
  const other = Keypair.generate();
  const rent = bed.svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
  const run = sendOnBed(
    bed,
    [
      SystemProgram.createAccount({
        fromPubkey: owner.publicKey,
        newAccountPubkey: other.publicKey,
        lamports: Number(rent),
        space: ACCOUNT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeAccount3Instruction(other.publicKey, mint, owner.publicKey),
      createTransferInstruction(
        associatedTokenAccount(owner.publicKey, mint),
        other.publicKey,
        owner.publicKey,
        amount,
      ),
    ],
    owner,
    [other],
  );
  if (!run.ok) throw new Error(`${run.error}\n${run.logs.join('\n')}`);
  return other.publicKey;
}

describe.each(['jupiter-lend', 'save', 'kamino'])(
  '%s: a full exit with receipts outside the associated account',
  (venueId) => {
    it('redeems what the associated account holds and leaves the other account alone', async () => {
      const { venue, receiptMint } = venues[venueId] ?? {};
      if (!venue || !receiptMint) throw new Error(`no ${venueId} on the bed`);
      const owner = bed.createFundedKeypair();
      bed.mintUsdc(owner.publicKey, 20_000_000n);
      const deposit = await routedVenueRun(adapter, venue, owner, 'deposit', 20_000_000n);
      expect(deposit.receipt).toMatchObject({ status: 'confirmed' });
      const receipts = bed.tokenBalance(receiptMint, owner.publicKey);
      expect(receipts).toBeGreaterThan(0n);
      const outside = receipts / 4n;
      moveOutOfAssociatedAccount(owner, receiptMint, outside);
      const inAssociated = receipts - outside;

      // Asking for more than everything is worth: capped at the associated account's receipts.
      const exit = await routedVenueRun(adapter, venue, owner, 'withdraw', 100_000_000n);
      expect(exit.receipt).toMatchObject({ status: 'confirmed', shares: inAssociated });
      expect(bed.transaction(exit.txId)?.logMessages).toContain(
        `Program log: svc:${exit.planId} withdraw_from_venue shares=${inAssociated}`,
      );
      // The receipts elsewhere are untouched: they are still the owner's, in the other account.
      expect(bed.tokenBalance(receiptMint, owner.publicKey)).toBe(outside);
    });
  },
);
