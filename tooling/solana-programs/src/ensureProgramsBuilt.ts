import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROGRAM_INCLUDE_DIR, compileSbpfProgram } from './compileSbpfProgram';
import { PROGRAMS, programSoPath, programSource } from './programPaths';
import type { ProgramName } from './programPaths';

/** The newest modification time under `directory`, subfolders included (include/layouts/). */
const newestIn = (directory: string): number =>
  Math.max(
    ...readdirSync(directory).map((file) => {
      const entry = path.join(directory, file);
      const stats = statSync(entry);
      return stats.isDirectory() ? newestIn(entry) : stats.mtimeMs;
    }),
  );

/** The program's folder and those of the programs it builds on (`#include "../<name>/…"`). */
export function sourceFolders(name: ProgramName): string[] {
  const folder = path.dirname(programSource(name));
  const text = readFileSync(programSource(name), 'utf8');
  const included = [...text.matchAll(/^#include "\.\.\/([\w]+)\//gm)].map((match) =>
    path.resolve(folder, '..', match[1] as string),
  );
  return [folder, ...included];
}

function isStale(name: ProgramName): boolean {
  const output = programSoPath(name);
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return [...sourceFolders(name), PROGRAM_INCLUDE_DIR].some((folder) => newestIn(folder) > built);
}

/**
 * Builds every program whose `.so` is missing or older than its C sources (needs clang), and
 * returns the `.so` paths. The beds call it so `pnpm localnet` works on a fresh checkout.
 *
 * @example
 * const { yield_router } = ensureProgramsBuilt();
 */
export function ensureProgramsBuilt(): Record<ProgramName, string> {
  const paths = {} as Record<ProgramName, string>;
  for (const name of PROGRAMS) {
    const output = programSoPath(name);
    if (isStale(name)) {
      mkdirSync(path.dirname(output), { recursive: true });
      compileSbpfProgram({ source: programSource(name), output });
    }
    paths[name] = output;
  }
  return paths;
}
