import { isAddressEqual } from 'viem';
import type { Address } from 'viem';
import { erc4626EventsAbi } from './abis';
import { decodeEvmLog } from './decodeEvmLog';
import type { EvmLog } from './evmRpc';
import type { VenueTarget } from './resolveVenueTarget';
import { settledAaveMovement } from './settledAaveMovement';

export interface SettledMovementParameters {
  readonly target: VenueTarget;
  readonly action: 'deposit' | 'withdraw';
  readonly owner: Address;
  /** Needed for Aave, whose money movement is a USDC Transfer to or from the aToken. */
  readonly usdc: Address | undefined;
  readonly logs: readonly EvmLog[];
  /** Needed for Aave: its pool's `POOL_REVISION()` at the receipt's block (how it rounds). */
  readonly aavePoolRevision?: bigint;
}

/** What a mined transaction moved for the owner: USDC micros and venue shares. */
export interface SettledMovement {
  readonly amountMicros: bigint;
  readonly shares: bigint;
}

/**
 * The USDC micros and venue shares a mined transaction moved for `owner`, from its logs, or
 * undefined when no matching log exists. Only logs emitted by the expected contract count.
 * - erc4626 deposit: the vault's `Deposit` with owner = owner → `assets`, `shares`;
 * - erc4626 withdraw: the vault's `Withdraw` with owner = receiver = owner → `assets`, `shares`;
 * - aave-v3: the USDC `Transfer` owner → aToken (deposit) or aToken → owner (withdraw), and
 *   shares = the scaled units Aave minted or burned for it, rounded as the pool's revision
 *   (`aavePoolRevision`) rounds (see `settledAaveMovement`); without the revision, undefined.
 *
 * @example
 * settledMovement({ target, action: 'deposit', owner, usdc, logs: receipt.logs })
 * // { amountMicros: 12_500_000n, shares: 12_000_000n }
 */
export function settledMovement({
  target,
  action,
  owner,
  usdc,
  logs,
  aavePoolRevision,
}: SettledMovementParameters): SettledMovement | undefined {
  if (target.standard === 'aave-v3') {
    if (aavePoolRevision === undefined) return undefined;
    return settledAaveMovement({
      aToken: target.aToken,
      action,
      owner,
      usdc,
      logs,
      poolRevision: aavePoolRevision,
    });
  }
  let total: SettledMovement | undefined;
  const add = (amountMicros: bigint, shares: bigint) => {
    total = {
      amountMicros: (total?.amountMicros ?? 0n) + amountMicros,
      shares: (total?.shares ?? 0n) + shares,
    };
  };
  for (const log of logs) {
    if (!isAddressEqual(log.address, target.vault)) continue;
    const event = decodeEvmLog(erc4626EventsAbi, log);
    if (action === 'deposit' && event?.eventName === 'Deposit') {
      if (isAddressEqual(event.args.owner, owner)) add(event.args.assets, event.args.shares);
    } else if (action === 'withdraw' && event?.eventName === 'Withdraw') {
      const { owner: from, receiver } = event.args;
      if (isAddressEqual(from, owner) && isAddressEqual(receiver, owner)) {
        add(event.args.assets, event.args.shares);
      }
    }
  }
  return total;
}
