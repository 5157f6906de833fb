// Parent side of bedServer.ts: start a bed child process, read its info line, stop it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BedInfo, SolanaBedInfo, SuiBedInfo } from './bedInfo';

const tsx = path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;

/** A running bed child process. `stop()` is idempotent and always resolves. */
export interface BedProcess<Info extends BedInfo> {
  readonly info: Info;
  stop(): Promise<void>;
}

type InfoOf<Chain extends BedInfo['chain']> = Chain extends 'solana' ? SolanaBedInfo : SuiBedInfo;

/**
 * Spawns `bedServer.ts <chain>` and resolves with the info it prints once seeded. Rejects (after
 * killing the child) when it exits or stays silent for 60 s.
 *
 * @example
 * const bed = await startBedProcess('sui');
 * try { ... } finally { await bed.stop(); }
 */
export function startBedProcess<Chain extends BedInfo['chain']>(
  chain: Chain,
): Promise<BedProcess<InfoOf<Chain>>> {
  const child = spawn(tsx, [path.join(__dirname, 'bedServer.ts'), chain], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      child.stdin?.destroy();
    })();
    return stopped;
  };
  return new Promise((resolve, reject) => {
    let ready = false;
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stop().then(() => reject(error));
    };
    const timer = setTimeout(
      () => fail(new Error(`${chain} bed did not start in ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (!ready) fail(new Error(`${chain} bed exited before it was ready (${code ?? signal})`));
    });
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (ready || !line.startsWith('BED ')) return;
      ready = true;
      clearTimeout(timer);
      const info = JSON.parse(line.slice('BED '.length)) as InfoOf<Chain>;
      if (info.chain !== chain) {
        fail(new Error(`${chain} bed reported chain ${String(info.chain)}`));
        return;
      }
      resolve({ info, stop });
    });
  });
}
