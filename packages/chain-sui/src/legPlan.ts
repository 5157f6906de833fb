import type { Blocker, LegRequest } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import type { SuiVenue } from './venues/suiVenue';
import { resolveSuiVenue } from './venues/suiVenue';

const U64_MAX = 18_446_744_073_709_551_615n;

/** A leg moves USDC in (deposit, route) or out (withdraw, exit). */
export type SuiLegAction = 'deposit' | 'withdraw';

/** Everything a Sui leg needs, checked and in canonical form. */
export interface SuiLegPlan {
  readonly action: SuiLegAction;
  readonly planId: string;
  readonly planBytes: Uint8Array;
  readonly owner: string;
  readonly amount: bigint;
  readonly usdc: string;
  /**
   * Venue legs: the protocol's objects the leg's calls take. Undefined: a wallet leg (target
   * `router`: liquid USDC, which on Sui stays in the owner's wallet; see wallet/walletProof.ts).
   */
  readonly venue: SuiVenue | undefined;
  /**
   * Venue withdrawals where the plan pays the protocol's share: split off the USDC the venue
   * paid and sent to the treasury in the same transaction (docs/design-proposal-skim.md).
   */
  readonly skim?: { readonly recipient: string; readonly amount: bigint };
}

export type SuiLegPlanOutcome =
  | { readonly status: 'ready'; readonly plan: SuiLegPlan }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

/** A leg's USDC amount: > 0 and a Move u64, or `InvalidChainInputError` (amountMicros). */
export function checkAmount(amount: bigint): bigint {
  if (typeof amount !== 'bigint' || amount <= 0n) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must be > 0');
  }
  if (amount > U64_MAX) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must fit a Move u64');
  }
  return amount;
}

/** A skim leg belongs to a venue withdrawal and is at most what the venue pays. */
function checkSkim(request: LegRequest, action: SuiLegAction, amount: bigint) {
  const skim = request.skim;
  if (!skim || skim.amountMicros === 0n) return {};
  if (action !== 'withdraw' || request.target.kind !== 'venue') {
    throw new InvalidChainInputError('skim', 'skim: only a venue withdrawal pays a skim');
  }
  if (skim.amountMicros < 0n || skim.amountMicros > amount) {
    throw new InvalidChainInputError(
      'skim.amountMicros',
      'skim.amountMicros: must be between 0 and the amount withdrawn',
    );
  }
  const recipient = requireSuiAddress('skim.recipient', skim.recipient);
  return { skim: { recipient, amount: skim.amountMicros } };
}

/** Every USDC leg's blocker when the configuration names no USDC coin type. */
export const USDC_MISSING: Blocker = {
  code: 'asset_not_configured',
  field: 'usdcCoinType',
  message: 'USDC coin type on Sui is missing.',
};

/**
 * Checks a leg request. Bad input throws `InvalidChainInputError` (owner, amountMicros, planId);
 * missing configuration blocks the leg with every catalog blocker that applies. A venue leg needs
 * the venue's ids; a wallet leg (target `router`) only USDC's coin type: it calls no package.
 */
export function planSuiLeg(
  config: ResolvedSuiConfig,
  request: LegRequest,
  action: SuiLegAction,
): SuiLegPlanOutcome {
  const owner = requireSuiAddress('owner', request.owner);
  const amount = checkAmount(request.amountMicros);
  const planBytes = planIdToBytes(request.planId);

  const blockers: Blocker[] = [];
  const { usdcCoinType } = config;
  if (usdcCoinType === undefined) blockers.push(USDC_MISSING);
  const base = {
    action,
    planId: request.planId,
    planBytes,
    owner,
    amount,
    ...checkSkim(request, action, amount),
  };
  if (request.target.kind === 'venue') {
    // A venue leg calls the protocol's own functions.
    const resolved = resolveSuiVenue(request.target.venue, usdcCoinType ?? '');
    if (resolved.status === 'blocked') blockers.push(...resolved.blockers);
    if (resolved.status === 'blocked' || usdcCoinType === undefined) {
      return { status: 'blocked', blockers };
    }
    return { status: 'ready', plan: { ...base, usdc: usdcCoinType, venue: resolved.venue } };
  }
  if (usdcCoinType === undefined) return { status: 'blocked', blockers };
  return { status: 'ready', plan: { ...base, usdc: usdcCoinType, venue: undefined } };
}
