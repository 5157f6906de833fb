import type { LegAction } from '@yieldrouter/schemas';
import { decodeEventLog, isAddressEqual } from 'viem';
import type { Abi, Address } from 'viem';
import { erc20Abi, erc4626EventsAbi } from './abis';
import type { EvmLog } from './evmRpc';
import type { VenueTarget } from './resolveVenueTarget';

export interface SettledMovementParameters {
  readonly target: VenueTarget;
  readonly action: Exclude<LegAction, 'approve'>;
  readonly owner: Address;
  /** Needed for Aave, whose money movement is a USDC Transfer to or from the aToken. */
  readonly usdc: Address | undefined;
  readonly logs: readonly EvmLog[];
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
 * - aave-v3 deposit: USDC `Transfer` owner → aToken; withdraw: aToken → owner (the bed's
 *   stand-in aToken is 1:1, so shares = the amount).
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
}: SettledMovementParameters): SettledMovement | undefined {
  let total: SettledMovement | undefined;
  const add = (amountMicros: bigint, shares: bigint) => {
    total = {
      amountMicros: (total?.amountMicros ?? 0n) + amountMicros,
      shares: (total?.shares ?? 0n) + shares,
    };
  };
  for (const log of logs) {
    if (target.standard === 'erc4626') {
      if (!isAddressEqual(log.address, target.vault)) continue;
      const event = decode(erc4626EventsAbi, log);
      if (action === 'deposit' && event?.eventName === 'Deposit') {
        if (isAddressEqual(event.args.owner, owner)) add(event.args.assets, event.args.shares);
      } else if (action === 'withdraw' && event?.eventName === 'Withdraw') {
        const { owner: from, receiver } = event.args;
        if (isAddressEqual(from, owner) && isAddressEqual(receiver, owner)) {
          add(event.args.assets, event.args.shares);
        }
      }
      continue;
    }
    if (!usdc || !isAddressEqual(log.address, usdc)) continue;
    const event = decode(erc20Abi, log);
    if (event?.eventName !== 'Transfer') continue;
    const [from, to] = action === 'deposit' ? [owner, target.aToken] : [target.aToken, owner];
    if (isAddressEqual(event.args.from, from) && isAddressEqual(event.args.to, to)) {
      add(event.args.value, event.args.value);
    }
  }
  return total;
}

/** The decoded event, or undefined for a log of another event or one that does not decode. */
function decode<const abi extends Abi>(abi: abi, log: EvmLog) {
  try {
    const [signature, ...rest] = log.topics;
    if (!signature) return undefined;
    return decodeEventLog({ abi, topics: [signature, ...rest], data: log.data, strict: true });
  } catch {
    return undefined;
  }
}
