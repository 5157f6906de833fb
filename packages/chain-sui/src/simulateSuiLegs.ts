import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import type {
  ChainBalanceChange,
  LegChangesReading,
  LegSimulationQuery,
  LegSimulationReading,
} from '@yieldrouter/schemas';
import { normalizeSuiOwner, requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import { fetchTransactionView } from './fetchTransactionView';
import { rpcNotConfigured, suiRpcFailure } from './rpc';
import type { BalanceChangeView } from './shapes';
import { dryRunLeg, refusal } from './sizeGas';

type SimulatedSuiLeg = Extract<LegSimulationReading, { status: 'ok' }>['legs'][number];

/** What no Sui simulation shows of a venue leg, and why (issue 44: said, never guessed). */
export const SUI_VENUE_UNOBSERVED = {
  role: 'venue',
  reason:
    'a Sui venue holds USDC as a Balance inside its shared objects, not as Coin objects owned ' +
    'by an address; balanceChanges list the latter only, so what the venue receives or pays is ' +
    'not shown',
} as const;

/** Sui's own packages (move-stdlib, the framework): the coin handling any leg may hold. */
const SUI_SYSTEM_PACKAGES = new Set(['0x1', '0x2'].map((id) => normalizeSuiAddress(id)));

/**
 * Whether the leg calls a Move package outside Sui's own (a venue's): only then is there a venue
 * side the balance changes cannot show. A wallet leg and a transfer leg call none.
 */
function callsVenuePackage(payload: { encoding: string; transaction: unknown }): boolean {
  if (typeof payload.transaction !== 'string') return false;
  return Transaction.from(payload.transaction)
    .getData()
    .commands.some(
      (command) =>
        command.MoveCall !== undefined &&
        command.MoveCall !== null &&
        !SUI_SYSTEM_PACKAGES.has(normalizeSuiAddress(command.MoveCall.package)),
    );
}

/**
 * Balance changes of address owners, one per owner and coin type (the way `balanceChanges`
 * come), coin types in canonical form. Changes of an object or shared owner are not kept: Sui
 * does not report a shared pool's `Balance` there (see `SUI_VENUE_UNOBSERVED`).
 */
function addressChanges(changes: readonly BalanceChangeView[]): ChainBalanceChange[] {
  return changes.flatMap((change) => {
    const account = change.owner === undefined ? undefined : normalizeSuiOwner(change.owner);
    if (account === undefined || change.amount === 0n) return [];
    return [{ account, asset: normalizeStructTag(change.coinType), delta: change.amount }];
  });
}

/**
 * Simulates a plan's first unsigned Sui leg (issue 44): resolved as the owner's wallet resolves it
 * (objects, the owner's coins for `coinWithBalance`, the reference gas price; no gas payment, so
 * the node mocks the gas coin) and run with `sui_dryRunTransactionBlock` on the current state.
 * Its changes are the dry run's `balanceChanges` of address owners: the owner, the treasury of
 * a withdrawal's skim, a transfer's payee, anyone a coin is sent to, and the owner's SUI (gas
 * included). A leg that calls a venue's package says the venue's side is `unobserved`
 * (`SUI_VENUE_UNOBSERVED`); a wallet or transfer leg calls none, so every side of it is shown. A leg the node or the SDK refuses, or whose
 * dry run fails, is `reverted` with why. Of several legs the first is run and the others are
 * `deferred` (a dry run runs on the current state, not on what an earlier leg leaves: the engine
 * runs each, alone, once the leg before it settled); no RPC, or one that fails → `unavailable`.
 *
 * @throws InvalidChainInputError for an owner that is not a Sui address.
 */
export async function simulateSuiLegs(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  query: LegSimulationQuery,
): Promise<LegSimulationReading> {
  const owner = requireSuiAddress('owner', query.owner);
  // Each later leg runs on what the one before leaves: deferred, simulated once it settled.
  const deferred = query.payloads
    .slice(1)
    .map(() => ({ outcome: 'deferred' as const, changes: [] }));
  const what = `simulation of a Sui leg of ${owner}`;
  if (!client) return rpcNotConfigured(what);
  const usdc = config.usdcCoinType ?? null;
  const payload = query.payloads[0] as { encoding: string; transaction: unknown };
  // Read from the payload inside the try below: a payload that is no transaction is refused.
  let venueSide = false;
  // The latest checkpoint before the dry run: it runs on at least that state.
  let block: string | null = null;
  const reading = (leg: SimulatedSuiLeg) => ({
    status: 'ok' as const,
    method: 'dryRunTransactionBlock' as const,
    block,
    usdc,
    legs: [{ ...leg, ...(venueSide ? { unobserved: [SUI_VENUE_UNOBSERVED] } : {}) }, ...deferred],
  });
  let run;
  try {
    venueSide = callsVenuePackage(payload);
    const [gasPrice, latest] = await Promise.all([
      client.getReferenceGasPrice(),
      client.getLatestCheckpointSequenceNumber(),
    ]);
    block = latest;
    run = await dryRunLeg(client, payload, owner, BigInt(gasPrice));
  } catch (error) {
    const refused = refusal(error);
    if (refused === undefined) return suiRpcFailure(error, what);
    return reading({ outcome: 'reverted', detail: refused, changes: [] });
  }
  if (run.status === 'failure') {
    const detail = `the dry run failed: ${run.error ?? 'execution failed'}`;
    return reading({ outcome: 'reverted', detail, changes: [] });
  }
  return reading({ outcome: 'ok', changes: addressChanges(run.balanceChanges) });
}

/**
 * What a Sui transaction moved (issue 44's settlement check): its `balanceChanges` of address
 * owners (`sui_getTransactionBlock`), read as `simulateSuiLegs` reads a dry run's. Not found yet
 * → `pending`; no RPC or one that fails → `unavailable`.
 */
export async function readSuiLegChanges(
  client: SuiJsonRpcClient | undefined,
  txId: string,
): Promise<LegChangesReading> {
  const what = `the balances ${txId} changed`;
  if (!client) return rpcNotConfigured(what);
  const fetched = await fetchTransactionView(client, txId, what, () => false);
  if ('answer' in fetched) {
    return fetched.answer.status === 'pending' ? { status: 'pending' } : fetched.answer;
  }
  const { checkpoint } = fetched.view;
  return {
    status: 'ok',
    changes: addressChanges(fetched.view.balanceChanges),
    ...(checkpoint === null ? {} : { block: checkpoint }),
  };
}
