import type { Redis } from 'ioredis';
import type { FeeSchedule } from '@yieldrouter/fees';
import { toFeeScheduleDocument } from '@yieldrouter/fees';
import {
  VENUE_CATALOG,
  buildPackagesDocument,
  buildStatusDocument,
  deepFreeze,
} from '@yieldrouter/engine';
import type { ChainEnablement, RouteDefinition } from '@yieldrouter/schemas';
import {
  API_VERSION,
  BlockerCode,
  CODE_RULE,
  ERROR_CATALOG_VERSION,
  ErrorCode,
  describeBlockerCode,
  clientVersionStatus,
  describeErrorCode,
  routePaths,
} from '@yieldrouter/schemas';
import type { ApiConfig } from '../env';
import type { Handlers } from '../http/mountRoutes';

export interface MetaHandlerDeps {
  readonly config: ApiConfig;
  /** Whether the books answer (health). */
  readonly booksReachable: () => Promise<boolean>;
  readonly redis: Redis | null;
  /** The chains' enablement, built once from the configuration. */
  readonly enablement: readonly ChainEnablement[];
  readonly fees: FeeSchedule;
  readonly routes: readonly RouteDefinition[];
  readonly implemented: () => ReadonlySet<string>;
  readonly openApiJson: () => string;
  readonly startedAt: number;
}

const SDK_PACKAGE = '@yieldrouter/sdk';

/** Handlers of the meta routes: health, root, status, packages, fees, catalogs. */
export function metaHandlers(deps: MetaHandlerDeps): Handlers {
  const { clientVersions } = deps.config;
  const versionFields = (client: string | undefined) => ({
    latestVersion: clientVersions.latestVersion,
    minSupportedVersion: clientVersions.minSupportedVersion,
    install: clientVersions.install,
    releaseUrl: clientVersions.releaseUrl,
    repoUrl: clientVersions.repoUrl,
    ...(client === undefined ? {} : { client: clientVersionStatus(clientVersions, client) }),
  });
  // Configuration is fixed for the life of the process, so these documents are built once.
  const enablementDocument = deps.enablement;
  const statusDocument = deepFreeze(
    buildStatusDocument({
      enablement: enablementDocument,
      fees: deps.fees,
      venueIds: VENUE_CATALOG.map((venue) => venue.id),
    }),
  );
  const packagesDocument = deepFreeze(
    buildPackagesDocument({
      ids: deps.config.onChainIds,
      enablement: enablementDocument,
      fees: deps.fees,
      chains: deps.config.chains,
    }),
  );
  // The document is parsed once per text and frozen, so its bytes are encoded once
  // (responseBytes.ts), not parsed and encoded again for every request (the fuzz's profile: the
  // OpenAPI route was the API's costliest answer).
  let openApi: { readonly json: string; readonly document: unknown } | undefined;
  const openApiDocument = () => {
    const json = deps.openApiJson();
    if (openApi?.json !== json) openApi = { json, document: deepFreeze(JSON.parse(json)) };
    return openApi.document;
  };
  const enablement = () => enablementDocument;
  const status = () => statusDocument;
  const ok = <T>(body: T) => ({ status: 200, body });
  const chainEnablement = (chain: 'base' | 'arbitrum') => {
    const entry = enablement().find((candidate) => candidate.chain === chain);
    if (!entry) throw new Error(`no enablement for ${chain}`);
    return ok(entry);
  };

  return {
    getHealth: async () => {
      const database = (await deps.booksReachable()) ? 'up' : 'down';
      const redis = !deps.redis ? 'not_configured' : deps.redis.status === 'ready' ? 'up' : 'down';
      return ok({
        status: database === 'up' && redis !== 'down' ? 'ok' : 'degraded',
        apiVersion: API_VERSION,
        uptimeSeconds: Math.floor((Date.now() - deps.startedAt) / 1000),
        checks: { database, redis },
      } as const);
    },
    getRoot: () =>
      ok({
        name: 'Yield Router API',
        apiVersion: API_VERSION,
        links: {
          docs: '/docs',
          openapi: '/api/v1/openapi.json',
          health: '/health',
          status: '/api/v1/svc/status',
          routes: '/api/v1/svc/routes',
        },
      }),
    getOpenApi: () => ({ status: 200, body: openApiDocument() }),
    getStatus: () => ok(status()),
    getReadiness: () => ok(status()),
    getEnablement: () => ok({ schemaVersion: 'svc-enablement.v1' as const, chains: enablement() }),
    getBaseEnablement: () => chainEnablement('base'),
    getArbitrumEnablement: () => chainEnablement('arbitrum'),
    getPackages: () => ok(packagesDocument),
    getFees: () =>
      ok({
        schemaVersion: 'svc-fees.v1' as const,
        ...toFeeScheduleDocument(deps.fees),
        treasuries: deps.config.treasuries,
      }),
    getSdk: ({ query }) =>
      ok({
        packageName: SDK_PACKAGE,
        published: false,
        version: null,
        apiVersion: API_VERSION,
        reason: 'The typed client has not been published yet.',
        ...versionFields(query.client),
      }),
    getVersion: ({ query }) =>
      ok({
        apiVersion: API_VERSION,
        openapiVersion: '3.1.0' as const,
        basePath: '/api/v1' as const,
        legacyPrefixes: ['/api/svc', '/api/wallets'],
        routeCount: deps.routes.length,
        errorCatalogVersion: ERROR_CATALOG_VERSION,
        schemas: [
          'svc-status.v1',
          'svc-enablement.v1',
          'svc-fees.v1',
          'svc-packages.v1',
          'svc-wallet-portfolio.v1',
          'svc-wallet-activity.v1',
          'harvest-plan.v1',
        ],
        deprecations: [
          {
            input: 'strategyId',
            replacement: 'opportunityId',
            note: 'strategyId is accepted as a deprecated input alias of opportunityId.',
          },
          {
            input: 'form-<venue_id>',
            replacement: 'opportunityId',
            note: 'Form ids and /svc/forms are legacy; strategies are preferred.',
          },
        ],
        ...versionFields(query.client),
      }),
    getErrors: () =>
      ok({
        version: ERROR_CATALOG_VERSION,
        description: CODE_RULE,
        errors: ErrorCode.options.map((code) => ({ code, ...describeErrorCode(code) })),
        blockers: BlockerCode.options.map((code) => ({ code, meaning: describeBlockerCode(code) })),
        notes: [
          'Error bodies are {code, message, requestId} (plus field when an input is at fault).',
          'UNAUTHORIZED is 401 when the X-API-Key header is missing and 403 for a wrong role.',
          'Blocked plans answer HTTP 200 with status "blocked" and blockers[].',
          'Renaming a code is a breaking change; adding one is not.',
        ],
      }),
    getRoutes: () => {
      const implemented = deps.implemented();
      const list = deps.routes.map((route) => {
        const { canonical, aliases } = routePaths(route);
        return {
          operationId: route.operationId,
          method: route.method.toUpperCase(),
          path: canonical,
          legacyAliases: aliases,
          auth: route.auth === 'public' ? ['public'] : [...route.auth],
          summary: route.summary,
          tags: [...route.tags],
          implemented: implemented.has(route.operationId),
        };
      });
      return ok({
        apiVersion: API_VERSION,
        count: list.length,
        implementedCount: list.filter((route) => route.implemented).length,
        routes: list,
      });
    },
  };
}
