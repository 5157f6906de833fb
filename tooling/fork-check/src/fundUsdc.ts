import { encodeAbiParameters, erc20Abi, keccak256, numberToHex, pad } from 'viem';
import type { Address, PublicClient } from 'viem';

/** How many storage slots are tried for the token's balance mapping. */
const SLOTS_TRIED = 64;

/**
 * Gives `owner` exactly `amount` of an ERC-20 on an anvil node by writing its balance slot
 * (`anvil_setStorageAt`): each mapping slot from 0 is tried, kept when `balanceOf` then answers
 * `amount`, put back otherwise. Works for a solidity `mapping(address => uint256)` balance
 * (USDC's FiatToken included, through its proxy). Anvil only: it is how a fork gets test money.
 *
 * @throws Error when no slot among the first 64 holds the balance.
 * @example
 * await fundUsdc(client, usdc, owner, 10_000_000n)
 */
export async function fundUsdc(
  client: PublicClient,
  token: Address,
  owner: Address,
  amount: bigint,
): Promise<void> {
  const balance = () =>
    client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner],
    });
  const setStorage = (slot: `0x${string}`, value: `0x${string}`) =>
    client.request({
      method: 'anvil_setStorageAt' as never,
      params: [token, slot, value] as never,
    });
  for (let index = 0n; index < BigInt(SLOTS_TRIED); index += 1n) {
    const slot = keccak256(
      encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [owner, index]),
    );
    const previous = await client.getStorageAt({ address: token, slot });
    await setStorage(slot, pad(numberToHex(amount)));
    if ((await balance()) === amount) return;
    await setStorage(slot, previous ?? pad('0x0'));
  }
  throw new Error(`fundUsdc: no balance slot found for ${token} in the first ${SLOTS_TRIED}`);
}
