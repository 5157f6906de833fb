import { resultText, structuredOf, toolError } from './toolResult';

// The text block is the structured content as JSON: a host that shows only text shows the data.
describe('resultText', () => {
  it('a plan: its status, flags, blockers and legs first, the same data', () => {
    const plan = {
      fees: { feeBps: 0 },
      legs: [{ index: 0, chain: 'base', status: 'unsigned' }],
      planId: 'plan_1',
      ownerMustSign: true,
      submitted: false,
      status: 'prepared',
    };
    const text = resultText(plan);
    expect(JSON.parse(text)).toEqual(plan);
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'status',
      'planId',
      'submitted',
      'ownerMustSign',
      'legs',
      'fees',
    ]);
    expect(text).not.toContain('\n');
  });

  it('any other answer: its JSON, compact; a list answer wrapped as { result }', () => {
    expect(resultText({ count: 2, items: [1, 2] })).toBe('{"count":2,"items":[1,2]}');
    expect(JSON.parse(resultText(structuredOf([1, 2])))).toEqual({ result: [1, 2] });
  });

  it('a frozen answer (a document built once per snapshot): serialized once, its text reused', () => {
    const document = Object.freeze({ items: Object.freeze([{ id: 'a' }]), count: 1 });
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const first = resultText(document);
      expect(resultText(document)).toBe(first);
      expect(JSON.parse(first)).toEqual(document);
      expect(stringify.mock.calls.filter(([value]) => value === document)).toHaveLength(1);
      // An answer that is not frozen may change between calls: serialized every time.
      const open = { count: 1 };
      resultText(open);
      open.count = 2;
      expect(resultText(open)).toBe('{"count":2}');
    } finally {
      stringify.mockRestore();
    }
  });
});

describe('toolError', () => {
  it("is the API's {code, message} as JSON, with the field when there is one", () => {
    const result = toolError({ code: 'BAD_REQUEST', message: 'no', field: 'amountMicros' });
    expect(result.isError).toBe(true);
    const [content] = result.content;
    expect(JSON.parse((content as { text: string }).text)).toEqual({
      code: 'BAD_REQUEST',
      message: 'no',
      field: 'amountMicros',
    });
  });
});
