import type { AutoPayUseCases, ChainAdapters, VenueConfig } from '@yieldrouter/engine';
import type { AutoPayConfigRow } from '@yieldrouter/ledger';
import type { AutoPayConfigInput, Chain } from '@yieldrouter/schemas';
import { routes } from '@yieldrouter/schemas';
import { ApiError } from '../http/apiError';
import type { Handlers } from '../http/mountRoutes';
import { badRequestFromZod } from '../http/zodIssues';

export interface AutoPayHandlerDeps {
  readonly autoPay: AutoPayUseCases;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** Each chain's treasury: a run's withdraw leg pays the skim there (owner-held receipts). */
  readonly treasuries?: Readonly<Partial<Record<Chain, string | null>>> | undefined;
  readonly now?: () => Date;
}

const ok = <T>(body: T) => ({ status: 200, body });

/** A stored config as the input of PUT …/auto-pay (amounts as decimal strings). */
export function storedConfigInput(config: AutoPayConfigRow) {
  return {
    enabled: config.enabled,
    percentage: config.percentage,
    payees: config.payees,
    trigger: config.trigger,
    minAmountMicros: String(config.minAmountMicros),
    dustMicros: String(config.dustMicros),
    emergencyPause: config.emergencyPause,
    ...(config.maxPerPayeePerDayMicros === null
      ? {}
      : { maxPerPayeePerDayMicros: String(config.maxPerPayeePerDayMicros) }),
  };
}

/**
 * A whole config by PUT …/auto-pay's own schema; what is missing or wrong is a 400 naming the
 * body field (a field the stored config did not have either, e.g. `payees` before any is set).
 */
export function parseConfig(input: Record<string, unknown>): AutoPayConfigInput {
  const parsed = routes.setAutoPay.request.body.safeParse(input);
  if (!parsed.success) throw badRequestFromZod('body', parsed.error);
  return parsed.data;
}

/** Auto-pay: the owner's config, its runs, and the public prepare-only plan. */
export function autoPayHandlers(deps: AutoPayHandlerDeps): Handlers {
  const { adapters, autoPay, venues } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    getAutoPay: async ({ params }) =>
      ok(await autoPay.getAutoPay(adapters, venues, params.address, now())),
    setAutoPay: async ({ params, body, recordWrite }) =>
      ok(await autoPay.setAutoPay(adapters, venues, params.address, body, now(), recordWrite(ok))),
    autoPay: async ({ params, body, recordWrite }) => {
      const { chain, opportunityId, enabled, ...config } = body;
      if (enabled !== undefined) {
        // The v1 config write (issue 41): the fields given over the stored config, read under
        // the wallet's auto-pay lock, checked as PUT …/auto-pay checks them.
        const merged = (stored: AutoPayConfigRow | null) => {
          if (!stored && config.payees === undefined) {
            throw new ApiError(
              'BAD_REQUEST',
              'body.payees: required while the wallet has no auto-pay config (or PUT /api/v1/wallets/{address}/auto-pay/payees first)',
              { field: 'body.payees' },
            );
          }
          return parseConfig({
            // Nothing is paid on its own until the owner names another trigger.
            trigger: 'manual',
            ...(stored ? storedConfigInput(stored) : {}),
            // Parsed once already: amounts back to the decimal strings the schema reads.
            ...Object.fromEntries(
              Object.entries(config).map(([key, value]) => [
                key,
                typeof value === 'bigint' ? value.toString() : value,
              ]),
            ),
            enabled,
          });
        };
        return ok(
          await autoPay.setAutoPay(
            adapters,
            venues,
            params.address,
            merged,
            now(),
            recordWrite(ok),
          ),
        );
      }
      const target = {
        ...(chain === undefined ? {} : { chain }),
        ...(opportunityId === undefined ? {} : { opportunityId }),
      };
      return ok(
        await autoPay.runAutoPay({
          adapters,
          venues,
          address: params.address,
          target,
          treasuries: deps.treasuries,
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      );
    },
    prepareAutoPayPlan: async ({ body }) =>
      ok(await autoPay.quoteAutoPay(adapters, venues, body, now())),
  };
}
