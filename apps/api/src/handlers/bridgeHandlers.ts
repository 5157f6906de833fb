import type { BridgeRail, BridgesConfig, ChainAdapters, PlanUseCases } from '@yieldrouter/engine';
import type { Handlers } from '../http/mountRoutes';
import { principalAllowsWallet } from '../http/auth';

export interface BridgeHandlerDeps {
  readonly plans: PlanUseCases;
  readonly adapters: ChainAdapters;
  readonly bridges: BridgesConfig;
  /** The rail (CCTP v2); undefined when none is built (every lane blocked). */
  readonly rail: BridgeRail | undefined;
  readonly now?: () => Date;
}

/** Bridge plans (prepare) and deliveries (credit only after a confirmed mint). */
export function bridgeHandlers(deps: BridgeHandlerDeps): Handlers {
  const now = deps.now ?? (() => new Date());
  return {
    prepareBridgePlan: async ({ body, principal }) => ({
      status: 200,
      body: await deps.plans.prepareBridgePlan({
        adapters: deps.adapters,
        bridges: deps.bridges,
        rail: deps.rail,
        request: body,
        now: now(),
        // A destination of another address format is the owner's when the owner key sent lists
        // both addresses by name (a `*` key proves nothing about ownership).
        ownsBoth: (source, destination) =>
          principal?.role === 'owner' &&
          principal.wallets.has(principal.walletOf(source)) &&
          principal.wallets.has(principal.walletOf(destination)),
      }),
    }),
    confirmBridgeDelivery: async ({ body, principal }) => ({
      status: 200,
      body: await deps.plans.confirmBridgeDelivery({
        rail: deps.rail,
        planId: body.planId,
        destTxId: body.destTxId,
        allowWallet: (wallet) => !principal || principalAllowsWallet(principal, wallet),
        now: now(),
      }),
    }),
  };
}
