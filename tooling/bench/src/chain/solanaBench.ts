// Solana (litesvm bed in its own process): router deposit legs and wallet balances.
import { PublicKey } from '@solana/web3.js';
import { createSolanaAdapter } from '@yieldrouter/chain-solana';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegRequest } from '@yieldrouter/schemas';
import { balanceRows } from './balanceRows';
import { startBedProcess } from './bedProcess';
import type { ChainBenchSettings } from './benchSettings';
import type { ChainReport } from './chainReport';
import { expectBalances, expectPrepared } from './checks';
import { compare } from './compare';
import { opsPerSecond, runFor } from './measure';
import {
  buildRouterDeposit,
  rawLatestBlockhash,
  rawSolanaBalances,
  routerDepositKeys,
} from './solanaBaseline';

/**
 * A router program id and its state PDA. The build reads only the blockhash from the bed, so the
 * program need not be deployed to measure it.
 */
const PROGRAM_ID = new PublicKey(new Uint8Array(32).fill(11));
const YIELD_ROUTER = PublicKey.findProgramAddressSync([Buffer.from('yield_router')], PROGRAM_ID)[0];

const perSecond = (value: number) => `${value.toFixed(0)}/s`;

/** Starts the bed process, benchmarks, and stops it whatever happens. */
export async function benchSolana(settings: ChainBenchSettings): Promise<ChainReport> {
  const bed = await startBedProcess('solana');
  try {
    const { rpcUrl, usdcMint, owner } = bed.info;
    const adapter = createSolanaAdapter({
      rpcUrl,
      timeoutMs: 5_000,
      broadcastEnabled: false,
      usdcMint,
      programId: PROGRAM_ID.toBase58(),
      yieldRouter: YIELD_ROUTER.toBase58(),
      adapterRegistry: undefined,
    });
    const request: LegRequest = {
      planId: newPlanId(),
      owner,
      amountMicros: 1_000_000n,
      target: { kind: 'router' },
    };
    const keys = routerDepositKeys(PROGRAM_ID.toBase58(), usdcMint, YIELD_ROUTER.toBase58());
    const build = await compare(settings, {
      metric: 'buildDeposit router (+getLatestBlockhash)',
      ours: async () =>
        expectPrepared(
          'solana buildDeposit',
          await adapter.buildDeposit(request),
          1,
          'solana-v0-base64',
        ),
      baseline: async () => buildRouterDeposit(keys, request, await rawLatestBlockhash(rpcUrl)),
      baselineLabel: 'raw fetch getLatestBlockhash + web3.js v0 message of the same 3 instructions',
      concurrency: 1,
    });
    // The baseline's two parts alone, to show how much of a Solana build is the RPC round trip.
    const fixedBlockhash = await rawLatestBlockhash(rpcUrl);
    const offline = await runFor(
      async () => buildRouterDeposit(keys, request, fixedBlockhash),
      settings.seconds / 2,
      1,
    );
    const fetchOnly = await runFor(() => rawLatestBlockhash(rpcUrl), settings.seconds / 2, 1);
    const expected = { SOL: BigInt(bed.info.lamports), USDC: BigInt(bed.info.usdcMicros) };
    const reads = await balanceRows(
      settings,
      async () =>
        expectBalances('solana readBalances', await adapter.readBalances(owner), expected),
      () =>
        rawSolanaBalances({
          rpcUrl,
          owner,
          usdcMint,
          lamports: expected.SOL,
          usdcMicros: expected.USDC,
        }),
      'raw fetch: getBalance + getTokenAccountsByOwner (base64), in parallel',
    );
    return {
      chain: 'solana',
      bed: 'litesvm JSON-RPC bed, own process',
      rows: [build, ...reads],
      notes: [
        'buildDeposit is the only non-offline build: every Solana leg reads getLatestBlockhash from the bed',
        `baseline parts alone: v0 build with a fixed blockhash ${perSecond(opsPerSecond(offline))}, ` +
          `raw getLatestBlockhash ${perSecond(opsPerSecond(fetchOnly))}`,
      ],
    };
  } finally {
    await bed.stop();
  }
}
