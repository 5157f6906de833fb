import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';

/** Where the bed's Solidity sources live. */
export const CONTRACTS_DIR = join(__dirname, '..', '..', 'contracts');
/**
 * Where our product contracts live (the cage): beside the adapter that encodes calls to them,
 * in packages/chain-evm. Read by path, not by import: chain-evm's tests depend on the beds.
 */
export const PRODUCT_CONTRACTS_DIR = join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  'packages',
  'chain-evm',
  'contracts',
);
const CACHE_DIR = join(__dirname, '..', '..', 'node_modules', '.cache', 'chain-beds');

/** The contracts a bed deploys (helper contracts such as BedERC20 are compiled in). */
export const BED_CONTRACTS = [
  'TestUSDC',
  'TestVault4626',
  'TestSiloConfig',
  'SvcRegistry',
  'TestAavePool',
  'TestAToken',
  'TestToken',
  'TestPair',
  'YieldCage',
  'TestMessageTransmitterV2',
  'TestTokenMessengerV2',
  'TestFeeOnTransferToken',
  'TestSkimmingVault4626',
] as const;
export type BedContractName = (typeof BED_CONTRACTS)[number];

export interface EvmArtifact {
  readonly abi: Abi;
  /** Creation bytecode, 0x-prefixed. */
  readonly bytecode: Hex;
}

export type EvmArtifacts = Readonly<Record<BedContractName, EvmArtifact>>;

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const;

let memory: Promise<EvmArtifacts> | undefined;

/**
 * Compiles `contracts/*.sol` and the product contracts with npm solc (standard JSON, in process). Cached in memory, and on
 * disk under node_modules/.cache keyed by the sources, settings and solc version, so a test file
 * in a fresh jest module registry does not pay solc's ~1.5 s again.
 *
 * @example
 * const { TestUSDC } = await compileContracts();
 */
export function compileContracts(): Promise<EvmArtifacts> {
  memory ??= compileOrLoad().catch((error: unknown) => {
    memory = undefined;
    throw error;
  });
  return memory;
}

async function compileOrLoad(): Promise<EvmArtifacts> {
  const sources: Record<string, { content: string }> = {};
  for (const dir of [CONTRACTS_DIR, PRODUCT_CONTRACTS_DIR]) {
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith('.sol'))
      .sort()) {
      if (sources[file]) throw new Error(`solc: two sources named ${file}`);
      sources[file] = { content: readFileSync(join(dir, file), 'utf8') };
    }
  }
  const solcVersion = readSolcVersion();
  const key = createHash('sha256')
    .update(JSON.stringify({ solcVersion, SETTINGS, sources }))
    .digest('hex')
    .slice(0, 32);
  const cacheFile = join(CACHE_DIR, `evm-${key}.json`);
  const cached = readCache(cacheFile);
  if (cached) return cached;

  const { default: solc } = await import('solc');
  const compile: (input: string) => string = solc.compile;
  const output = JSON.parse(
    compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS })),
  ) as SolcOutput;
  const failures = (output.errors ?? []).filter((entry) => entry.severity === 'error');
  if (failures.length > 0) {
    throw new Error(`solc: ${failures.map((entry) => entry.formattedMessage).join('\n')}`);
  }
  const artifacts = pickArtifacts(output);
  writeCache(cacheFile, artifacts);
  return artifacts;
}

interface SolcOutput {
  readonly errors?: readonly { severity: string; formattedMessage: string }[];
  readonly contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>
  >;
}

function pickArtifacts(output: SolcOutput): EvmArtifacts {
  const found = new Map<string, EvmArtifact>();
  for (const contracts of Object.values(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(contracts)) {
      found.set(name, { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` });
    }
  }
  const artifact = (name: BedContractName): EvmArtifact => {
    const entry = found.get(name);
    if (!entry || entry.bytecode === '0x') throw new Error(`solc: no bytecode for ${name}`);
    return entry;
  };
  return Object.fromEntries(BED_CONTRACTS.map((name) => [name, artifact(name)])) as Record<
    BedContractName,
    EvmArtifact
  >;
}

function readSolcVersion(): string {
  const manifest = JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')) as {
    version?: unknown;
  };
  return String(manifest.version);
}

function readCache(file: string): EvmArtifacts | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<EvmArtifacts>;
    return BED_CONTRACTS.every((name) => parsed[name]?.bytecode.startsWith('0x'))
      ? (parsed as EvmArtifacts)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a read-only checkout still works, it just compiles every time. */
function writeCache(file: string, artifacts: EvmArtifacts): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(artifacts));
    renameSync(temporary, file);
  } catch {
    // caching is an optimisation only
  }
}
