import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readChainId, startAnvil } from './startAnvil';

/**
 * Whether `pid` still runs. A zombie (killed, not yet reaped) does not: an anvil orphaned to
 * PID 1 stays a zombie until PID 1 reaps it, which a container's PID 1 may do late or never.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (not Linux): the signal probe is all there is
  }
}

async function waitUntilDead(pid: number, timeoutMs = 10_000): Promise<boolean> {
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

/** A JSON-RPC server whose first `held` requests are never answered; the later ones are. */
async function stallingRpc(held: number): Promise<{ url: string; close(): Promise<void> }> {
  let seen = 0;
  const server = createServer((request, response) => {
    seen += 1;
    if (seen <= held) return; // a stalled answer: the client's timer fires first
    request.resume();
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2105' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('readChainId (the readiness read)', () => {
  it('asks again when an attempt times out (an event-loop stall)', async () => {
    const rpcServer = await stallingRpc(2);
    try {
      await expect(readChainId(rpcServer.url, 3, 100)).resolves.toBe(8453);
    } finally {
      await rpcServer.close();
    }
  });

  it('gives up with the timeout after its attempts (a hang is still a failure)', async () => {
    const rpcServer = await stallingRpc(Number.MAX_SAFE_INTEGER);
    try {
      await expect(readChainId(rpcServer.url, 3, 100)).rejects.toThrow(/timeout/i);
    } finally {
      await rpcServer.close();
    }
  });
});

describe('startAnvil', () => {
  it('serves the chain id on a free port with the known accounts; stop() kills it', async () => {
    const anvil = await startAnvil({ chainId: 8453 });
    try {
      expect(anvil.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await rpc(anvil.rpcUrl, 'eth_chainId')).toBe('0x2105');
      const accounts = (await rpc(anvil.rpcUrl, 'eth_accounts')) as string[];
      expect(accounts).toEqual(anvil.accounts.map((account) => account.address.toLowerCase()));
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
        // The probe goes only when told: its anvil was seen alive first, however late the
        // pid was read (a probe exiting on its own could kill anvil before the check above).
        if (mode === 'wait') probe.kill('SIGTERM');
        else probe.stdin.end();
        expect(await waitUntilDead(pid)).toBe(true);
      }),
    );
  });
});

/** A child node process running testing/anvilOrphanProbe.ts through tsx. */
function spawnProbe(mode: 'exit' | 'wait'): ChildProcessByStdio<Writable, Readable, null> {
  return spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(require.resolve('tsx')).href,
      join(__dirname, 'testing', 'anvilOrphanProbe.ts'),
      mode,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
}

/** The anvil pid the probe prints once its node is up. */
function probePid(probe: ChildProcessByStdio<Writable, Readable, null>): Promise<number> {
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
