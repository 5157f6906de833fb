import { normalizeSuiOwner } from '../address';
import type { LegCallMatch } from '../legCall';
import { pureBytes, sameBytes } from '../legCall';
import type { SuiLegAction } from '../legPlan';
import type { TransactionInputView } from '../shapes';
import type { SuiVenue } from './suiVenue';

/** The protocol function a venue leg calls (module, function). */
export function venueFunction(venue: SuiVenue, action: SuiLegAction): readonly [string, string] {
  if (venue.kind === 'suilend') {
    return action === 'deposit'
      ? ['lending_market', 'deposit_liquidity_and_mint_ctokens']
      : ['lending_market', 'redeem_ctokens_and_withdraw_liquidity'];
  }
  if (venue.kind === 'navi') {
    return action === 'deposit'
      ? ['incentive_v3', 'entry_deposit']
      : ['incentive_v3', 'withdraw_v2'];
  }
  return action === 'deposit' ? ['mint', 'mint'] : ['redeem', 'redeem'];
}

/**
 * Whether a transaction is a venue leg's own, from its input alone (a failed transaction emits
 * no events): sent by the owner, calling the venue's function in the configured package, and
 * carrying this plan's 16-byte id as a `vector<u8>` pure input.
 */
export function matchVenueCall(
  tx: TransactionInputView,
  expected: { venue: SuiVenue; action: SuiLegAction; owner: string; planBytes: Uint8Array },
): LegCallMatch {
  if (normalizeSuiOwner(tx.sender) !== expected.owner) {
    return { status: 'mismatch', reason: `sent by ${tx.sender}, not the owner` };
  }
  const [module, fn] = venueFunction(expected.venue, expected.action);
  const calls = tx.moveCalls.some(
    (call) =>
      normalizeSuiOwner(call.package) === expected.venue.packageId &&
      call.module === module &&
      call.function === fn,
  );
  if (!calls) {
    return { status: 'mismatch', reason: `no ${module}::${fn} call of ${expected.venue.venueId}` };
  }
  if (!tx.inputs.some((input) => sameBytes(pureBytes(input), expected.planBytes))) {
    return { status: 'mismatch', reason: 'the transaction carries another plan id' };
  }
  return { status: 'matched' };
}
