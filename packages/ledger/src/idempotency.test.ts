import { randomBytes } from 'node:crypto';
import type { ClaimIdempotencyKeyParameters, IdempotentResponse } from './idempotency';
import {
  IDEMPOTENCY_KEY_PATTERN,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  sweepIdempotencyKeys,
} from './idempotency';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const claimParameters = (
  overrides: Partial<ClaimIdempotencyKeyParameters> = {},
): ClaimIdempotencyKeyParameters => ({
  scope: 'key:key_test',
  wallet: '0xabc',
  operation: 'routeFunds',
  key: `k-${randomBytes(6).toString('hex')}`,
  requestHash: HASH_A,
  lockMs: 30_000,
  ...overrides,
});

const RESPONSE: IdempotentResponse = {
  status: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', ETag: '"v1"' },
  // Not valid UTF-8 on purpose: the column keeps bytes, not text.
  body: Uint8Array.from([0x7b, 0x7d, 0x00, 0xff, 0xfe]),
};

async function claimed(parameters: ClaimIdempotencyKeyParameters) {
  const claim = await claimIdempotencyKey(t.db, parameters);
  if (claim.kind !== 'claimed') throw new Error(`expected a claim, got ${claim.kind}`);
  return { ...parameters, claimToken: claim.claimToken };
}

describe('idempotency keys', () => {
  it('the first claim wins; the same request waits; another request is a mismatch', async () => {
    const parameters = claimParameters();
    await claimed(parameters);
    expect(await claimIdempotencyKey(t.db, parameters)).toEqual({ kind: 'in_progress' });
    expect(await claimIdempotencyKey(t.db, { ...parameters, requestHash: HASH_B })).toEqual({
      kind: 'mismatch',
    });
  });

  it('a completed claim replays the exact status, headers and bytes', async () => {
    const parameters = claimParameters();
    const claim = await claimed(parameters);
    expect(await completeIdempotencyKey(t.db, claim, RESPONSE)).toBe(true);
    const replay = await claimIdempotencyKey(t.db, parameters);
    expect(replay).toMatchObject({ kind: 'replay', status: 200, headers: RESPONSE.headers });
    if (replay.kind !== 'replay') throw new Error('expected a replay');
    expect(Buffer.from(replay.body).equals(Buffer.from(RESPONSE.body))).toBe(true);
    expect(await claimIdempotencyKey(t.db, { ...parameters, requestHash: HASH_B })).toEqual({
      kind: 'mismatch',
    });
    // Completing twice, or releasing a completed record, does nothing.
    expect(await completeIdempotencyKey(t.db, claim, { ...RESPONSE, status: 201 })).toBe(false);
    expect(await releaseIdempotencyKey(t.db, claim)).toBe(false);
  });

  it('scopes and operations are separate key spaces', async () => {
    const parameters = claimParameters();
    await claimed(parameters);
    await claimed({ ...parameters, scope: 'key:key_other' });
    await claimed({ ...parameters, scope: 'public:127.0.0.1' });
    await claimed({ ...parameters, operation: 'withdraw' });
  });

  it('a released claim can be claimed again, with any body; only its holder releases it', async () => {
    const parameters = claimParameters();
    const claim = await claimed(parameters);
    expect(await releaseIdempotencyKey(t.db, { ...claim, claimToken: 'not-mine' })).toBe(false);
    expect(await releaseIdempotencyKey(t.db, claim)).toBe(true);
    await claimed({ ...parameters, requestHash: HASH_B });
  });

  it('a lease that has passed is taken over; the old holder can no longer complete', async () => {
    const parameters = claimParameters({ lockMs: 1 });
    const first = await claimed(parameters);
    await sleep(20);
    const second = await claimed({ ...parameters, lockMs: 30_000 });
    expect(second.claimToken).not.toBe(first.claimToken);
    expect(await completeIdempotencyKey(t.db, first, RESPONSE)).toBe(false);
    expect(await releaseIdempotencyKey(t.db, first)).toBe(false);
    expect(await claimIdempotencyKey(t.db, parameters)).toEqual({ kind: 'in_progress' });
    expect(await completeIdempotencyKey(t.db, second, RESPONSE)).toBe(true);
    expect(await claimIdempotencyKey(t.db, parameters)).toMatchObject({ kind: 'replay' });
  });

  it('20 concurrent claims of one key: exactly one is claimed', async () => {
    const parameters = claimParameters();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => claimIdempotencyKey(t.db, parameters)),
    );
    const kinds = results.map((result) => result.kind);
    expect(kinds.filter((kind) => kind === 'claimed')).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'in_progress')).toHaveLength(19);
  });

  it('20 concurrent take-overs of a dead lease: exactly one is claimed', async () => {
    const parameters = claimParameters({ lockMs: 1 });
    await claimed(parameters);
    await sleep(20);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        claimIdempotencyKey(t.db, { ...parameters, lockMs: 30_000 }),
      ),
    );
    expect(results.filter((result) => result.kind === 'claimed')).toHaveLength(1);
  });

  it('the sweep deletes completed records past the retention and long-dead claims only', async () => {
    const old = await claimed(claimParameters());
    await completeIdempotencyKey(t.db, old, RESPONSE);
    const fresh = await claimed(claimParameters());
    await completeIdempotencyKey(t.db, fresh, RESPONSE);
    const abandoned = await claimed(claimParameters());
    const running = await claimed(claimParameters());
    await t.db.$executeRaw`
      UPDATE idempotency_keys SET completed_at = now() - interval '25 hours'
      WHERE key = ${old.key}`;
    await t.db.$executeRaw`
      UPDATE idempotency_keys SET locked_until = now() - interval '25 hours'
      WHERE key = ${abandoned.key}`;
    expect(await sweepIdempotencyKeys(t.db)).toBeGreaterThanOrEqual(2);
    const left = await t.db.idempotencyKey.findMany({
      where: { key: { in: [old.key, fresh.key, abandoned.key, running.key] } },
      select: { key: true },
    });
    expect(left.map((row) => row.key).sort()).toEqual([fresh.key, running.key].sort());
  });

  it('keys are 1..255 printable ASCII characters, here and in the database', async () => {
    for (const key of ['a', 'Z'.repeat(255), 'with space ~!', '550e8400-e29b-41d4-a716']) {
      expect(IDEMPOTENCY_KEY_PATTERN.test(key)).toBe(true);
    }
    for (const key of ['', 'Z'.repeat(256), 'caf\u00e9', 'tab\there', 'nl\n']) {
      expect(IDEMPOTENCY_KEY_PATTERN.test(key)).toBe(false);
      await expect(claimIdempotencyKey(t.db, claimParameters({ key }))).rejects.toThrow(
        /idempotency_keys_key_check/,
      );
    }
  });

  it('5xx responses are never stored', async () => {
    const claim = await claimed(claimParameters());
    await expect(completeIdempotencyKey(t.db, claim, { ...RESPONSE, status: 503 })).rejects.toThrow(
      /idempotency_keys_response_status_check/,
    );
  });
});
