// `z` in scope lets the emitted declarations name zod's types as `z.*` (see routes.ts).
// eslint-disable-next-line @typescript-eslint/no-unused-vars
import type { z } from 'zod';
import { VenueApyTable } from '../opportunities';
import {
  ChainProfileDocument,
  MarketStatsDocument,
  NetworkDocument,
  PossibleDocument,
  TreasuryDocument,
} from '../peerDocuments';
import type { RouteResponse } from './defineRoute';
import { defineRoute } from './defineRoute';
import { cachedOk, ok } from './routeParts';

/** A public GET of a document, with no input. */
const document = <
  const Id extends string,
  const P extends string,
  const R extends Readonly<Record<number, RouteResponse>>,
>(
  operationId: Id,
  path: P,
  summary: string,
  responses: R,
  description?: string,
) =>
  defineRoute({
    operationId,
    method: 'get',
    path,
    versioned: true,
    auth: 'public',
    summary,
    ...(description === undefined ? {} : { description }),
    tags: ['meta'],
    request: {},
    responses,
  });

const PROFILE =
  "The chain's enablement, network, venue stats and venues, from the same snapshot as " +
  'GET /svc/venues; an unknown APY or TVL is null, never a guess.';

/**
 * Documents peer (v1) clients read (issue 41), built from what the service holds: configuration,
 * enablement and the opportunity snapshot. A value it cannot read is null with a reason.
 */
export const peerDocumentRoutes = {
  getSolanaApys: document(
    'getSolanaApys',
    '/svc/solana/apys',
    "The APY table (GET /svc/venues/apy) of Solana's venues.",
    cachedOk(VenueApyTable),
  ),
  getTreasury: document(
    'getTreasury',
    '/svc/treasury',
    'The treasury per chain the yield skim is paid to, and where to read its balance.',
    ok(TreasuryDocument),
    'Addresses from SVC_<CHAIN>_TREASURY (null with a reason when unset); balances are read ' +
      "on chain by the chain's wallet-balance route (balancePath), never cached here.",
  ),
  getNetwork: document(
    'getNetwork',
    '/svc/network',
    'Per chain: the configured network, whether an RPC is set, USDC, execution mode.',
    ok(NetworkDocument),
  ),
  getPossible: document(
    'getPossible',
    '/svc/possible',
    'The agent decision surface: per chain, which actions prepare now and which route does it.',
    cachedOk(PossibleDocument),
    'Derived from enablement and the ready opportunities: every action prepares a plan the ' +
      'owner signs (ownerMustSign); an action that cannot prepare says why.',
  ),
  getMarketStats: document(
    'getMarketStats',
    '/svc/markets/stats',
    'Counts, known TVL and the APY range of the opportunities, in total and per chain.',
    cachedOk(MarketStatsDocument),
    'Sums and ranges of known values only: `tvlKnown` and `grossApy.known` say how many were.',
  ),
  getBaseProfile: document(
    'getBaseProfile',
    '/svc/base',
    'Base: enablement, network, stats and venues (a Map chain).',
    cachedOk(ChainProfileDocument),
    PROFILE,
  ),
  getArbitrumProfile: document(
    'getArbitrumProfile',
    '/svc/arbitrum',
    'Arbitrum: enablement, network, stats and venues (a Map chain).',
    cachedOk(ChainProfileDocument),
    PROFILE,
  ),
} as const;
