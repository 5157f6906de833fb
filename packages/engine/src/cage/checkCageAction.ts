import type { CageState, CageVenueState } from '@yieldrouter/chain-evm';
import type { CageLock, WalletCagePrepareRequest } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { CageAddress } from './cageWallet';

/** The lock that refuses the action, with a message for people; null when the contract accepts. */
export interface CageRefusal {
  readonly lock: CageLock;
  readonly message: string;
}

const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/**
 * The contract's checks, in its order, on the policy read from chain: what the contract would
 * revert, the API refuses first, so the owner never signs a transaction that fails. The
 * contract checks again on its own (a hand-built transaction gets no further).
 *
 * @example
 * checkCageAction(state, owner, { kind: 'EXIT', venue, payee: stranger, amountMicros: 1n })
 * // { lock: 'owner_destination', message: 'EXIT pays the owner only …' }
 */
export function checkCageAction(
  state: CageState,
  owner: CageAddress,
  request: WalletCagePrepareRequest,
): CageRefusal | null {
  const { kind, amountMicros: amount } = request;
  const listed = (venue: string | undefined) =>
    state.venues.find((entry) => same(venue, entry.venue));
  const position = (venue: string | undefined): CageVenueState | undefined =>
    listed(venue) ?? state.delisted.find((entry) => same(venue, entry.venue));
  if (kind !== 'EXIT') {
    if (state.paused) return { lock: 'cage_paused', message: `the cage is paused: only EXIT runs` };
    if (!state.enabled) {
      return { lock: 'cage_enabled', message: `the owner's cage policy is not enabled` };
    }
  }
  if ((kind === 'EXIT' || kind === 'HARVEST' || kind === 'COMPOUND') && request.payee) {
    if (!same(request.payee, owner)) {
      return {
        lock: 'owner_destination',
        message: `${kind} pays the owner ${owner} only, not ${request.payee}`,
      };
    }
  }
  for (const venue of venuesThatMustBeListed(request)) {
    if (!listed(venue)) {
      return { lock: 'venue_allowlist', message: `${venue} is not on the owner's venue allowlist` };
    }
  }
  if (kind === 'AUTOPAY' && !state.payees.some((payee) => same(request.payee, payee))) {
    return {
      lock: 'payee_allowlist',
      message: `${request.payee ?? 'the payee'} is not on the owner's payee allowlist`,
    };
  }
  const from = kind === 'REBALANCE' ? request.fromVenue : request.venue;
  const held = position(from);
  if (kind === 'HARVEST' || kind === 'COMPOUND') {
    const earned = held?.yield ?? 0n;
    if (amount > earned) {
      return {
        lock: 'harvestable_yield',
        message: `${kind} takes yield only: ${formatMicros(earned)} micros above principal`,
      };
    }
  } else if (kind === 'ROUTE') {
    if (amount > state.walletAssets) {
      return {
        lock: 'wallet_balance',
        message: `ROUTE moves ${formatMicros(amount)} micros; the owner's wallet holds ${formatMicros(state.walletAssets)}`,
      };
    }
  } else if (amount > (held?.assets ?? 0n)) {
    return {
      lock: 'position_balance',
      message: `the position in ${from ?? 'the venue'} holds ${formatMicros(held?.assets ?? 0n)} micros`,
    };
  }
  return null;
}

function venuesThatMustBeListed(
  request: WalletCagePrepareRequest,
): readonly (string | undefined)[] {
  switch (request.kind) {
    case 'ROUTE':
    case 'COMPOUND':
      return [request.venue];
    case 'REBALANCE':
      return [request.fromVenue, request.toVenue];
    default:
      return [];
  }
}
