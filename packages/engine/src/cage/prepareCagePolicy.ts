import { encodeCagePolicy } from '@yieldrouter/chain-evm';
import type { EvmCage } from '@yieldrouter/chain-evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { CagePlanDocument, CagePolicyRequest } from '@yieldrouter/schemas';
import { cageUnavailable } from './cageCatalog';
import { cageWallet } from './cageWallet';
import type { CageAddress } from './cageWallet';

/**
 * PUT /wallets/{address}/{base,arbitrum}/cage/policy: the owner-signed `setPolicy` transaction.
 * The policy lives on chain only (the contract keys it by the signer); the service stores
 * nothing, so GET reads back exactly what the owner signed once it is mined.
 *
 * @example
 * prepareCagePolicy({ cage, wallet, request: { enabled: true, skimBps: 500, venues: [vault], payees: [] } })
 */
export function prepareCagePolicy({
  cage,
  wallet,
  request,
}: {
  readonly cage: EvmCage;
  readonly wallet: string;
  readonly request: CagePolicyRequest;
}): CagePlanDocument {
  const owner = cageWallet(wallet, 'params.address');
  const planId = newPlanId();
  const plan = {
    planId,
    kind: 'POLICY',
    chain: cage.chain,
    owner,
    lock: null,
    ownerMustSign: true,
    submitted: false,
    executionMode: 'owner_sign_prepare',
    amountMicros: null,
    approvalRequest: null,
  } as const;
  const address = cage.address;
  if (!address) {
    const missing = cageUnavailable(cage);
    return {
      ...plan,
      status: 'blocked',
      reason: 'cage_not_configured',
      message: missing?.detail ?? 'no cage is configured',
      transactionRequest: null,
    };
  }
  const data = encodeCagePolicy({
    planId,
    enabled: request.enabled,
    skimBps: request.skimBps,
    agent: (request.agent ?? null) as CageAddress | null,
    venues: request.venues as CageAddress[],
    payees: request.payees as CageAddress[],
  });
  return {
    ...plan,
    status: 'prepared',
    reason: null,
    message: `the owner signs setPolicy on the ${cage.label} cage; it replaces the policy on chain`,
    transactionRequest: cage.transaction(owner, address, data),
  };
}
