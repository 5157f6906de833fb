import { randomBytes } from 'node:crypto';
import { PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { ata, planMemo, routerVenueLeg } from '@yieldrouter/solana-programs';
import { deployYieldRouter } from './deployYieldRouter';
import { startSolanaBed } from './startSolanaBed';
import type { SolanaBed } from './startSolanaBed';

describe('deployYieldRouter', () => {
  let bed: SolanaBed;
  beforeAll(async () => {
    bed = await startSolanaBed();
  });
  afterAll(() => bed.stop());

  it('deploys the router and a registered test venue that an owner-signed leg runs through', () => {
    const deployment = deployYieldRouter(bed);
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 20_000_000n);
    const usdcMint = new PublicKey(bed.usdcMint);
    const planId = randomBytes(16);
    const receiptMint = new PublicKey(deployment.venue.receiptMint);
    const message = new TransactionMessage({
      payerKey: owner.publicKey,
      recentBlockhash: bed.latestBlockhash(),
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(
          owner.publicKey,
          ata(owner.publicKey, receiptMint),
          owner.publicKey,
          receiptMint,
        ),
        routerVenueLeg('deposit_to_venue', {
          programId: new PublicKey(deployment.programId),
          owner: owner.publicKey,
          usdcMint,
          amount: 8_000_000n,
          planId,
          treasury: new PublicKey(deployment.treasuryUsdc),
          venue: {
            program: new PublicKey(deployment.venue.venueProgram),
            venue: new PublicKey(deployment.venue.adapter),
            receiptMint,
            reserve: new PublicKey(deployment.venue.reserve),
          },
        }),
        planMemo(planId),
      ],
    }).compileToV0Message();
    const transaction = new VersionedTransaction(message);
    transaction.sign([owner]);
    const outcome = bed.send(transaction);
    expect(outcome.landed && outcome.entry.err).toBeNull();
    expect(bed.usdcBalance(owner.publicKey)).toBe(12_000_000n);
    expect(bed.tokenBalance(receiptMint, owner.publicKey)).toBe(8_000_000n);

    // 2 USDC of yield on 8: each receipt token is now worth 1.25 USDC.
    deployment.accrue(2_000_000n);
    expect(bed.tokenBalance(usdcMint, deployment.venue.adapter)).toBe(10_000_000n);
    // The registry's fee configuration: the published skim, paid to this treasury.
    expect(deployment.skimBps).toBe(500);
    expect(bed.usdcBalance(deployment.treasury)).toBe(0n);
  });
});
