import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair, TransactionInstruction } from '@solana/web3.js';
import { compileSbpfProgram } from './compileSbpfProgram';
import { SbpfLinkError, linkSbpfProgram } from './linkSbpfProgram';
import { ProgramHarness, address, programLogs } from './testing/programHarness';

const FIXTURE = path.join(__dirname, 'fixtures', 'link_fixture.c');

describe('linkSbpfProgram', () => {
  let scratch: string;
  let output: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'link-test-'));
    output = path.join(scratch, 'fixture.so');
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('writes an SBPFv0 shared object: ET_DYN, EM_BPF, e_flags 0, sections at their offsets', () => {
    const linked = compileSbpfProgram({ source: FIXTURE, output });
    const elf = Buffer.from(linked.elf);
    expect(elf.readUInt16LE(16)).toBe(3); // ET_DYN
    expect(elf.readUInt16LE(18)).toBe(247); // EM_BPF
    expect(elf.readUInt32LE(48)).toBe(0); // SBPFv0
    expect(linked.syscalls).toEqual(['sol_log_', 'sol_log_64_']);
    expect(linked.rodataSize).toBeGreaterThan(0);
  });

  it('loads in litesvm and runs strings, pointer tables, local calls and syscalls', () => {
    compileSbpfProgram({ source: FIXTURE, output });
    const harness = new ProgramHarness();
    const programId = Keypair.generate().publicKey;
    harness.svm.addProgramFromFile(address(programId), output);

    const run = (data: number[]) =>
      harness.send([new TransactionInstruction({ programId, keys: [], data: Buffer.from(data) })]);

    const beta = run([1, 2, 3]);
    expect(beta.error).toBeUndefined();
    // checksum([1, 2, 3]) = (1 * 31 + 2) * 31 + 3 = 1026 = 0x402
    expect(programLogs(beta)).toEqual([
      'fixture: hello from C',
      'greeting: beta',
      'suffix kept',
      '0x3, 0x402, 0x0, 0x0, 0x0',
    ]);
    expect(programLogs(run([0]))).toContain('greeting: alpha');

    const refused = run([0xff]);
    expect(refused.ok).toBe(false);
    expect(refused.error).toContain('Custom(42)');
  });

  it('refuses objects the loader would reject', () => {
    expect(() => linkSbpfProgram(new Uint8Array(16))).toThrow('not an ELF file');
  });

  it('refuses mutable globals', () => {
    const source = path.join(scratch, 'mutable.c');
    writeFileSync(
      source,
      'unsigned long counter;\nunsigned long entrypoint(const unsigned char *input) { counter += 1; return counter + input[0]; }\n',
    );
    expect(() => compileSbpfProgram({ source, output: path.join(scratch, 'm.so') })).toThrow(
      SbpfLinkError,
    );
  });
});
