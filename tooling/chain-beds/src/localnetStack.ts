// The beds `pnpm localnet` runs (anvil for Base and Arbitrum, the Solana bed with our router
// program, its test venue, the klend stand-in (kamino) and a cp_pool deployed, the Sui fake, the
// yields fake, the 0x and Jupiter quote fakes, the CCTP stand-ins on both anvils and in the Solana bed with the Iris
// attestation fake), each demo wallet funded, and the SVC_* settings that point the API at them.
// `pnpm localnet` and `pnpm demo` both start them through here.
import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { startEvmBed } from './evm';
import type { EvmBed } from './evm';
import { deployCpPool, deployYieldRouter, startSolanaBed } from './solana';
import type { SolanaBed, SolanaRouterDeployment } from './solana';
import { startSuiFake } from './sui';
import type { SuiFake } from './sui';
import { startCctpBed } from './bridges';
import type { CctpBed } from './bridges';
import { startCetusFake, startJupiterFake, startZeroExFake } from './quotes';
import type { CetusFake, JupiterFake, ZeroExFake } from './quotes';
import { DEFAULT_YIELDS_POOLS, startYieldsServer } from './yields';
import type { YieldsServer } from './yields';

const SUI_USDC = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
export const DEMO_USDC_MICROS = 1_000_000_000n; // 1,000 USDC per demo wallet
/** Anvil's tenth account: where the beds' swap fee is paid. */
const SWAP_FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

export interface Localnet {
  readonly base: EvmBed;
  readonly arbitrum: EvmBed;
  readonly solana: SolanaBed;
  /** Our router program (C, built by tooling/solana-programs), its test venue and kamino's klend stand-in. */
  readonly solanaRouter: SolanaRouterDeployment;
  readonly sui: SuiFake;
  readonly yields: YieldsServer;
  /** The 0x-shaped quote fake over both EVM beds' USDC/WETH pairs. */
  readonly zeroEx: ZeroExFake;
  /** CCTP v2 stand-ins on both EVM beds and the Iris-shaped attestation fake over them. */
  readonly cctp: CctpBed;
  /** The Jupiter-shaped quote fake over the Solana bed's USDC/BED cp_pool. */
  readonly jupiter: JupiterFake;
  /** The Cetus-shaped quote fake over the Sui fake's USDC/SUI pool (which the fake runs). */
  readonly cetus: CetusFake;
  /** The funded demo wallets (the EVM one is anvil's second account, on both EVM beds). */
  readonly wallets: { readonly evm: string; readonly solana: string; readonly sui: string };
  /**
   * A development owner key (fresh each start) scoped to the demo wallets, in `env` as
   * `SVC_API_KEYS`: the API started with these settings accepts it (`pnpm localnet:bridge`).
   */
  readonly ownerKey: string;
  /** SVC_* settings pointing the API and the keeper at the beds. */
  readonly env: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

export async function startLocalnet(): Promise<Localnet> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    await Promise.allSettled(stops.map((one) => one()));
  };
  try {
    const base: EvmBed = await startEvmBed({ chainId: 8453 });
    stops.push(() => base.stop());
    const arbitrum: EvmBed = await startEvmBed({ chainId: 42161 });
    stops.push(() => arbitrum.stop());
    const solana: SolanaBed = await startSolanaBed();
    stops.push(() => solana.stop());
    const solanaRouter = deployYieldRouter(solana);
    const sui: SuiFake = await startSuiFake();
    stops.push(() => sui.stop());
    // DefiLlama's pool shape, risk fields included, so every opportunity field has a value.
    const yields = await startYieldsServer();
    stops.push(() => yields.stop());
    const zeroEx = await startZeroExFake({
      chains: [
        { rpcUrl: base.anvil.rpcUrl, chainId: 8453, pair: base.fixtures.pair },
        { rpcUrl: arbitrum.anvil.rpcUrl, chainId: 42161, pair: arbitrum.fixtures.pair },
      ],
    });
    stops.push(() => zeroEx.close());
    // Base ↔ Arbitrum and Base/Arbitrum ↔ Solana bridges (the CCTP stand-in programs in the
    // Solana bed): the bed's bridge fee goes where its swap fee goes.
    const cctp = await startCctpBed({
      beds: { base, arbitrum },
      solana,
      feeRecipient: SWAP_FEE_RECIPIENT,
    });
    stops.push(() => cctp.stop());
    // 1,000,000 USDC against 5,000 BED (a 9-decimal bed token), 30 bps pool fee.
    const solanaSwapPool = deployCpPool(solana, {
      reserveA: 1_000_000_000_000n,
      reserveB: 5_000_000_000_000n,
    });
    const jupiter = await startJupiterFake({ bed: solana, pools: [solanaSwapPool] });
    stops.push(() => jupiter.close());
    const suiSwapPool = sui.addCetusPool({
      coinA: SUI_USDC,
      coinB: '0x2::sui::SUI',
      reserveA: 2_000_000_000_000n,
      reserveB: 500_000_000_000_000n,
    });
    const cetus = await startCetusFake({ pools: [suiSwapPool] });
    stops.push(() => cetus.close());
    const [basePool, arbitrumPool, solanaPool, suiPool, suiNullPool] = DEFAULT_YIELDS_POOLS.map(
      (pool) => pool.pool,
    );

    const evmWallet = base.anvil.accounts[1]?.address;
    if (!evmWallet) throw new Error('anvil has no second account');
    await base.fixtures.mintUsdc(evmWallet, DEMO_USDC_MICROS);
    await arbitrum.fixtures.mintUsdc(evmWallet, DEMO_USDC_MICROS);
    const solanaWallet = Keypair.generate().publicKey.toBase58();
    solana.airdrop(solanaWallet, 5_000_000_000n);
    solana.mintUsdc(solanaWallet, DEMO_USDC_MICROS);
    // Sui's venues as the bed runs them (their own functions and objects, see docs/venues/sui.md).
    const suilend = sui.addSuilend({ usdc: SUI_USDC, availableAmount: 1_000_000_000_000n });
    const navi = sui.addNavi({ usdc: SUI_USDC });
    const scallop = sui.addScallop({ usdc: SUI_USDC, cash: 1_000_000_000_000n });
    const suiWallet = `0x${'5a'.repeat(32)}`;
    sui.setBalance(suiWallet, '0x2::sui::SUI', 5_000_000_000n);
    sui.setBalance(suiWallet, SUI_USDC, DEMO_USDC_MICROS);

    const ownerKey = `localnet-owner-${randomBytes(16).toString('hex')}`;
    const env = {
      // Development only (production refuses both): an owner key for the demo wallets, and
      // webhook receivers on 127.0.0.1 (`pnpm localnet:bridge` subscribes one).
      SVC_API_KEYS: JSON.stringify([
        { key: ownerKey, role: 'owner', wallets: [evmWallet, solanaWallet, suiWallet] },
      ]),
      SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      SVC_BASE_RPC_URL: base.adapterConfig.rpcUrl,
      SVC_BASE_USDC_ADDRESS: base.adapterConfig.usdcAddress,
      SVC_BASE_REGISTRY_ADDRESS: base.adapterConfig.registryAddress,
      SVC_ARBITRUM_RPC_URL: arbitrum.adapterConfig.rpcUrl,
      SVC_ARBITRUM_USDC_ADDRESS: arbitrum.adapterConfig.usdcAddress,
      SVC_ARBITRUM_REGISTRY_ADDRESS: arbitrum.adapterConfig.registryAddress,
      SVC_BASE_CAGE_ADDRESS: base.fixtures.cage,
      SVC_ARBITRUM_CAGE_ADDRESS: arbitrum.fixtures.cage,
      SVC_SOLANA_RPC_URL: solana.rpcUrl,
      SVC_SOLANA_NETWORK: 'localnet',
      SVC_SOLANA_PROGRAM_ID: solanaRouter.programId,
      SVC_SOLANA_YIELD_ROUTER: solanaRouter.yieldRouter,
      SVC_SOLANA_ADAPTER_REGISTRY: solanaRouter.adapterRegistry,
      SVC_SOLANA_TREASURY: solanaRouter.treasury,
      SVC_SOLANA_UPGRADE_AUTHORITY: solanaRouter.admin,
      SVC_SUI_RPC_URL: sui.rpcUrl,
      SVC_SUI_NETWORK: 'localnet',
      SVC_APY_BASE_URL: yields.url,
      SVC_ZEROX_BASE_URL: zeroEx.url,
      ...cctp.settings,
      SVC_CETUS_BASE_URL: cetus.url,
      SVC_CETUS_AGGREGATOR_PACKAGE_ID: suiSwapPool.packageId,
      SVC_CETUS_GLOBAL_CONFIG_ID: suiSwapPool.globalConfig.objectId,
      SVC_SUI_SWAP_FEE_RECIPIENT: `0x${'9a'.repeat(32)}`,
      // The bed's swap fee goes to anvil's last account; WETH is the bed's stand-in.
      SVC_BASE_SWAP_FEE_RECIPIENT: SWAP_FEE_RECIPIENT,
      SVC_ARBITRUM_SWAP_FEE_RECIPIENT: SWAP_FEE_RECIPIENT,
      SVC_BASE_SWAP_TOKENS: `WETH:${base.fixtures.weth}:18`,
      SVC_ARBITRUM_SWAP_TOKENS: `WETH:${arbitrum.fixtures.weth}:18`,
      // Solana swaps: the Jupiter fake, whose swap instruction calls the bed's cp_pool.
      SVC_JUPITER_BASE_URL: jupiter.url,
      SVC_JUPITER_PROGRAM_ID: solanaSwapPool.program,
      SVC_SOLANA_SWAP_FEE_RECIPIENT: solana.mintAuthority.publicKey.toBase58(),
      SVC_SOLANA_BRIDGE_FEE_RECIPIENT: solana.mintAuthority.publicKey.toBase58(),
      SVC_SOLANA_SWAP_TOKENS: `BED:${solanaSwapPool.mintB}:9`,
      SVC_APY_POOLS: JSON.stringify({
        'aave-v3': basePool,
        morpho: basePool,
        fluid: arbitrumPool,
        kamino: solanaPool,
        suilend: suiPool,
        navi: suiNullPool,
      }),
      // The bed's vaults and Aave stand-in: the discovery refresh reads TVL and caps from them.
      SVC_VENUE_IDS: JSON.stringify({
        // Kamino: the Solana bed's klend stand-in (at klend's program id), registered with our
        // router under the klend layout.
        kamino: solanaRouter.kamino.ids,
        'aave-v3': { pool: base.fixtures.aavePool, aToken: base.fixtures.aToken },
        morpho: { vault: base.fixtures.vault },
        fluid: { vault: arbitrum.fixtures.vault },
        // Silo: the bed's SiloConfig stand-in; the legs find its USDC silo on chain.
        silo: { siloConfig: arbitrum.fixtures.siloConfig },
        suilend: suilend.ids,
        navi: navi.ids,
        scallop: scallop.ids,
      }),
    };
    return {
      base,
      arbitrum,
      solana,
      solanaRouter,
      sui,
      yields,
      zeroEx,
      cctp,
      jupiter,
      cetus,
      wallets: { evm: evmWallet, solana: solanaWallet, sui: suiWallet },
      ownerKey,
      env,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
