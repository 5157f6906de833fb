import { computePrincipalFee } from '@yieldrouter/fees';
import { readAutoYield, readBalancesOf } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { Opportunity, RoutePreview } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { guardrailBlockers } from '../guardrail/guardrailBlockers';
import type { VenueConfig } from '../venues/venueConfig';
import { checkRouteToken, routeBlockers, stakeVenue, stakedOn } from './prepareRoute';
import type { RouteInput } from './prepareRoute';
import { chooseRouteChain } from './routeChain';
import { ledgerWallet } from './walletAddress';

export interface PreviewRouteParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly opportunities: readonly Opportunity[];
  readonly address: string;
  /** What route takes; the chain is chosen as route chooses it (`chooseRouteChain`). */
  readonly input: Omit<RouteInput, 'token' | 'stake'> & {
    readonly token?: string | undefined;
    readonly stake?: boolean | undefined;
  };
}

/**
 * POST /wallets/{address}/preview: what a route of this amount would do, with the route's own
 * arithmetic (fee from packages/fees, the same stake venue choice) and nothing written: the
 * balances after settlement, or the blocker that would stop it.
 */
export async function previewRoute(parameters: PreviewRouteParameters): Promise<RoutePreview> {
  const { db, adapters, input } = parameters;
  checkRouteToken(input.token);
  const { chain, chainChosenBy } = chooseRouteChain(
    adapters,
    parameters.opportunities,
    parameters.address,
    input,
  );
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
  const staked = stakedOn(balances, chain);
  const blockers = [
    ...routeBlockers({ ...input, stake }, venue, {
      maxStakeMicros: setting.enabled ? setting.maxStakeMicros : null,
      stakedMicros: staked,
    }),
    ...(await guardrailBlockers(db, {
      wallet,
      chain,
      opportunity: venue,
      amountMicros: input.amountMicros,
      amountField: 'body.amountMicros',
    })),
  ];
  const staking = stake && blockers.length === 0;
  return {
    wallet,
    chain,
    chainChosenBy,
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
