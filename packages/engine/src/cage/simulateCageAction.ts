import type { CageState, EvmCage } from '@yieldrouter/chain-evm';
import type { PlanLegInput } from '@yieldrouter/ledger';
import type {
  CageTransactionRequest,
  PlanSimulation,
  WalletCagePrepareRequest,
} from '@yieldrouter/schemas';
import { simulatePlan } from '../simulation/simulatePlan';

/** What the cage's call does to the owner's USDC, as a leg the findings judge. */
const ACTION_OF: Readonly<Record<WalletCagePrepareRequest['kind'], string>> = {
  // In from the owner's wallet, or out to it: exactly the amount.
  ROUTE: 'deposit',
  EXIT: 'withdraw',
  // Between venues, to a payee or the treasury: recipients only (owner, venue, payee, treasury).
  REBALANCE: 'cage',
  HARVEST: 'cage',
  COMPOUND: 'cage',
  AUTOPAY: 'cage',
};

const legOf = (
  action: string,
  request: WalletCagePrepareRequest,
  transaction: CageTransactionRequest,
): PlanLegInput => ({
  action,
  summary: `${request.kind} ${action}`,
  amountMicros: request.amountMicros,
  settles: action !== 'approve',
  payload: { encoding: 'evm-transaction-request', transaction: { ...transaction } },
});

/**
 * Issue 44 for a cage action: its approval (ROUTE) and its call, simulated from the owner in
 * that order on the cage's chain. The cage and the venues the request names are the venues,
 * its payee the payee, the cage's treasury (where a harvest's skim goes) the treasury.
 */
export function simulateCageAction(parameters: {
  readonly cage: EvmCage;
  readonly planId: string;
  readonly owner: string;
  readonly request: WalletCagePrepareRequest;
  readonly state: CageState;
  readonly approval: CageTransactionRequest | null;
  readonly transaction: CageTransactionRequest;
}): Promise<PlanSimulation> {
  const { cage, request, approval, transaction } = parameters;
  const legs = [
    ...(approval ? [legOf('approve', request, approval)] : []),
    legOf(ACTION_OF[request.kind], request, transaction),
  ];
  const venues = [request.venue, request.fromVenue, request.toVenue].filter(
    (venue): venue is string => venue !== undefined,
  );
  return simulatePlan({
    adapters: { [cage.chain]: cage },
    planId: parameters.planId,
    chain: cage.chain,
    legs,
    roles: {
      owner: parameters.owner,
      venue: [...(cage.address ? [cage.address] : []), ...venues],
      treasury: [parameters.state.treasury],
      payee: request.payee === undefined ? [] : [request.payee],
    },
  });
}
