import { z } from 'zod';

/** A u64 as the aggregator prints it: a JSON number (exact only up to 2^53) or a decimal string. */
const U64 = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z.string().regex(/^(0|[1-9][0-9]{0,19})$/),
]);
const CoinType = z.string().min(5).max(512);

const CetusPath = z.looseObject({
  id: z.string().regex(/^0x[0-9a-fA-F]{1,64}$/),
  direction: z.boolean(),
  provider: z.string().min(1),
  from: CoinType,
  target: CoinType,
  fee_rate: z.string().regex(/^[0-9]+(\.[0-9]{1,18})?$/),
  amount_in: U64,
  amount_out: U64,
});

/**
 * The part of a Cetus aggregator `GET /find_routes` answer the service reads (the shape
 * `@cetusprotocol/aggregator-sdk`'s `findRouters` parses): `{ code, msg, data }`, where `data`
 * holds `amount_in`, `amount_out`, `routes[].path[]` (pool `id`, `direction` a→b, `provider`,
 * `from`, `target`, `fee_rate`, amounts), `insufficient_liquidity` and `deviation_ratio`
 * (price impact, a signed decimal). Other fields are let through unread.
 */
export const CetusRoutesResponse = z.looseObject({
  code: z.number().int(),
  msg: z.string(),
  data: z
    .looseObject({
      amount_in: U64,
      amount_out: U64,
      insufficient_liquidity: z.boolean().optional(),
      deviation_ratio: z.union([z.string(), z.number()]).optional(),
      routes: z.array(
        z.looseObject({
          path: z.array(CetusPath).min(1),
          amount_in: U64,
          amount_out: U64,
        }),
      ),
    })
    .nullish(),
});
export type CetusRoutesResponse = z.infer<typeof CetusRoutesResponse>;

/** Aggregator codes that mean "no way through the pools for this pair and amount". */
export const CETUS_NO_ROUTE_CODES: readonly number[] = [10002, 10003];
