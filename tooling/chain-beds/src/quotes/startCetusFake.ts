import { randomUUID } from 'node:crypto';
import { normalizeStructTag } from '@mysten/sui/utils';
import type { SuiFakePool } from '../sui/cetusPool';
import { startQuoteServer } from './startQuoteServer';

/** How the fake answers: like the Cetus aggregator, or one of a quote source's real faults. */
export type CetusFakeMode =
  | 'ok'
  /** Answers after `slowMs` (longer than any client timeout). */
  | 'slow'
  /** HTTP 500 with a gateway-style body. */
  | 'http_500'
  /** HTTP 200 with JSON of the wrong shape (a float amount, a route without a path). */
  | 'malformed'
  /** `insufficient_liquidity: true` and no routes. */
  | 'no_route'
  /**
   * A stale quote: priced 5% better than the pool's reserves now, so the transaction's
   * `check_coin_threshold` (the plan's slippage bound on this quote) aborts on chain.
   */
  | 'stale';

export interface StartCetusFakeParameters {
  /** The Sui fake's pools the routes go through (one hop, the pool holding the pair). */
  readonly pools: readonly SuiFakePool[];
  readonly slowMs?: number;
}

export interface CetusFake {
  /** Base URL to configure as SVC_CETUS_BASE_URL (`/find_routes` under it). */
  readonly url: string;
  /** find_routes requests answered so far (each as its query parameters). */
  readonly requests: readonly Readonly<Record<string, string>>[];
  setMode(mode: CetusFakeMode): void;
  close(): Promise<void>;
}

const DIGITS = /^(0|[1-9][0-9]{0,19})$/;

/** `numerator / denominator` as a decimal string with `places` digits (no floats). */
function decimal(numerator: bigint, denominator: bigint, places = 12): string {
  const scale = 10n ** BigInt(places);
  const scaled = (numerator * scale) / denominator;
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(places, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

function coinType(value: string | undefined): string | undefined {
  try {
    return value ? normalizeStructTag(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Cetus aggregator stand-in for beds and `pnpm localnet`: `GET /find_routes` answers in the
 * aggregator's shape (`{ code, msg, data: { amount_in, amount_out, routes[].path[], … } }`, the
 * u64 amounts as JSON numbers), priced from a Sui fake pool's reserves at request time (one hop
 * through the pool that holds the pair, `fee_rate` the pool's). The transaction the service
 * builds from it calls that pool on the Sui fake, which runs it. Fault modes: `CetusFakeMode`.
 *
 * @example
 * const pool = sui.addCetusPool({ coinA: USDC, coinB: '0x2::sui::SUI', reserveA, reserveB });
 * const cetus = await startCetusFake({ pools: [pool] }); // SVC_CETUS_BASE_URL = cetus.url
 */
export async function startCetusFake(parameters: StartCetusFakeParameters): Promise<CetusFake> {
  let mode: CetusFakeMode = 'ok';
  const requests: Record<string, string>[] = [];

  const routes = (query: Record<string, string>) => {
    const from = coinType(query['from']);
    const target = coinType(query['target']);
    const amountText = query['amount'] ?? '';
    if (!from || !target || !DIGITS.test(amountText) || query['by_amount_in'] === 'false') {
      return { status: 200, body: { code: 10000, msg: 'Invalid parameters', data: null } };
    }
    const amountIn = BigInt(amountText);
    const pool = parameters.pools.find(
      (candidate) =>
        (candidate.coinA === from && candidate.coinB === target) ||
        (candidate.coinB === from && candidate.coinA === target),
    );
    const noRoute = {
      status: 200,
      body: {
        code: 200,
        msg: 'Success',
        data: { amount_in: 0, amount_out: 0, insufficient_liquidity: true, routes: [] },
      },
    };
    if (mode === 'no_route' || !pool || amountIn === 0n) return noRoute;
    const a2b = pool.coinA === from;
    const quoted = pool.quote(a2b, amountIn);
    let { amountOut } = quoted;
    if (amountOut === 0n) return noRoute;
    const reserves = pool.reserves();
    const [into, outOf] = a2b ? [reserves.a, reserves.b] : [reserves.b, reserves.a];
    // Price impact: the fill against the pool's price on what is swapped (the fee aside).
    const ideal = ((amountIn - quoted.fee) * outOf) / into;
    if (mode === 'stale') amountOut = (amountOut * 105n) / 100n;
    const impact = ideal > amountOut ? decimal(ideal - amountOut, ideal, 6) : '0';
    const feeRate = decimal(pool.feeBps, 10_000n, 6);
    const path = {
      id: pool.pool.objectId,
      direction: a2b,
      provider: 'CETUS',
      from,
      target,
      fee_rate: feeRate,
      amount_in: Number(amountIn),
      amount_out: Number(amountOut),
      extended_details: null,
      version: 'v2',
    };
    return {
      status: 200,
      body: {
        code: 200,
        msg: 'Success',
        data: {
          request_id: randomUUID(),
          amount_in: Number(amountIn),
          amount_out: Number(amountOut),
          by_amount_in: true,
          deviation_ratio: impact === '0' ? '0' : `-${impact}`,
          insufficient_liquidity: false,
          total_deep_fee: 0,
          packages: { aggregator_v2: pool.packageId },
          routes: [
            {
              path: [path],
              amount_in: Number(amountIn),
              amount_out: Number(amountOut),
              initial_price: decimal(outOf, into),
            },
          ],
        },
      },
    };
  };

  const server = await startQuoteServer({
    path: '/find_routes',
    notFound: { code: 404, msg: 'Not Found' },
    isSlow: () => mode === 'slow',
    slowMs: parameters.slowMs ?? 10_000,
    requests,
    answer: (query, send) => {
      if (mode === 'http_500') {
        send(500, { code: 500, msg: 'Internal Server Error' });
      } else if (mode === 'malformed') {
        send(200, {
          code: 200,
          msg: 'Success',
          data: { amount_in: 1.5e-3, amount_out: '12', routes: [{ amount_in: 1 }] },
        });
      } else {
        const { status, body } = routes(query);
        send(status, body);
      }
    },
  });
  return {
    url: server.url,
    requests,
    setMode: (next) => {
      mode = next;
    },
    close: () => server.close(),
  };
}
