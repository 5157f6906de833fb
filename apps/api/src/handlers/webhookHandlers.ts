import type { ChainAdapters, WebhookSettings, WebhookUseCases } from '@yieldrouter/engine';
import {
  buildWebhookEventTypesDocument,
  createWebhookSender,
  deepFreeze,
  ledgerWallet,
} from '@yieldrouter/engine';
import type { WebhookHostLookup } from '@yieldrouter/webhooks/server';
import { ApiError } from '../http/apiError';
import type { Principal } from '../http/auth';
import type { Handlers } from '../http/mountRoutes';

export interface WebhookHandlerDeps {
  /** The webhook use cases, on the books. */
  readonly webhook: WebhookUseCases;
  readonly adapters: ChainAdapters;
  readonly settings: WebhookSettings;
  /** DNS for URL checks; the system resolver when not given. */
  readonly lookup?: WebhookHostLookup;
  readonly now?: () => Date;
}

/** Keyed routes always have a principal; this narrows it for the type checker. */
function keyOf(principal: Principal | null): Principal {
  if (!principal) throw new Error('webhook routes are keyed');
  return principal;
}

/**
 * Webhook subscriptions (owner keys) and the events page (owner or agent keys). A subscription
 * belongs to the key that created it and covers that key's wallets; other keys' subscriptions
 * answer 404.
 */
export function webhookHandlers(deps: WebhookHandlerDeps): Handlers {
  const { webhook } = deps;
  const now = deps.now ?? (() => new Date());
  const { cipher, urlPolicy } = createWebhookSender(deps.settings);
  const eventTypes = deepFreeze(buildWebhookEventTypesDocument());
  /** The key's wallets as the ledger (and the outbox) names them; `*` stays. */
  const walletsOf = (principal: Principal) =>
    [...principal.wallets].map((wallet) =>
      wallet === '*' ? wallet : ledgerWallet(deps.adapters, wallet),
    );

  const ok = <T>(body: T) => ({ status: 200, body });
  return {
    listWebhookEventTypes: () => ({ status: 200, body: eventTypes }),
    createWebhook: async ({ body, principal, recordWrite }) => {
      const key = keyOf(principal);
      const created = <T>(result: T) => ({ status: 201, body: result });
      return created(
        await webhook.createWebhook({
          cipher,
          urlPolicy,
          ...(deps.lookup ? { lookup: deps.lookup } : {}),
          owner: { keyId: key.keyId, wallets: walletsOf(key) },
          input: body,
          now: now(),
          recordWrite: recordWrite(created),
        }),
      );
    },
    listWebhooks: async ({ principal }) => ({
      status: 200,
      body: await webhook.listWebhooks(keyOf(principal).keyId),
    }),
    rotateWebhook: async ({ params, principal, recordWrite }) =>
      ok(
        await webhook.rotateWebhook({
          cipher,
          ownerKeyId: keyOf(principal).keyId,
          id: params.id,
          overlapMs: deps.settings.rotationOverlapMs,
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      ),
    deleteWebhook: async ({ params, principal, recordWrite }) =>
      ok(
        await webhook.deleteWebhook({
          ownerKeyId: keyOf(principal).keyId,
          id: params.id,
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      ),
    listWebhookEvents: async ({ query, principal }) => {
      const key = keyOf(principal);
      const wallets = walletsOf(key);
      const wallet =
        query.wallet === undefined ? undefined : ledgerWallet(deps.adapters, query.wallet);
      if (wallet !== undefined && !wallets.includes('*') && !wallets.includes(wallet)) {
        throw new ApiError(
          'WALLET_SCOPE',
          `query.wallet: this key is not allowed for wallet ${query.wallet}`,
          {
            field: 'query.wallet',
          },
        );
      }
      return {
        status: 200,
        body: await webhook.listWebhookEvents(
          { wallets, ownerKeyId: key.role === 'owner' ? key.keyId : null },
          { cursor: query.cursor, limit: query.limit, type: query.type, wallet },
        ),
      };
    },
  };
}
