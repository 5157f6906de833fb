import { z } from 'zod';
import type { Chain } from '../chains';
import { ChainEnablement } from '../metaDocuments';
import { WalletBalanceDocument } from '../chainDocuments';
import { AddressQuery } from '../params';
import { defineRoute } from './defineRoute';
import { ok } from './routeParts';

/** Chain balances and enablement. */
export const chainRoutes = {
  // ── Chain balances and enablement ─────────────────────────────────────
  ...balanceRoutes(),
  getBaseEnablement: defineRoute({
    operationId: 'getBaseEnablement',
    method: 'get',
    path: '/svc/base/enablement',
    versioned: true,
    auth: 'public',
    summary: 'Base enablement (Map: writeReady false, broadcast never on).',
    tags: ['chains'],
    request: {},
    responses: ok(ChainEnablement),
  }),
  getArbitrumEnablement: defineRoute({
    operationId: 'getArbitrumEnablement',
    method: 'get',
    path: '/svc/arbitrum/enablement',
    versioned: true,
    auth: 'public',
    summary: 'Arbitrum enablement (Map: writeReady false, broadcast never on).',
    tags: ['chains'],
    request: {},
    responses: ok(ChainEnablement),
  }),
} as const;

/** AddressQuery, saying which chain's format `address` is checked in (400 otherwise). */
function chainAddressQuery(chain: Chain) {
  const examples: Readonly<Record<Chain, string>> = {
    sui: '0x5f2b1d3c4e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e',
    solana: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    base: '0x52908400098527886e0f7030069857d2e4169ee7',
    arbitrum: '0x52908400098527886e0f7030069857d2e4169ee7',
  };
  return z.strictObject({
    address: AddressQuery.shape.address.meta({
      description: `A ${chain} address in the chain's own format; any other is a 400.`,
      examples: [examples[chain]],
    }),
  });
}

function balanceRoutes() {
  const route = <const C extends Chain, const Id extends string>(chain: C, operationId: Id) =>
    defineRoute({
      operationId,
      method: 'get',
      path: `/svc/${chain}/wallet-balance` as const,
      versioned: true,
      auth: 'public',
      summary: `${chain} wallet balance; a failed RPC leg is N/A, never a number.`,
      tags: ['chains'],
      request: { query: chainAddressQuery(chain) },
      responses: ok(WalletBalanceDocument),
    });
  return {
    getSuiWalletBalance: route('sui', 'getSuiWalletBalance'),
    getSolanaWalletBalance: route('solana', 'getSolanaWalletBalance'),
    getBaseWalletBalance: route('base', 'getBaseWalletBalance'),
    getArbitrumWalletBalance: route('arbitrum', 'getArbitrumWalletBalance'),
  } as const;
}
