import type {
  AutoPayUseCases,
  AutopilotUseCases,
  ChainAdapters,
  OpportunitySnapshots,
  VenueConfig,
  WalletUseCases,
} from '@yieldrouter/engine';
import { findOpportunity, idCursor } from '@yieldrouter/engine';
import type { AutoPayConfigRow } from '@yieldrouter/ledger';
import type {
  AutoPayDocument,
  AutoPayPayeesDocument,
  Chain,
  OperationId,
  Opportunity,
  RouteDefinition,
} from '@yieldrouter/schemas';
import { routes } from '@yieldrouter/schemas';
import { ApiError } from '../http/apiError';
import { principalAllowsWallet } from '../http/auth';
import type { Handler, HandlerContext, HandlerResult, Handlers } from '../http/mountRoutes';
import { badRequestFromZod } from '../http/zodIssues';
import { parseConfig, storedConfigInput } from './autoPayHandlers';

export interface PeerWalletHandlerDeps {
  /** The handlers already mounted: an alias calls the one it stands for. */
  readonly handlers: Handlers;
  readonly autoPay: AutoPayUseCases;
  readonly autopilot: AutopilotUseCases;
  readonly wallet: WalletUseCases;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly snapshots: OpportunitySnapshots;
  readonly now?: () => Date;
}

type Context = HandlerContext<RouteDefinition>;
const ok = <T>(body: T) => ({ status: 200, body });
const decisions = idCursor('apd');

/** The payees view of an auto-pay document. */
function payeesOf(document: AutoPayDocument): AutoPayPayeesDocument {
  return {
    schemaVersion: 'svc-auto-pay-payees.v1',
    wallet: document.wallet,
    configured: document.config !== null,
    enabled: document.config?.enabled ?? false,
    maxPayees: document.maxPayees,
    payees: document.config?.payees ?? [],
  };
}

/**
 * The wallet routes peer (v1) clients call (issue 41). Each calls a use case the service has,
 * or the handler of the route it stands for with its input in that route's own schema.
 */
export function peerWalletHandlers(deps: PeerWalletHandlerDeps): Handlers {
  const { adapters, venues } = deps;
  const now = deps.now ?? (() => new Date());

  /** Calls `target`'s handler with `input` parsed by `target`'s own schemas. */
  const delegate = async (
    target: OperationId,
    context: Context,
    input: { params?: unknown; query?: unknown; body?: unknown },
  ): Promise<HandlerResult> => {
    const handler = deps.handlers[target] as Handler<RouteDefinition> | undefined;
    if (!handler) throw new ApiError('NOT_IMPLEMENTED', `${target} has no handler`);
    const request = routes[target].request as RouteDefinition['request'];
    const parsed: Record<string, unknown> = {};
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = request[part];
      if (!schema || input[part] === undefined) continue;
      const result = schema.safeParse(input[part]);
      if (!result.success) throw badRequestFromZod(part === 'params' ? 'path' : part, result.error);
      parsed[part] = result.data;
    }
    return handler({ ...context, ...parsed } as Context);
  };

  /** The opportunity `venue` names, on `chain` when one is given (400 naming the field). */
  const opportunityOf = async (
    venue: string,
    field: string,
    chain?: Chain,
  ): Promise<Opportunity> => {
    const found = findOpportunity((await deps.snapshots.current()).opportunities, venue);
    if (!found) throw new ApiError('strategy_unknown', `${field}: no strategy ${venue}`, { field });
    if (chain !== undefined && found.chain !== chain) {
      throw new ApiError('BAD_REQUEST', `${field}: ${venue} is on ${found.chain}, not ${chain}`, {
        field,
      });
    }
    return found;
  };

  /** A query alias of a wallet route: the key must be scoped to the wallet it names. */
  const scoped = (context: Context, wallet: string, field: string) => {
    if (context.principal && !principalAllowsWallet(context.principal, wallet)) {
      throw new ApiError('WALLET_SCOPE', `this key is not allowed for wallet ${wallet}`, { field });
    }
  };

  /** The deposit or withdraw plan of `amountMicros` for `owner` in the venue `venue` names. */
  const venuePlan = async (
    target: 'prepareDepositPlan' | 'prepareWithdrawPlan',
    context: Context,
    request: { venue: string; chain?: Chain | undefined; amountMicros: bigint; owner: string },
  ) => {
    const found = await opportunityOf(request.venue, 'body.venue', request.chain);
    return delegate(target, context, {
      body: {
        opportunityId: found.opportunityId,
        amountMicros: request.amountMicros.toString(),
        owner: request.owner,
      },
    });
  };

  const handlers: Handlers = {
    getAutoPayPayees: async ({ params }) =>
      ok(payeesOf(await deps.autoPay.getAutoPay(adapters, venues, params.address, now()))),
    setAutoPayPayees: async ({ params, body, recordWrite }) => {
      // The stored config with these payees (read under the wallet's auto-pay lock, so a PUT of
      // the whole config in between is not overwritten); none yet: stored disabled, paying nothing.
      const withPayees = (config: AutoPayConfigRow | null) =>
        parseConfig(
          config
            ? { ...storedConfigInput(config), payees: body.payees }
            : { enabled: false, percentage: 0, payees: body.payees, trigger: 'manual' },
        );
      const answer = (document: AutoPayDocument) => ok(payeesOf(document));
      return answer(
        await deps.autoPay.setAutoPay(
          adapters,
          venues,
          params.address,
          withPayees,
          now(),
          recordWrite(answer),
        ),
      );
    },
    previewAutoPay: async ({ params, body }) =>
      ok(
        await deps.autoPay.quoteAutoPay(
          adapters,
          venues,
          { wallet: params.address, ...body },
          now(),
        ),
      ),
    stakeAutoYield: async (context) => {
      const { params, body } = context;
      if (body.venue === undefined) {
        return delegate('routeFunds', context, {
          params,
          body: {
            amountMicros: body.amountMicros.toString(),
            token: 'USDC',
            stake: true,
            ...(body.chain === undefined ? {} : { chain: body.chain }),
          },
        });
      }
      return venuePlan('prepareDepositPlan', context, {
        venue: body.venue,
        chain: body.chain,
        amountMicros: body.amountMicros,
        owner: params.address,
      });
    },
    unstakeAutoYield: async (context) => {
      const { params, body } = context;
      const venue =
        body.venue ??
        (
          await deps.wallet.getAutoYield(
            adapters,
            params.address,
            (await deps.snapshots.current()).opportunities,
          )
        ).opportunityId;
      if (venue === null) {
        throw new ApiError(
          'BAD_REQUEST',
          'body.venue: required, the auto-yield setting of this wallet names no venue',
          { field: 'body.venue' },
        );
      }
      return venuePlan('prepareWithdrawPlan', context, {
        venue,
        chain: body.chain,
        amountMicros: body.amountMicros,
        owner: params.address,
      });
    },
    getAutopilotDecision: async ({ params }) => {
      const id = BigInt(params.decisionId.slice('apd_'.length));
      // The page that starts at this id: the decision, when it is this wallet's.
      const page = await deps.autopilot.history(adapters, params.address, {
        cursor: decisions.encode(id + 1n),
        limit: 1,
      });
      const decision = page.decisions[0];
      if (decision?.decisionId !== params.decisionId) {
        throw new ApiError(
          'AUTOPILOT_DECISION_NOT_FOUND',
          `path.decisionId: no decision ${params.decisionId} for this wallet`,
          { field: 'path.decisionId' },
        );
      }
      return ok(decision);
    },
    prepareSolanaStakePlan: async (context) =>
      venuePlan('prepareDepositPlan', context, { ...context.body, chain: 'solana' }),
    getWalletPage: async (context) => {
      scoped(context, context.query.wallet, 'query.wallet');
      return delegate('getWalletPortfolio', context, { params: { address: context.query.wallet } });
    },
    listAudits: async (context) => {
      const { wallet_address: wallet, ...page } = context.query;
      scoped(context, wallet, 'query.wallet_address');
      return delegate('getWalletAudit', context, {
        params: { address: wallet },
        query: Object.fromEntries(Object.entries(page).filter(([, value]) => value !== undefined)),
      });
    },
  };
  return handlers;
}
