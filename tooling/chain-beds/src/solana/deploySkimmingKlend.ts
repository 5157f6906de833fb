import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  MEMO_PROGRAM_ID,
  VENUE_LAYOUT,
  deployKlendStandin,
  standinSetSkim,
} from '@yieldrouter/solana-programs';
import { registerWith } from './deployJupiterLend';
import { klendVenueIds } from './deployYieldRouter';
import type { SolanaRouterDeployment } from './deployYieldRouter';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';

/**
 * A venue that cheats (issue 44), for the tests that prove settlement catches it on Solana: the
 * skimming build of the klend stand-in (programs/klend_skimming) at a program id of its own, one
 * USDC reserve seeded with 100 USDC (rate one), registered with the router under the klend layout.
 * The product's kamino adapter builds the same bytes for it as for the honest one.
 */
export interface SolanaSkimmingKlend {
  /** What `SVC_VENUE_IDS.kamino` would take to route to it. */
  readonly ids: SolanaRouterDeployment['kamino']['ids'];
  /**
   * From now on (the operator turns a skim on): each deposit takes `bps` of the liquidity on top
   * of what it books, each redemption pays `bps` less; the skim stays in the reserve's supply
   * vault, and the venue's log, its cTokens and the router's event claim the plan's amount.
   */
  setSkimBps(bps: bigint): void;
}

/**
 * @example
 * const cheat = deploySkimmingKlend(bed, router);
 * // prepare a kamino plan with venues.ids.kamino = cheat.ids, then:
 * cheat.setSkimBps(500n);
 */
export function deploySkimmingKlend(
  bed: SolanaBed,
  router: SolanaRouterDeployment,
): SolanaSkimmingKlend {
  const admin = bed.mintAuthority;
  const send = (
    instructions: Parameters<typeof sendAsAuthority>[0]['instructions'],
    what: string,
  ) => sendAsAuthority({ sender: bed, authority: admin, instructions, what });
  const reserve = deployKlendStandin({
    svm: bed.svm,
    send: (instructions, signers) =>
      sendAsAuthority({
        sender: bed,
        authority: admin,
        instructions,
        signers: [...signers],
        what: 'deploy skimming klend',
      }),
    admin,
    usdcMint: new PublicKey(bed.usdcMint),
    borrowMicros: 0n,
    skimming: { program: Keypair.generate().publicKey },
  });
  registerWith(bed, router, reserve.reserve, reserve.program, VENUE_LAYOUT.klend);
  let settings = 0;
  return {
    ids: klendVenueIds(reserve),
    setSkimBps: (bps) => {
      // A numbered memo: the same setting again is another transaction (litesvm refuses a
      // repeat), and the blockhash stays the one prepared plans were built with.
      settings += 1;
      const memo = new TransactionInstruction({
        programId: MEMO_PROGRAM_ID,
        keys: [],
        data: Buffer.from(`bed: skim ${bps} bps (setting ${settings})`, 'utf8'),
      });
      send([standinSetSkim(reserve, admin.publicKey, bps), memo], 'set skim');
    },
  };
}
