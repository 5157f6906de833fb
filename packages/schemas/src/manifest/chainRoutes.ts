import type { Chain } from '../chains';
import { ChainEnablement } from '../documents';
import { AddressQuery, WalletBalanceDocument } from '../requests';
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
      request: { query: AddressQuery },
      responses: ok(WalletBalanceDocument),
    });
  return {
    getSuiWalletBalance: route('sui', 'getSuiWalletBalance'),
    getSolanaWalletBalance: route('solana', 'getSolanaWalletBalance'),
    getBaseWalletBalance: route('base', 'getBaseWalletBalance'),
    getArbitrumWalletBalance: route('arbitrum', 'getArbitrumWalletBalance'),
  } as const;
}
