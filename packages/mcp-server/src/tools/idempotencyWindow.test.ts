import { IdempotencyWindow } from './idempotencyWindow';

// A model's retry reuses the first call's key for an hour from that call, whatever clock hour
// ends in between (a clock-aligned window gave a retry at 11:00:05 a new key, and a second write).
const HOUR = 3_600_000;
const call = {
  scope: 'key-a',
  operationId: 'routeFunds',
  args: { address: '0x1', amountMicros: '1000000', chain: 'base', token: 'USDC' },
};

function fakeClock(start: number) {
  let now = start;
  return {
    now: () => now,
    set: (at: number) => {
      now = at;
    },
  };
}

describe('IdempotencyWindow', () => {
  it('a retry that crosses the hour boundary reuses the first key', () => {
    const clock = fakeClock(Date.UTC(2027, 0, 1, 10, 59, 50));
    const window = new IdempotencyWindow({ windowMs: HOUR, now: clock.now });
    const first = window.keyFor(call);
    clock.set(Date.UTC(2027, 0, 1, 11, 0, 5));
    expect(window.keyFor(call)).toBe(first);
    expect(window.keyFor({ ...call, args: { ...call.args } })).toBe(first);
    clock.set(Date.UTC(2027, 0, 1, 11, 59, 49));
    expect(window.keyFor(call)).toBe(first);
  });

  it('the same call an hour after the first gets a new key, then keeps it for its own hour', () => {
    const start = Date.UTC(2027, 0, 1, 10, 30, 0);
    const clock = fakeClock(start);
    const window = new IdempotencyWindow({ windowMs: HOUR, now: clock.now });
    const first = window.keyFor(call);
    clock.set(start + HOUR);
    const second = window.keyFor(call);
    expect(second).not.toBe(first);
    clock.set(start + HOUR + HOUR - 1);
    expect(window.keyFor(call)).toBe(second);
  });

  it('another caller, tool or argument is another key', () => {
    const window = new IdempotencyWindow({ now: () => 1_800_000_000_000 });
    const key = window.keyFor(call);
    expect(window.keyFor({ ...call, scope: 'key-b' })).not.toBe(key);
    expect(window.keyFor({ ...call, operationId: 'withdraw' })).not.toBe(key);
    expect(window.keyFor({ ...call, args: { ...call.args, amountMicros: '2' } })).not.toBe(key);
    expect(window.keyFor(call)).toBe(key);
  });

  it('forgets expired calls, and the oldest first past maxCalls', () => {
    const clock = fakeClock(0);
    const window = new IdempotencyWindow({ windowMs: 1000, maxCalls: 2, now: clock.now });
    const a = window.keyFor({ ...call, operationId: 'a' });
    clock.set(10);
    window.keyFor({ ...call, operationId: 'b' });
    window.keyFor({ ...call, operationId: 'c' });
    expect(window.size).toBe(2);
    expect(window.keyFor({ ...call, operationId: 'a' })).not.toBe(a);
    clock.set(2000);
    window.keyFor(call);
    expect(window.size).toBe(1);
  });
});
