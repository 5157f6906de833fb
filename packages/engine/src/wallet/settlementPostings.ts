import { computeHarvestFees } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type {
  AccountRef,
  BalanceGuard,
  PositionState,
  PostingInput,
  SettlementLeg,
} from '@yieldrouter/ledger';
import { formatMicros } from '@yieldrouter/schemas';
import { venueRoundingMicros } from '../venues/catalog';
import {
  externalAccount,
  FEES,
  min,
  Moves,
  planGuard,
  stakedAccount,
  walletAccount,
  walletGuard,
} from './settlementAccounts';
import {
  bookSkimLeg,
  netPostings,
  owedPostings,
  receivableAccount,
  retainedFeesTo,
  skimmedExit,
} from './skimBooking';

/** What the chain proved a leg's transaction moved. */
export interface ProvenMovement {
  readonly amountMicros: bigint;
  /** Venue shares minted (deposit) or burned (withdraw); null for router legs. */
  readonly shares: bigint | null;
  /**
   * Withdrawals through a program that takes the yield skim on chain (the Solana router): what
   * the treasury received in the same transaction, besides the owner's `amountMicros`.
   */
  readonly skimMicros?: bigint;
}

/** A position's shares, mark and fees retained after a settlement. */
export interface PositionNext {
  readonly shares: bigint;
  readonly markMicros: bigint;
  readonly feesRetainedMicros: bigint;
}

/** What settling a leg with a proven movement does to the books. */
export interface SettlementBooking {
  readonly postings: readonly PostingInput[];
  /** Venue legs: the position after the movement. */
  readonly position: PositionNext | null;
  /** Why the settled amount needs a person's review; null when it is within the leg's bounds. */
  readonly reviewReason: string | null;
  /** An exit that realised yield not harvested yet: the fee booked on it. */
  readonly exitFeeMicros: bigint;
  /** The balances the booking was computed from, read again under its locks (0041). */
  readonly guards: readonly BalanceGuard[];
  /** Auto-pay transfer legs: the share the pool takes back from returned (a late landing). */
  readonly autoPayReturnMicros: bigint;
}

/**
 * Why an amount outside the leg's bounds is flagged (the books still hold what moved). A venue
 * deposit may fall short of its bound, a venue withdrawal exceed it, by the venue's documented
 * rounding (kamino: less than one cToken's worth, measured on the cTokens it minted or burned;
 * jupiter-lend and save: on withdrawals only;
 * a withdrawal's on all the venue paid, the skim with the owner's part): not a short (long) fill.
 * A withdrawal through the Solana router is held to its bounds on all the venue paid too.
 */
function boundsReview(leg: SettlementLeg, movement: ProvenMovement): string | null {
  // A withdrawal whose program paid the skim inside it (the Solana router: no skim stored with
  // the plan, whose bounds are what the venue pays): the owner's part and the skim.
  const inlineSkim = leg.action === 'withdraw' && !leg.skim ? (movement.skimMicros ?? 0n) : 0n;
  const amount = movement.amountMicros + inlineSkim;
  const shares = movement.shares ?? 0n;
  const rounding = (paid: bigint) =>
    venueRoundingMicros(leg.chain, leg.venueId, leg.action, paid, shares);
  const kept = leg.action === 'deposit' ? rounding(amount) : 0n;
  // On all the venue paid: the owner's part and the skim.
  const beyond =
    leg.action === 'withdraw' ? rounding(movement.amountMicros + (movement.skimMicros ?? 0n)) : 0n;
  if (amount >= leg.minSettleMicros - kept && amount <= leg.maxSettleMicros + beyond) return null;
  const bounds =
    leg.minSettleMicros === leg.maxSettleMicros
      ? `exactly ${formatMicros(leg.amountMicros)}`
      : `${formatMicros(leg.minSettleMicros)}..${formatMicros(leg.maxSettleMicros)}`;
  return `${amount < leg.minSettleMicros ? 'short' : 'long'} fill: the chain moved ${formatMicros(amount)} micros; the plan allowed ${bounds}`;
}

const joinReasons = (...reasons: (string | null)[]) =>
  reasons.filter((reason): reason is string => reason !== null).join('; ') || null;

/** A deposit into the venue position: its shares and mark grow by what the chain moved. */
function entered(position: PositionState | null, movement: ProvenMovement): PositionNext | null {
  if (!position) return null;
  return {
    shares: position.shares + (movement.shares ?? 0n),
    markMicros: position.markMicros + movement.amountMicros,
    feesRetainedMicros: position.feesRetainedMicros,
  };
}

/**
 * Money into the wallet (route into the router, with or without stake; a venue deposit; a
 * rebalance's deposit leg): the reservation (pending_in, unless released) covers what it can;
 * a short fill returns the rest of it, a long fill is credited from the chain too. A
 * cross-chain deposit's deposit leg (`bridged_stake`) takes what its bridge credited to liquid. A rebalance
 * deposit's reservation is what its plan's withdraw leg put in pending_in (`heldMicros`).
 */
function bookFunding(leg: SettlementLeg, movement: ProvenMovement): SettlementBooking {
  const amount = movement.amountMicros;
  const to = leg.effect === 'fund_liquid' ? walletAccount(leg, 'liquid') : stakedAccount(leg);
  const moves = new Moves();
  let reviewReason = boundsReview(leg, movement);
  const guards: BalanceGuard[] = [];
  if (leg.effect === 'bridged_stake') {
    guards.push(walletGuard(leg, 'liquid', leg.liquidMicros));
    // What the bridge delivered sits in liquid here: it goes in first. More than liquid holds
    // came from the wallet outside the books (never an overdraft), flagged.
    const fromLiquid = min(amount, leg.liquidMicros > 0n ? leg.liquidMicros : 0n);
    moves
      .move(walletAccount(leg, 'liquid'), to, fromLiquid)
      .move(externalAccount(leg), to, amount - fromLiquid);
    if (fromLiquid < amount) {
      reviewReason = joinReasons(
        reviewReason,
        `the deposit moved ${formatMicros(amount)} micros; liquid held ${formatMicros(fromLiquid)} from the bridge`,
      );
    }
  } else if (leg.effect === 'stake' || leg.released) {
    moves.move(externalAccount(leg), to, amount);
  } else {
    const pending = walletAccount(leg, 'pending_in');
    const reserved = leg.effect === 'rebalance_in' ? leg.heldMicros : leg.amountMicros;
    if (leg.effect === 'rebalance_in') guards.push(planGuard(leg, 'pending_in', leg.heldMicros));
    moves
      .move(pending, to, min(amount, reserved))
      .move(pending, externalAccount(leg), reserved - amount)
      .move(externalAccount(leg), to, amount - reserved);
  }
  return {
    postings: moves.postings(),
    position: leg.effect === 'fund_liquid' ? null : entered(leg.position, movement),
    reviewReason,
    exitFeeMicros: 0n,
    guards,
    autoPayReturnMicros: 0n,
  };
}

/**
 * Money out of the router to the owner: the reservation (pending_out, unless released) pays
 * what it can and returns the rest to liquid; more than it reserved comes out of liquid, and
 * what liquid cannot cover is flagged (the chain paid more than the books hold).
 */
function bookExit(leg: SettlementLeg, movement: ProvenMovement): SettlementBooking {
  const amount = movement.amountMicros;
  const liquid = walletAccount(leg, 'liquid');
  const moves = new Moves();
  let beyond = amount;
  if (!leg.released) {
    const pending = walletAccount(leg, 'pending_out');
    moves
      .move(pending, externalAccount(leg), min(amount, leg.amountMicros))
      .move(pending, liquid, leg.amountMicros - amount);
    beyond = amount - leg.amountMicros;
  }
  const covered = beyond > 0n ? min(beyond, leg.liquidMicros) : 0n;
  moves.move(liquid, externalAccount(leg), covered);
  const uncovered =
    beyond > covered
      ? `the books hold ${formatMicros(leg.liquidMicros)} liquid: ${formatMicros(beyond - covered)} micros the chain paid out are not on them`
      : null;
  return {
    postings: moves.postings(),
    position: null,
    reviewReason: joinReasons(boundsReview(leg, movement), uncovered),
    exitFeeMicros: 0n,
    guards: beyond > 0n ? [walletGuard(leg, 'liquid', leg.liquidMicros)] : [],
    autoPayReturnMicros: 0n,
  };
}

/**
 * Money out of a venue position. The transaction's price (assets per share burned) values every
 * share our plans minted: first the position is marked to it, as a harvest would (a gain since
 * the last mark is yield: its fee is booked through packages/fees and the net compounded; a
 * loss comes off the staked balance, then off the fees retained); then the assets the tracked
 * shares paid come out of the owner's staked balance first and, beyond it, out of the fees
 * retained in the position (the owner took them: fees:protocol gives them back to the chain).
 * So a full exit empties staked exactly, and withdrawing "everything the wallet owns" leaves the
 * protocol's retained fees in the venue. Shares our plans did not mint (outside money on the
 * same venue) move nothing on the books. Where the chain took the skim on the way out (the Solana
 * router: `skimMicros`), the venue paid the owner's amount plus the skim; the skim is the
 * protocol's retained fees reaching the treasury (fees:protocol keeps them; beyond what the
 * position retained, the protocol earns the rest off staked now), and the owner's amount comes
 * out of staked, then out of the retained fees left. The staked balance pays `paidTo`: the chain, for a
 * rebalance's withdraw leg the wallet's pending_in (where its deposit leg takes it from), for
 * auto-pay's withdraw leg the wallet's auto_pay bucket (where the payees' legs take it from).
 */
function bookUnstake(
  leg: SettlementLeg,
  movement: ProvenMovement,
  schedule: FeeSchedule,
  /** Where what the venue paid goes on the books: the chain (the owner's wallet) by default. */
  paidTo: AccountRef = externalAccount(leg),
  /** Where the part paid out of the position's retained fees goes: with the rest by default. */
  feesPaidTo: AccountRef = paidTo,
): SettlementBooking {
  const position = leg.position;
  const burned = movement.shares;
  const amount = movement.amountMicros;
  const review = boundsReview(leg, movement);
  const moves = new Moves();
  const staked = stakedAccount(leg);
  const external = externalAccount(leg);
  if (!position || burned === null || !position.sharesKnown) {
    // A position that predates share tracking: the staked balance pays what it can.
    const out = min(amount, leg.stakedMicros);
    moves.move(staked, paidTo, out);
    const untracked =
      amount > out
        ? `the position predates share tracking: ${formatMicros(amount - out)} micros beyond its staked balance are not on the books`
        : null;
    return {
      postings: moves.postings(),
      position: position && {
        shares: position.shares,
        markMicros:
          position.markMicros - min(out, position.markMicros - position.feesRetainedMicros),
        feesRetainedMicros: position.feesRetainedMicros,
      },
      reviewReason: joinReasons(review, untracked),
      exitFeeMicros: 0n,
      guards: [],
      autoPayReturnMicros: 0n,
    };
  }
  const tracked = min(burned, position.shares);
  const outside =
    burned > tracked
      ? `${formatMicros(burned - tracked)} of the ${formatMicros(burned)} shares burned were not minted by our plans`
      : null;
  if (tracked === 0n) {
    return {
      postings: [],
      position,
      reviewReason: joinReasons(review, outside),
      exitFeeMicros: 0n,
      guards: [],
      autoPayReturnMicros: 0n,
    };
  }
  const skim = movement.skimMicros ?? 0n;
  const paid = ((amount + skim) * tracked) / burned;
  const value = tracked === position.shares ? paid : (paid * position.shares) / tracked;
  const skimPaid = min((skim * tracked) / burned, paid);
  let stakedMicros = position.markMicros - position.feesRetainedMicros;
  let feesRetainedMicros = position.feesRetainedMicros;
  let exitFeeMicros = 0n;
  if (value > position.markMicros) {
    const fees = computeHarvestFees({ grossYieldMicros: value - position.markMicros, schedule });
    exitFeeMicros = fees.protocolFeeMicros + fees.profitFeeMicros;
    moves.move(external, staked, fees.netYieldMicros).move(external, FEES, exitFeeMicros);
    stakedMicros += fees.netYieldMicros;
    feesRetainedMicros += exitFeeMicros;
  } else {
    const loss = position.markMicros - value;
    const fromStaked = min(loss, stakedMicros);
    moves.move(staked, external, fromStaked).move(FEES, external, loss - fromStaked);
    stakedMicros -= fromStaked;
    feesRetainedMicros -= loss - fromStaked;
  }
  // The skim leaves the position for the treasury: the protocol's retained fees first, the rest
  // earned by the protocol off staked now (the chain's rule measures yield per share burnt).
  const skimFromFees = min(skimPaid, feesRetainedMicros);
  const skimFromStaked = min(skimPaid - skimFromFees, stakedMicros);
  moves.move(staked, FEES, skimFromStaked);
  stakedMicros -= skimFromStaked;
  feesRetainedMicros -= skimFromFees;
  const ownerPaid = paid - skimPaid;
  const fromStaked = min(ownerPaid, stakedMicros);
  moves.move(staked, paidTo, fromStaked).move(FEES, feesPaidTo, ownerPaid - fromStaked);
  return {
    postings: moves.postings(),
    position: {
      shares: position.shares - tracked,
      markMicros: value - paid,
      feesRetainedMicros: feesRetainedMicros - (ownerPaid - fromStaked),
    },
    reviewReason: joinReasons(review, outside),
    exitFeeMicros,
    guards: [],
    autoPayReturnMicros: 0n,
  };
}

/**
 * An auto-pay transfer leg: what the receipt proves the payee received leaves what the leg's own
 * plan holds in the wallet's `auto_pay` bucket (the yield its withdraw leg brought out, or what
 * the run reserved from a share returned earlier) for the chain. More than the plan holds is
 * flagged: the books never take it from anywhere else (not liquid, never principal). A late
 * landing of a released leg pays from liquid, where its share went back, and the pool takes that
 * share back from what it holds as returned.
 */
function bookPayout(leg: SettlementLeg, movement: ProvenMovement): SettlementBooking {
  const amount = movement.amountMicros;
  const from = leg.released ? 'liquid' : 'auto_pay';
  const held = leg.released ? leg.liquidMicros : leg.autoPayMicros;
  const paid = min(amount, held > 0n ? held : 0n);
  const uncovered =
    amount > paid
      ? `the books hold ${formatMicros(held)} for this payout: ${formatMicros(amount - paid)} micros the chain paid are not on them`
      : null;
  return {
    postings: new Moves().move(walletAccount(leg, from), externalAccount(leg), paid).postings(),
    position: null,
    reviewReason: joinReasons(boundsReview(leg, movement), uncovered),
    exitFeeMicros: 0n,
    guards: [leg.released ? walletGuard(leg, 'liquid', held) : planGuard(leg, 'auto_pay', held)],
    autoPayReturnMicros: leg.released ? -paid : 0n,
  };
}

const NO_POSITION = {
  position: null,
  exitFeeMicros: 0n,
  guards: [],
  autoPayReturnMicros: 0n,
} as const;

/**
 * A venue exit paying the owner's part to `paidTo` (the chain, a rebalance's pending_in, auto-pay's
 * auto_pay). Without a skim, the protocol's retained fees it takes go to `feesPaidTo`. With one
 * (the owner holds the receipts: skimBooking.ts) the skim is valued as the Solana router's is
 * (the venue paid the owner's amount plus the skim); what the treasury did not receive in the
 * same transaction, and whatever else of the protocol's retained fees the owner took, is owed to
 * `fees:receivable` instead of given back to the chain.
 */
function bookVenueExit(
  leg: SettlementLeg,
  movement: ProvenMovement,
  schedule: FeeSchedule,
  paidTo: AccountRef,
  feesPaidTo: AccountRef,
): SettlementBooking {
  if (!leg.skim) return bookUnstake(leg, movement, schedule, paidTo, feesPaidTo);
  const skimmed = skimmedExit(leg, movement);
  const booking = bookUnstake(
    skimmed.leg,
    skimmed.movement,
    schedule,
    paidTo,
    receivableAccount(leg),
  );
  return {
    ...booking,
    postings: netPostings([...booking.postings, ...owedPostings(leg, skimmed.missingMicros)]),
  };
}

/**
 * What a confirmed leg books for the movement its receipt proved (DESIGN §3: a leg is credited
 * with what the receipt proves, never the quote): the postings (netted per account), the
 * position's next shares and mark for venue legs, and a review reason when the amount is outside
 * the leg's bounds or more than the books can hold.
 */
export function bookSettlement(
  leg: SettlementLeg,
  movement: ProvenMovement,
  schedule: FeeSchedule,
): SettlementBooking {
  switch (leg.effect) {
    case 'fund_liquid':
    case 'fund_staked':
    case 'stake':
    case 'bridged_stake':
    case 'rebalance_in':
      return bookFunding(leg, movement);
    case 'exit_liquid':
      return bookExit(leg, movement);
    case 'unstake':
      return bookVenueExit(leg, movement, schedule, externalAccount(leg), externalAccount(leg));
    case 'skim': {
      const { postings, reviewReason } = bookSkimLeg(leg, movement.amountMicros);
      return { ...NO_POSITION, postings, reviewReason };
    }
    case 'rebalance_out': {
      // Into pending_in while the deposit leg is open; once it is final or released, the money
      // the owner took out stays in the owner's wallet, outside the books. Its skim as a withdraw
      // plan's; without one, the retained fees it paid (the deposit takes principal only) are
      // owed where the owner holds the receipts.
      const paidTo = leg.pairedLegOpen ? walletAccount(leg, 'pending_in') : externalAccount(leg);
      const feesTo = retainedFeesTo(leg, externalAccount(leg));
      return bookVenueExit(leg, movement, schedule, paidTo, feesTo);
    }
    // Auto-pay's withdraw leg: valued like any exit, but what the venue paid is held for the
    // payees (auto_pay) until the transfer legs settle; the protocol's fees are never paid out:
    // its skim (owner-held receipts) as a withdraw plan's, else owed where the owner holds them.
    case 'unstake_yield': {
      const held = walletAccount(leg, 'auto_pay');
      return bookVenueExit(leg, movement, schedule, held, retainedFeesTo(leg, held));
    }
    case 'pay_out':
      return bookPayout(leg, movement);
    case 'none':
      throw new Error('a leg without effect never settles');
    case 'swap':
      throw new Error('a swap leg books through bookSwap');
    case 'unwrap':
    case 'wrap':
      throw new Error('a wrap or unwrap leg books through bookUnwrap');
    case 'bridge_burn':
      throw new Error('a burn leg books through bridgeBurnOutcome');
    case 'bridge_fee':
      throw new Error('a bridge fee leg books through bridgeFeeOutcome');
  }
}
