import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAnvil } from '@yieldrouter/chain-beds/evm';
import type { AnvilInstance } from '@yieldrouter/chain-beds/evm';
import { createPublicClient, http } from 'viem';
import { createEvmRpc } from './evmRpc';

// The max fee per gas is viem's EIP-1559 estimate, computed from two plain reads.

describe('maxFeePerGas on anvil', () => {
  let anvil: AnvilInstance;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
  }, 60_000);
  afterAll(() => anvil?.stop());

  it("is what viem's estimateFeesPerGas gives on the same block", async () => {
    const viem = createPublicClient({ transport: http(anvil.rpcUrl) });
    const expected = await viem.estimateFeesPerGas({ chain: null });
    const rpc = createEvmRpc({ rpcUrl: anvil.rpcUrl, timeoutMs: 2_000 });
    expect(await rpc.maxFeePerGas()).toBe(expected.maxFeePerGas);
  });
});

describe('maxFeePerGas on a node without eth_maxPriorityFeePerGas', () => {
  let server: Server;
  let url: string;
  let gasPrice = '0x96';
  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const { id, method } = JSON.parse(text) as { id: number; method: string };
        const answer =
          method === 'eth_getBlockByNumber'
            ? { result: { number: '0x10', baseFeePerGas: '0x64' } }
            : method === 'eth_gasPrice'
              ? { result: gasPrice }
              : { error: { code: -32601, message: `the method ${method} does not exist` } };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, ...answer }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('takes the tip as gas price − base fee (never below 0), as viem does', async () => {
    const rpc = createEvmRpc({ rpcUrl: url, timeoutMs: 2_000 });
    // base fee 100 × 1.2 + (150 − 100)
    expect(await rpc.maxFeePerGas()).toBe(170n);
    gasPrice = '0x50';
    expect(await rpc.maxFeePerGas()).toBe(120n);
    const viem = createPublicClient({ transport: http(url) });
    expect((await viem.estimateFeesPerGas({ chain: null })).maxFeePerGas).toBe(120n);
  });
});
