import type { OperationCaller } from './callTool';
import { callTool } from './callTool';
import { IdempotencyWindow } from './idempotencyWindow';
import { toolCatalog } from './toolCatalog';

// What a write tool sends: a model's retry across a clock hour carries the first call's
// Idempotency-Key, and the description says how retries are de-duplicated.
const routeFunds = toolCatalog().find((tool) => tool.name === 'routeFunds');
const args = {
  address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  amountMicros: '1000000',
  token: 'USDC',
  chain: 'base',
};

function recordingCaller() {
  const keys: (string | undefined)[] = [];
  const call: OperationCaller = (_operationId, parameters) => {
    keys.push(parameters.idempotencyKey);
    return Promise.resolve({ ok: true });
  };
  return { call, keys };
}

describe('callTool on a write', () => {
  it('sends the first Idempotency-Key again on a retry after the clock hour ended', async () => {
    if (!routeFunds) throw new Error('routeFunds is not a tool');
    let now = Date.UTC(2027, 0, 1, 10, 59, 58);
    const idempotency = new IdempotencyWindow({ now: () => now });
    const { call, keys } = recordingCaller();
    const options = { call, idempotencyScope: 'owner-key', idempotency };
    await callTool(routeFunds, args, options);
    now = Date.UTC(2027, 0, 1, 11, 0, 3);
    await callTool(routeFunds, { ...args }, options);
    await callTool(routeFunds, { ...args, amountMicros: '2000000' }, options);
    expect(keys[0]).toMatch(/^mcp-[0-9a-f]{48}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('a refusal that wrote nothing (4xx) frees the key; a 409 or a 5xx keeps it', async () => {
    if (!routeFunds) throw new Error('routeFunds is not a tool');
    const idempotency = new IdempotencyWindow();
    const sent: (string | undefined)[] = [];
    const answers = [422, 409, 503, 200];
    const call: OperationCaller = (_operationId, parameters) => {
      sent.push(parameters.idempotencyKey);
      const status = answers[sent.length - 1] ?? 200;
      if (status === 200) return Promise.resolve({ ok: true });
      const error = Object.assign(new Error(`answered ${status}`), { status, code: 'REFUSED' });
      return Promise.reject(error);
    };
    const options = { call, idempotencyScope: 'owner-key', idempotency };
    for (let attempt = 0; attempt < 4; attempt++) await callTool(routeFunds, args, options);
    // 422: the next attempt is a new write; it answered 409, then 503: the same key again.
    expect(sent[1]).not.toBe(sent[0]);
    expect(sent.slice(2)).toEqual([sent[1], sent[1]]);
  });

  it('an amount above 2^63 − 1 is refused before anything is sent, naming the argument', async () => {
    if (!routeFunds) throw new Error('routeFunds is not a tool');
    const { call, keys } = recordingCaller();
    const options = { call, idempotencyScope: 'owner-key', idempotency: new IdempotencyWindow() };
    const result = await callTool(
      routeFunds,
      { ...args, amountMicros: '9223372036854775808' },
      options,
    );
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({
      code: 'BAD_REQUEST',
      field: 'amountMicros',
    });
    expect(keys).toEqual([]);
  });

  it('says so in the description; a read sends no key', async () => {
    expect(routeFunds?.description).toMatch(/within one hour of the first call reuse its/);
    expect(routeFunds?.description).toMatch(/not the clock/);
    const getFees = toolCatalog().find((tool) => tool.name === 'getFees');
    if (!getFees) throw new Error('getFees is not a tool');
    const { call, keys } = recordingCaller();
    await callTool(
      getFees,
      {},
      { call, idempotencyScope: '', idempotency: new IdempotencyWindow() },
    );
    expect(keys).toEqual([undefined]);
  });
});
