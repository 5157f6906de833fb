import { isAddressEqual } from 'viem';
import type { Address } from 'viem';
import { aaveV3ATokenAbi, erc20Abi } from './abis';
import { decodeEvmLog } from './decodeEvmLog';
import type { EvmLog } from './evmRpc';
import { rayDiv } from './rayMath';
import type { SettledMovement, SettledMovementParameters } from './settledMovement';

export interface SettledAaveMovementParameters extends Omit<SettledMovementParameters, 'target'> {
  readonly aToken: Address;
}

type ATokenEvent = NonNullable<ReturnType<typeof decodeEvmLog<typeof aaveV3ATokenAbi>>>;

/**
 * The underlying amount an aToken event says was supplied for (deposit) or withdrawn by
 * (withdraw) the owner, undoing Aave v3's `_mintScaled` / `_burnScaled`: a supply's
 * `Mint.value` = amount + balanceIncrease; a withdrawal's `Burn.value` = amount - balanceIncrease,
 * or, when the interest accrued since the owner's last action exceeds the amount, a
 * `Mint(owner, owner)` whose value = balanceIncrease - amount.
 */
function underlyingMoved(
  event: ATokenEvent,
  action: 'deposit' | 'withdraw',
  owner: Address,
): bigint | undefined {
  const { value, balanceIncrease } = event.args;
  if (event.eventName === 'Mint') {
    if (!isAddressEqual(event.args.onBehalfOf, owner)) return undefined;
    if (action === 'deposit') return value > balanceIncrease ? value - balanceIncrease : undefined;
    const burnAsMint = isAddressEqual(event.args.caller, owner) && value < balanceIncrease;
    return burnAsMint ? balanceIncrease - value : undefined;
  }
  const ours = isAddressEqual(event.args.from, owner) && isAddressEqual(event.args.target, owner);
  return action === 'withdraw' && ours ? value + balanceIncrease : undefined;
}

/** The amount an aToken log moved for the owner and the scaled units Aave minted or burned. */
function scaledMovement(log: EvmLog, action: 'deposit' | 'withdraw', owner: Address) {
  const event = decodeEvmLog(aaveV3ATokenAbi, log);
  const amount = event ? underlyingMoved(event, action, owner) : undefined;
  if (!event || amount === undefined) return undefined;
  return { amount, shares: rayDiv(amount, event.args.index) };
}

/**
 * What an Aave v3 supply or withdrawal moved for `owner`: USDC micros from the USDC `Transfer`
 * (owner → aToken, or aToken → owner), shares = the scaled balance minted or burned,
 * `amount.rayDiv(index)` with the amount and index of the aToken's Mint/Burn event, as Aave
 * computes it. Undefined when either side is missing or the two amounts disagree.
 *
 * @example
 * settledAaveMovement({ aToken, action: 'deposit', owner, usdc, logs: receipt.logs })
 * // { amountMicros: 5_500_000n, shares: 5_000_000n } at a liquidity index of 1.1 ray
 */
export function settledAaveMovement({
  aToken,
  action,
  owner,
  usdc,
  logs,
}: SettledAaveMovementParameters): SettledMovement | undefined {
  let transferred: bigint | undefined;
  let accounted: bigint | undefined;
  let shares = 0n;
  const [from, to] = action === 'deposit' ? [owner, aToken] : [aToken, owner];
  for (const log of logs) {
    if (usdc && isAddressEqual(log.address, usdc)) {
      const event = decodeEvmLog(erc20Abi, log);
      if (
        event?.eventName === 'Transfer' &&
        isAddressEqual(event.args.from, from) &&
        isAddressEqual(event.args.to, to)
      ) {
        transferred = (transferred ?? 0n) + event.args.value;
      }
    } else if (isAddressEqual(log.address, aToken)) {
      const moved = scaledMovement(log, action, owner);
      if (!moved) continue;
      accounted = (accounted ?? 0n) + moved.amount;
      shares += moved.shares;
    }
  }
  if (transferred === undefined || transferred !== accounted) return undefined;
  return { amountMicros: transferred, shares };
}
