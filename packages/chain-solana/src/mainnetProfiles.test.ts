import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { getDepositContext, getWithdrawContext } from '@jup-ag/lend/earn';
import {
  MAIN_POOL_ADDRESS,
  SOLEND_PRODUCTION_PROGRAM_ID,
} from '@solendprotocol/solend-sdk/core/constants';
import { startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import { PDA_BANK_LIQUIDITY_VAULT_SEED, getConfig } from '@mrgnlabs/marginfi-client-v2';
import { JUPITER_LEND_PROTOCOL } from './venues/jupiterLendProtocol';
import { MARGINFI_PROTOCOL } from './venues/marginfiProtocol';
import { MARGINFI_IDL } from './testing/marginfiSdk';

// profiles/mainnet/<venue>.json hold the real mainnet ids, each with where it comes from. These
// tests recompute every one from the protocol's own package, so a profile cannot drift from it.
const profile = (venue: string): Record<string, { id: string; source: string }> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../profiles/mainnet', `${venue}.json`), 'utf8'),
  ) as Record<string, { id: string; source: string }>;

const USDC = new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');

let bed: SolanaBed;
beforeAll(async () => {
  bed = await startSolanaBed(); // holds USDC at its mainnet address: the package reads its owner
});
afterAll(() => bed.stop());

describe('profiles/mainnet', () => {
  it('jupiter-lend: every id the protocol needs, as @jup-ag/lend derives it for mainnet USDC', async () => {
    const connection = new Connection(bed.rpcUrl, 'confirmed');
    const signer = Keypair.generate().publicKey;
    const deposit = await getDepositContext({ asset: USDC, signer, connection });
    const withdraw = await getWithdrawContext({ asset: USDC, signer, connection });
    const expected: Record<string, string> = {
      lendingProgram: 'jup3YeL8QhtSx1e253b2FDvsMNC87fDrgQZivbrndc9',
      liquidityProgram: deposit.liquidityProgram.toBase58(),
      fTokenMint: deposit.fTokenMint.toBase58(),
      lending: deposit.lending.toBase58(),
      lendingAdmin: deposit.lendingAdmin.toBase58(),
      supplyTokenReservesLiquidity: deposit.supplyTokenReservesLiquidity.toBase58(),
      lendingSupplyPositionOnLiquidity: deposit.lendingSupplyPositionOnLiquidity.toBase58(),
      rateModel: deposit.rateModel.toBase58(),
      vault: deposit.vault.toBase58(),
      liquidity: deposit.liquidity.toBase58(),
      rewardsRateModel: deposit.rewardsRateModel.toBase58(),
      claimAccount: withdraw.claimAccount.toBase58(),
    };
    const ids = profile('jupiter-lend');
    expect(Object.keys(ids).sort()).toEqual([...JUPITER_LEND_PROTOCOL.idNames].sort());
    for (const [name, id] of Object.entries(expected)) expect(ids[name]?.id).toBe(id);
    for (const entry of Object.values(ids)) expect(entry.source).toMatch(/@jup-ag\/lend/);
  });

  it('marginfi: program, group and the USDC bank’s vault from @mrgnlabs/marginfi-client-v2', () => {
    const ids = profile('marginfi');
    expect(Object.keys(ids).sort()).toEqual([...MARGINFI_PROTOCOL.idNames].sort());
    const production = getConfig('production');
    expect(ids.marginfiProgram?.id).toBe(production.programId.toBase58());
    expect(ids.marginfiProgram?.id).toBe(MARGINFI_IDL.address);
    expect(ids.group?.id).toBe(production.groupPk.toBase58());
    const program = new PublicKey(ids.marginfiProgram?.id ?? '');
    const bank = new PublicKey(ids.bank?.id ?? '');
    const [vault] = PublicKey.findProgramAddressSync(
      [Buffer.from(PDA_BANK_LIQUIDITY_VAULT_SEED), bank.toBuffer()],
      program,
    );
    expect(ids.liquidityVault?.id).toBe(vault.toBase58());
    // The bank and oracle come from marginfi's repositories: their sources name them.
    expect(ids.bank?.source).toContain('mrgnlabs/mrgn-ts-scripts');
    expect(ids.oracle?.source).toContain('mrgnlabs/mrgn-ts-scripts');
  });

  it('save: the program and main market from the SDK’s constants', () => {
    const ids = profile('save');
    expect(ids['saveProgram']?.id).toBe(SOLEND_PRODUCTION_PROGRAM_ID.toBase58());
    expect(ids['lendingMarket']?.id).toBe(MAIN_POOL_ADDRESS.toBase58());
    for (const name of ['saveProgram', 'lendingMarket']) {
      expect(ids[name]?.source).toMatch(/solend-sdk/);
    }
  });

  it('save: the USDC reserve and its accounts from Save’s published config, at a commit', () => {
    const ids = profile('save');
    const fromConfig = [
      'reserve',
      'reserveLiquiditySupply',
      'reserveCollateralMint',
      'pythOracle',
      'switchboardOracle',
    ];
    for (const name of fromConfig) {
      expect(ids[name]?.id).toEqual(expect.any(String));
      expect(ids[name]?.source).toMatch(
        /^solendprotocol\/common-DEPRECATED src\/production\.json @ [0-9a-f]{40}: /,
      );
    }
  });
});
