// Test support for the autopilot suites (jest hooks): the real app on a fresh database, Solana
// served by the fake chain, kamino and save ready, 30-day APY samples written as the keeper
// stores them, and stakes made the way production makes them (route, execute, settle).
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { listOpportunities } from '@yieldrouter/engine';
import type { FakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import { fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import {
  fakeStakeVenues,
  landStake,
} from '@yieldrouter/engine/src/wallet/testing/stakeOnFakeChain';
import { dailyApySamples } from '@yieldrouter/engine/src/venues/testing/dailyApySamples';
import { insertApySamples } from '@yieldrouter/ledger';
import type { TestApp } from './startTestApp';
import { startTestApp } from './startTestApp';
import { freshSolanaKey } from './solanaBedSettings';

// The ids each venue's protocol names (kamino: klend; save: Save), fresh keys the fake chain ignores.
const kaminoIds = () => ({
  klendProgram: freshSolanaKey(),
  lendingMarket: freshSolanaKey(),
  reserve: freshSolanaKey(),
  reserveLiquiditySupply: freshSolanaKey(),
  reserveCollateralMint: freshSolanaKey(),
});
const saveIds = () => ({
  saveProgram: freshSolanaKey(),
  lendingMarket: freshSolanaKey(),
  reserve: freshSolanaKey(),
  reserveLiquiditySupply: freshSolanaKey(),
  reserveCollateralMint: freshSolanaKey(),
  pythOracle: freshSolanaKey(),
  switchboardOracle: freshSolanaKey(),
});

export interface AutopilotApp {
  readonly t: () => TestApp;
  readonly chain: () => FakeChain;
  readonly keys: { readonly owner: string; readonly agent: string; readonly keeper: string };
  /** Wallets the owner and agent keys are scoped to (Solana addresses on the fake chain). */
  readonly wallets: readonly string[];
  readonly api: (
    method: 'get' | 'post' | 'put',
    path: string,
    key: string,
    body?: object,
  ) => request.Test;
  /** Replaces a venue's samples by five of `bps`, one a day (mean `bps`). */
  readonly setMean: (venueId: string, bps: number) => Promise<void>;
  /** A settled stake of `amountMicros` in kamino for `wallet`. */
  readonly stake: (wallet: string, amountMicros: bigint) => Promise<void>;
  readonly opportunityId: (venueId: string) => Promise<string>;
}

export function useAutopilotApp(walletCount = 3): AutopilotApp {
  let t: TestApp | undefined;
  const chain = fakeChain();
  const keys = {
    owner: `owner-ap-${randomBytes(8).toString('hex')}`,
    agent: `agent-ap-${randomBytes(8).toString('hex')}`,
    keeper: `keeper-ap-${randomBytes(8).toString('hex')}`,
  };
  const wallets = Array.from({ length: walletCount }, freshSolanaKey);
  beforeAll(async () => {
    t = await startTestApp(
      {
        SVC_DISCOVERY_CACHE_MS: '0',
        SVC_VENUE_IDS: JSON.stringify({ kamino: kaminoIds(), save: saveIds() }),
        SVC_API_KEYS: JSON.stringify([
          { key: keys.owner, role: 'owner', wallets },
          { key: keys.agent, role: 'agent', wallets },
          { key: keys.keeper, role: 'keeper', wallets: ['*'] },
        ]),
      },
      { adapters: chain.adapters },
    );
  });
  afterAll(() => t?.close());
  const app = () => {
    if (!t) throw new Error('the app starts in beforeAll');
    return t;
  };
  return {
    t: app,
    chain: () => chain,
    keys,
    wallets,
    api: (method, path, key, body) => {
      const call = request(app().app)[method](`/api/v1${path}`).set('X-API-Key', key);
      return body === undefined ? call : call.send(body);
    },
    setMean: async (venueId, bps) => {
      const prisma = app().db;
      await prisma.apySample.deleteMany({ where: { venueId } });
      await insertApySamples(prisma, dailyApySamples(venueId, bps));
    },
    stake: async (wallet, amountMicros) => {
      const { db } = app();
      const opportunities = await listOpportunities({
        db: db,
        venues: fakeStakeVenues,
        enablement: [],
        now: new Date(),
      });
      const landed = await landStake({
        db: db,
        chain,
        opportunities,
        wallet,
        amountMicros,
      });
      const settled = await landed.settle();
      if (settled.status !== 'confirmed') throw new Error(`stake of ${wallet}: ${settled.status}`);
    },
    opportunityId: async (venueId) => {
      const venue = await app().db.venue.findUniqueOrThrow({ where: { id: venueId } });
      return venue.opportunityId;
    },
  };
}
