import { encodeCageAction } from '@yieldrouter/chain-evm';
import type { CageCall, EvmCage } from '@yieldrouter/chain-evm';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import type { CagePlanDocument, WalletCagePrepareRequest } from '@yieldrouter/schemas';
import { cageUnavailable } from './cageCatalog';
import { cageWallet } from './cageWallet';
import type { CageAddress } from './cageWallet';
import { checkCageAction } from './checkCageAction';
import { simulateCageAction } from './simulateCageAction';

export interface PrepareCageActionParameters {
  readonly cage: EvmCage;
  /** The owner: the path's wallet, or the body's `wallet` on the chain-level route. */
  readonly wallet: string;
  /** Where the wallet came from, for a 400 (`params.address` or `body.wallet`). */
  readonly walletField: string;
  readonly request: WalletCagePrepareRequest;
}

/**
 * One cage action for the owner to sign: the policy is read from chain and the contract's
 * locks applied first, so a `prepared` plan is one the contract accepts now, with its
 * simulation (issue 44); `rejected` names the lock; `blocked` when the cage or the chain cannot
 * be read. Nothing is stored and nothing
 * is sent: Base and Arbitrum are Map chains.
 *
 * @example
 * await prepareCageAction({ cage, wallet, walletField: 'params.address', request: { kind: 'ROUTE', venue, amountMicros: 5_000_000n } })
 */
export async function prepareCageAction({
  cage,
  wallet,
  walletField,
  request,
}: PrepareCageActionParameters): Promise<CagePlanDocument> {
  const owner = cageWallet(wallet, walletField);
  const planId = newPlanId();
  const plan = {
    planId,
    kind: request.kind,
    chain: cage.chain,
    owner,
    ownerMustSign: true,
    submitted: false,
    executionMode: 'owner_sign_prepare',
    amountMicros: formatMicros(request.amountMicros),
    approvalRequest: null,
    transactionRequest: null,
  } as const;
  const missing = cageUnavailable(cage);
  const address = cage.address;
  const state = missing || !address ? null : await cage.readState(owner, requestVenues(request));
  if (!address || !state || state.status === 'unavailable') {
    const why = missing ?? (state?.status === 'unavailable' ? state : null);
    return {
      ...plan,
      status: 'blocked',
      lock: null,
      reason: why?.reason ?? 'rpc_error',
      message: why?.detail ?? 'the cage could not be read',
    };
  }
  const refusal = checkCageAction(state, owner, request);
  if (refusal) {
    return {
      ...plan,
      status: 'rejected',
      reason: null,
      lock: refusal.lock,
      message: refusal.message,
    };
  }
  const data = encodeCageAction({
    planId,
    owner,
    amount: request.amountMicros,
    call: cageCall(request, owner),
  });
  const approvalRequest =
    request.kind === 'ROUTE' ? (cage.approval(owner, request.amountMicros) ?? null) : null;
  const transactionRequest = cage.transaction(owner, address, data);
  return {
    ...plan,
    status: 'prepared',
    lock: null,
    reason: null,
    message: `${request.kind} of ${formatMicros(request.amountMicros)} micros on the ${cage.label} cage: the owner signs and sends it`,
    approvalRequest,
    transactionRequest,
    // Issue 44: what signing them does, simulated on the chain (never stored: nor is the plan).
    simulation: await simulateCageAction({
      cage,
      planId,
      owner,
      request,
      state,
      approval: approvalRequest,
      transaction: transactionRequest,
    }),
  };
}

function requestVenues(request: WalletCagePrepareRequest): CageAddress[] {
  return [request.venue, request.fromVenue].filter(
    (venue): venue is CageAddress => venue !== undefined,
  );
}

/** The checked request as the contract call (schemas guaranteed the fields each kind needs). */
function cageCall(request: WalletCagePrepareRequest, owner: CageAddress): CageCall {
  const need = (value: string | undefined, field: string): CageAddress => {
    if (value === undefined) throw new TypeError(`${request.kind}: ${field} is missing`);
    return value as CageAddress;
  };
  switch (request.kind) {
    case 'ROUTE':
      return { kind: 'ROUTE', venue: need(request.venue, 'venue') };
    case 'REBALANCE':
      return {
        kind: 'REBALANCE',
        fromVenue: need(request.fromVenue, 'fromVenue'),
        toVenue: need(request.toVenue, 'toVenue'),
      };
    case 'AUTOPAY':
      return {
        kind: 'AUTOPAY',
        venue: need(request.venue, 'venue'),
        payee: need(request.payee, 'payee'),
      };
    default:
      return { kind: request.kind, venue: need(request.venue, 'venue'), to: owner };
  }
}
