/** What the owner expects of a plan, as the owner knows it (never read from the plan itself). */
export interface VerifyPlanOptions {
  /** The wallet that signs every leg (EVM 0x address, Solana base58 key, Sui 0x address). */
  readonly owner: string;
  /**
   * The contracts, programs, packages and accounts the owner accepts money going to or through:
   * the venues' and the router's ids (as `GET /svc/packages` lists them, or the protocols' own
   * address books), the tokens, a swap source's contracts. An approval's spender must be one.
   */
  readonly venues?: readonly string[] | undefined;
  /** Whom the owner pays on purpose (auto-pay payees, a bridge's recipient on another chain). */
  readonly payees?: readonly string[] | undefined;
  /** The fee recipients the plan's fee lines disclose (e.g. the service's fee address). */
  readonly feeRecipients?: readonly string[] | undefined;
  /**
   * Solana: the address lookup tables the legs compile with, table address → its addresses in
   * order. Without them a leg that uses a table cannot be read offline (verdict `incomplete`).
   */
  readonly lookupTables?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** Why a leg (or the plan) fails verification. */
export type VerifyReasonCode =
  /** The plan is not a prepared plan with legs. */
  | 'not_prepared'
  /** The plan names another owner than the one verifying. */
  | 'owner_mismatch'
  /** A leg is not signed by (or not paid for by) the owner. */
  | 'sender_not_owner'
  /** A leg does not carry the plan's tag (EVM calldata tag, Solana memo, Sui plan-id input). */
  | 'plan_tag_missing'
  /** A leg carries another plan's id. */
  | 'plan_tag_mismatch'
  /** Money or a call goes to an address that is not the owner, a venue, a payee or a fee recipient. */
  | 'unknown_destination'
  /** An approval to a spender that is not a listed venue. */
  | 'approval_to_foreign_spender'
  /** An approval for more than the leg moves. */
  | 'approval_exceeds_amount'
  /** The bytes move another amount than the leg states. */
  | 'amount_mismatch'
  /** The fee lines do not add up to the plan's fee, or a fee transfer matches no fee line. */
  | 'fee_mismatch'
  /** Native value sent with a call that takes none. */
  | 'unexpected_value'
  /** A call or instruction the verifier does not know: it cannot say where money goes. */
  | 'unknown_call'
  /** The bytes do not decode in the leg's encoding. */
  | 'undecodable'
  /** The plan's own simulation at prepare found the legs moving USDC otherwise (issue 44). */
  | 'simulation_finding'
  /**
   * A leg's bytes are not the bytes the plan's simulation ran (their `sha256:` digest differs):
   * changed after prepare, the simulated outcome says nothing of them.
   */
  | 'bytes_digest_mismatch';

/** Why a part of a leg could not be checked offline (not a failure, not a pass). */
export type VerifyGapCode =
  /** The calldata is a swap source's own encoding; only its target was checked. */
  | 'opaque_swap_call'
  /** A Solana leg uses an address lookup table the options do not supply. */
  | 'lookup_table_unresolved'
  /**
   * The plan's simulation has not run this leg yet (Solana, Sui: it runs on what the leg it
   * waits for leaves, so it is simulated once that leg settles): fetch the plan again, after that
   * leg settled, before signing it.
   */
  | 'simulation_deferred';

export interface VerifyReason {
  readonly code: VerifyReasonCode;
  /** The leg's index; absent for a plan-level reason. */
  readonly leg?: number;
  readonly message: string;
}

export interface VerifyGap {
  readonly code: VerifyGapCode;
  readonly leg: number;
  readonly message: string;
}

/** What a leg's bytes do, as decoded (amounts in the token's base units). */
export type LegEffect =
  | {
      readonly kind: 'approve';
      readonly token: string;
      readonly spender: string;
      readonly amount: bigint;
    }
  | {
      readonly kind: 'transfer';
      readonly token: string;
      readonly to: string;
      readonly amount: bigint;
    }
  | {
      readonly kind: 'venue_call';
      readonly target: string;
      readonly call: string;
      readonly amount?: bigint;
      readonly beneficiary?: string;
    }
  | { readonly kind: 'send_object'; readonly to: string };

export interface LegVerdict {
  readonly index: number;
  readonly encoding: string;
  readonly effects: readonly LegEffect[];
}

/**
 * The verdict: `verified` when every leg decoded and passed every check; `rejected` with the
 * reasons when any check failed; `incomplete` when nothing failed but a part could not be read
 * offline (`gaps`).
 */
export interface PlanVerdict {
  readonly status: 'verified' | 'rejected' | 'incomplete';
  readonly planId: string | undefined;
  readonly reasons: readonly VerifyReason[];
  readonly gaps: readonly VerifyGap[];
  readonly legs: readonly LegVerdict[];
}

/** The parts of a plan document (`PlanDocument` of the API) the verifier reads. */
export interface VerifiablePlan {
  readonly planId?: string | undefined;
  readonly status: string;
  readonly owner?: string | undefined;
  readonly feeMicros?: string | undefined;
  readonly feeLines?:
    readonly { readonly amountMicros: string; readonly kind: string }[] | undefined;
  readonly legs?: readonly VerifiableLeg[] | undefined;
  /**
   * The plan's simulation at prepare (issue 44). Its findings reject the plan: the chain itself
   * showed the legs moving USDC otherwise than the plan says (a fee-on-transfer token, a venue
   * that takes less). Their absence proves nothing the decoding did not.
   */
  readonly simulation?:
    | {
        readonly status: string;
        /** Each simulated leg's `bytesDigest`: sha256 of `<encoding>\n<transaction>`. */
        readonly legs?:
          | readonly {
              readonly index: number;
              readonly bytesDigest: string;
              /** `deferred`: not simulated yet (it waits for leg `waitsFor` to settle). */
              readonly outcome?: string | undefined;
              readonly waitsFor?: number | undefined;
            }[]
          | undefined;
        readonly findings?:
          | readonly {
              readonly legIndex: number;
              readonly code: string;
              readonly message: string;
            }[]
          | undefined;
      }
    | undefined;
  /**
   * A venue withdrawal's skim to the chain's treasury (issue #46): a disclosed fee line of its
   * own, paid to a fee recipient the owner lists (GET /svc/fees `treasuries`).
   */
  readonly skim?: { readonly treasury: string; readonly skimMicros: string } | undefined;
}

export interface VerifiableLeg {
  readonly index: number;
  readonly action: string;
  readonly amountMicros: string;
  readonly encoding: string;
  readonly transaction:
    | string
    | {
        readonly chainId: number;
        readonly from: string;
        readonly to: string;
        readonly data: string;
        readonly value: string;
      };
}
