import type { BalanceGuard, PostingInput, SettlementLeg } from '@yieldrouter/ledger';
import { externalAccount, min, Moves, planGuard, walletAccount } from './settlementAccounts';

/** What releasing a leg posts, the balances that was computed from, and the pool's return. */
export interface ReleaseBooking {
  readonly postings: PostingInput[];
  readonly guards: readonly BalanceGuard[];
  readonly autoPayReturnMicros: bigint;
}

const NOTHING_HELD: ReleaseBooking = { postings: [], guards: [], autoPayReturnMicros: 0n };

/**
 * What releasing an open leg returns (a proven revert, expiry, cancel): exactly what it reserved
 * or committed, where the chain left it. Every effect is named (docs/reconciliation.md):
 * - fund_liquid, fund_staked: the reservation (pending_in) goes back to the chain;
 * - exit_liquid: pending_out goes back to liquid;
 * - rebalance_in: what its withdraw leg put in pending_in is in the owner's wallet: to the chain;
 * - pay_out: the share its plan holds in auto_pay (its withdraw settled: the USDC is in the
 *   owner's wallet) goes to liquid, and the pool un-commits it as returned (paid by the next run);
 * - unstake_yield: its commitment on the pool goes back through the plan_legs trigger (0023);
 * - the others reserve nothing: stake, bridged_stake (the bridge's delivery stays liquid),
 *   unstake, rebalance_out, swap, wrap, unwrap, bridge_burn, bridge_fee (bridge legs release through
 *   the bridge's own failure path), none; skim: what its exit owes stays in fees:receivable
 *   (reported by reconciliation, never written off).
 */
export function releaseBooking(leg: SettlementLeg): ReleaseBooking {
  if (leg.released) return NOTHING_HELD;
  const moves = new Moves();
  switch (leg.effect) {
    case 'fund_liquid':
    case 'fund_staked':
      moves.move(walletAccount(leg, 'pending_in'), externalAccount(leg), leg.amountMicros);
      return { postings: moves.postings(), guards: [], autoPayReturnMicros: 0n };
    case 'exit_liquid':
      moves.move(walletAccount(leg, 'pending_out'), walletAccount(leg, 'liquid'), leg.amountMicros);
      return { postings: moves.postings(), guards: [], autoPayReturnMicros: 0n };
    case 'rebalance_in':
      moves.move(walletAccount(leg, 'pending_in'), externalAccount(leg), leg.heldMicros);
      return {
        postings: moves.postings(),
        guards: [planGuard(leg, 'pending_in', leg.heldMicros)],
        autoPayReturnMicros: 0n,
      };
    case 'pay_out': {
      const held = leg.autoPayMicros > 0n ? leg.autoPayMicros : 0n;
      const share = min(leg.amountMicros, held);
      moves.move(walletAccount(leg, 'auto_pay'), walletAccount(leg, 'liquid'), share);
      return {
        postings: moves.postings(),
        guards: [planGuard(leg, 'auto_pay', leg.autoPayMicros)],
        autoPayReturnMicros: share,
      };
    }
    case 'unstake_yield':
    case 'stake':
    case 'bridged_stake':
    case 'unstake':
    case 'rebalance_out':
    case 'swap':
    case 'unwrap':
    case 'wrap':
    case 'bridge_burn':
    case 'bridge_fee':
    case 'skim':
    case 'none':
      return NOTHING_HELD;
  }
}
