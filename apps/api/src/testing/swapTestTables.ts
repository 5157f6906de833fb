import type { Test } from 'supertest';
import { SwapPlanDocument } from '@yieldrouter/schemas';
import { readAccountBalance } from '@yieldrouter/ledger';
import type { TestApp } from './startTestApp';

// The cases every swap-priced route shares (the Jupiter, Cetus and 0x swap plans, the gas
// sponsor's top-up, the cross-asset route): each quote-source fault blocks the plan, a stale quote's fill fails the leg,
// and each bad input of the swap body is refused with a 400. One table each, run by every suite
// with its own route and body, so a new fault or refusal is added once and checked everywhere.

/** What a plan document shows of itself (blocked or prepared), whichever route answered it. */
interface PlanLikeDocument {
  readonly planId?: string | null | undefined;
  readonly blockers?:
    ReadonlyArray<{ readonly code: string; readonly details?: unknown }> | null | undefined;
}

/** The protocol's fee account, in the books' unit (USDC micros); 0 before anything was booked. */
export async function protocolFees(t: TestApp): Promise<bigint> {
  // A system account's balance is its row plus its shards (migration 0050).
  return readAccountBalance(t.db, { system: 'fees:protocol' });
}

/**
 * The quote source's faults and the blocker each must give. `noRoute` is the fake's own name
 * for "no route for the pair" (Jupiter's and Cetus' `no_route`, 0x's `no_liquidity`).
 */
export function quoteFaultCases<NoRoute extends string>(noRoute: NoRoute) {
  return [
    ['slow', 'quote_timeout'],
    ['http_500', 'quote_unavailable'],
    ['malformed', 'quote_unavailable'],
    [noRoute, 'no_route'],
  ] as const;
}

export interface QuoteFaultTable<Mode extends string, Document extends PlanLikeDocument> {
  /** The suite's app (read when a test runs, after its beforeAll). */
  app(): TestApp;
  /** The fake's "no route" mode (see `quoteFaultCases`). */
  readonly noRoute: Mode;
  /** Before the fault: what the request needs priced while the source still answers. */
  arrange?(): Promise<void>;
  /** Puts the quote source in `mode` (the suite's afterEach puts it back to `ok`). */
  setMode(mode: 'slow' | 'http_500' | 'malformed' | Mode): void;
  /** The route's request with a body that would otherwise be priced. */
  send(): Test;
  /** The route's response schema. */
  parse(body: unknown): Document;
  /** The fields a priced plan has that a blocked one must not (no price made up). */
  readonly unpriced: readonly string[];
  /** When set, the blocker names its quote source in `details.source`. */
  readonly source?: string;
  /** More the blocked document must show (a route's `pendingInMicros: '0'`: nothing reserved). */
  readonly blocked?: Readonly<Record<string, unknown>>;
}

/**
 * Each quote-source fault → 200, the plan blocked with the fault's code, stored, nothing to
 * sign, no price and no journal entry. Registers one test per fault in the calling `describe`.
 */
export function itBlocksOnQuoteFaults<Mode extends string, Document extends PlanLikeDocument>(
  table: QuoteFaultTable<Mode, Document>,
): void {
  it.each(quoteFaultCases(table.noRoute))(
    'quote source %s → blocked %s, stored, no price, nothing booked',
    async (mode, code) => {
      await table.arrange?.();
      table.setMode(mode);
      const document = table.parse((await table.send().expect(200)).body);
      expect(document).toMatchObject({
        status: 'blocked',
        ownerMustSign: false,
        submitted: false,
        ...table.blocked,
      });
      expect(document.blockers?.map((entry) => entry.code)).toEqual([code]);
      if (table.source !== undefined) {
        expect(document.blockers?.[0]?.details).toMatchObject({ source: table.source });
      }
      for (const field of ['legs', ...table.unpriced]) {
        expect((document as Record<string, unknown>)[field]).toBeUndefined();
      }
      const prisma = table.app().db;
      expect(await prisma.plan.count({ where: { id: document.planId ?? '' } })).toBe(1);
      expect(await prisma.journalEntry.count({ where: { planId: document.planId ?? '' } })).toBe(0);
    },
  );
}

/** A leg as the stored plan shows it after the keeper's settlement watch. */
interface SettledLeg {
  readonly status?: string | undefined;
  readonly settledAmountMicros?: string | null | undefined;
  readonly failureReason?: string | null | undefined;
}

export interface StaleFillCase {
  app(): TestApp;
  /** Puts the quote source in its `stale` mode (priced better than the pool is now). */
  setStale(): void;
  /** The route's request for a plan priced on the stale quote. */
  send(): Test;
  /**
   * The owner signs and sends the legs, the keeper's watch settles them: the swap leg after,
   * and the watch's counts when the suite ran it itself (one checked, one failed).
   */
  signAndSettle(
    document: SwapPlanDocument,
  ): Promise<{ readonly leg: SettledLeg | undefined; readonly counts?: object }>;
  /** Why the chain or the keeper failed the leg, as the stored leg says it. */
  readonly failureReason: RegExp;
  /** What else must not move (balances, reserves): read before signing, checked after. */
  nothingElseMoves?(): Promise<() => Promise<void>>;
}

/**
 * A stale quote: the plan is prepared on it, but the fill lands below the plan's minimum out, so
 * the keeper fails the swap leg and nothing is booked (no fee, no journal entry). One test.
 */
export function itFailsAStaleFill(stale: StaleFillCase): void {
  it('a stale quote fills below minAmountOut: the keeper fails the leg, nothing moves', async () => {
    const t = stale.app();
    stale.setStale();
    const document = SwapPlanDocument.parse((await stale.send()).body);
    expect(document.status).toBe('prepared');
    const feesBefore = await protocolFees(t);
    const nothingElseMoved = await stale.nothingElseMoves?.();
    const { leg, counts } = await stale.signAndSettle(document);
    if (counts) expect(counts).toMatchObject({ checked: 1, failed: 1 });
    expect(leg).toMatchObject({ status: 'failed', settledAmountMicros: null });
    expect(leg?.failureReason).toMatch(stale.failureReason);
    expect(await protocolFees(t)).toBe(feesBefore);
    const where = { planId: document.planId ?? '' };
    expect(await t.db.journalEntry.count({ where })).toBe(0);
    await nothingElseMoved?.();
  });
}

/** One bad-input case: its name, what it changes in the route's valid body, the field named. */
export type BadInputCase = readonly [name: string, change: Record<string, unknown>, field: string];

/**
 * The bad input every swap body refuses, whichever chain: the pair, the amount and the slippage;
 * then each chain the route does not serve (`otherChains`) and an owner address of another chain.
 */
export function swapBadInputCases(
  otherChains: readonly string[],
  otherOwner: string,
): readonly BadInputCase[] {
  return [
    ['same token', { outputToken: 'usdc' }, 'body.outputToken'],
    ['unknown token', { outputToken: 'DOGE' }, 'body.outputToken'],
    ['amount 0', { amountInMicros: '0' }, 'amountInMicros'],
    ['amount over 2^63 − 1', { amountInMicros: '9223372036854775808' }, 'amountInMicros'],
    ['a float amount', { amountInMicros: '1.5' }, 'amountInMicros'],
    ['slippage 501', { slippageBps: 501 }, 'slippageBps'],
    ['negative slippage', { slippageBps: -1 }, 'slippageBps'],
    ['fractional slippage', { slippageBps: 1.5 }, 'slippageBps'],
    ...otherChains.map((chain): BadInputCase => [
      `chain ${chain}, which the route does not serve`,
      { chain },
      'chain',
    ]),
    ["another chain's address", { owner: otherOwner }, 'body.owner'],
  ];
}

export interface BadInputTable {
  app(): TestApp;
  readonly cases: readonly BadInputCase[];
  /** The route's request with the valid body changed by `change`. */
  send(change: Record<string, unknown>): Test;
  /**
   * `exact`: the 400's `field` is the case's field; `named` (default): the field is named in
   * `field` or the message (a refusal of the body as a whole names it in its message).
   */
  readonly match?: 'exact' | 'named';
}

/** Each bad input → 400 BAD_REQUEST naming the field, nothing stored. One test per case. */
export function itRefusesBadInput(table: BadInputTable): void {
  it.each(table.cases)(
    '%s → 400 naming the field, nothing stored',
    async (_name, change, field) => {
      const plans = () => table.app().db.plan.count();
      const before = await plans();
      const { body } = await table.send(change).expect(400);
      if (table.match === 'exact') {
        expect(body).toMatchObject({ code: 'BAD_REQUEST', field });
      } else {
        expect(body.code).toBe('BAD_REQUEST');
        expect(`${body.field ?? ''} ${body.message}`).toContain(field);
      }
      expect(await plans()).toBe(before);
    },
  );
}
