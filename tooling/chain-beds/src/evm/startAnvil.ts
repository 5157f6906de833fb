import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { ANVIL_ACCOUNT_COUNT, ANVIL_MNEMONIC, anvilAccounts } from './anvilAccounts';
import type { AnvilAccount } from './anvilAccounts';
import { anvilBinaryPath } from './anvilBinaryPath';
import { trackChild } from './anvilProcesses';

export interface StartAnvilParameters {
  /** EIP-155 chain id the node reports (8453 for a Base bed, 42161 for Arbitrum). */
  readonly chainId: number;
  /** Give up when the node is not serving after this long (default 15 s). */
  readonly startTimeoutMs?: number;
  /** Fork this chain's state from an RPC (`anvil --fork-url`): the opt-in fork check only. */
  readonly forkUrl?: string;
}

/** A running local EVM node. Call `stop()` when done; an exit of this process also kills it. */
export interface AnvilInstance {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** The node's process id (for diagnostics; stop it with `stop()`). */
  readonly pid: number | undefined;
  /** Funded accounts (10 000 ETH each); index 0 deploys the fixtures. */
  readonly accounts: readonly AnvilAccount[];
  stop(): Promise<void>;
}

const LISTENING = /Listening on ([0-9.]+):(\d+)/;

/**
 * Starts anvil on a free port (`--port 0`; the port is read from its "Listening on" line) and
 * waits until it answers `eth_chainId` with `chainId`.
 *
 * @example
 * const anvil = await startAnvil({ chainId: 8453 });
 * try { ... } finally { await anvil.stop(); }
 */
export async function startAnvil({
  chainId,
  startTimeoutMs = 15_000,
  forkUrl,
}: StartAnvilParameters): Promise<AnvilInstance> {
  const child = spawn(
    anvilBinaryPath(),
    [
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--chain-id',
      String(chainId),
      '--accounts',
      String(ANVIL_ACCOUNT_COUNT),
      '--mnemonic',
      ANVIL_MNEMONIC,
      ...(forkUrl ? ['--fork-url', forkUrl] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  trackChild(child);
  const stop = () => stopChild(child);
  try {
    const rpcUrl = await waitForListening(child, startTimeoutMs);
    const reported = await readChainId(rpcUrl);
    if (reported !== chainId) throw new Error(`anvil: chain id ${reported}, expected ${chainId}`);
    return { rpcUrl, chainId, pid: child.pid, accounts: anvilAccounts(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves with the RPC URL once anvil prints its listening address. Keeps draining stdout. */
function waitForListening(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`anvil: not listening after ${timeoutMs} ms`))),
      timeoutMs,
    );
    // anvil logs every request: keep reading so a full pipe never stalls it.
    child.stdout?.on('data', (chunk: Buffer) => {
      if (settled) return;
      output += chunk.toString('utf8');
      const match = LISTENING.exec(output);
      if (match) finish(() => resolve(`http://${match[1]}:${match[2]}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-2000);
    });
    child.once('error', (error) => finish(() => reject(error)));
    child.once('exit', (code, signal) =>
      finish(() =>
        reject(new Error(`anvil exited (${signal ?? code}) before listening: ${errors.trim()}`)),
      ),
    );
  });
}

/**
 * anvil's `eth_chainId`, asked again (up to `attempts` times) when an attempt times out. An
 * attempt's timer can fire before the answer is read when this process's event loop was held
 * up (a bed started beside this one doing synchronous work): timers run before the socket is
 * polled, so another attempt, not a longer wait, tells a stall from a hang. Attempts are
 * counted, not timed against a deadline, since a stall eats wall-clock time, not attempts.
 */
export async function readChainId(
  rpcUrl: string,
  attempts = 4,
  attemptMs = 5_000,
): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await askChainId(rpcUrl, attemptMs);
    } catch (error) {
      // A DOMException, from Node's realm (not `instanceof Error` inside a jest context).
      const timedOut =
        typeof error === 'object' &&
        error !== null &&
        (error as { name?: unknown }).name === 'TimeoutError';
      if (!timedOut || attempt >= attempts) throw error;
    }
  }
}

async function askChainId(rpcUrl: string, attemptMs: number): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(attemptMs),
  });
  const body: unknown = await response.json();
  const result =
    typeof body === 'object' && body !== null && 'result' in body ? body.result : undefined;
  if (typeof result !== 'string' || !/^0x[0-9a-f]+$/i.test(result)) {
    throw new Error(`anvil: unexpected eth_chainId answer ${JSON.stringify(body)}`);
  }
  return Number(BigInt(result));
}

/** SIGTERM, then SIGKILL if anvil has not exited within a second. Idempotent. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 1_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
