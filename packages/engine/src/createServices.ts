import { createDatabase } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { Logger } from 'pino';
import { createApiStore } from './apiStore';
import type { ApiStore } from './apiStore';
import type { BridgeRail } from './bridge/bridgeRail';
import { createCctpRail } from './bridge/createCctpRail';
import { createChainAdapters } from './chains/createChainAdapters';
import type { ChainAdapters } from './chains/chainsConfig';
import type { ServiceConfig } from './config/serviceSettings';
import { createUseCases } from './useCases';
import type { LedgerWriteObserver, UseCases } from './useCases';
import { seedVenueCatalog } from './venues/seedVenueCatalog';
import { createDefiLlamaReader } from './apy/defiLlamaReader';
import type { ApyReader } from './apy/types';

export interface CreateServicesOptions {
  /** The shared configuration (the API's and the keeper's both extend it). */
  readonly config: Pick<
    ServiceConfig,
    'databaseUrl' | 'chains' | 'onChainIds' | 'switches' | 'apy' | 'bridges'
  >;
  /** The embedded database's directory when `config.databaseUrl` is unset. */
  readonly dataDir?: string;
  /** Apply pending migrations and seed the venue catalog (default true; false: read only). */
  readonly migrate?: boolean;
  readonly logger: Logger;
}

/**
 * Everything a process works with, built once: the books, the chain adapters, the APY reader,
 * the bridge rail (one attestation-service budget and fee cache per process), the use cases and
 * the API's store on those books. The API, the keeper and the command-line tools all start here.
 */
export interface Services {
  readonly books: Books;
  readonly adapters: ChainAdapters;
  readonly apyReader: ApyReader;
  readonly bridgeRail: BridgeRail;
  /** The use cases on these books; with an observer, those that write report their time. */
  useCases(observer?: LedgerWriteObserver): UseCases;
  readonly store: ApiStore;
  /** Closes the books (the caller closes what it started on them first). */
  close(): Promise<void>;
}

/** Opens the books (migrated, the venue catalog seeded) and builds the shared services. */
export async function createServices(options: CreateServicesOptions): Promise<Services> {
  const { config, logger } = options;
  const migrate = options.migrate ?? true;
  const books = await createDatabase({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    migrate,
    log: (message) => logger.info(message),
  });
  try {
    if (migrate) await seedVenueCatalog(books);
  } catch (error) {
    await books.close();
    throw error;
  }
  return {
    books,
    adapters: createChainAdapters({
      chains: config.chains,
      ids: config.onChainIds,
      switches: config.switches,
    }),
    apyReader: createDefiLlamaReader({
      baseUrl: config.apy.baseUrl,
      timeoutMs: config.apy.timeoutMs,
    }),
    bridgeRail: createCctpRail({ bridges: config.bridges, chains: config.chains, logger }),
    useCases: (observer) => createUseCases(books, observer),
    store: createApiStore(books),
    close: () => books.close(),
  };
}
