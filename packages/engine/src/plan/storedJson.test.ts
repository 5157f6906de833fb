import { PlanSimulation, UnsignedPayload } from '@yieldrouter/schemas';
import { storedJson } from './storedJson';

// Stored JSON is read back through its schema, never cast: what matches is returned as stored
// (its keys as they were, none added or dropped: a leg's bytes digest covers every field);
// what does not is an error naming what was read.

describe('storedJson', () => {
  it('returns what was stored, keys and their order as they were', () => {
    // As JSONB hands an EVM request back: its keys in its own order, not the schema's.
    const stored = {
      encoding: 'evm-transaction-request',
      transaction: { to: '0xV', data: '0x', from: '0xO', value: '0', chainId: 8453 },
    };
    const payload = storedJson(UnsignedPayload, stored, "leg 0's payload");
    expect(payload).toBe(stored);
    expect(JSON.stringify(payload)).toBe(JSON.stringify(stored));
  });

  it('refuses what its schema does not allow, naming it', () => {
    expect(() =>
      storedJson(UnsignedPayload, { encoding: 'solana-v0-base64' }, "leg 2's payload"),
    ).toThrow(/^leg 2's payload: the stored JSON is not what its schema says/);
    expect(() =>
      storedJson(PlanSimulation, { status: 'simulated', legs: [] }, "plan p's simulation"),
    ).toThrow(/plan p's simulation/);
  });
});
