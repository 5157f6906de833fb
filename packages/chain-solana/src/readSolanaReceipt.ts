import { USDC_DECIMALS, depositRoundingMicros, formatUnits } from '@yieldrouter/schemas';
import type {
  DepositRounding,
  LegTarget,
  Receipt,
  ReceiptQuery,
  Unavailable,
} from '@yieldrouter/schemas';
import type { MessageAccountKeys, PublicKey, VersionedTransactionResponse } from '@solana/web3.js';
import { describeRpcFailure } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { programLogLines } from './programLogLines';
import { readPlannedSolanaTransaction } from './readPlannedSolanaTransaction';
import type { SolanaContext } from './solanaContext';
import { associatedTokenAccount, routerVault } from './tokenAccounts';
import { tokenBalanceDelta } from './tokenBalanceDelta';
import { venueProtocolKeys } from './legKeys';
import type { SolanaVenueProtocol } from './venues/solanaVenueProtocol';

type Meta = NonNullable<VersionedTransactionResponse['meta']>;

/** What a confirmed leg moved, or why it does not match the query. */
type Movement =
  | {
      readonly amountMicros: bigint;
      readonly shares: bigint | null;
      readonly skimMicros?: bigint;
    }
  | { readonly mismatch: string };

function mirrored(moved: bigint, counterpart: bigint, what: string): Movement {
  if (moved <= 0n) return { mismatch: `no USDC moved ${what}` };
  if (counterpart !== moved) {
    return {
      mismatch: `${what}: ${formatUnits(moved, USDC_DECIMALS)} USDC moved but the counterpart changed by ${formatUnits(counterpart, USDC_DECIMALS)}`,
    };
  }
  return { amountMicros: moved, shares: null };
}

/**
 * The router program's own event for the leg, `svc:<planId> <instruction> amount=<amount>`, is in
 * the logs of `programId`: the money moved through our router (a plain transfer into the vault
 * credits no position; a venue leg sent elsewhere proves nothing). Undefined when it is there.
 */
function missingRouterEvent(
  meta: Meta,
  programId: PublicKey,
  event: string,
): { readonly mismatch: string } | undefined {
  const lines = programLogLines(meta.logMessages ?? [], programId.toBase58());
  return lines.includes(event)
    ? undefined
    : { mismatch: `no router event "${event}" from ${programId.toBase58()}` };
}

/**
 * Router legs (the program's `deposit` / `withdraw`): the router vault's USDC delta is the amount
 * (up for a deposit, down for a withdrawal), the owner's USDC must move by exactly the opposite,
 * and the program must have logged the leg's event for that amount.
 */
function routerMovement(
  meta: Meta,
  keys: MessageAccountKeys,
  query: ReceiptQuery,
  owner: PublicKey,
  mint: PublicKey,
  subject: Extract<ReceiptSubject, { kind: 'router' }>,
): Movement {
  const vault = tokenBalanceDelta(meta, keys, {
    mint,
    account: routerVault(subject.yieldRouter, mint),
  });
  const mine = tokenBalanceDelta(meta, keys, {
    mint,
    owner,
    account: associatedTokenAccount(owner, mint),
  });
  const movement =
    query.action === 'deposit'
      ? mirrored(vault, -mine, 'into the router vault')
      : mirrored(-vault, mine, 'out of the router vault');
  if ('mismatch' in movement) return movement;
  const event = `svc:${query.planId} ${query.action} amount=${movement.amountMicros}`;
  return missingRouterEvent(meta, subject.programId, event) ?? movement;
}

/**
 * A deposit by amount: the router's event carries the USDC asked, and its `venue_usdc delta=`
 * line the USDC the owner's account actually moved in the protocol call, which must be the
 * owner's change (a router without the line: the asked amount). The protocol takes what it
 * asked, or less by its documented rounding (`depositRoundingMicros`: klend keeps back less than
 * one cToken's worth), never more: more is a skim on top, refused.
 */
function depositTaken(
  lines: readonly string[],
  planId: string,
  taken: { readonly moved: bigint; readonly shares: bigint },
  subject: Extract<ReceiptSubject, { kind: 'venue' }>,
  measured: bigint | undefined,
): { readonly mismatch: string } | undefined {
  const { moved, shares } = taken;
  const prefix = `svc:${planId} deposit_to_venue amount=`;
  const text = lines
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : ''))
    .find((argument) => /^\d+$/.test(argument));
  if (text === undefined) return { mismatch: `no router event "${prefix}…"` };
  const asked = BigInt(text);
  const usdc = (micros: bigint) => `${formatUnits(micros, USDC_DECIMALS)} USDC`;
  if (moved !== (measured ?? asked)) {
    return {
      mismatch: `the owner's account paid ${usdc(moved)}, the router measured ${usdc(measured ?? asked)} (${prefix}${asked})`,
    };
  }
  if (moved > asked) {
    return { mismatch: `the venue took ${usdc(moved)}, more than asked (${prefix}${asked})` };
  }
  const rounding = depositRoundingMicros(subject.depositRounding, moved, shares);
  return asked - moved > rounding
    ? {
        mismatch: `the venue took ${usdc(moved)} for ${shares} receipts, more than its rounding (${rounding} micros) below what was asked (${prefix}${asked})`,
      }
    : undefined;
}

/**
 * Venue legs: the owner's USDC delta is the amount (down for a deposit, up for a withdrawal),
 * and the owner's receipt tokens must move the other way; they are the shares, minted or burnt
 * at the venue's exchange rate (so their count may differ from the USDC amount). The router
 * program must have logged the leg's event with its argument: `amount=<USDC>` when the protocol
 * takes USDC, `shares=<receipts>` when it takes its receipt tokens (a klend redemption); a
 * deposit by amount may take less than its argument by the venue's rounding, never more
 * (`depositTaken`). The router
 * states the USDC it measured in the owner's account around the call (`venue_usdc delta=<n>`,
 * before the skim), which must be what the token balances show. A protocol with no receipt token
 * (marginfi) has its shares stated by the router the same way (`venue_receipts delta=<n>`).
 */
function venueMovement(
  meta: Meta,
  keys: MessageAccountKeys,
  query: ReceiptQuery,
  owner: PublicKey,
  mint: PublicKey,
  subject: Extract<ReceiptSubject, { kind: 'venue' }>,
): Movement {
  const { receiptMint } = subject;
  const lines = programLogLines(meta.logMessages ?? [], subject.programId.toBase58());
  const logged = (prefix: string): bigint | undefined => {
    const text = lines.find((line) => line.startsWith(prefix))?.slice(prefix.length);
    return text !== undefined && /^\d+$/.test(text) ? BigInt(text) : undefined;
  };
  // The router's skim line (withdrawals): paid from the owner's USDC to the treasury.
  const skim = logged(`svc:${query.planId} venue_skim amount=`) ?? 0n;
  const usdc = tokenBalanceDelta(meta, keys, { mint, owner });
  const deposit = query.action === 'deposit';
  // No receipt token (marginfi): the shares the router measured in the protocol's account.
  const stated = logged(`svc:${query.planId} venue_receipts delta=`) ?? 0n;
  const receipts = receiptMint
    ? tokenBalanceDelta(meta, keys, { mint: receiptMint, owner })
    : deposit
      ? stated
      : -stated;
  const moved = deposit ? -usdc : usdc;
  const shares = deposit ? receipts : -receipts;
  const what = deposit ? 'from the owner into the venue' : 'from the venue to the owner';
  if (moved <= 0n) return { mismatch: `no USDC moved ${what}` };
  if (shares <= 0n) {
    return {
      mismatch: `${what}: ${formatUnits(moved, USDC_DECIMALS)} USDC moved but the owner's receipt tokens changed by ${receipts}`,
    };
  }
  const booked = { amountMicros: moved, shares, ...(deposit ? {} : { skimMicros: skim }) };
  // What the protocol call moved in the owner's account, as the router measured it around it.
  const measured = logged(`svc:${query.planId} venue_usdc delta=`);
  const byAmount = subject.units[query.action] !== 'shares';
  if (deposit && byAmount) {
    return depositTaken(lines, query.planId, { moved, shares }, subject, measured) ?? booked;
  }
  // The venue paid the owner before the skim: the router's measure, and its argument by amount.
  const paid = deposit ? moved : moved + skim;
  if (measured !== undefined && measured !== paid) {
    return {
      mismatch: `${what}: ${formatUnits(paid, USDC_DECIMALS)} USDC moved but the router measured ${formatUnits(measured, USDC_DECIMALS)}`,
    };
  }
  const argument = byAmount ? `amount=${paid}` : `shares=${shares}`;
  const event = `svc:${query.planId} ${deposit ? 'deposit_to_venue' : 'withdraw_from_venue'} ${argument}`;
  return missingRouterEvent(meta, subject.programId, event) ?? booked;
}

/**
 * Where the leg's money is measured (the router vault, or the venue's receipt token) and whose
 * events prove it ran through our router.
 */
type ReceiptSubject =
  | { readonly kind: 'router'; readonly yieldRouter: PublicKey; readonly programId: PublicKey }
  | {
      readonly kind: 'venue';
      /** Undefined: no receipt token; the router's `venue_receipts delta=` line states them. */
      readonly receiptMint: PublicKey | undefined;
      readonly programId: PublicKey;
      readonly units: SolanaVenueProtocol['units'];
      readonly depositRounding: DepositRounding;
    };

const noReader = (detail: string): Unavailable => ({
  status: 'unavailable',
  reason: 'no_standard_reader',
  detail: `receipt: ${detail}`,
});

function receiptSubject(context: SolanaContext, target: LegTarget): ReceiptSubject | Unavailable {
  const programId = parsePublicKey(context.config.programId ?? '');
  const noProgram = noReader(
    'the Solana router program id is not configured, so its events are unknown',
  );
  if (target.kind === 'router') {
    const yieldRouter = parsePublicKey(context.config.yieldRouter ?? '');
    if (!yieldRouter) {
      return noReader('the Solana yieldRouter is not configured, so its vault is unknown');
    }
    return programId ? { kind: 'router', yieldRouter, programId } : noProgram;
  }
  const keys = venueProtocolKeys(target.venue);
  if (keys.status === 'blocked') {
    const missing = keys.blockers.map((blocker) => blocker.field ?? blocker.code).join(', ');
    return noReader(`venue ${target.venue.venueId} has no Solana receipt to read (${missing})`);
  }
  if (!programId) return noProgram;
  return {
    kind: 'venue',
    receiptMint: keys.protocol.receiptMint?.(keys.ids),
    programId,
    units: keys.protocol.units,
    depositRounding: keys.protocol.depositRounding ?? 'exact',
  };
}

/**
 * What the chain says about a leg (pending, mismatch and failed as every leg: see
 * `readPlannedSolanaTransaction`): no event of our router program for the leg → mismatch; else
 * the amount read from the token balance deltas (never from the caller) → confirmed with the
 * slot. Throws `InvalidChainInputError` for a txId that is not a base58 64-byte signature.
 *
 * @example
 * const receipt = await readSolanaReceipt(context, { txId, planId, owner, action: 'deposit', target: { kind: 'router' } });
 */
export async function readSolanaReceipt(
  context: SolanaContext,
  query: ReceiptQuery,
): Promise<Receipt> {
  const subject = receiptSubject(context, query.target);
  const missing = 'status' in subject ? subject : undefined;
  const read = await readPlannedSolanaTransaction(context, { ...query, missing });
  if (read.status !== 'ran') return read;
  // `missing` was answered before any RPC call; narrowed here for the reads below.
  if ('status' in subject) return subject;
  const { meta, keys, owner, mint } = read;
  try {
    const movement =
      subject.kind === 'router'
        ? routerMovement(meta, keys, query, owner, mint, subject)
        : venueMovement(meta, keys, query, owner, mint, subject);
    if ('mismatch' in movement) {
      return { status: 'mismatch', txId: query.txId, reason: movement.mismatch };
    }
    return {
      status: 'confirmed',
      txId: query.txId,
      planId: query.planId,
      amountMicros: movement.amountMicros,
      shares: movement.shares,
      ...(movement.skimMicros === undefined ? {} : { skimMicros: movement.skimMicros }),
      block: String(read.slot),
    };
  } catch (error) {
    return describeRpcFailure(error, 'receipt');
  }
}
