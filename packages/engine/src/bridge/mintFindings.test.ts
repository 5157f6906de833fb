import type { SimulatedLeg } from '@yieldrouter/schemas';
import { mintFindings } from './mintSimulation';

// What a simulated mint may move: the recipient between burned − maxFee and burned, the rail's
// fee recipient (`other`) what the recipient did not get, at most maxFee; nothing else.
const change = (account: string, role: 'owner' | 'other', delta: bigint) => ({
  account,
  role,
  asset: 'USDC',
  usdc: true,
  delta: String(delta),
});
const leg = (...changes: ReturnType<typeof change>[]): SimulatedLeg => ({
  index: 3,
  bytesDigest: `sha256:${'0'.repeat(64)}`,
  outcome: 'ok',
  changes,
});
const bounds = { least: 9_990n, most: 10_000n };
const codes = (simulated: SimulatedLeg) =>
  mintFindings(simulated, bounds).map((finding) => finding.code);

describe('mintFindings', () => {
  it('the whole burn, or less the fee its rail keeps: nothing to say', () => {
    expect(codes(leg(change('owner', 'owner', 10_000n)))).toEqual([]);
    expect(codes(leg(change('owner', 'owner', 9_990n), change('feeTo', 'other', 10n)))).toEqual([]);
  });

  it('the recipient short of burned − maxFee, or paid beyond the burn', () => {
    expect(codes(leg(change('owner', 'owner', 9_989n), change('feeTo', 'other', 11n)))).toEqual([
      'owner_amount_mismatch',
      'unexpected_recipient',
    ]);
    expect(codes(leg(change('owner', 'owner', 10_001n)))).toEqual(['owner_amount_mismatch']);
  });

  it('someone else paid more than the rail keeps of this mint', () => {
    // The recipient gets it all and a stranger is minted something too.
    expect(codes(leg(change('owner', 'owner', 10_000n), change('x', 'other', 1n)))).toEqual([
      'unexpected_recipient',
    ]);
    // Amounts in findings are micros, as everywhere in the API, and say so.
    const [stranger] = mintFindings(
      leg(change('owner', 'owner', 10_000n), change('x', 'other', 1n)),
      bounds,
    );
    expect(stranger?.message).toBe(
      'x receives 1 micros of USDC; the rail keeps at most 0 of this mint',
    );
    // Another burn's message: the stranger gets it all, the recipient nothing.
    expect(codes(leg(change('x', 'other', 10_000n)))).toEqual([
      'owner_amount_mismatch',
      'unexpected_recipient',
    ]);
  });

  it('a mint that reverts says so and nothing else', () => {
    expect(mintFindings({ ...leg(), outcome: 'reverted', detail: 'nonce used' }, bounds)).toEqual([
      expect.objectContaining({ code: 'reverted', legIndex: 3 }),
    ]);
  });
});
