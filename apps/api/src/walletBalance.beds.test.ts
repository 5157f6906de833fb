import request from 'supertest';
import { Keypair } from '@solana/web3.js';
import { NATIVE_USDC, WalletBalanceDocument } from '@yieldrouter/schemas';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';

// The API end to end against the local chain beds: real reads through each adapter.
let t: TestApp;
let evm: EvmBed;
let solana: SolanaBed;
let sui: SuiFake;

const EVM_OWNER = '0x52908400098527886E0F7030069857D2E4169EE7';
const SUI_OWNER = `0x${'ab'.repeat(32)}`;
const SOLANA_OWNER = Keypair.generate().publicKey.toBase58();

beforeAll(async () => {
  [evm, solana, sui] = await Promise.all([
    startEvmBed({ chainId: 8453 }),
    startSolanaBed(),
    startSuiFake(),
  ]);
  await evm.fixtures.mintUsdc(EVM_OWNER, 12_500_000n);
  solana.airdrop(SOLANA_OWNER, 2_000_000_001n);
  solana.mintUsdc(SOLANA_OWNER, 7_000_001n);
  sui.setBalance(SUI_OWNER, '0x2::sui::SUI', 3_000_000_000n);
  sui.setBalance(SUI_OWNER, NATIVE_USDC.sui, 42_000_000n);
  t = await startTestApp({
    SVC_RPC_TIMEOUT_MS: '2000',
    SVC_BASE_RPC_URL: evm.adapterConfig.rpcUrl,
    SVC_BASE_USDC_ADDRESS: evm.adapterConfig.usdcAddress,
    SVC_SOLANA_RPC_URL: solana.rpcUrl,
    SVC_SUI_RPC_URL: sui.rpcUrl,
    SVC_SUI_NETWORK: 'localnet',
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([evm?.stop(), solana?.stop(), sui?.stop()]);
});

const read = async (chain: string, address: string) => {
  const res = await request(t.app)
    .get(`/api/v1/svc/${chain}/wallet-balance`)
    .query({ address })
    .expect(200);
  return WalletBalanceDocument.parse(res.body);
};

const legs = (doc: WalletBalanceDocument) =>
  Object.fromEntries(doc.legs.map((leg) => [leg.asset, [leg.amount, leg.display, leg.status]]));

describe('wallet-balance against the local beds', () => {
  it('base: ETH and USDC read from anvil', async () => {
    const doc = await read('base', EVM_OWNER.toLowerCase());
    expect(doc.address).toBe(EVM_OWNER); // canonical (checksummed) form
    expect(doc.complete).toBe(true);
    expect(legs(doc)).toEqual({ ETH: ['0', '0', 'ok'], USDC: ['12500000', '12.5', 'ok'] });
  });

  it('solana: SOL and USDC read through the litesvm JSON-RPC', async () => {
    const doc = await read('solana', SOLANA_OWNER);
    expect(doc.complete).toBe(true);
    expect(legs(doc)).toEqual({
      SOL: ['2000000001', '2.000000001', 'ok'],
      USDC: ['7000001', '7.000001', 'ok'],
    });
  });

  it('sui: SUI and USDC read through the JSON-RPC fake', async () => {
    const doc = await read('sui', SUI_OWNER);
    expect(doc.complete).toBe(true);
    expect(legs(doc)).toEqual({ SUI: ['3000000000', '3', 'ok'], USDC: ['42000000', '42', 'ok'] });
  });

  it('a chain without an RPC stays N/A while the others answer', async () => {
    const doc = await read('arbitrum', EVM_OWNER);
    expect(doc.complete).toBe(false);
    expect(doc.legs.every((leg) => leg.display === 'N/A' && leg.amount === null)).toBe(true);
  });

  it('the packages document says which RPCs are configured, never their URLs', async () => {
    const res = await request(t.app).get('/api/v1/svc/packages').expect(200);
    const configured = Object.fromEntries(
      (res.body.chains as { chain: string; rpc: { configured: boolean } }[]).map((chain) => [
        chain.chain,
        chain.rpc.configured,
      ]),
    );
    expect(configured).toEqual({ sui: true, solana: true, base: true, arbitrum: false });
    expect(res.text).not.toContain('127.0.0.1');
  });
});
