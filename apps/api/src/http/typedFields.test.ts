import { randomBytes } from 'node:crypto';
import { findRefusal } from './requestGuard';

// Signed transactions and calldata are typed bytes fields: a call's or a transaction's bytes pass
// as a whole (they hold signatures and 32-byte words); exactly a key's size is still a key.
describe('bytes fields', () => {
  it("take calldata and signed transactions (hex or base64) of a call's size", () => {
    for (const size of [4, 36, 68, 200, 600, 1200]) {
      const value = randomBytes(size);
      for (const text of [value.toString('base64'), `0x${value.toString('hex')}`]) {
        expect(findRefusal({ signedTransaction: text }, 'body')).toBeUndefined();
        const call = { to: `0x${'ab'.repeat(20)}`, data: text };
        expect(findRefusal({ calls: [call] }, 'body')).toBeUndefined();
      }
    }
  });

  it("refuse a key's 32 or 64 bytes there", () => {
    for (const size of [32, 64]) {
      const key = `0x${randomBytes(size).toString('hex')}`;
      expect(findRefusal({ signedTransaction: key }, 'body')).toMatchObject({
        code: 'KEY_MATERIAL_REFUSED',
      });
    }
  });
});
