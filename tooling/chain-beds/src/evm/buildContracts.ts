// `pnpm build:programs` in this package (turbo runs it before the tests): compiles the beds'
// Solidity contracts once into the on-disk cache compileContracts() reads, so no test file
// compiles them. The first bed a clean checkout started used to pay solc's compile inside a
// test, synchronously, while CI's other workers, lint and typecheck ran: the event loop held
// long enough that a second node started beside it (the CCTP bed's) missed its readiness read.
import { BED_CONTRACTS, compileContracts } from './compileContracts';

const started = Date.now();
compileContracts().then(
  () => {
    process.stdout.write(
      `chain-beds: ${BED_CONTRACTS.length} contracts compiled or cached in ${Date.now() - started} ms\n`,
    );
  },
  (error: unknown) => {
    process.stderr.write(`chain-beds: ${String(error)}\n`);
    process.exit(1);
  },
);
