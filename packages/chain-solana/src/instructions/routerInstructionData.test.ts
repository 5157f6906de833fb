import { createHash } from 'node:crypto';
import { newPlanId } from '@yieldrouter/schemas';
import {
  ROUTER_INSTRUCTIONS,
  decodeRouterInstructionData,
  encodeRouterInstructionData,
  routerDiscriminator,
} from './routerInstructionData';

describe('router instruction data', () => {
  it('uses Anchor discriminators: sha256("global:<name>")[0..8]', () => {
    for (const name of ROUTER_INSTRUCTIONS) {
      const expected = createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);
      expect(routerDiscriminator(name)).toEqual(expected);
    }
  });

  it('lays out discriminator ++ u64 LE amount ++ 16 plan-id bytes and decodes back', () => {
    const planId = 'plan_00112233445566778899aabbccddeeff';
    const data = encodeRouterInstructionData({ name: 'withdraw', amountMicros: 258n, planId });
    expect(data).toHaveLength(32);
    expect(data.subarray(8, 16)).toEqual(Buffer.from([2, 1, 0, 0, 0, 0, 0, 0]));
    expect(data.subarray(16).toString('hex')).toBe('00112233445566778899aabbccddeeff');
    expect(decodeRouterInstructionData(data)).toEqual({
      name: 'withdraw',
      amountMicros: 258n,
      planId,
    });
  });

  it('keeps the full u64 range exact', () => {
    const planId = newPlanId();
    const amountMicros = (1n << 64n) - 1n;
    const data = encodeRouterInstructionData({ name: 'deposit_to_venue', amountMicros, planId });
    expect(decodeRouterInstructionData(data)).toEqual({
      name: 'deposit_to_venue',
      amountMicros,
      planId,
    });
  });

  it('refuses amounts outside a positive u64, and data that is not ours', () => {
    const planId = newPlanId();
    expect(() =>
      encodeRouterInstructionData({ name: 'withdraw', amountMicros: 0n, planId }),
    ).toThrow(RangeError);
    expect(() =>
      encodeRouterInstructionData({ name: 'withdraw', amountMicros: 1n << 64n, planId }),
    ).toThrow(RangeError);
    expect(decodeRouterInstructionData(new Uint8Array(32))).toBeUndefined();
    expect(decodeRouterInstructionData(new Uint8Array(31))).toBeUndefined();
  });
});
