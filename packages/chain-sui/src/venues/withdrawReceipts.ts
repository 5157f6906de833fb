import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { Blocker, Unavailable } from '@yieldrouter/schemas';
import { readCoinBalance } from '../balances';
import type { ReceiptRate, StateReading } from './readVenueState';
import { readScallopRate, readSuilendRate, receiptsForAmount } from './readVenueState';
import type { SuiVenue } from './suiVenue';

/** The exchange rate of a venue's receipt coin, read from the protocol's state. */
export function readReceiptRate(
  client: SuiJsonRpcClient | undefined,
  venue: SuiVenue,
  usdc: string,
): Promise<StateReading<ReceiptRate>> | undefined {
  if (venue.kind === 'suilend') return readSuilendRate(client, venue, usdc);
  if (venue.kind === 'scallop') return readScallopRate(client, venue, usdc);
  return undefined;
}

export type WithdrawReceipts =
  | { readonly status: 'ok'; readonly receipts: bigint | undefined }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

const unreadable = (venue: SuiVenue, what: string, reading: Unavailable): WithdrawReceipts => ({
  status: 'blocked',
  blockers: [
    {
      code: 'rpc_unavailable',
      field: 'rpcUrl',
      message: `The ${venue.venueId} ${what} could not be read: ${reading.detail}`,
      details: { venueId: venue.venueId, reason: reading.reason },
    },
  ],
});

/**
 * How many receipt units a withdrawal of `amount` USDC burns: `ceil(amount × receipts /
 * underlying)` at the rate read now (undefined for Navi, which withdraws a USDC amount), at most
 * what the owner holds (a withdrawal of everything never asks for one unit more). The protocol
 * can only raise the rate before it redeems, so the owner gets at least `amount` when they hold
 * it. A rate or balance that cannot be read blocks the leg (`rpc_unavailable`), never a guess.
 */
export async function withdrawReceipts(
  client: SuiJsonRpcClient | undefined,
  venue: SuiVenue,
  usdc: string,
  owner: string,
  amount: bigint,
): Promise<WithdrawReceipts> {
  if (venue.kind === 'navi') return { status: 'ok', receipts: undefined };
  const [rate, held] = await Promise.all([
    readReceiptRate(client, venue, usdc),
    readCoinBalance(client, owner, venue.receiptCoinType, 'receipt balance'),
  ]);
  if (!rate) return { status: 'ok', receipts: undefined };
  if (rate.status !== 'ok') return unreadable(venue, 'exchange rate', rate);
  if (held.status !== 'ok') return unreadable(venue, 'receipt balance', held);
  const receipts = receiptsForAmount(amount, rate);
  return {
    status: 'ok',
    receipts: held.amount > 0n && held.amount < receipts ? held.amount : receipts,
  };
}
