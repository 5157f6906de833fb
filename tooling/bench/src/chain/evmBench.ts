// EVM (anvil as Base, chain id 8453): ERC-4626 deposit legs and wallet balances.
import { randomBytes } from 'node:crypto';
import { startEvmBed } from '@yieldrouter/chain-beds/evm';
import { createEvmAdapter } from '@yieldrouter/chain-evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegRequest } from '@yieldrouter/schemas';
import { getAddress, numberToHex } from 'viem';
import { balanceRows } from './balanceRows';
import type { ChainBenchSettings } from './benchSettings';
import type { ChainReport } from './chainReport';
import { expectBalances, expectPrepared } from './checks';
import { compare } from './compare';
import { encodeErc4626Deposit, rawEvmBalances } from './evmBaseline';
import { rawJsonRpc } from './rawJsonRpc';

const CHAIN_ID = 8453;
const WEI = 3n * 10n ** 18n;
const USDC_MICROS = 25_000_000n;
const AMOUNT = 1_000_000n;

/** Starts anvil with the bed fixtures, benchmarks, and stops the node whatever happens. */
export async function benchEvm(settings: ChainBenchSettings): Promise<ChainReport> {
  const bed = await startEvmBed({ chainId: CHAIN_ID });
  try {
    const { rpcUrl, usdcAddress } = bed.adapterConfig;
    const owner = getAddress(`0x${randomBytes(20).toString('hex')}`);
    await bed.fixtures.mintUsdc(owner, USDC_MICROS);
    await rawJsonRpc(rpcUrl, 'anvil_setBalance', [owner, numberToHex(WEI)]);
    const adapter = createEvmAdapter({ chain: 'base', timeoutMs: 5_000, ...bed.adapterConfig });
    const vault = bed.fixtures.vault;
    const request: LegRequest = {
      planId: newPlanId(),
      owner,
      amountMicros: AMOUNT,
      target: {
        kind: 'venue',
        venue: { venueId: 'bench-vault', chain: 'base', standard: 'erc4626', ids: { vault } },
      },
    };
    const build = await compare(settings, {
      metric: 'buildDeposit erc4626 (approve+deposit)',
      ours: async () =>
        expectPrepared(
          'evm buildDeposit',
          await adapter.buildDeposit(request),
          2,
          'evm-transaction-request',
        ),
      baseline: async () => encodeErc4626Deposit(vault, owner, AMOUNT),
      baselineLabel: 'viem encodeFunctionData of approve + deposit',
      concurrency: 1,
    });
    const expected = { ETH: WEI, USDC: USDC_MICROS };
    const usdc = getAddress(usdcAddress);
    const reads = await balanceRows(
      settings,
      async () => expectBalances('evm readBalances', await adapter.readBalances(owner), expected),
      () =>
        rawEvmBalances({
          rpcUrl,
          usdc,
          owner,
          wei: WEI,
          usdcMicros: USDC_MICROS,
        }),
      'raw fetch: eth_getBalance + eth_call balanceOf, in parallel',
    );
    return {
      chain: 'evm',
      bed: `anvil chain id ${CHAIN_ID} (Base), own process`,
      rows: [build, ...reads],
      notes: ['leg build is offline (no RPC call)'],
    };
  } finally {
    await bed.stop();
  }
}
