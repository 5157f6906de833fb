import type { Address } from 'viem';
import { getAddress } from 'viem';
import { erc20Abi } from './abis';
import { cageAbi } from './cageAbi';
import { callView } from './callView';
import type { EvmRpc } from './evmRpc';
import { toUnavailable } from './toUnavailable';

/** One allowlisted venue of a policy with the owner's position in it, in micros. */
export interface CageVenueState {
  readonly venue: Address;
  readonly assets: bigint;
  readonly principal: bigint;
  /** What the position holds above its principal: what HARVEST and COMPOUND may take. */
  readonly yield: bigint;
}

export interface CageState {
  readonly status: 'available';
  /** The owner's wallet balance of the cage's asset (what ROUTE can move in), in micros. */
  readonly walletAssets: bigint;
  /** Positions in venues the policy no longer lists (asked for by the caller). */
  readonly delisted: readonly CageVenueState[];
  readonly paused: boolean;
  readonly enabled: boolean;
  readonly skimBps: number;
  readonly agent: Address | null;
  readonly venues: readonly CageVenueState[];
  readonly payees: readonly Address[];
  /** Where HARVEST and COMPOUND send the skim (the cage's immutable `treasury`). */
  readonly treasury: Address;
}

export type ReadCageStateReturnType =
  | CageState
  | {
      readonly status: 'unavailable';
      readonly reason: 'rpc_timeout' | 'rpc_error' | 'rpc_bad_response';
      readonly detail: string;
    };

const ZERO = '0x0000000000000000000000000000000000000000';

/**
 * The owner's policy, the pause flag, the owner's wallet balance of the cage's asset and the
 * owner's position in every allowlisted venue, all read at one block, plus the positions in
 * `alsoVenues` the policy does not list (EXIT and AUTOPAY may still take money out of them). Fail-closed: any failed read makes the whole answer
 * `unavailable`.
 *
 * @example
 * await readCageState(rpc, cage, owner) // { status: 'available', enabled: true, venues: [...] }
 */
export async function readCageState(
  rpc: EvmRpc,
  cage: Address,
  owner: Address,
  alsoVenues: readonly Address[] = [],
): Promise<ReadCageStateReturnType> {
  try {
    const block = await rpc.blockNumber();
    const [paused, policy, asset, treasury] = await Promise.all([
      callView(rpc, cage, cageAbi, 'paused', [], block),
      callView(rpc, cage, cageAbi, 'policyOf', [owner], block),
      callView(rpc, cage, cageAbi, 'asset', [], block),
      callView(rpc, cage, cageAbi, 'treasury', [], block),
    ]);
    const walletAssets = await callView(rpc, asset, erc20Abi, 'balanceOf', [owner], block);
    const position = async (venue: Address): Promise<CageVenueState> => {
      const [assets, principal] = await Promise.all([
        callView(rpc, cage, cageAbi, 'assetsOf', [owner, venue], block),
        callView(rpc, cage, cageAbi, 'principalOf', [owner, venue], block),
      ]);
      return {
        venue: getAddress(venue),
        assets,
        principal,
        yield: assets > principal ? assets - principal : 0n,
      };
    };
    const listed = new Set(policy.venues.map((venue) => getAddress(venue)));
    const delisted = [...new Set(alsoVenues.map((venue) => getAddress(venue)))].filter(
      (venue) => !listed.has(venue),
    );
    const [venues, others] = await Promise.all([
      Promise.all(policy.venues.map(position)),
      Promise.all(delisted.map(position)),
    ]);
    return {
      status: 'available',
      paused,
      walletAssets,
      enabled: policy.enabled,
      skimBps: policy.skimBps,
      agent: policy.agent === ZERO ? null : getAddress(policy.agent),
      venues,
      delisted: others,
      payees: policy.payees.map((payee) => getAddress(payee)),
      treasury: getAddress(treasury),
    };
  } catch (error) {
    const unavailable = toUnavailable(error, 'cage policy');
    return {
      status: 'unavailable',
      reason:
        unavailable.reason === 'rpc_timeout' || unavailable.reason === 'rpc_bad_response'
          ? unavailable.reason
          : 'rpc_error',
      detail: unavailable.detail,
    };
  }
}
