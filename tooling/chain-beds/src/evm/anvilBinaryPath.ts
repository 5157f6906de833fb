import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ARCH: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' };

/**
 * Path of the anvil binary shipped by `@foundry-rs/anvil` (its per-platform optional package).
 * Resolved from the wrapper package, so no extra dependency is declared here.
 *
 * @example
 * spawn(anvilBinaryPath(), ['--version']);
 */
export function anvilBinaryPath(): string {
  const arch = ARCH[process.arch];
  if (!arch) throw new Error(`anvil: no binary for ${process.platform}/${process.arch}`);
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const binaryName = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  const fromWrapper = createRequire(require.resolve('@foundry-rs/anvil/package.json'));
  const binary = join(
    dirname(fromWrapper.resolve(`${platformPackage}/package.json`)),
    'bin',
    binaryName,
  );
  if (!existsSync(binary))
    throw new Error(`anvil: ${binary} is missing (was the install complete?)`);
  return binary;
}
