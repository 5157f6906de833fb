import type { SettlementLeg } from '@yieldrouter/ledger';
import { defaultFeeSchedule } from '@yieldrouter/fees';
import { bookSettlement } from './settlementPostings';

// A cross-chain deposit's deposit leg (`bridged_stake`) deposits what its bridge credited to
// liquid on the venue's chain: it moves that liquid into the venue, never the chain's outside a
// second time, and never overdraws liquid.
const OWNER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const leg = (liquidMicros: bigint): SettlementLeg => ({
  planId: 'plan_0123456789abcdef0123456789abcdef',
  legIndex: 4,
  planKind: 'deposit',
  planStatus: 'prepared',
  chain: 'arbitrum',
  wallet: OWNER,
  owner: OWNER,
  action: 'deposit',
  effect: 'bridged_stake',
  venueId: 'fluid',
  opportunityId: 'svcop0123456789abcdef01234567',
  standard: 'erc4626',
  amountMicros: 24_975_000n,
  status: 'submitted',
  txId: null,
  settledAmountMicros: null,
  failureReason: null,
  minSettleMicros: 24_975_000n,
  maxSettleMicros: 24_975_000n,
  released: false,
  position: null,
  liquidMicros,
  stakedMicros: 0n,
  pairedLegOpen: false,
  heldMicros: 0n,
  autoPayMicros: 0n,
  swap: null,
  skim: null,
  updatedAt: new Date(0),
});
const staked = { wallet: OWNER, chain: 'arbitrum', bucket: 'staked:svcop0123456789abcdef01234567' };
const liquid = { wallet: OWNER, chain: 'arbitrum', bucket: 'liquid' };
const outside = { system: 'external', chain: 'arbitrum' };
const book = (held: bigint) =>
  bookSettlement(leg(held), { amountMicros: 24_975_000n, shares: 1n }, defaultFeeSchedule);

describe('bookSettlement: bridged_stake', () => {
  it('the delivered liquid goes into the venue; nothing from the outside', () => {
    const booking = book(24_975_000n);
    expect(booking.postings).toEqual([
      { account: liquid, amountMicros: -24_975_000n },
      { account: staked, amountMicros: 24_975_000n },
    ]);
    expect(booking.reviewReason).toBeNull();
  });

  it('less liquid than the receipt moved: never an overdraft, the rest flagged', () => {
    const booking = book(20_000_000n);
    expect(booking.postings).toEqual([
      { account: liquid, amountMicros: -20_000_000n },
      { account: staked, amountMicros: 24_975_000n },
      { account: outside, amountMicros: -4_975_000n },
    ]);
    expect(booking.reviewReason).toMatch(/liquid held 20000000/);
  });
});
