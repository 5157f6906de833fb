// Logs shaped as Aave v3 emits them, for the settlement tests (tests only; not exported from
// index.ts).
import { encodeAbiParameters, encodeEventTopics } from 'viem';
import type { Address, Hex } from 'viem';
import { aaveV3ATokenAbi, erc20Abi } from './abis';
import type { EvmLog } from './evmRpc';

export const OWNER: Address = '0x1111111111111111111111111111111111111111';
export const OTHER: Address = '0x2222222222222222222222222222222222222222';
export const A_TOKEN: Address = '0x3333333333333333333333333333333333333333';
export const USDC: Address = '0x4444444444444444444444444444444444444444';
export const ZERO: Address = '0x0000000000000000000000000000000000000000';
const UINTS = [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }] as const;

/** Topics of an event with every indexed argument given: all of them are hex. */
function topics(encoded: readonly (Hex | Hex[] | null)[]): Hex[] {
  return encoded.filter((topic): topic is Hex => typeof topic === 'string');
}

/** A USDC (by default) `Transfer`. */
export function usdcTransfer(from: Address, to: Address, value: bigint, address = USDC): EvmLog {
  return {
    address,
    topics: topics(encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from, to } })),
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  };
}

/** An aToken `Mint(caller, onBehalfOf, …)` or `Burn(from, target, …)`. */
export function aTokenEvent(
  eventName: 'Mint' | 'Burn',
  [first, second]: readonly [Address, Address],
  [value, balanceIncrease, index]: readonly [bigint, bigint, bigint],
  address = A_TOKEN,
): EvmLog {
  const encoded =
    eventName === 'Mint'
      ? encodeEventTopics({
          abi: aaveV3ATokenAbi,
          eventName,
          args: { caller: first, onBehalfOf: second },
        })
      : encodeEventTopics({
          abi: aaveV3ATokenAbi,
          eventName,
          args: { from: first, target: second },
        });
  return {
    address,
    topics: topics(encoded),
    data: encodeAbiParameters(UINTS, [value, balanceIncrease, index]),
  };
}
