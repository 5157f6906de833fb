import { computePrincipalFee } from '@yieldrouter/fees';
import { readAutoYield, readBalancesOf } from '@yieldrouter/ledger';
import type { PrismaClientOrTransaction } from '@yieldrouter/ledger';
import type { Chain, Opportunity, RoutePreview } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { blocker } from '../plans/blocker';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import type { VenueConfig } from '../venues/venueConfig';
import { stakeVenue } from './prepareRoute';
import { chainOfAddress, ledgerWallet } from './walletAddress';

export interface PreviewRouteParameters {
  readonly db: PrismaClientOrTransaction;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly opportunities: readonly Opportunity[];
  readonly address: string;
  /** Without it: the chain the address belongs to (an EVM address previews on Base). */
  readonly input: { amountMicros: bigint; stake?: boolean | undefined; chain?: Chain | undefined };
}

/**
 * POST /wallets/{address}/preview: what a route of this amount would do, with the route's own
 * arithmetic (fee from packages/fees, the same stake venue choice) and nothing written: the
 * balances after settlement, or the blocker that would stop it.
 */
export async function previewRoute(parameters: PreviewRouteParameters): Promise<RoutePreview> {
  const { db, adapters, input } = parameters;
  const chain = input.chain ?? chainOfAddress(adapters, parameters.address);
  if (!chain) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.chain: required when the wallet (${parameters.address}) is not a chain address`,
      'body.chain',
    );
  }
  const wallet = ledgerWallet(adapters, parameters.address);
  const stake = input.stake ?? false;
  const { feeMicros, netMicros } = computePrincipalFee({
    amountMicros: input.amountMicros,
    kind: 'route',
  });
  const setting = await readAutoYield(db, wallet);
  const venue = stake
    ? stakeVenue(
        {
          ...parameters,
          autoYieldVenueId: setting.enabled ? setting.venueId : null,
        },
        chain,
      )
    : undefined;
  const balances = (await readBalancesOf(db, [wallet])).filter((row) => row.chain === chain);
  const liquid = balances.find((row) => row.bucket === 'liquid')?.balanceMicros ?? 0n;
  const staked = balances
    .filter((row) => row.bucket.startsWith('staked:'))
    .reduce((sum, row) => sum + row.balanceMicros, 0n);
  const blockers = stake && !venue ? [blocker('no_ready_venue')] : [];
  const staking = stake && venue !== undefined;
  return {
    wallet,
    chain,
    amountMicros: formatMicros(input.amountMicros),
    feeMicros: formatMicros(feeMicros),
    netMicros: formatMicros(netMicros),
    stake,
    venue: venue
      ? {
          opportunityId: venue.opportunityId,
          venueId: venue.venueId,
          protocol: venue.protocol,
          grossApyBps: venue.grossApyBps,
        }
      : null,
    liquidAfterMicros: formatMicros(staking || blockers.length > 0 ? liquid : liquid + netMicros),
    stakedAfterMicros: formatMicros(staking ? staked + netMicros : staked),
    blockers,
  };
}
