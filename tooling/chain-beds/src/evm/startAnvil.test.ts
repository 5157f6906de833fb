import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startAnvil } from './startAnvil';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilDead(pid: number, timeoutMs = 3_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isAlive(pid);
}

async function rpc(url: string, method: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  });
  return ((await response.json()) as { result?: unknown }).result;
}

describe('startAnvil', () => {
  it('serves the chain id on a free port with the known accounts; stop() kills it', async () => {
    const started = performance.now();
    const anvil = await startAnvil({ chainId: 8453 });
    const startMs = performance.now() - started;
    try {
      expect(anvil.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await rpc(anvil.rpcUrl, 'eth_chainId')).toBe('0x2105');
      const accounts = (await rpc(anvil.rpcUrl, 'eth_accounts')) as string[];
      expect(accounts).toEqual(anvil.accounts.map((account) => account.address.toLowerCase()));
      expect(startMs).toBeLessThan(5_000);
    } finally {
      await anvil.stop();
      await anvil.stop(); // idempotent
    }
    expect(anvil.pid && (await waitUntilDead(anvil.pid))).toBe(true);
    await expect(rpc(anvil.rpcUrl, 'eth_chainId')).rejects.toThrow();
  });

  it('runs two nodes side by side on different ports', async () => {
    const [a, b] = await Promise.all([
      startAnvil({ chainId: 8453 }),
      startAnvil({ chainId: 42161 }),
    ]);
    try {
      expect(a.rpcUrl).not.toBe(b.rpcUrl);
      expect(await rpc(b.rpcUrl, 'eth_chainId')).toBe('0xa4b1');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('leaves no orphan when its process exits or is signalled without stop()', async () => {
    // Both probes at once: each pays tsx's start-up, so in parallel the test stays short.
    await Promise.all(
      (['exit', 'wait'] as const).map(async (mode) => {
        const probe = spawnProbe(mode);
        const pid = await probePid(probe);
        expect(isAlive(pid)).toBe(true);
        if (mode === 'wait') probe.kill('SIGTERM');
        expect(await waitUntilDead(pid)).toBe(true);
      }),
    );
  }, 15_000);
});

/** A child node process running testing/anvilOrphanProbe.ts through tsx. */
function spawnProbe(mode: 'exit' | 'wait'): ChildProcessByStdio<null, Readable, null> {
  return spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(require.resolve('tsx')).href,
      join(__dirname, 'testing', 'anvilOrphanProbe.ts'),
      mode,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
}

/** The anvil pid the probe prints once its node is up. */
function probePid(probe: ChildProcessByStdio<null, Readable, null>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let output = '';
    probe.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = /\{"pid":(\d+)\}/.exec(output);
      if (line) resolve(Number(line[1]));
    });
    probe.once('exit', (code) => reject(new Error(`probe exited (${code}): ${output}`)));
  });
}
