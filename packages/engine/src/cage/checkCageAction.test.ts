import type { CageState } from '@yieldrouter/chain-evm';
import type { WalletCagePrepareRequest } from '@yieldrouter/schemas';
import { checkCageAction } from './checkCageAction';
import type { CageAddress } from './cageWallet';

// The API's copy of the contract's locks, on a policy as read from chain (the anvil tests in
// apps/api and chain-evm check the same locks against the deployed contract).

const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as CageAddress;
const VAULT = '0x1111111111111111111111111111111111111111' as CageAddress;
const OTHER = '0x2222222222222222222222222222222222222222' as CageAddress;
const DELISTED = '0x3333333333333333333333333333333333333333' as CageAddress;
const PAYEE = '0x4444444444444444444444444444444444444444' as CageAddress;

const state = (overrides: Partial<CageState> = {}): CageState => ({
  status: 'available',
  paused: false,
  walletAssets: 50n,
  enabled: true,
  skimBps: 500,
  agent: null,
  venues: [{ venue: VAULT, assets: 100n, principal: 90n, yield: 10n }],
  delisted: [{ venue: DELISTED, assets: 7n, principal: 7n, yield: 0n }],
  payees: [PAYEE],
  treasury: OTHER,
  ...overrides,
});
const check = (request: WalletCagePrepareRequest, read = state()) =>
  checkCageAction(read, OWNER, request)?.lock ?? 'allowed';

describe('checkCageAction', () => {
  it('a disabled policy refuses every action but EXIT; so does a pause', () => {
    for (const read of [state({ enabled: false }), state({ paused: true })]) {
      expect(check({ kind: 'ROUTE', venue: VAULT, amountMicros: 1n }, read)).toMatch(
        /^cage_(enabled|paused)$/,
      );
      expect(check({ kind: 'EXIT', venue: VAULT, amountMicros: 1n }, read)).toBe('allowed');
    }
    expect(
      check({ kind: 'ROUTE', venue: VAULT, amountMicros: 1n }, state({ enabled: false })),
    ).toBe('cage_enabled');
  });

  it('EXIT, HARVEST and COMPOUND pay the owner only', () => {
    for (const kind of ['EXIT', 'HARVEST', 'COMPOUND'] as const) {
      expect(check({ kind, venue: VAULT, payee: PAYEE, amountMicros: 1n })).toBe(
        'owner_destination',
      );
      expect(check({ kind, venue: VAULT, payee: OWNER, amountMicros: 1n })).toBe('allowed');
    }
  });

  it('venues and payees must be on the allowlists; EXIT still leaves a delisted venue', () => {
    expect(check({ kind: 'ROUTE', venue: OTHER, amountMicros: 1n })).toBe('venue_allowlist');
    expect(check({ kind: 'REBALANCE', fromVenue: VAULT, toVenue: OTHER, amountMicros: 1n })).toBe(
      'venue_allowlist',
    );
    expect(check({ kind: 'AUTOPAY', venue: VAULT, payee: OWNER, amountMicros: 1n })).toBe(
      'payee_allowlist',
    );
    expect(check({ kind: 'EXIT', venue: DELISTED, amountMicros: 7n })).toBe('allowed');
    expect(check({ kind: 'EXIT', venue: DELISTED, amountMicros: 8n })).toBe('position_balance');
  });

  it('amounts: within the position, and within the yield for HARVEST and COMPOUND', () => {
    expect(check({ kind: 'AUTOPAY', venue: VAULT, payee: PAYEE, amountMicros: 100n })).toBe(
      'allowed',
    );
    expect(check({ kind: 'AUTOPAY', venue: VAULT, payee: PAYEE, amountMicros: 101n })).toBe(
      'position_balance',
    );
    expect(check({ kind: 'HARVEST', venue: VAULT, amountMicros: 10n })).toBe('allowed');
    expect(check({ kind: 'ROUTE', venue: VAULT, amountMicros: 50n })).toBe('allowed');
    expect(check({ kind: 'ROUTE', venue: VAULT, amountMicros: 51n })).toBe('wallet_balance');
    expect(check({ kind: 'COMPOUND', venue: VAULT, amountMicros: 11n })).toBe('harvestable_yield');
  });
});
