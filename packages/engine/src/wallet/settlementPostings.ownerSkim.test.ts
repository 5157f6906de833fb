import type { SettlementLeg } from '@yieldrouter/ledger';
import { computePositionClaim, defaultFeeSchedule, grossUpWithdrawal } from '@yieldrouter/fees';
import { bookSettlement } from './settlementPostings';
import { releaseBooking } from './releaseBooking';
import {
  HARVEST,
  HARVESTED_POSITION,
  STAKED_AFTER_HARVEST,
  sumOn,
} from './testing/harvestedPosition';

// Issue #46 where the owner holds the receipts (Sui, plain EVM venues): the withdraw plan asks for
// the skim (Sui: inside the withdrawal; EVM: its next leg). fees:protocol is credited only with
// what a receipt shows the treasury received; the rest of the protocol's share the owner took is
// owed to fees:receivable, never given back to the chain and never counted twice.
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TREASURY = '0x5555555555555555555555555555555555555555';
const OPPORTUNITY = 'svcop0123456789abcdef01234567';
const harvest = HARVEST;
const position = HARVESTED_POSITION;
const stakedBefore = STAKED_AFTER_HARVEST;

const leg = (
  effect: 'unstake' | 'skim',
  amountMicros: bigint,
  skimMicros: bigint | null,
  chain = 'base',
): SettlementLeg => ({
  planId: 'plan_0123456789abcdef0123456789abcdef',
  legIndex: effect === 'unstake' ? 0 : 1,
  planKind: 'withdraw',
  planStatus: 'prepared',
  chain,
  wallet: OWNER,
  owner: OWNER,
  action: effect === 'unstake' ? 'withdraw' : 'transfer',
  effect,
  venueId: effect === 'unstake' ? 'bed-vault' : null,
  opportunityId: effect === 'unstake' ? OPPORTUNITY : null,
  standard: effect === 'unstake' ? 'erc4626' : null,
  amountMicros,
  status: 'submitted',
  txId: null,
  settledAmountMicros: null,
  failureReason: null,
  minSettleMicros: amountMicros,
  maxSettleMicros: amountMicros,
  released: false,
  position: effect === 'unstake' ? position : null,
  liquidMicros: 0n,
  stakedMicros: effect === 'unstake' ? stakedBefore : 0n,
  pairedLegOpen: false,
  heldMicros: 0n,
  autoPayMicros: 0n,
  swap: null,
  skim: skimMicros === null ? null : { recipient: TREASURY, amountMicros: skimMicros },
  updatedAt: new Date(0),
});
const staked = (chain = 'base') => ({ wallet: OWNER, chain, bucket: `staked:${OPPORTUNITY}` });
const outside = (chain = 'base') => ({ system: 'external', chain });
const fees = { system: 'fees:protocol' };
const receivable = (chain = 'base') => ({ system: 'fees:receivable', chain });
type Posting = { account: object; amountMicros: bigint };
const sum = sumOn;
const balanced = (postings: readonly Posting[]) =>
  expect(postings.reduce((total, p) => total + p.amountMicros, 0n)).toBe(0n);

describe('EVM: a full exit, then its skim leg', () => {
  const claim = computePositionClaim({
    valueMicros: 44_000_000n,
    markMicros: 44_000_000n,
    feesRetainedMicros: harvest.protocolFeeMicros,
  }).claimMicros;
  const exit = bookSettlement(
    leg('unstake', 44_000_000n, claim),
    { amountMicros: 44_000_000n, shares: 40_000_000n },
    defaultFeeSchedule,
  );

  it('the exit owes the skim: fees:protocol → fees:receivable, the owner keeps the rest', () => {
    balanced(exit.postings);
    expect(sum(exit.postings, staked())).toBe(-stakedBefore);
    expect(sum(exit.postings, outside())).toBe(44_000_000n - claim);
    expect(sum(exit.postings, fees)).toBe(-claim);
    expect(sum(exit.postings, receivable())).toBe(claim);
    expect(exit.reviewReason).toBeNull();
    expect(exit.position).toEqual({ shares: 0n, markMicros: 0n, feesRetainedMicros: 0n });
  });

  it('the skim leg: what the treasury received leaves the receivable for fees:protocol', () => {
    const paid = bookSettlement(
      leg('skim', claim, claim),
      { amountMicros: claim, shares: null },
      defaultFeeSchedule,
    );
    balanced(paid.postings);
    expect(sum(paid.postings, receivable())).toBe(-claim);
    expect(sum(paid.postings, fees)).toBe(claim);
    expect(paid.reviewReason).toBeNull();
    // harvest + exit + skim leg: fees:protocol == what the treasury holds; nothing owed.
    expect(harvest.protocolFeeMicros + sum(exit.postings, fees) + sum(paid.postings, fees)).toBe(
      claim,
    );
    expect(sum(exit.postings, receivable()) + sum(paid.postings, receivable())).toBe(0n);
  });

  it('a skim leg never signed stays owed: released, it posts nothing', () => {
    expect(releaseBooking(leg('skim', claim, claim)).postings).toEqual([]);
    // Nothing lost: the harvest's fee is now all receivable, none of it in fees:protocol.
    expect(harvest.protocolFeeMicros + sum(exit.postings, fees)).toBe(0n);
    expect(sum(exit.postings, receivable())).toBe(harvest.protocolFeeMicros);
  });

  it('the treasury received another amount: booked as received, flagged', () => {
    const paid = bookSettlement(
      leg('skim', claim, claim),
      { amountMicros: claim - 1n, shares: null },
      defaultFeeSchedule,
    );
    expect(sum(paid.postings, fees)).toBe(claim - 1n);
    expect(paid.reviewReason).toMatch(/treasury received/);
  });
});

describe('Sui: the skim inside the withdrawal', () => {
  const claim = harvest.protocolFeeMicros;

  it('paid in the same transaction: fees:protocol keeps it, nothing owed', () => {
    const exit = bookSettlement(
      leg('unstake', 44_000_000n, claim, 'sui'),
      { amountMicros: 44_000_000n - claim, shares: 40_000_000n, skimMicros: claim },
      defaultFeeSchedule,
    );
    balanced(exit.postings);
    expect(sum(exit.postings, fees)).toBe(0n);
    expect(sum(exit.postings, receivable('sui'))).toBe(0n);
    expect(sum(exit.postings, outside('sui'))).toBe(44_000_000n - claim);
    expect(exit.reviewReason).toBeNull();
  });

  it('signed without it (skim 0 on the receipt): the whole skim is owed', () => {
    const exit = bookSettlement(
      leg('unstake', 44_000_000n, claim, 'sui'),
      { amountMicros: 44_000_000n, shares: 40_000_000n, skimMicros: 0n },
      defaultFeeSchedule,
    );
    expect(sum(exit.postings, receivable('sui'))).toBe(claim);
    expect(sum(exit.postings, fees)).toBe(-claim);
    expect(sum(exit.postings, outside('sui'))).toBe(44_000_000n - claim);
  });
});

describe('a partial withdrawal grossed up, and yield the plan did not see', () => {
  it('the owner receives X; the skim leg pays the pro-rata claim', () => {
    const up = grossUpWithdrawal({
      netMicros: 5_000_000n,
      positionValueMicros: 44_000_000n,
      claimMicros: harvest.protocolFeeMicros,
    });
    // The vault burns shares at 1.1 USDC each.
    const burnt = (up.grossMicros * 40_000_000n) / 44_000_000n;
    const exit = bookSettlement(
      leg('unstake', up.grossMicros, up.skimMicros),
      { amountMicros: up.grossMicros, shares: burnt },
      defaultFeeSchedule,
    );
    balanced(exit.postings);
    expect(sum(exit.postings, outside())).toBe(5_000_000n);
    expect(sum(exit.postings, receivable())).toBe(up.skimMicros);
    expect(exit.position?.feesRetainedMicros).toBe(harvest.protocolFeeMicros - up.skimMicros);
    expect(exit.reviewReason).toBeNull();
  });

  it('yield since the mark the plan could not read: its fee is owed too, never given away', () => {
    // Planned on the books' mark (claim = retained); the venue paid 45 USDC for the shares.
    const planned = harvest.protocolFeeMicros;
    const exit = bookSettlement(
      leg('unstake', 44_000_000n, planned),
      { amountMicros: 45_000_000n, shares: 40_000_000n },
      { ...defaultFeeSchedule },
    );
    balanced(exit.postings);
    const exitFee = exit.exitFeeMicros;
    expect(exitFee).toBe(50_000n);
    // Harvest + exit fee are the protocol's share; all of it is owed, none returned to the chain.
    expect(harvest.protocolFeeMicros + sum(exit.postings, fees)).toBe(0n);
    expect(sum(exit.postings, receivable())).toBe(planned + exitFee);
    // The owner kept 45 USDC less the protocol's share; the 1 USDC of yield came from the chain.
    expect(sum(exit.postings, outside())).toBe(45_000_000n - planned - exitFee - 1_000_000n);
  });
});

describe("rebalance and auto-pay withdraw legs that take the protocol's retained fees", () => {
  const claim = harvest.protocolFeeMicros;
  const exitLeg = (effect: 'rebalance_out' | 'unstake_yield', chain: string): SettlementLeg => ({
    ...leg('unstake', 44_000_000n, null, chain),
    effect,
    planKind: effect === 'rebalance_out' ? 'rebalance' : 'auto_pay',
    pairedLegOpen: true,
  });
  const everything = { amountMicros: 44_000_000n, shares: 40_000_000n };

  it.each(['base', 'sui'])(
    '%s: a rebalance out of everything owes the retained fees to the receivable',
    (chain) => {
      const exit = bookSettlement(exitLeg('rebalance_out', chain), everything, defaultFeeSchedule);
      balanced(exit.postings);
      expect(sum(exit.postings, staked(chain))).toBe(-stakedBefore);
      expect(sum(exit.postings, { wallet: OWNER, chain, bucket: 'pending_in' })).toBe(stakedBefore);
      expect(sum(exit.postings, fees)).toBe(-claim);
      expect(sum(exit.postings, receivable(chain))).toBe(claim);
      expect(sum(exit.postings, outside(chain))).toBe(0n);
    },
  );

  it("base: auto-pay's withdraw of everything holds the owner's part, owes the protocol's", () => {
    const exit = bookSettlement(exitLeg('unstake_yield', 'base'), everything, defaultFeeSchedule);
    balanced(exit.postings);
    expect(sum(exit.postings, { wallet: OWNER, chain: 'base', bucket: 'auto_pay' })).toBe(
      stakedBefore,
    );
    expect(sum(exit.postings, receivable())).toBe(claim);
    expect(sum(exit.postings, fees)).toBe(-claim);
  });

  it.each([
    ['base', 'rebalance_out', 'pending_in'],
    ['sui', 'rebalance_out', 'pending_in'],
    ['base', 'unstake_yield', 'auto_pay'],
    ['sui', 'unstake_yield', 'auto_pay'],
  ] as const)(
    "%s: %s carrying the withdraw plan's skim: %s gets the owner's part, no more",
    (chain, effect, bucket) => {
      // The venue paid everything; Sui split the skim off in the same transaction (inline), EVM
      // pays it with the next leg (owed until that leg's receipt).
      const inline = chain === 'sui' ? claim : 0n;
      const exit = bookSettlement(
        { ...exitLeg(effect, chain), skim: { recipient: TREASURY, amountMicros: claim } },
        { ...everything, amountMicros: 44_000_000n - inline, skimMicros: inline },
        defaultFeeSchedule,
      );
      balanced(exit.postings);
      expect(sum(exit.postings, staked(chain))).toBe(-stakedBefore);
      expect(sum(exit.postings, { wallet: OWNER, chain, bucket })).toBe(stakedBefore);
      expect(sum(exit.postings, fees)).toBe(-(claim - inline));
      expect(sum(exit.postings, receivable(chain))).toBe(claim - inline);
      expect(sum(exit.postings, outside(chain))).toBe(0n);
      expect(exit.reviewReason).toBeNull();
    },
  );

  it('solana: the router took its skim on the way out; what it left goes back to the chain', () => {
    const exit = bookSettlement(exitLeg('rebalance_out', 'solana'), everything, defaultFeeSchedule);
    balanced(exit.postings);
    expect(sum(exit.postings, receivable('solana'))).toBe(0n);
    expect(sum(exit.postings, outside('solana'))).toBe(claim);
  });
});
