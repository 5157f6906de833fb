import { isAddressEqual } from 'viem';
import type { Address } from 'viem';
import { aaveV3ATokenAbi, erc20Abi } from './abis';
import { aaveTokenMath } from './aaveTokenMath';
import { decodeEvmLog } from './decodeEvmLog';
import type { SettledMovement, SettledMovementParameters } from './settledMovement';

export interface SettledAaveMovementParameters extends Omit<SettledMovementParameters, 'target'> {
  readonly aToken: Address;
  /** The pool's `POOL_REVISION()` at the receipt's block: it decides how Aave rounded. */
  readonly poolRevision: bigint;
}

type ATokenEvent = NonNullable<ReturnType<typeof decodeEvmLog<typeof aaveV3ATokenAbi>>>;

/**
 * The balance an aToken event says moved for the owner, and the index it moved at, undoing
 * `_mintScaled` / `_burnScaled`: a supply's `Mint` carries value − balanceIncrease; a
 * withdrawal's `Burn` value + balanceIncrease, or, when the interest accrued since the owner's
 * last action exceeds what is burned, a `Mint(owner, owner)` with balanceIncrease − value.
 */
function eventMovement(
  event: ATokenEvent,
  action: 'deposit' | 'withdraw',
  owner: Address,
): { readonly moved: bigint; readonly index: bigint } | undefined {
  const { value, balanceIncrease, index } = event.args;
  if (event.eventName === 'Mint') {
    if (!isAddressEqual(event.args.onBehalfOf, owner)) return undefined;
    if (action === 'deposit') {
      return value > balanceIncrease ? { moved: value - balanceIncrease, index } : undefined;
    }
    const burnAsMint = isAddressEqual(event.args.caller, owner) && value < balanceIncrease;
    return burnAsMint ? { moved: balanceIncrease - value, index } : undefined;
  }
  const ours = isAddressEqual(event.args.from, owner) && isAddressEqual(event.args.target, owner);
  return action === 'withdraw' && ours ? { moved: value + balanceIncrease, index } : undefined;
}

/**
 * What an Aave v3 supply or withdrawal moved for `owner`: USDC micros from the USDC `Transfer`
 * (owner → aToken, or aToken → owner), and shares = the scaled units Aave minted or burned for
 * that amount at the index of the aToken's Mint/Burn, rounded as the pool's revision rounds
 * (see `aaveTokenMath`: v3.5+ floors a supply and ceils a withdrawal, earlier revisions round
 * half up). The event must be the one those units emit; undefined when either side is missing,
 * when the owner has more than one such event in the transaction, or when they disagree.
 *
 * @example
 * settledAaveMovement({ aToken, action: 'deposit', owner, usdc, logs: receipt.logs, poolRevision: 9n })
 * // { amountMicros: 5_000_000n, shares: 4_545_454n } at a liquidity index of 1.1 ray
 */
export function settledAaveMovement({
  aToken,
  action,
  owner,
  usdc,
  logs,
  poolRevision,
}: SettledAaveMovementParameters): SettledMovement | undefined {
  let transferred: bigint | undefined;
  const movements: { readonly moved: bigint; readonly index: bigint }[] = [];
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
      const event = decodeEvmLog(aaveV3ATokenAbi, log);
      const movement = event && eventMovement(event, action, owner);
      if (movement) movements.push(movement);
    }
  }
  const [movement, ...more] = movements;
  if (transferred === undefined || !movement || more.length > 0 || movement.index === 0n) {
    return undefined;
  }
  const math = aaveTokenMath(poolRevision);
  const shares =
    action === 'deposit'
      ? math.mintScaled(transferred, movement.index)
      : math.burnScaled(transferred, movement.index);
  if (!math.eventMatches(movement.moved, transferred, shares, movement.index)) return undefined;
  return { amountMicros: transferred, shares };
}
