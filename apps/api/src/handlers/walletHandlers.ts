import type {
  BridgeRail,
  ChainAdapters,
  DepositBridging,
  OpportunitySnapshots,
  RouteSwaps,
  VenueConfig,
  WalletUseCases,
} from '@yieldrouter/engine';
import {
  chainsOfAddress,
  checkRouteToken,
  ledgerWallet,
  readWalletBalance,
} from '@yieldrouter/engine';
import type { Chain, HarvestResult } from '@yieldrouter/schemas';
import { ApiError } from '../http/apiError';
import type { Principal } from '../http/auth';
import { principalAllowsWallet } from '../http/auth';
import type { Handlers } from '../http/mountRoutes';
import { ownsBothOf } from './ownerProof';

export interface WalletHandlerDeps {
  /** The wallet use cases, on the books. */
  readonly wallet: WalletUseCases;
  readonly adapters: ChainAdapters;
  /** Bridge plans' burn legs settle through the rail. */
  readonly bridgeRail?: BridgeRail | undefined;
  readonly venues: VenueConfig;
  readonly snapshots: OpportunitySnapshots;
  /** Whether broadcast is switched on for a chain (harvest with `execute: true`). */
  readonly broadcastEnabled: (chain: Chain) => boolean;
  /** Where a route of another token than USDC swaps it (cross-asset); unset: USDC only. */
  readonly swaps?: RouteSwaps | undefined;
  /** Where a cross-chain route with stake and `bridge: true` bridges; unset: it is blocked. */
  readonly bridging?: DepositBridging | undefined;
  /** Each chain's treasury: a harvest with `execute: true` pays the skim there. */
  readonly treasuries?: Readonly<Partial<Record<Chain, string | null>>> | undefined;
  readonly now?: () => Date;
}

const ok = <T>(body: T) => ({ status: 200, body });

/**
 * The wallet money surface: route, withdraw, rebalance, preview, settlement, positions, the public
 * portfolio and activity documents, funding, performance and the auto-yield setting.
 */
export function walletHandlers(deps: WalletHandlerDeps): Handlers {
  const { adapters, wallet: walletUseCases } = deps;
  const now = deps.now ?? (() => new Date());
  const opportunities = async () => (await deps.snapshots.current()).opportunities;

  const scoped = (principal: Principal | null, wallet: string, field: string) => {
    if (principal && !principalAllowsWallet(principal, wallet)) {
      throw new ApiError('WALLET_SCOPE', `${field}: this key is not allowed for wallet ${wallet}`, {
        field,
      });
    }
  };

  return {
    routeFunds: async ({ params, body, principal, recordWrite }) => {
      // Only a route with stake deposits into a venue: only then does the setting matter.
      const setting = body.stake
        ? await walletUseCases.autoYieldSetting(ledgerWallet(adapters, params.address))
        : null;
      return ok(
        await walletUseCases.prepareRoute({
          adapters,
          venues: deps.venues,
          opportunities: await opportunities(),
          autoYieldVenueId: setting?.enabled ? setting.venueId : null,
          autoYieldMaxStakeMicros: setting?.enabled ? setting.maxStakeMicros : null,
          address: params.address,
          input: { ...body, stake: body.stake ?? false },
          swaps: deps.swaps,
          bridging: deps.bridging,
          // The owner key the route is called with proves funds on another chain family the
          // owner's when it lists both addresses.
          ownsBoth: ownsBothOf(principal),
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      );
    },
    withdraw: async ({ params, body, recordWrite }) => {
      checkRouteToken(body.token);
      // `unstakeFirst` is accepted: a withdraw exits liquid only (see the request schema).
      return ok(
        await walletUseCases.prepareExit({
          adapters,
          address: params.address,
          amountMicros: body.amountMicros,
          ...(body.chain ? { chain: body.chain } : {}),
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      );
    },
    rebalance: async ({ params, body, recordWrite }) =>
      ok(
        await walletUseCases.prepareRebalance(
          {
            adapters,
            venues: deps.venues,
            opportunities: await opportunities(),
            treasuries: deps.treasuries,
          },
          {
            wallet: params.address,
            fromOpportunityId: body.fromOpportunityId,
            toOpportunityId: body.toOpportunityId,
            amount: body.amountMicros,
            chain: body.chain,
            now: now(),
            recordWrite: recordWrite(ok),
          },
        ),
      ),
    previewRoute: async ({ params, body }) =>
      ok(
        await walletUseCases.previewRoute({
          adapters,
          venues: deps.venues,
          opportunities: await opportunities(),
          address: params.address,
          input: body,
        }),
      ),
    settlePlanLeg: async ({ params, body, principal, carryRecord }) =>
      ok(
        await walletUseCases.settleLeg({
          adapters,
          bridgeRail: deps.bridgeRail,
          venues: deps.venues,
          planId: params.planId,
          legIndex: params.legIndex,
          txId: body.txId,
          allowWallet: (wallet) => !principal || principalAllowsWallet(principal, wallet),
          now: now(),
          audit: carryRecord(ok),
        }),
      ),
    harvest: async ({ params, body, recordWrite }) => {
      const answer = (result: HarvestResult) => ({ status: result.httpStatus, body: result });
      const result = await walletUseCases.harvestWallet({
        adapters,
        venues: deps.venues,
        address: params.address,
        execute: body.execute ?? false,
        treasuries: deps.treasuries,
        ...(body.execute
          ? { yieldPlans: { opportunities: await opportunities(), treasuries: deps.treasuries } }
          : {}),
        broadcastEnabled: deps.broadcastEnabled,
        now: now(),
        recordWrite: recordWrite(answer),
      });
      return answer(result);
    },
    getPosition: async ({ params }) =>
      ok((await walletUseCases.readPositions(adapters, [params.address], now()))[0]),
    batchPositions: async ({ body, principal }) => {
      // One key, one answer: a wallet outside the key's scope refuses the whole batch (403,
      // naming the first such wallet), so a batch never leaks which other wallets hold money.
      body.wallets.forEach((wallet, index) => scoped(principal, wallet, `body.wallets[${index}]`));
      const positions = await walletUseCases.readPositions(adapters, body.wallets, now());
      return ok({ count: positions.length, positions });
    },
    getCharacterPosition: async ({ params, principal }) => {
      const wallet = principal?.characters.get(params.character_id);
      if (!wallet) {
        throw new ApiError(
          'CHARACTER_SCOPE',
          `path.character_id: character ${params.character_id} is not mapped to a wallet of this key`,
          { field: 'path.character_id' },
        );
      }
      scoped(principal, wallet, 'path.character_id');
      return ok((await walletUseCases.readPositions(adapters, [wallet], now()))[0]);
    },
    getPublicPortfolio: async ({ query }) =>
      ok(await walletUseCases.publicPortfolio(adapters, query.wallet, now())),
    getPublicActivity: async ({ query }) =>
      ok(await walletUseCases.publicActivity(adapters, query)),
    getWalletPortfolio: async ({ params }) => {
      const at = now();
      const [[position], portfolio] = await Promise.all([
        walletUseCases.readPositions(adapters, [params.address], at),
        walletUseCases.publicPortfolio(adapters, params.address, at),
      ]);
      return ok({
        schemaVersion: 'svc-wallet-balances.v1',
        wallet: portfolio.wallet,
        balances: position,
        venues: portfolio.positions,
        asOf: portfolio.asOf,
      });
    },
    getPerformance: async ({ params }) =>
      ok(await walletUseCases.performance(adapters, params.address, await opportunities(), now())),
    getFunding: async ({ params }) => {
      const chains = chainsOfAddress(adapters, params.address);
      const legs = await Promise.all(
        chains.map((chain) => readWalletBalance(adapters[chain], params.address)),
      );
      return ok({
        schemaVersion: 'svc-wallet-funding.v1',
        wallet: ledgerWallet(adapters, params.address),
        chains: legs,
      });
    },
    getAutoYield: async ({ params }) =>
      ok(await walletUseCases.getAutoYield(adapters, params.address, await opportunities())),
    setAutoYield: async ({ params, body, recordWrite }) =>
      ok(
        await walletUseCases.setAutoYield(
          adapters,
          params.address,
          body,
          await opportunities(),
          now(),
          recordWrite(ok),
        ),
      ),
    getWalletAudit: async ({ params, query }) =>
      ok(await walletUseCases.auditTrail(adapters, params.address, query)),
  };
}
