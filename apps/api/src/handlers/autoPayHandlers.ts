import type { AutoPayUseCases, ChainAdapters, VenueConfig } from '@yieldrouter/engine';
import type { Handlers } from '../http/mountRoutes';

export interface AutoPayHandlerDeps {
  readonly autoPay: AutoPayUseCases;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly now?: () => Date;
}

const ok = <T>(body: T) => ({ status: 200, body });

/** Auto-pay: the owner's config, its runs, and the public prepare-only plan. */
export function autoPayHandlers(deps: AutoPayHandlerDeps): Handlers {
  const { adapters, autoPay, venues } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    getAutoPay: async ({ params }) =>
      ok(await autoPay.getAutoPay(adapters, venues, params.address, now())),
    setAutoPay: async ({ params, body, recordWrite }) =>
      ok(await autoPay.setAutoPay(adapters, venues, params.address, body, now(), recordWrite(ok))),
    autoPay: async ({ params, body, recordWrite }) =>
      ok(
        await autoPay.runAutoPay({
          adapters,
          venues,
          address: params.address,
          target: body,
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      ),
    prepareAutoPayPlan: async ({ body }) =>
      ok(await autoPay.quoteAutoPay(adapters, venues, body, now())),
  };
}
