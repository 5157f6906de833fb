import { z } from 'zod';

const BaseUnits = z.string().regex(/^(0|[1-9][0-9]*)$/);
const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Fee = z.object({ amount: BaseUnits, token: Address, type: z.string() }).nullable();

/**
 * The part of a 0x Swap API v2 allowance-holder quote (`GET /swap/allowance-holder/quote`,
 * header `0x-version: v2`) the service reads; other fields are let through unread. Without
 * liquidity 0x answers `{ liquidityAvailable: false, zid }` and nothing else.
 */
export const ZeroExQuoteResponse = z.discriminatedUnion('liquidityAvailable', [
  z.looseObject({ liquidityAvailable: z.literal(false) }),
  z.looseObject({
    liquidityAvailable: z.literal(true),
    chainId: z.number().int(),
    buyToken: Address,
    sellToken: Address,
    buyAmount: BaseUnits,
    sellAmount: BaseUnits,
    minBuyAmount: BaseUnits,
    allowanceTarget: Address.nullable(),
    transaction: z.looseObject({
      to: Address,
      data: z.string().regex(/^0x(?:[0-9a-fA-F]{2})+$/),
      value: BaseUnits,
    }),
    fees: z.looseObject({
      integratorFee: Fee.optional(),
      zeroExFee: Fee.optional(),
      gasFee: Fee.optional(),
    }),
    issues: z
      .looseObject({
        allowance: z.looseObject({ actual: BaseUnits, spender: Address }).nullable().optional(),
      })
      .optional(),
    route: z
      .looseObject({
        fills: z.array(z.looseObject({ source: z.string() })),
      })
      .optional(),
  }),
]);
export type ZeroExQuoteResponse = z.infer<typeof ZeroExQuoteResponse>;
