import { serializeError } from './serializeError';

const TX = `0x${'ab'.repeat(32)}`;

/** Prisma's known-request error: the message quotes the call with its arguments. */
class PrismaClientKnownRequestError extends Error {
  override readonly name = 'PrismaClientKnownRequestError';
  readonly code = 'P2002';
  readonly meta = { target: ['tx_id'] };
}

describe('serializeError', () => {
  it('keeps no message of a database error: no statement, no parameters', () => {
    const prisma = new PrismaClientKnownRequestError(
      `Invalid \`prisma.planLeg.update()\` invocation:\n{ where: { txId: "${TX}" } }`,
    );
    const driver = Object.assign(new Error(`invalid input syntax for type bigint: "${TX}"`), {
      name: 'DatabaseError',
      severity: 'ERROR',
      code: '22P02',
      query: 'UPDATE plan_legs SET tx_id = $1',
      parameters: [TX],
    });
    for (const error of [prisma, driver, new Error('wrapped', { cause: driver })]) {
      const logged = JSON.stringify(serializeError(error));
      expect(logged).not.toContain(TX);
      expect(logged).not.toMatch(/UPDATE|plan_legs|invocation/);
      expect(logged).toMatch(/"stack":\["at /);
    }
    expect(serializeError(driver)).toMatchObject({ type: 'DatabaseError', code: '22P02' });
  });

  it('masks long key-alphabet tokens in other messages and in plain strings', () => {
    expect(serializeError(new Error(`no receipt for ${TX} yet`))).toMatchObject({
      type: 'Error',
      message: 'no receipt for [redacted] yet',
    });
    expect(serializeError(`connect ECONNREFUSED 127.0.0.1:6379 ${TX}`)).toBe(
      'connect ECONNREFUSED 127.0.0.1:6379 [redacted]',
    );
    expect(serializeError(undefined)).toBeUndefined();
  });

  it('stops at a cause cycle', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.assign(first, { cause: second });
    expect(JSON.stringify(serializeError(first)).length).toBeLessThan(20_000);
  });
});
