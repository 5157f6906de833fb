import { InvalidChainInputError, newPlanId } from '@yieldrouter/schemas';
import { PLAN_TAG_MAGIC, appendPlanTag, readPlanTag } from './planTag';

const PLAN = 'plan_00112233445566778899aabbccddeeff';

describe('plan tag', () => {
  it('appends SVC1 and the 16 plan bytes after the call', () => {
    expect(appendPlanTag('0x095ea7b3', PLAN)).toBe(
      '0x095ea7b35356433100112233445566778899aabbccddeeff',
    );
    expect(PLAN_TAG_MAGIC).toBe('0x53564331');
  });

  it('reads back the plan id, whatever the case of the hex', () => {
    const planId = newPlanId();
    const data = appendPlanTag('0xa9059cbb00', planId);
    expect(readPlanTag(data)).toBe(planId);
    expect(readPlanTag(data.toUpperCase().replace('0X', '0x'))).toBe(planId);
  });

  it('finds no tag in untagged, short, odd-length or non-hex calldata', () => {
    expect(readPlanTag('0x095ea7b3')).toBeUndefined();
    expect(readPlanTag(`0x${'00'.repeat(40)}`)).toBeUndefined();
    expect(readPlanTag(`${appendPlanTag('0x', PLAN)}0`)).toBeUndefined();
    expect(readPlanTag('0xzz5356433100112233445566778899aabbccddeeff')).toBeUndefined();
  });

  it('refuses a plan id that is not ours', () => {
    expect(() => appendPlanTag('0x', 'plan_xyz')).toThrow(InvalidChainInputError);
  });
});
