import type { VenueWithApyRow } from '@yieldrouter/ledger';
import { buildOpportunityFacts } from './buildOpportunityFacts';

/** A venue never read on chain and never refreshed: every token comes from configuration. */
function unreadRow(id: string, standard: string): VenueWithApyRow {
  return {
    id,
    opportunityId: `opp_${id}`,
    protocol: id,
    chain: 'solana',
    asset: 'USDC',
    readiness: 'ready',
    standard,
    wave: 1,
    priority: 1,
    actions: ['deposit', 'withdraw'],
    requiredIds: [],
    minDepositMicros: 1n,
    latest: null,
    meanBps: null,
    meanSamples: 0,
    mean7dBps: null,
    mean7dSamples: 0,
    mean1dBps: null,
    mean1dSamples: 0,
    chainRead: null,
  };
}

const receiptOf = (id: string, ids: Record<string, string>) =>
  buildOpportunityFacts(unreadRow(id, 'router-adapter'), false, 'not refreshed', ids).tokens
    .receipt;

describe('the receipt token from configured ids', () => {
  it("names Kamino's and Save's cToken mint (reserveCollateralMint)", () => {
    for (const venue of ['kamino', 'save']) {
      expect(
        receiptOf(venue, {
          lendingMarket: 'market1111111111111111111111111111111111111',
          reserve: 'reserve111111111111111111111111111111111111',
          reserveLiquiditySupply: 'supply11111111111111111111111111111111111111',
          reserveCollateralMint: 'cTokenMint1111111111111111111111111111111111',
        }),
      ).toEqual({
        address: 'cTokenMint1111111111111111111111111111111111',
        decimals: null,
        source: 'configuration',
      });
    }
  });

  it("names Jupiter Lend's jlToken, not its liquidity vault token account", () => {
    expect(
      receiptOf('jupiter-lend', {
        fTokenMint: 'jlUsdcMint111111111111111111111111111111111',
        vault: 'liquidityVault11111111111111111111111111111',
      })?.address,
    ).toBe('jlUsdcMint111111111111111111111111111111111');
  });

  it('keeps the ERC-4626 vault and the Aave aToken', () => {
    expect(receiptOf('morpho', { vault: '0xvault' })?.address).toBe('0xvault');
    expect(receiptOf('aave-v3', { pool: '0xpool', aToken: '0xatoken' })?.address).toBe('0xatoken');
  });

  it('says why when no configured id names a receipt', () => {
    const facts = buildOpportunityFacts(unreadRow('navi', 'router-adapter'), false, null, {
      storage: '0x1',
    });
    expect(facts.tokens.receipt).toBeNull();
    expect(facts.tokens.reason).toContain('receipt:');
  });
});
