// Sui (JSON-RPC fake in its own process): a route's wallet leg (no venue), unresolved JSON and
// final bytes, and wallet balances.
import { createSuiAdapter } from '@yieldrouter/chain-sui';
import type { SuiResolvedRefs } from '@yieldrouter/chain-sui';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegRequest } from '@yieldrouter/schemas';
import { balanceRows } from './balanceRows';
import { startBedProcess } from './bedProcess';
import type { ChainBenchSettings } from './benchSettings';
import type { ChainReport } from './chainReport';
import { expectBalances, expectPrepared } from './checks';
import { compare } from './compare';
import { rawSuiBalances, suiDepositBytes, suiDepositJson } from './suiBaseline';
import type { SuiDepositRefs } from './suiBaseline';

const GAS_BUDGET = 20_000_000n;

/** Starts the fake's process, benchmarks, and stops it whatever happens. */
export async function benchSui(settings: ChainBenchSettings): Promise<ChainReport> {
  const bed = await startBedProcess('sui');
  try {
    const { info } = bed;
    const adapter = createSuiAdapter({
      rpcUrl: info.rpcUrl,
      network: 'localnet',
      timeoutMs: 5_000,
      broadcastEnabled: false,
      usdcCoinType: info.usdcCoinType,
    });
    const request: LegRequest = {
      planId: newPlanId(),
      owner: info.owner,
      amountMicros: 1_000_000n,
      target: { kind: 'router' },
    };
    const gasPrice = BigInt(info.referenceGasPrice);
    const refs: SuiResolvedRefs = {
      gas: [info.gasCoin],
      gasPrice,
      gasBudget: GAS_BUDGET,
      usdcCoins: [info.usdcCoin],
    };
    const input = { ...request, usdcCoinType: info.usdcCoinType };
    const baselineRefs: SuiDepositRefs = {
      gas: info.gasCoin,
      gasPrice,
      gasBudget: GAS_BUDGET,
      usdcCoin: info.usdcCoin,
    };
    const json = await compare(settings, {
      metric: 'buildDeposit wallet leg (unresolved JSON)',
      ours: async () =>
        expectPrepared(
          'sui buildDeposit',
          await adapter.buildDeposit(request),
          1,
          'sui-transaction-json',
        ),
      baseline: () => suiDepositJson(input),
      baselineLabel: 'Transaction: plan id + coinWithBalance + transferObjects, toJSON',
      concurrency: 1,
    });
    const bytes = await compare(settings, {
      metric: 'buildDepositBytes wallet leg (resolved)',
      ours: async () =>
        expectPrepared(
          'sui buildDepositBytes',
          await adapter.buildDepositBytes(request, refs),
          1,
          'sui-transaction-bcs-base64',
        ),
      baseline: () => suiDepositBytes(input, baselineRefs),
      baselineLabel: 'Transaction: gas + plan id + splitCoins + transferObjects, build() to bytes',
      concurrency: 1,
    });
    const mist = BigInt(info.mist);
    const usdcMicros = BigInt(info.usdcMicros);
    const reads = await balanceRows(
      settings,
      async () =>
        expectBalances('sui readBalances', await adapter.readBalances(info.owner), {
          SUI: mist,
          USDC: usdcMicros,
        }),
      () =>
        rawSuiBalances({
          rpcUrl: info.rpcUrl,
          owner: info.owner,
          usdcCoinType: info.usdcCoinType,
          mist,
          usdcMicros,
        }),
      'raw fetch: suix_getBalance SUI + USDC, in parallel',
    );
    return {
      chain: 'sui',
      bed: 'Sui JSON-RPC fake, own process',
      rows: [json, bytes, ...reads],
      notes: ['both leg builds are offline (no RPC call)'],
    };
  } finally {
    await bed.stop();
  }
}
