import type { BridgeRail, BridgesConfig, BridgeUseCases, ChainAdapters } from '@yieldrouter/engine';
import type { Handlers } from '../http/mountRoutes';
import { principalAllowsWallet } from '../http/auth';
import type { Principal } from '../http/auth';
import { callerOf, ownsBothOf } from './ownerProof';

export interface BridgeHandlerDeps {
  readonly bridge: BridgeUseCases;
  readonly adapters: ChainAdapters;
  readonly bridges: BridgesConfig;
  /** The rail (CCTP v2); undefined when none is built (every lane blocked). */
  readonly rail: BridgeRail | undefined;
  readonly now?: () => Date;
  /** The owner behind a raw API key, or null when it is unknown or revoked. */
  readonly resolveKey?: (raw: string) => Promise<Principal | null>;
}

/**
 * Bridge plans (prepare), deliveries (credit only after a confirmed mint) and rescues of failed
 * bridges (owner only; the destination is the plan's).
 */
export function bridgeHandlers(deps: BridgeHandlerDeps): Handlers {
  const now = deps.now ?? (() => new Date());
  return {
    prepareBridgePlan: async ({ body, header }) => {
      // The route is public; a key sent along only serves as proof that a destination of another
      // address format is the owner's (`ownsBothOf`).
      const caller = await callerOf(header, deps.resolveKey);
      return {
        status: 200,
        body: await deps.bridge.prepareBridgePlan({
          adapters: deps.adapters,
          bridges: deps.bridges,
          rail: deps.rail,
          request: body,
          now: now(),
          ownsBoth: ownsBothOf(caller),
        }),
      };
    },
    confirmBridgeDelivery: async ({ body, principal }) => ({
      status: 200,
      body: await deps.bridge.confirmBridgeDelivery({
        rail: deps.rail,
        adapters: deps.adapters,
        planId: body.planId,
        destTxId: body.destTxId,
        allowWallet: (wallet) => !principal || principalAllowsWallet(principal, wallet),
        now: now(),
      }),
    }),
    rescueBridge: async ({ body, principal }) => ({
      status: 200,
      body: await deps.bridge.rescueBridge({
        rail: deps.rail,
        adapters: deps.adapters,
        request: body,
        allowWallet: (wallet) => !principal || principalAllowsWallet(principal, wallet),
      }),
    }),
  };
}
