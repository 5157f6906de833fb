import type { ChainAdapters, OpportunitySnapshots, PlanUseCases } from '@yieldrouter/engine';
import type { ChainEnablement } from '@yieldrouter/schemas';
import { principalAllowsWallet } from '../http/auth';
import type { Handlers } from '../http/mountRoutes';

export interface PlanHandlerDeps {
  /** The stored-plan use cases, on the books. */
  readonly plan: PlanUseCases;
  readonly adapters: ChainAdapters;
  /** The chains' execution modes: the server broadcasts only where it is `broadcast`. */
  readonly enablement: readonly ChainEnablement[];
  /** The listing the execute alias shape names its plan's opportunity from. */
  readonly snapshots: OpportunitySnapshots;
  readonly now?: () => Date;
}

/** Stored plans: read one, and broadcast the owner-signed bytes of one of its legs. */
export function planHandlers(deps: PlanHandlerDeps): Handlers {
  const { plan: planUseCases } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    getPlan: async ({ params }) => ({
      status: 200,
      body: await planUseCases.readPlan(params.planId),
    }),
    cancelPlan: async ({ params, principal, recordWrite }) => {
      const ok = <T>(body: T) => ({ status: 200, body });
      return ok(
        await planUseCases.cancelPlan({
          planId: params.planId,
          allowWallet: (wallet) => principal !== null && principalAllowsWallet(principal, wallet),
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      );
    },
    executeDeposit: async ({ body }) => {
      // The schema lets through only a body with planId, or strategyId + owner + amountMicros,
      // and with signed bytes under one of their two names.
      const planId =
        body.planId ??
        (await planUseCases.planOfAlias({
          adapters: deps.adapters,
          opportunities: (await deps.snapshots.current()).opportunities,
          strategyId: body.strategyId ?? '',
          owner: body.owner ?? '',
          amountMicros: body.amountMicros ?? 0n,
        }));
      return {
        status: 200,
        body: await planUseCases.executePlanLeg({
          adapters: deps.adapters,
          enablement: deps.enablement,
          planId,
          legIndex: body.legIndex ?? 0,
          signed: {
            transaction: body.signedTransaction ?? body.signedTx ?? '',
            ...(body.signatures ? { signatures: body.signatures } : {}),
          },
          now: now(),
        }),
      };
    },
  };
}
