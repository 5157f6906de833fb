import type { ChainSwitches } from '@yieldrouter/schemas';
import { NATIVE_USDC } from '@yieldrouter/schemas';
import type { ChainsConfig } from '../chains/chainsConfig';
import { defaultFeeSchedule } from '@yieldrouter/fees';
import { buildEnablement } from './buildEnablement';
import { buildPackagesDocument } from './buildPackagesDocument';
import { buildStatusDocument } from './buildStatusDocument';

const off: ChainSwitches = {
  sui: { executionEnabled: false, broadcastEnabled: false },
  solana: { executionEnabled: false, broadcastEnabled: false },
  base: { executionEnabled: false, broadcastEnabled: false },
  arbitrum: { executionEnabled: false, broadcastEnabled: false },
};

describe('buildEnablement', () => {
  it('everything off: disabled, not write-ready, with reasons', () => {
    const chains = buildEnablement({ switches: off, writeReadyChains: new Set() });
    expect(chains.map((chain) => [chain.chain, chain.label, chain.executionMode])).toEqual([
      ['sui', 'Executable', 'disabled'],
      ['solana', 'Executable', 'disabled'],
      ['base', 'Map', 'disabled'],
      ['arbitrum', 'Map', 'disabled'],
    ]);
    for (const chain of chains) expect(chain.reasons.length).toBeGreaterThan(0);
  });

  it('broadcast needs execution, the switch and live write adapters', () => {
    const switches: ChainSwitches = {
      ...off,
      solana: { executionEnabled: true, broadcastEnabled: true },
    };
    const notReady = buildEnablement({ switches, writeReadyChains: new Set() });
    expect(notReady.find((c) => c.chain === 'solana')?.executionMode).toBe('owner_sign_prepare');
    const ready = buildEnablement({ switches, writeReadyChains: new Set(['solana']) });
    expect(ready.find((c) => c.chain === 'solana')).toMatchObject({
      executionMode: 'broadcast',
      writeReady: true,
      liveMoneyPath: true,
    });
  });

  it('Map chains are never write-ready, even when listed', () => {
    const chains = buildEnablement({ switches: off, writeReadyChains: new Set(['base']) });
    expect(chains.find((c) => c.chain === 'base')?.writeReady).toBe(false);
  });
});

describe('buildStatusDocument', () => {
  it('reports the skim from the fee schedule and the most permissive mode', () => {
    const switches: ChainSwitches = {
      ...off,
      sui: { executionEnabled: true, broadcastEnabled: false },
    };
    const status = buildStatusDocument({
      enablement: buildEnablement({ switches, writeReadyChains: new Set() }),
      fees: defaultFeeSchedule,
      venueIds: [],
    });
    expect(status).toMatchObject({
      protocolYieldSkimBps: 500,
      executionEnabled: true,
      broadcastEnabled: false,
      executionMode: 'owner_sign_prepare',
    });
  });
});

const testChains: ChainsConfig = {
  timeoutMs: 1500,
  sui: { rpcUrl: undefined, network: 'mainnet', usdc: NATIVE_USDC.sui },
  solana: { rpcUrl: 'http://127.0.0.1:8899', network: 'mainnet-beta', usdc: NATIVE_USDC.solana },
  base: { rpcUrl: undefined, usdc: NATIVE_USDC.base },
  arbitrum: { rpcUrl: undefined, usdc: NATIVE_USDC.arbitrum },
};

describe('buildPackagesDocument', () => {
  it('shows asset ids and whether an RPC is configured, never its URL', () => {
    const doc = buildPackagesDocument({
      ids: { sui: {}, solana: {}, base: {}, arbitrum: {} },
      enablement: buildEnablement({ switches: off, writeReadyChains: new Set() }),
      fees: defaultFeeSchedule,
      chains: testChains,
    });
    const solana = doc.chains.find((chain) => chain.chain === 'solana');
    expect(solana?.assets).toEqual([{ asset: 'USDC', id: NATIVE_USDC.solana, decimals: 6 }]);
    expect(solana?.rpc).toEqual({ configured: true, timeoutMs: 1500 });
    expect(doc.chains.find((chain) => chain.chain === 'sui')?.rpc.configured).toBe(false);
    expect(JSON.stringify(doc)).not.toContain('127.0.0.1');
  });

  it('never invents ids: unconfigured objects are null with a reason', () => {
    const doc = buildPackagesDocument({
      ids: { sui: {}, solana: {}, base: {}, arbitrum: {} },
      enablement: buildEnablement({ switches: off, writeReadyChains: new Set() }),
      fees: defaultFeeSchedule,
      chains: testChains,
    });
    const ids = doc.chains.flatMap((chain) => chain.objects.map((object) => object.id));
    expect(ids.every((id) => id === null)).toBe(true);
    expect(doc.chains.every((chain) => chain.status === 'target')).toBe(true);
  });
});
