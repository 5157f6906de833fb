import type { AccountMeta, Connection, PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { Blocker, DepositRounding } from '@yieldrouter/schemas';
import type { SolanaContext } from '../solanaContext';

/**
 * The protocol layouts our router speaks: `YR_LAYOUT_ID_*` of
 * tooling/solana-programs/include/layouts/venue_layout.h. A registry entry records one.
 */
export const SOLANA_VENUE_LAYOUT = {
  testVenue: 0,
  klend: 1,
  jupiterLend: 2,
  save: 3,
  marginfi: 4,
} as const;
export type SolanaVenueLayout = (typeof SOLANA_VENUE_LAYOUT)[keyof typeof SOLANA_VENUE_LAYOUT];

/** The unit of the router call's u64 argument (`YR_UNIT_*`): USDC, or the protocol's receipts. */
export type SolanaVenueUnit = 'liquidity' | 'shares';

/** What a venue leg asks of its protocol. */
export interface VenueCallInput {
  readonly context: SolanaContext;
  readonly action: 'deposit' | 'withdraw';
  readonly owner: PublicKey;
  /** The leg's USDC amount; a `shares` withdrawal converts it (rounding in the owner's favour). */
  readonly amountMicros: bigint;
  readonly usdcMint: PublicKey;
  /** The venue's configured ids, parsed (every name of `idNames`). */
  readonly ids: Readonly<Record<string, PublicKey>>;
}

/** The protocol's part of a leg: the router builds the protocol's instruction data itself. */
export interface VenueCall {
  /** Instructions before the router's (the owner's token accounts, a reserve refresh…). */
  readonly setup: readonly TransactionInstruction[];
  /** The registered protocol account (the router's fixed account 3). */
  readonly adapter: PublicKey;
  readonly venueProgram: PublicKey;
  /** The router call's argument, in the layout's unit for this action. */
  readonly argument: bigint;
  /** The protocol instruction's accounts, in the protocol's order and with its flags. */
  readonly venueAccounts: readonly AccountMeta[];
}

/**
 * A receipt's exchange rate, as a ratio: `shares` receipts are worth
 * `floor(shares × liquidity / supply)` USDC micros (both may be scaled by the same factor).
 */
export interface VenueExchangeRate {
  readonly liquidity: bigint;
  readonly supply: bigint;
}

/**
 * One lending protocol as chain-solana speaks it through our router: its layout id (what the
 * router's registry records), the ids it needs, how a leg's accounts are built, the receipt it
 * mints the owner, and how its own state values that receipt.
 */
export interface SolanaVenueProtocol {
  readonly name: string;
  readonly layout: SolanaVenueLayout;
  /** `SVC_VENUE_IDS.<venueId>` names this protocol needs (the catalog's `requiredVenueIds`). */
  readonly idNames: readonly string[];
  /** The unit of each action's argument (what the router's event reports: `amount=` / `shares=`). */
  readonly units: Readonly<Record<'deposit' | 'withdraw', SolanaVenueUnit>>;
  /**
   * How its deposit rounds (`DepositRounding`, as its source does it; default `exact`): the
   * receipt reader, the plan's simulation checks and settlement allow that much kept back of a
   * deposit (`depositRoundingMicros`), never more taken.
   */
  readonly depositRounding?: DepositRounding;
  /**
   * How its withdrawal rounds, declared on its own (a protocol may take a deposit exactly and
   * still pay a redemption rounded; default `exact`): the plan's simulation checks and
   * settlement allow that much paid beyond a withdrawal's amount (`withdrawRoundingMicros`),
   * never less.
   */
  readonly withdrawRounding?: DepositRounding;
  /** The receipt token minted to the owner, from the venue's ids (a token-receipt protocol). */
  receiptMint?(ids: Readonly<Record<string, PublicKey>>): PublicKey;
  /**
   * A protocol without a receipt token (marginfi): the owner's shares as its own account holds
   * them, in the unit the router measures (`YR_RECEIPT_*` of the layout), which the router also
   * logs for each leg (`venue_receipts delta=`). Fails closed: throws.
   */
  readOwnerShares?(
    connection: Connection,
    owner: PublicKey,
    ids: Readonly<Record<string, PublicKey>>,
  ): Promise<bigint>;
  buildCall(input: VenueCallInput): Promise<VenueCall | { readonly blockers: readonly Blocker[] }>;
  /** The receipt's exchange rate from the protocol's own accounts (fails closed: throws). */
  readExchangeRate(
    connection: Connection,
    ids: Readonly<Record<string, PublicKey>>,
    usdcMint: PublicKey | undefined,
  ): Promise<VenueExchangeRate>;
}
