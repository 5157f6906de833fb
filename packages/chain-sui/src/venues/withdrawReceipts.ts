import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { Blocker } from '@yieldrouter/schemas';
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

/**
 * How many receipt units a withdrawal of `amount` USDC burns: `ceil(amount × receipts /
 * underlying)` at the rate read now (undefined for Navi, which withdraws a USDC amount). The
 * protocol can only raise the rate before it redeems, so the owner gets at least `amount`. A
 * rate that cannot be read blocks the leg (`rpc_unavailable`), never a guess.
 */
export async function withdrawReceipts(
  client: SuiJsonRpcClient | undefined,
  venue: SuiVenue,
  usdc: string,
  amount: bigint,
): Promise<WithdrawReceipts> {
  const read = readReceiptRate(client, venue, usdc);
  if (!read) return { status: 'ok', receipts: undefined };
  const rate = await read;
  if (rate.status !== 'ok') {
    return {
      status: 'blocked',
      blockers: [
        {
          code: 'rpc_unavailable',
          field: 'rpcUrl',
          message: `The ${venue.venueId} exchange rate could not be read: ${rate.detail}`,
          details: { venueId: venue.venueId, reason: rate.reason },
        },
      ],
    };
  }
  return { status: 'ok', receipts: receiptsForAmount(amount, rate) };
}
