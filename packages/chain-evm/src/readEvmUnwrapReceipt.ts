import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { UnwrapReceipt, UnwrapReceiptQuery } from '@yieldrouter/schemas';
import { isAddressEqual, parseAbi, zeroAddress } from 'viem';
import { decodeEvmLog } from './decodeEvmLog';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { parseLegReceiptQuery } from './parseLegReceiptQuery';
import { readMinedLeg } from './readMinedLeg';
import { sumTransfers } from './sumTransfers';

export type ReadEvmUnwrapReceiptParameters = UnwrapReceiptQuery;

const wrappedNativeEvents = parseAbi([
  'event Withdrawal(address indexed src, uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
]);

/**
 * What the chain says about an unwrap leg's transaction, checked against the plan first: sent
 * by the owner to the wrapped native token, tagged with the plan. The amount is what the token's
 * logs show the owner unwrapped: its `Withdrawal(src, wad)` events (WETH9), or, for a token that
 * burns instead, its Transfer logs from the owner to the zero address. Nothing unwrapped →
 * `mismatch`; unknown → `pending`; reverted → `failed`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, planId or token.
 * @example
 * await readEvmUnwrapReceipt(context, { txId, planId, owner, wrappedNative: weth })
 * // { status: 'confirmed', txId, amount: 2_100_000_000_000_000n, block: '42' }
 */
export async function readEvmUnwrapReceipt(
  context: EvmContext,
  query: ReadEvmUnwrapReceiptParameters,
  /**
   * `wrap` (issue 41): a wrap leg instead: the token's `Deposit(dst, wad)` logs for the owner (a
   * token that mints: its Transfers from the zero address to the owner).
   */
  direction: 'wrap' | 'unwrap' = 'unwrap',
): Promise<UnwrapReceipt> {
  const { txId, owner } = parseLegReceiptQuery(query);
  const token = normalizeEvmAddress(query.wrappedNative);
  if (!token) throw new InvalidChainInputError('wrappedNative', 'wrappedNative: not an address');
  const eventName = direction === 'wrap' ? 'Deposit' : 'Withdrawal';
  return readMinedLeg(context, { txId, owner, planId: query.planId, to: token }, (receipt) => {
    let logged = 0n;
    for (const log of receipt.logs) {
      if (!isAddressEqual(log.address, token)) continue;
      const event = decodeEvmLog(wrappedNativeEvents, log);
      if (event?.eventName !== eventName) continue;
      const who = event.eventName === 'Deposit' ? event.args.dst : event.args.src;
      if (isAddressEqual(who, owner)) logged += event.args.wad;
    }
    const amount =
      logged > 0n
        ? logged
        : sumTransfers(receipt.logs, token, (from, to) =>
            direction === 'wrap'
              ? isAddressEqual(from, zeroAddress) && isAddressEqual(to, owner)
              : isAddressEqual(from, owner) && isAddressEqual(to, zeroAddress),
          );
    if (amount === 0n) {
      return {
        status: 'mismatch' as const,
        txId,
        reason: `the transaction ${direction}ped nothing of the owner`,
      };
    }
    return {
      status: 'confirmed' as const,
      txId,
      amount,
      block: receipt.blockNumber.toString(10),
    };
  });
}
