import { CAGE_ACTION_FIELDS, CageAction } from '@yieldrouter/schemas';
import type { CageDocument, CageUnavailableReason } from '@yieldrouter/schemas';
import type { EvmCage } from '@yieldrouter/chain-evm';

/** Where each action's money may go: the same locks the contract enforces. */
const DESTINATION_LOCKS: Readonly<Record<CageAction, string>> = {
  ROUTE: "an allowlisted venue, from the owner's wallet",
  EXIT: 'the owner only (works while paused or disabled)',
  REBALANCE: 'from one allowlisted venue to another',
  HARVEST: 'realised yield to the owner only; the skim to the treasury',
  COMPOUND: 'realised yield back into the same allowlisted venue, for the owner only',
  AUTOPAY: 'an allowlisted payee only',
};

/** The most a policy may skim from realised yield (the contract's MAX_SKIM_BPS). */
export const CAGE_MAX_SKIM_BPS = 1000;

/** Why nothing can be read or prepared on this cage, or null when it can. */
export function cageUnavailable(
  cage: EvmCage,
): { reason: CageUnavailableReason; detail: string } | null {
  if (!cage.address) {
    return {
      reason: 'cage_not_configured',
      detail: `no cage contract is configured for ${cage.label} (SVC_${cage.chain.toUpperCase()}_CAGE_ADDRESS)`,
    };
  }
  if (!cage.rpcConfigured) {
    return {
      reason: 'rpc_not_configured',
      detail: `no RPC URL is configured for ${cage.label}`,
    };
  }
  return null;
}

/**
 * GET /svc/{base,arbitrum}/cage: the six actions, their locks, and the contract (null with a
 * reason when none is configured). Offline: nothing is read from chain.
 *
 * @example
 * describeCage(cages.base).actions.map((action) => action.kind) // ['ROUTE', 'EXIT', …]
 */
export function describeCage(cage: EvmCage): CageDocument {
  const missing = cage.address ? null : cageUnavailable(cage);
  return {
    chain: cage.chain,
    chainId: cage.chainId,
    executionMode: 'owner_sign_prepare',
    broadcast: false,
    contract: {
      address: cage.address ?? null,
      reason: missing?.reason ?? null,
      detail: missing?.detail ?? null,
    },
    maxSkimBps: CAGE_MAX_SKIM_BPS,
    actions: CageAction.options.map((kind) => ({
      kind,
      destinationLock: DESTINATION_LOCKS[kind],
      allowedWhilePaused: kind === 'EXIT',
      fields: ['amountMicros', ...CAGE_ACTION_FIELDS[kind]],
    })),
  };
}
