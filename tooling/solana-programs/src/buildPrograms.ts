// `pnpm --filter @yieldrouter/solana-programs build:programs`: every programs/<name>/<name>.c
// becomes build/<name>.so (clang + our SBPFv0 link step). The .so files are build outputs.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { compileSbpfProgram } from './compileSbpfProgram';
import { PROGRAMS, programSource, programSoPath } from './programPaths';

function main(): void {
  for (const name of PROGRAMS) {
    const output = programSoPath(name);
    mkdirSync(path.dirname(output), { recursive: true });
    const linked = compileSbpfProgram({ source: programSource(name), output });
    process.stdout.write(
      `${path.relative(process.cwd(), output)}: ${linked.textSize} bytes of code, ${linked.rodataSize} of read-only data, syscalls ${linked.syscalls.join(' ')}\n`,
    );
  }
}

try {
  main();
} catch (error) {
  process.stderr.write(
    `build:programs failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
