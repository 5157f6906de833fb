import type { SettlementLeg } from '@yieldrouter/ledger';
import { computeVenueSkim, defaultFeeSchedule } from '@yieldrouter/fees';
import { bookSettlement } from './settlementPostings';
import {
  HARVEST,
  HARVESTED_POSITION,
  STAKED_AFTER_HARVEST,
  sumOn,
} from './testing/harvestedPosition';

// A venue withdrawal whose skim the chain took (the Solana router, issue #46): the venue paid the
// owner's amount plus the skim, the skim reached the treasury. The books keep fees:protocol equal
// to what the treasury holds once the position is empty, and empty staked exactly.
const OWNER = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const OPPORTUNITY = 'svcop0123456789abcdef01234567';
const leg = (position: SettlementLeg['position'], stakedMicros: bigint): SettlementLeg => ({
  planId: 'plan_0123456789abcdef0123456789abcdef',
  legIndex: 0,
  planKind: 'withdraw',
  planStatus: 'prepared',
  chain: 'solana',
  wallet: OWNER,
  owner: OWNER,
  action: 'withdraw',
  effect: 'unstake',
  venueId: 'kamino',
  opportunityId: OPPORTUNITY,
  standard: 'router-adapter',
  amountMicros: 44_000_000n,
  status: 'submitted',
  txId: null,
  settledAmountMicros: null,
  failureReason: null,
  minSettleMicros: 0n,
  maxSettleMicros: 100_000_000n,
  released: false,
  position,
  liquidMicros: 0n,
  stakedMicros,
  pairedLegOpen: false,
  heldMicros: 0n,
  autoPayMicros: 0n,
  swap: null,
  skim: null,
  updatedAt: new Date(0),
});
const staked = { wallet: OWNER, chain: 'solana', bucket: `staked:${OPPORTUNITY}` };
const outside = { system: 'external', chain: 'solana' };
const fees = { system: 'fees:protocol' };
const sum = sumOn;

describe('bookSettlement: a withdrawal whose skim the chain paid to the treasury', () => {
  const harvest = HARVEST;
  const position = HARVESTED_POSITION;
  const stakedBefore = STAKED_AFTER_HARVEST;
  /** The router's full exit of the 40 receipts for `received`, booked from its receipt. */
  const exitFor = (received: bigint) => {
    const skim = computeVenueSkim({
      principalMicros: 40_000_000n,
      sharesHeld: 40_000_000n,
      sharesBurnt: 40_000_000n,
      receivedMicros: received,
    });
    const booking = bookSettlement(
      leg(position, stakedBefore),
      { amountMicros: skim.netMicros, shares: 40_000_000n, skimMicros: skim.skimMicros },
      defaultFeeSchedule,
    );
    return { skim, booking };
  };

  it('full exit: staked empties, fees:protocol keeps exactly what the treasury received', () => {
    const { skim, booking } = exitFor(44_000_000n);
    expect(sum(booking.postings, staked)).toBe(-stakedBefore);
    expect(sum(booking.postings, outside)).toBe(skim.netMicros);
    // Harvested fees (retained) + what this booking adds == the treasury's skim.
    expect(harvest.protocolFeeMicros + sum(booking.postings, fees)).toBe(skim.skimMicros);
    expect(booking.position).toEqual({ shares: 0n, markMicros: 0n, feesRetainedMicros: 0n });
  });

  it('without the skim field (a chain that took none) the owner took the retained fees', () => {
    const booking = bookSettlement(
      leg(position, stakedBefore),
      { amountMicros: 44_000_000n, shares: 40_000_000n },
      defaultFeeSchedule,
    );
    expect(sum(booking.postings, fees)).toBe(-harvest.protocolFeeMicros);
    expect(sum(booking.postings, outside)).toBe(44_000_000n);
  });

  it('yield since the last mark: the exit fee is booked and the treasury got the same', () => {
    // 1 more USDC accrued after the harvest: the venue pays 45 for the 40 shares.
    const { skim, booking } = exitFor(45_000_000n);
    expect(harvest.protocolFeeMicros + sum(booking.postings, fees)).toBe(skim.skimMicros);
    expect(sum(booking.postings, staked)).toBe(-stakedBefore);
    expect(booking.position?.feesRetainedMicros).toBe(0n);
  });
});

describe("bookSettlement: a withdrawal paid beyond its amount by its venue's rounding", () => {
  /** 1 USDC asked, exactly; the chain paid `received` for 893,000 cTokens (1.12 micros each). */
  const reviewOf = (received: bigint, venueId = 'kamino') =>
    bookSettlement(
      {
        ...leg(HARVESTED_POSITION, STAKED_AFTER_HARVEST),
        venueId,
        amountMicros: 1_000_000n,
        minSettleMicros: 1_000_000n,
        maxSettleMicros: 1_000_000n,
      },
      { amountMicros: received, shares: 893_000n },
      defaultFeeSchedule,
    ).reviewReason;

  it('under one cToken more is no review; more, less, or another venue is a fill for review', () => {
    expect(reviewOf(1_000_001n)).toBeNull();
    expect(reviewOf(1_000_002n)).toMatch(/^long fill: the chain moved 1000002 micros/);
    expect(reviewOf(999_999n)).toMatch(/^short fill/);
    expect(reviewOf(1_000_001n, 'marginfi')).toMatch(/^long fill/);
  });

  it('jupiter-lend and save redeem the same way: the same bound, no more', () => {
    for (const venueId of ['jupiter-lend', 'save']) {
      expect(reviewOf(1_000_001n, venueId)).toBeNull();
      expect(reviewOf(1_000_002n, venueId)).toMatch(/^long fill: the chain moved 1000002 micros/);
      expect(reviewOf(999_999n, venueId)).toMatch(/^short fill/);
    }
  });
});
