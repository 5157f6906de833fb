import { errorMessage } from './errorMessage';
import { z } from 'zod';
import type { Chain } from './chains';
import type { UnavailableReasonCode } from './chainDocuments';
import type { Blocker } from './errors';
import type { VenueChainFacts } from './opportunityFacts';
import type { SolanaSwapLegRequest } from './solanaSwapLeg';
import { timeOrderedBytes } from './pooledRandom';
import type { LegChangesReading, LegSimulationQuery, LegSimulationReading } from './planSimulation';

/**
 * The one contract every chain adapter implements (packages/chain-sui, chain-solana, chain-evm).
 * Adapters hide their SDK: nothing here mentions viem, web3.js or @mysten/sui types.
 *
 * Rules every adapter follows:
 * - every RPC call has an explicit timeout; a read that fails is `unavailable` with a reason,
 *   never a number;
 * - addresses are checked in the chain's own format before any call (`InvalidChainInputError`
 *   naming the field);
 * - legs are unsigned and owner-signed; no adapter accepts or holds a private key;
 * - on-chain ids come from configuration; a missing id blocks the leg with a catalog blocker.
 */

/** Why a read produced no value. The value is never replaced by 0 or a constant. */
/** How an unsigned leg's transaction is encoded (one per chain family; Sui has two). */
export const UnsignedEncoding = z.enum([
  'evm-transaction-request',
  'solana-v0-base64',
  'sui-transaction-json',
  'sui-transaction-bcs-base64',
]);

/** Standard base64 (padded), as signed transactions travel in request bodies. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type UnavailableReason = z.infer<typeof UnavailableReasonCode>;

export interface Unavailable {
  readonly status: 'unavailable';
  readonly reason: UnavailableReason;
  /** Human detail (no secrets, no RPC URLs with credentials). */
  readonly detail: string;
}

/** One asset of a wallet. `amount` is in the asset's base units (lamports, mist, wei, micros). */
export type AssetBalance =
  | {
      readonly asset: string;
      readonly decimals: number;
      readonly status: 'ok';
      readonly amount: bigint;
    }
  | ({ readonly asset: string; readonly decimals: number } & Unavailable);

/**
 * How a venue is entered and valued. Ids come from configuration (the venue catalog), never
 * invented; a missing id blocks the leg that needs it with `venue_not_configured`.
 * - `erc4626` (EVM): ids.vault — approve + `deposit(assets, owner)`; value = convertToAssets(shares).
 * - `aave-v3` (EVM): ids.pool, ids.aToken — approve + `supply`; shares = the aToken's scaled
 *   balance, value = shares rayMul the pool's `getReserveNormalizedIncome`.
 * - `router-adapter` (Sui, Solana). Sui: the owner's transaction calls the venue's own functions
 *   (Suilend, Navi, Scallop; ids per venue, docs/venues/sui.md); value = receipts at the
 *   protocol's rate (Navi: scaled balance × supply index). Solana: through our router, which
 *   invokes the venue's protocol with its own instruction layout (ids per protocol, e.g. kamino:
 *   klend's reserve and cToken mint); value = the owner's receipt tokens at the protocol's own
 *   exchange rate (docs/venues/solana.md).
 */
export type VenueStandard = 'erc4626' | 'aave-v3' | 'router-adapter';

export interface VenueOnChain {
  readonly venueId: string;
  readonly chain: Chain;
  readonly standard: VenueStandard;
  readonly ids: Readonly<Record<string, string | undefined>>;
}

/**
 * Where a leg moves USDC: a venue, or `router` — the wallet's liquid balance on the chain
 * (Solana: our router program's vault; Sui: the owner's own wallet, proven by a self-transfer
 * that calls no package, docs/venues/sui.md; EVM: refused).
 */
export type LegTarget =
  { readonly kind: 'router' } | { readonly kind: 'venue'; readonly venue: VenueOnChain };

export interface LegRequest {
  /** The plan this leg belongs to; carried on chain (memo / event field / calldata tag). */
  readonly planId: string;
  /** The owner's address, in the chain's format. The owner signs. */
  readonly owner: string;
  /** USDC amount in micros (USDC has 6 decimals on every chain we serve). */
  readonly amountMicros: bigint;
  readonly target: LegTarget;
  /**
   * Venue withdrawals where the owner holds the receipts (Sui, plain EVM venues): the protocol's
   * share of what leaves the venue, paid to the chain's treasury by the same owner-signed plan
   * (Sui: in the same transaction; EVM: the next leg). `amountMicros` is then the gross the venue
   * pays; the owner keeps `amountMicros − skim.amountMicros` (docs/design-proposal-skim.md).
   */
  readonly skim?: SkimLegRequest;
}

/** The skim leg of a withdrawal: `amountMicros` USDC to the treasury (`recipient`). */
export interface SkimLegRequest {
  readonly recipient: string;
  readonly amountMicros: bigint;
}

export interface EvmTransactionRequest {
  readonly chainId: number;
  readonly from: string;
  readonly to: string;
  /** 0x-prefixed calldata. */
  readonly data: string;
  /** Wei, decimal string. */
  readonly value: string;
}

/**
 * The chain's own encoding of an unsigned transaction; also what a stored leg's payload (JSON)
 * is read back through, never cast.
 */
export const UnsignedPayload = z.discriminatedUnion('encoding', [
  z.object({
    encoding: z.literal('evm-transaction-request'),
    transaction: z.object({
      chainId: z.number().int(),
      from: z.string(),
      to: z.string(),
      data: z.string(),
      value: z.string(),
    }),
  }),
  /** A serialized unsigned v0 transaction (base64), fee payer = owner, recent blockhash set. */
  z.object({
    encoding: z.literal('solana-v0-base64'),
    transaction: z.string(),
    lastValidBlockHeight: z.string(),
  }),
  /** `Transaction.toJSON()` of @mysten/sui: unresolved; the owner's wallet resolves objects and gas. */
  z.object({ encoding: z.literal('sui-transaction-json'), transaction: z.string() }),
  /** Fully built transaction bytes (base64) when every object ref and the gas are known. */
  z.object({ encoding: z.literal('sui-transaction-bcs-base64'), transaction: z.string() }),
]);
export type UnsignedPayload = z.infer<typeof UnsignedPayload>;

export type LegAction =
  'approve' | 'deposit' | 'withdraw' | 'swap' | 'transfer' | 'wrap' | 'unwrap' | 'burn' | 'mint';

export interface UnsignedLeg {
  readonly chain: Chain;
  readonly action: LegAction;
  /** One line a person can read before signing. */
  readonly summary: string;
  readonly planId: string;
  readonly amountMicros: bigint;
  /** True for the leg whose receipt carries the money movement (an approve does not). */
  readonly settles: boolean;
  readonly payload: UnsignedPayload;
}

export type LegBuild =
  | { readonly status: 'prepared'; readonly legs: readonly UnsignedLeg[] }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

export interface ReceiptQuery {
  readonly txId: string;
  readonly planId: string;
  readonly owner: string;
  readonly action: 'deposit' | 'withdraw';
  readonly target: LegTarget;
  /**
   * A withdrawal whose plan pays the skim inside the same transaction (Sui): the treasury. Its
   * USDC change is the receipt's `skimMicros`; the owner's is `amountMicros`.
   */
  readonly skimRecipient?: string;
}

/**
 * What the chain says about a transaction. `amountMicros` is read from the chain (logs, token
 * balance deltas, balance changes) — never from the caller.
 * - `mismatch`: the transaction is not this leg's (another owner, plan, venue or asset) or
 *   moved nothing the leg expects; the leg is left untouched and the txId is not claimed.
 * - `failed`: the transaction is proven to be this leg's own (owner and plan tag checked first)
 *   and the chain ran it and reverted it; only then may a leg fail.
 */
export type Receipt =
  | { readonly status: 'pending'; readonly txId: string }
  | { readonly status: 'failed'; readonly txId: string; readonly reason: string }
  | { readonly status: 'mismatch'; readonly txId: string; readonly reason: string }
  | {
      readonly status: 'confirmed';
      readonly txId: string;
      readonly planId: string;
      readonly amountMicros: bigint;
      /**
       * Venue legs: the venue shares the transaction minted to (deposit) or burned from
       * (withdraw) the owner, in the venue's share units (ERC-4626 shares, Aave scaled balance,
       * receipt tokens). Null for router legs.
       */
      readonly shares: bigint | null;
      /**
       * Withdrawals through a program that takes the yield skim on chain (the Solana router): the
       * skim paid to the treasury in the same transaction, out of what the venue paid; the owner
       * received `amountMicros`. Absent where no skim is taken on chain.
       */
      readonly skimMicros?: bigint;
      /** Block number / slot / checkpoint as a decimal string, when the chain reports it. */
      readonly block: string | null;
    }
  | Unavailable;

/** Owner-signed bytes, in the chain's encoding. Never a key. */
export interface SignedTransaction {
  /** EVM: 0x raw signed transaction; Solana: base64 wire transaction; Sui: base64 tx bytes. */
  readonly transaction: string;
  /** Sui only: the serialized signatures (base64). */
  readonly signatures?: readonly string[];
}

export type BroadcastResult =
  | { readonly status: 'submitted'; readonly txId: string }
  | { readonly status: 'refused'; readonly blocker: Blocker }
  | { readonly status: 'rejected'; readonly reason: string }
  | Unavailable;

/** A prepared leg as stored: what the owner was asked to sign, and who must sign it. */
export interface PreparedLeg {
  readonly planId: string;
  /** The plan owner's address in the chain's canonical form. */
  readonly owner: string;
  readonly payload: UnsignedPayload;
}

/**
 * Whether owner-signed bytes are the prepared leg: `ok` with the transaction id the chain will
 * know them by (signature / digest / hash), or `mismatch` with the reason.
 */
export type SignedLegCheck =
  | { readonly status: 'ok'; readonly txId: string }
  | { readonly status: 'mismatch'; readonly reason: string };

/**
 * An owner's position in a venue, read at one block: the shares the owner holds on chain, and
 * what the venue's share price makes a given number of shares worth (`sharesValueMicros` for the
 * shares the caller asked about, the ones our settled legs minted; `ownerValueMicros` for all
 * the owner holds). Yield is measured from the share price, never as "value minus basis".
 */
export type PositionReading =
  | {
      readonly status: 'ok';
      readonly ownerShares: bigint;
      readonly sharesValueMicros: bigint;
      readonly ownerValueMicros: bigint;
      /** Block number / slot / checkpoint the reads were made at, when the chain reports it. */
      readonly block: string | null;
      readonly asOf: Date;
    }
  | Unavailable;

/** What a program on the exit's path measures the yield skim against (the Solana router). */
export interface RouterSkimBasis {
  /** The principal the program recorded for the owner's venue position (USDC micros). */
  readonly principalMicros: bigint;
  /** The receipts it recorded with that principal. */
  readonly shares: bigint;
  /** The skim it takes on yield (its registry's fee configuration). */
  readonly skimBps: number;
}

export interface ChainAdapter {
  readonly chain: Chain;
  /** The canonical form of `address`, or undefined when it is not valid on this chain. */
  normalizeAddress(address: string): string | undefined;
  /** Throws `InvalidChainInputError` (field `address`) for a malformed address. */
  readBalances(address: string): Promise<readonly AssetBalance[]>;
  buildDeposit(request: LegRequest): Promise<LegBuild>;
  buildWithdraw(request: LegRequest): Promise<LegBuild>;
  readReceipt(query: ReceiptQuery): Promise<Receipt>;
  /**
   * Checks offline (no RPC) that `signed` is `leg`'s prepared transaction, fully and validly
   * signed by the leg's owner; each chain documents its rule. Bytes that are not a transaction
   * of this chain throw `InvalidChainInputError` (field `transaction`).
   */
  checkSignedLeg(signed: SignedTransaction, leg: PreparedLeg): Promise<SignedLegCheck>;
  /** Submits owner-signed bytes only when broadcast is enabled for the chain. */
  broadcast(signed: SignedTransaction): Promise<BroadcastResult>;
  /**
   * The owner's shares in `venue` and what `shares` (the shares the books track) are worth at
   * the venue's current share price, read consistently (one block where the chain allows).
   */
  readPosition(venue: VenueOnChain, owner: string, shares: bigint): Promise<PositionReading>;
  /**
   * Solana: the router's record of the owner's venue position and its skim, so a partial
   * withdrawal can be grossed up; null when unreadable. Absent where no program takes the skim.
   */
  readSkimBasis?(venue: VenueOnChain, owner: string): Promise<RouterSkimBasis | null>;
  /**
   * The venue's TVL in native units, deposit caps and tokens, read on chain (fail-closed:
   * `unavailable` with a reason). Absent where the chain has no reader for them yet.
   */
  readVenueFacts?(venue: VenueOnChain): Promise<VenueFactsReading>;
  /** Swaps (EVM chains): what `owner` allows `spender` to take of `token`, fail-closed. */
  readAllowance?(query: AllowanceQuery): Promise<AllowanceReading>;
  /** Swaps: the unsigned legs of a quoted swap (an approval when the allowance is short). */
  buildSwap?(request: SwapLegRequest): UnsignedLeg[];
  /** Swaps: what the chain says about a swap leg's transaction (amounts from the logs). */
  readSwapReceipt?(query: SwapReceiptQuery): Promise<SwapReceipt>;
  /**
   * Swaps (Solana): the owner's unsigned v0 swap leg from a source's instructions, with the
   * service fee transfer and the plan memo; blocked when the chain cannot be read (blockhash,
   * lookup tables).
   */
  buildSolanaSwap?(request: SolanaSwapLegRequest): Promise<LegBuild>;
  /**
   * One unsigned leg in which the owner sends `amountMicros` USDC to `recipient`, tagged with
   * the plan (auto-pay's payouts). Offline. A chain that cannot build one answers `blocked`
   * (`transfer_not_supported`) with the reason.
   */
  buildTransfer(request: TransferLegRequest): Promise<LegBuild>;
  /**
   * What the chain says about a transfer leg's transaction: sent by the owner, tagged with the
   * plan; `amountMicros` is what the chain shows `recipient` received in USDC (Transfer logs,
   * token balance deltas), never the quote. Nothing to `recipient` → `mismatch`.
   */
  readTransferReceipt(query: TransferReceiptQuery): Promise<Receipt>;
  /**
   * Gas sponsorship: the native gas `owner` needs for EVM calls (EVM chains) or a plan's Solana
   * legs (Solana), and what the wallet holds, fail-closed.
   */
  sizeGas?(query: GasSizingQuery): Promise<GasSizing>;
  /** Gas sponsorship: the leg that unwraps wrapped native to native (`withdraw(amount)`). */
  buildUnwrap?(request: UnwrapLegRequest): UnsignedLeg;
  /**
   * Gas sponsorship (Solana): the leg that closes the owner's wrapped SOL token account to the
   * owner (every lamport of it becomes native SOL), with the plan memo; blocked when the chain
   * cannot be read (blockhash).
   */
  buildSolanaUnwrap?(request: UnwrapLegRequest): Promise<LegBuild>;
  /**
   * What the chain says about an unwrap leg's transaction: sent by the owner to the wrapped
   * native token, tagged with the plan; `amount` is what its logs show the owner unwrapped.
   */
  readUnwrapReceipt?(query: UnwrapReceiptQuery): Promise<UnwrapReceipt>;
  /**
   * A swap from the native token (issue 41): the leg that wraps `amount` of the owner's native
   * gas into the wrapped native token (EVM: `deposit()` paying the amount), tagged with the plan.
   */
  buildWrap?(request: UnwrapLegRequest): UnsignedLeg;
  /**
   * A swap from SOL (issue 41): the leg that creates the owner's wrapped SOL account if absent,
   * moves `amount` lamports into it and syncs it, with the plan memo; blocked when the chain
   * cannot be read (blockhash).
   */
  buildSolanaWrap?(request: UnwrapLegRequest): Promise<LegBuild>;
  /**
   * What the chain says about a wrap leg's transaction: sent by the owner to the wrapped native
   * token, tagged with the plan; `amount` is what its logs show wrapped for the owner.
   */
  readWrapReceipt?(query: UnwrapReceiptQuery): Promise<UnwrapReceipt>;
  /**
   * Runs a plan's unsigned legs on this chain in order against current state, without sending
   * them, and reports each one's token balance changes (issue 44). Fail-closed: `unavailable`
   * when the chain cannot be read. Absent where the chain has no simulation yet.
   */
  simulateLegs?(query: LegSimulationQuery): Promise<LegSimulationReading>;
  /** The token balance changes a mined transaction made, read from the chain (fail-closed). */
  readLegChanges?(txId: string): Promise<LegChangesReading>;
}

export interface UnwrapReceiptQuery {
  readonly txId: string;
  readonly planId: string;
  readonly owner: string;
  /** The wrapped native token the leg calls. */
  readonly wrappedNative: string;
}

/**
 * An unwrap receipt: what the owner's wrapped native became native, from the chain (EVM: the
 * Withdrawal log, wei; Solana: the wrapped SOL token balance the close removed, lamports).
 */
export type UnwrapReceipt = ReceiptWith<{ readonly amount: bigint; readonly block: string }>;

export interface TransferLegRequest {
  readonly planId: string;
  /** The sender, who signs. */
  readonly owner: string;
  /** Who receives the USDC, in the chain's format. */
  readonly recipient: string;
  readonly amountMicros: bigint;
}

export interface TransferReceiptQuery {
  readonly txId: string;
  readonly planId: string;
  readonly owner: string;
  readonly recipient: string;
}

/**
 * What to size for `owner`, by family: EVM calls in order (a plan's unsigned EVM legs, or inline
 * calls), a plan's unsigned Sui legs (stored payloads), or its unsigned Solana legs (base64 v0
 * transactions), in order.
 */
export interface GasSizingQuery {
  readonly owner: string;
  /** EVM: the calls, in order. */
  readonly calls?: readonly {
    readonly to: string;
    readonly data: string;
    readonly value: bigint;
  }[];
  /**
   * Sui: the unsigned legs' stored payloads, in order (`sui-transaction-json`, or
   * `sui-transaction-bcs-base64`).
   */
  readonly payloads?: readonly { readonly encoding: string; readonly transaction: unknown }[];
  /** Solana: the unsigned legs' v0 transactions (base64), in order. */
  readonly transactions?: readonly string[];
}

/** What sizing Solana legs counted, besides the total (lamports). */
export interface SolanaGasFacts {
  /** `getFeeForMessage` of each leg's message, in leg order (signatures + priority fee). */
  readonly legFees: readonly bigint[];
  /** Rent-exempt minimum of one token account (165 bytes), as the chain answers it. */
  readonly rentPerAccount: bigint;
  /** Associated token accounts the legs create that do not exist yet (rent the owner pays). */
  readonly accountsCreated: readonly string[];
}

/**
 * What the legs cost in the chain's smallest unit, and what the wallet holds. EVM sizing reports
 * `gasUnits` and `feePerGas`; Solana sizing its `solana` facts.
 */
export type GasSizing =
  | {
      readonly status: 'ok';
      /** EVM: the gas the calls use, summed. */
      readonly gasUnits?: bigint;
      /** EVM: the max fee per gas assumed. */
      readonly feePerGas?: bigint;
      /** Solana: the fees and rent the total is made of. */
      readonly solana?: SolanaGasFacts;
      /**
       * What the legs need held. EVM: gasUnits × feePerGas plus the value the calls send. Solana:
       * Σ legFees plus rentPerAccount × accountsCreated. Sui: the dry runs' gas budgets plus the
       * SUI the legs spend.
       */
      readonly nativeRequired: bigint;
      readonly nativeHeld: bigint;
      /** Chain-specific facts behind nativeRequired (Sui: the dry runs' gas), as decimal text. */
      readonly details?: Readonly<Record<string, string>>;
    }
  /** A call the chain says reverts: there is nothing to size. */
  | { readonly status: 'reverted'; readonly legIndex: number; readonly detail: string }
  | Unavailable;

export interface UnwrapLegRequest {
  readonly planId: string;
  readonly owner: string;
  /** The wrapped native token (WETH). */
  readonly wrappedNative: string;
  /** Wei to unwrap (or, for a wrap leg, to wrap). */
  readonly amount: bigint;
  readonly summary: string;
}

export interface AllowanceQuery {
  readonly token: string;
  readonly owner: string;
  readonly spender: string;
}

export type AllowanceReading = { readonly status: 'ok'; readonly allowance: bigint } | Unavailable;

export interface SwapLegRequest {
  readonly planId: string;
  readonly owner: string;
  /** The token the owner sells, and how much of it (base units). */
  readonly inputToken: string;
  readonly amountInMicros: bigint;
  /** What the owner already allows `spender` (read on chain); an approval leg tops it up. */
  readonly allowance: bigint;
  /** The contract the quote says must be allowed to take the input (0x: `allowanceTarget`). */
  readonly spender: string;
  /** The swap call the quote built (0x: `transaction.to` / `transaction.data`). */
  readonly call: { readonly to: string; readonly data: string };
  readonly summaries: { readonly approve: string; readonly swap: string };
}

export interface SwapReceiptQuery {
  readonly txId: string;
  readonly planId: string;
  readonly owner: string;
  /** The contract the swap leg calls (the quote's `transaction.to`). */
  readonly to: string;
  readonly inputToken: string;
  readonly outputToken: string;
  /** A fill below it fails the leg (the books move nothing). */
  readonly minAmountOutMicros: bigint;
  /** Where the service's swap fee is paid; null when the plan charges none. */
  readonly feeRecipient: string | null;
}

/**
 * A receipt of a leg kind with its own confirmation: every other answer is any leg's receipt's
 * (pending, failed, mismatch, unavailable); `confirmed` carries the txId and `Confirmed`'s facts.
 */
export type ReceiptWith<Confirmed extends object> =
  | Exclude<Receipt, { readonly status: 'confirmed' }>
  | ({ readonly status: 'confirmed'; readonly txId: string } & Confirmed);

/** A swap receipt: the answers of any leg's receipt, with a swap's own confirmation. */
export type SwapReceipt = ReceiptWith<{
  /** What the owner's input-token Transfer logs sent. */
  readonly amountInMicros: bigint;
  /** What the output-token Transfer logs paid the owner: the settled amount, never the quote. */
  readonly amountOutMicros: bigint;
  /** What the owner's input-token Transfer logs paid the fee recipient. */
  readonly feePaidMicros: bigint;
  readonly block: string;
}>;

/** A venue's on-chain facts, or why they could not be read. */
export type VenueFactsReading = ({ readonly status: 'ok' } & VenueChainFacts) | Unavailable;

/** Bad input to an adapter (a malformed address, a planId that is not ours). HTTP 400. */
export class InvalidChainInputError extends Error {
  override readonly name = 'InvalidChainInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const PLAN_ID = /^plan_[0-9a-f]{32}$/;

/** Plan ids are `plan_` + 32 hex (16 random bytes): short enough for a memo or calldata tag. */
export function isPlanId(value: string): boolean {
  return PLAN_ID.test(value);
}

/** The 16 bytes carried on chain for a plan id. */
export function planIdToBytes(planId: string): Uint8Array {
  if (!isPlanId(planId))
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  const hex = planId.slice('plan_'.length);
  const bytes = new Uint8Array(16);
  for (let index = 0; index < 16; index += 1) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

export function planIdFromBytes(bytes: Uint8Array): string | undefined {
  if (bytes.length !== 16) return undefined;
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `plan_${hex}`;
}

/**
 * A new plan id: 6 bytes of the time in ms then 10 random ones (Web Crypto, pooled: Node >= 20,
 * browsers, Deno, Bun), so new plans and their legs are written at the end of their indexes.
 */
export function newPlanId(): string {
  return planIdFromBytes(timeOrderedBytes(16)) as string;
}

/** Classifies a failed RPC call. Timeouts and aborts are `rpc_timeout`; parse errors are garbage. */
export function rpcFailure(error: unknown, what: string): Unavailable {
  const name = error instanceof Error ? error.name : '';
  const message = errorMessage(error);
  if (name === 'TimeoutError' || name === 'AbortError' || /timed? ?out|aborted/i.test(message)) {
    return {
      status: 'unavailable',
      reason: 'rpc_timeout',
      detail: `${what}: the RPC did not answer in time`,
    };
  }
  if (name === 'SyntaxError' || name === 'ZodError' || name === 'StructError') {
    return {
      status: 'unavailable',
      reason: 'rpc_bad_response',
      detail: `${what}: the RPC answered with something unreadable`,
    };
  }
  return {
    status: 'unavailable',
    reason: 'rpc_error',
    detail: `${what}: ${message.slice(0, 200)}`,
  };
}

/**
 * A fetch that gives up after `timeoutMs` (SDK clients that take a custom fetch hang forever on
 * a silent server otherwise). A caller's own signal still applies.
 */
export function fetchWithTimeout(timeoutMs: number, base: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return base(input, { ...init, signal });
  };
}
