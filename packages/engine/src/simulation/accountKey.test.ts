import { accountKey, sameAccount } from './accountKey';

describe('accountKey', () => {
  it('compares hex addresses (EVM, Sui) without their case: a checksum is not the address', () => {
    expect(
      sameAccount(
        '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
        '0x8617e340b3d01fa5f11f306f4090fd50e238070d',
      ),
    ).toBe(true);
    expect(accountKey('0xABCDEF')).toBe('0xabcdef');
  });

  it('keeps a Solana address as it is: two that differ only in case are two accounts', () => {
    const account = '5UiSmcf4ZJa6nDQjonkXxgw7L2XkUHZYfm14FgrnNEuV';
    const other = '5uiSmcf4ZJa6nDQjonkXxgw7L2XkUHZYfm14FgrnNEuV';
    expect(sameAccount(account, other)).toBe(false);
    expect(accountKey(account)).toBe(account);
  });
});
