import type { BridgeLane, Chain, LegBuild, ReceiptWith, Unavailable } from '@yieldrouter/schemas';

export type BridgeSpeed = 'standard' | 'fast';

/** What a rail charges and how long it takes for one transfer. */
export type BridgeRailQuote =
  | {
      readonly status: 'ok';
      /** The most the rail may keep (the burn's maxFee); 0 on standard CCTP transfers. */
      readonly railFeeMicros: bigint;
      readonly minFinalityThreshold: number;
      readonly finality: 'fast' | 'finalized';
      /** An estimate from the source chain's finality. */
      readonly etaSeconds: number;
    }
  | { readonly status: 'not_configured'; readonly field: string }
  | { readonly status: 'unavailable'; readonly detail: string };

/** A burn proven by the source chain's receipt. */
export type BridgeBurnReading = ReceiptWith<{
  readonly amountMicros: bigint;
  readonly destinationDomain: number;
  readonly mintRecipient: string;
}>;

/** The attestation of a burn, as the rail's attestation service gives it. */
export type BridgeAttestation =
  | {
      readonly status: 'complete';
      readonly message: `0x${string}`;
      readonly attestation: `0x${string}`;
      /** The attested message's nonce: which mint delivers this burn. */
      readonly nonce: string;
    }
  | { readonly status: 'pending'; readonly detail: string }
  | {
      readonly status: 'unavailable';
      readonly detail: string;
      /**
       * The service was not asked: this process's request budget was spent or a 429 hold-off
       * runs. Says nothing about the attestation (the bridge expiry waits for a real answer).
       */
      readonly notAsked?: true;
    };

/** A mint proven by the destination chain's receipt. */
export type BridgeMintReading = ReceiptWith<{
  readonly amountMicros: bigint;
  readonly feeMicros: bigint;
}>;

/** Where the destination received a message: its transaction, none yet, or unreadable. */
export type BridgeMintSearch =
  | { readonly status: 'found'; readonly txId: string }
  | { readonly status: 'not_found' }
  | { readonly status: 'unavailable'; readonly detail: string };

/**
 * One way to move USDC between chains. Every leg is built locally and unsigned (the owner signs);
 * every answer from a chain or an attestation service is read fail-closed.
 */
export interface BridgeRail {
  readonly id: 'cctp';
  /** The lanes this rail runs as configured. */
  readonly lanes: readonly BridgeLane[];
  supports(lane: BridgeLane): boolean;
  quote(lane: BridgeLane, amountMicros: bigint, speed: BridgeSpeed): Promise<BridgeRailQuote>;
  /** The owner's allowance to the rail's burn contract, where the source needs one. */
  readAllowance(lane: BridgeLane, owner: string): Promise<bigint | Unavailable>;
  buildBurn(parameters: {
    readonly planId: string;
    readonly lane: BridgeLane;
    readonly owner: string;
    readonly recipient: string;
    readonly amountMicros: bigint;
    readonly railFeeMicros: bigint;
    readonly minFinalityThreshold: number;
    readonly allowance: bigint;
    /** The service's bridge fee and where it is paid, a leg before the burn. */
    readonly serviceFee?: { readonly recipient: string; readonly amountMicros: bigint };
  }): Promise<LegBuild>;
  readBurn(parameters: {
    readonly lane: BridgeLane;
    readonly planId: string;
    readonly owner: string;
    readonly txId: string;
  }): Promise<BridgeBurnReading>;
  readAttestation(lane: BridgeLane, burnTxId: string): Promise<BridgeAttestation>;
  /**
   * What a burn for the plan's `recipient` names as its mint recipient, as `readBurn` renders it
   * (Solana: the recipient's USDC token account); absent: the recipient itself.
   */
  mintRecipientOf?(lane: BridgeLane, recipient: string): string;
  buildMint(parameters: {
    readonly planId: string;
    readonly lane: BridgeLane;
    readonly owner: string;
    readonly amountMicros: bigint;
    readonly message: string;
    readonly attestation: string;
  }): Promise<LegBuild>;
  /**
   * Which destination transaction received the attested message (`nonce`), whoever relayed it;
   * what it minted is for `readMint` to prove. A rail that cannot search leaves the delivery to
   * the owner's report (POST /svc/bridge/delivery).
   */
  findMint?(parameters: {
    readonly lane: BridgeLane;
    readonly nonce: string;
  }): Promise<BridgeMintSearch>;
  readMint(parameters: {
    readonly lane: BridgeLane;
    readonly txId: string;
    readonly nonce: string;
    readonly recipient: string;
  }): Promise<BridgeMintReading>;
}

/** Circle's CCTP domain of each chain the service knows (Ethereum is 0; not served here). */
export const CCTP_DOMAINS: Readonly<Record<Chain, number>> = {
  arbitrum: 3,
  solana: 5,
  base: 6,
  sui: 8,
};
