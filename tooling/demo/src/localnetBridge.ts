// `pnpm localnet:bridge [amount-usdc]`: a Base → Arbitrum bridge against the running
// `pnpm localnet` beds and the API and keeper started with its settings (`.data/localnet.env`).
// The demo wallet (anvil's second account) signs every leg; the owner key is the one
// `pnpm localnet` put in `SVC_API_KEYS`. `API_URL` overrides `http://127.0.0.1:<PORT or 3000>`.
// Exit 1 on any problem (a blocked plan, no attestation, no credit or webhook within 30 s).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import { runBridgeAgent } from './bridgeAgent';
import { startWebhookReceiver } from './webhookReceiver';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const ENV_FILE = path.join(ROOT, '.data', 'localnet.env');
const print = (line: string) => process.stdout.write(`${line}\n`);

/** The settings `pnpm localnet` wrote (NAME=value or NAME='value' lines). */
function readLocalnetEnv(): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(ENV_FILE, 'utf8');
  } catch {
    throw new Error(`no ${path.relative(ROOT, ENV_FILE)}: start \`pnpm localnet\` first`);
  }
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^([A-Z0-9_]+)=(?:'(.*)'|(.*))$/.exec(line))
      .flatMap((match) => (match?.[1] ? [[match[1], match[2] ?? match[3] ?? '']] : [])),
  );
}

/** `12.5` USDC → 12500000 micros (at most 6 decimals). */
function usdcToMicros(text: string): bigint {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match?.[1]) throw new Error(`amount: ${text} is not a USDC amount (e.g. 25 or 12.5)`);
  return BigInt(match[1]) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0') || '0');
}

async function main(): Promise<void> {
  const env = readLocalnetEnv();
  const keys = JSON.parse(env['SVC_API_KEYS'] ?? '[]') as { key: string; role: string }[];
  const ownerKey = keys.find((one) => one.role === 'owner')?.key;
  const base = env['SVC_BASE_RPC_URL'];
  const arbitrum = env['SVC_ARBITRUM_RPC_URL'];
  if (!ownerKey || !base || !arbitrum) {
    throw new Error(`${ENV_FILE} has no owner key or anvil URLs: restart \`pnpm localnet\``);
  }
  const baseUrl = process.env['API_URL'] ?? `http://127.0.0.1:${process.env['PORT'] ?? 3000}`;
  const receiver = await startWebhookReceiver();
  try {
    const result = await runBridgeAgent({
      baseUrl,
      ownerKey,
      privateKey: anvilAccount(1).privateKey,
      rpcUrls: { base, arbitrum },
      amountMicros: usdcToMicros(process.argv[2] ?? '25'),
      webhookReceiver: receiver,
      print,
    });
    print(`bridge ${result.planId} delivered on Arbitrum by ${result.mintTx}`);
  } finally {
    await receiver.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `localnet:bridge failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
