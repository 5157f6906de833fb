import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { LegBuild } from '@yieldrouter/schemas';
import type { SuiAdapterConfig } from '../config';
import { resolveConfig } from '../config';
import { createSuiClient } from '../rpc';
import type { BuildCctpSuiBurnParameters, BuildCctpSuiMintParameters } from './buildCctpSuiLegs';
import { buildCctpSuiBurn, buildCctpSuiMint } from './buildCctpSuiLegs';
import type { CctpSuiIds } from './cctpSuiIds';
import type { CctpSuiMintSearch } from './findCctpSuiMint';
import { findCctpSuiMint } from './findCctpSuiMint';
import type { CctpSuiBurnReading, CctpSuiMintReading } from './readCctpSuiReceipts';
import { readCctpSuiBurn, readCctpSuiMint } from './readCctpSuiReceipts';

/** CCTP on Sui: legs built offline, receipts read over the adapter's JSON-RPC. */
export interface CctpSui {
  buildBurn(parameters: BuildCctpSuiBurnParameters): Promise<LegBuild>;
  buildMint(parameters: BuildCctpSuiMintParameters): Promise<LegBuild>;
  readBurn(query: { readonly txId: string; readonly owner: string }): Promise<CctpSuiBurnReading>;
  readMint(query: {
    readonly txId: string;
    readonly nonce: string;
    readonly sourceDomain: number;
    readonly recipient: string;
  }): Promise<CctpSuiMintReading>;
  /** The transaction that received a message (nonce, source domain), among the newest events. */
  findMint(query: {
    readonly nonce: string;
    readonly sourceDomain: number;
    readonly lookbackEvents: number;
  }): Promise<CctpSuiMintSearch>;
}

const ID = /^0x[0-9a-fA-F]{1,64}$/;

/**
 * The Sui side of the CCTP rail from the chain's adapter settings and Circle's ids. No USDC coin
 * type: every leg is blocked `asset_not_configured` and every read unavailable.
 *
 * @throws Error for a malformed id (a deployment mistake).
 * @example
 * const sui = createCctpSui(config, ids)
 * const burn = await sui.buildBurn({ planId, owner, amountMicros, destinationDomain: 6, mintRecipient, summary })
 */
export function createCctpSui(config: SuiAdapterConfig, ids: CctpSuiIds): CctpSui {
  const resolved = resolveConfig(config);
  const canonicalIds = Object.fromEntries(
    Object.entries(ids).map(([name, value]: [string, string]) => {
      if (!ID.test(value)) throw new Error(`CctpSuiIds.${name}: must be 0x + 1..64 hex`);
      return [name, normalizeSuiAddress(value)];
    }),
  ) as unknown as CctpSuiIds;
  const client = createSuiClient(resolved);
  const usdc = resolved.usdcCoinType;
  const blocked: LegBuild = {
    status: 'blocked',
    blockers: [
      {
        code: 'asset_not_configured',
        message: 'The asset is not configured on this chain. No USDC coin type on Sui.',
        field: 'usdcCoinType',
      },
    ],
  };
  const reads = { client, usdcCoinType: usdc, ids: canonicalIds };
  return {
    buildBurn: async (parameters) =>
      usdc ? buildCctpSuiBurn(usdc, canonicalIds, parameters) : blocked,
    buildMint: async (parameters) =>
      usdc ? buildCctpSuiMint(usdc, canonicalIds, parameters) : blocked,
    readBurn: (query) => readCctpSuiBurn(reads, query),
    readMint: (query) => readCctpSuiMint(reads, query),
    findMint: (query) => findCctpSuiMint(reads, query),
  };
}
