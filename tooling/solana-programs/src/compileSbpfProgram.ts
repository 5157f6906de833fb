import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { linkSbpfProgram } from './linkSbpfProgram';
import type { LinkedSbpfProgram } from './linkSbpfProgram';

/** Our C headers (the syscall declarations, the input parser, the token CPI helpers). */
export const PROGRAM_INCLUDE_DIR = path.resolve(__dirname, '..', 'include');

/**
 * The flags Debian's clang 14 needs for a Solana program: the BPF target at `-mcpu=v2` (v3's
 * 32-bit jumps are refused by the SBPFv0 verifier), freestanding, no builtins (no libc here).
 */
export const CLANG_SBPF_FLAGS = [
  '-target',
  'bpf',
  '-mcpu=v2',
  '-O2',
  '-fno-builtin',
  '-ffreestanding',
  '-nostdlib',
  '-Wall',
  '-Wextra',
  '-Werror',
  '-std=c11',
] as const;

export interface CompileSbpfProgramParameters {
  /** The C file (one translation unit: include the rest). */
  readonly source: string;
  /** Where to write the `.so`. */
  readonly output: string;
  /** The clang binary (default `clang`, or `$CLANG`). */
  readonly clang?: string;
}

/**
 * Compiles one C file with clang and links it with {@link linkSbpfProgram} into an SBPFv0 `.so`.
 *
 * @example
 * compileSbpfProgram({ source: 'programs/router/router.c', output: 'build/yield_router.so' });
 */
export function compileSbpfProgram(parameters: CompileSbpfProgramParameters): LinkedSbpfProgram {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sbpf-'));
  try {
    const object = path.join(scratch, 'program.o');
    execFileSync(
      parameters.clang ?? process.env['CLANG'] ?? 'clang',
      [...CLANG_SBPF_FLAGS, '-I', PROGRAM_INCLUDE_DIR, '-c', parameters.source, '-o', object],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const linked = linkSbpfProgram(readFileSync(object));
    // Written whole then renamed: a test worker loading the program never sees half a file.
    const partial = `${parameters.output}.${process.pid}.partial`;
    writeFileSync(partial, linked.elf);
    renameSync(partial, parameters.output);
    return linked;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
