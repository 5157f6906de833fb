import { readElfObject } from './readElfObject';
import type { ElfSection } from './readElfObject';

/** Why a clang object cannot become a program the SBPFv0 loader accepts. */
export class SbpfLinkError extends Error {
  override readonly name = 'SbpfLinkError';
}

// ELF constants (System V gABI and the BPF psABI).
const ET_DYN = 3;
const EM_BPF = 247;
const SHT_PROGBITS = 1;
const SHT_STRTAB = 3;
const SHT_NOBITS = 8;
const SHT_REL = 9;
const SHT_DYNAMIC = 6;
const SHT_DYNSYM = 11;
const SHF_WRITE = 0x1;
const SHF_ALLOC = 0x2;
const SHF_EXECINSTR = 0x4;
const SHN_UNDEF = 0;
const STT_FUNC = 2;
const STT_SECTION = 3;
const STB_GLOBAL = 1;
const DT_NULL = 0;
const DT_STRTAB = 5;
const DT_SYMTAB = 6;
const DT_STRSZ = 10;
const DT_SYMENT = 11;
const DT_REL = 17;
const DT_RELSZ = 18;
const DT_RELENT = 19;
const R_BPF_64_64 = 1;
const R_BPF_64_ABS64 = 2;
const R_BPF_64_32 = 10;

const INSN = 8;
/** Where the loader maps the program's read-only image (text and rodata) in the VM. */
export const SBPF_PROGRAM_START = 0x1_0000_0000n;

/** The linked program and what the link step decided, for tests and build logs. */
export interface LinkedSbpfProgram {
  /** The `.so` bytes: an SBPFv0 shared object. */
  readonly elf: Uint8Array;
  /** Syscalls the program calls by name (resolved by the loader through `.dynsym`). */
  readonly syscalls: readonly string[];
  readonly textSize: number;
  readonly rodataSize: number;
}

interface Placed {
  readonly section: ElfSection;
  /** Offset of the input section inside the output `.text` or `.rodata`. */
  readonly offset: number;
}

const align = (value: number, to: number): number => Math.ceil(value / to) * to;

function concatenate(sections: readonly ElfSection[]): { bytes: Uint8Array; placed: Placed[] } {
  let size = 0;
  const placed: Placed[] = [];
  for (const section of sections) {
    size = align(size, Math.max(1, section.addralign));
    placed.push({ section, offset: size });
    size += section.data.length;
  }
  const bytes = new Uint8Array(size);
  for (const { section, offset } of placed) bytes.set(section.data, offset);
  return { bytes, placed };
}

/** A byte buffer the ELF writer appends to, keeping each piece at its alignment. */
class ElfImage {
  private chunks: { offset: number; bytes: Uint8Array }[] = [];
  size = 0;

  place(bytes: Uint8Array, alignment: number): number {
    const offset = align(this.size, alignment);
    this.chunks.push({ offset, bytes });
    this.size = offset + bytes.length;
    return offset;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    for (const { offset, bytes } of this.chunks) out.set(bytes, offset);
    return out;
  }
}

class StringTable {
  private readonly parts: Buffer[] = [Buffer.alloc(1)];
  private size = 1;
  private readonly seen = new Map<string, number>();

  add(text: string): number {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    const offset = this.size;
    const bytes = Buffer.from(`${text}\0`, 'utf8');
    this.parts.push(bytes);
    this.size += bytes.length;
    this.seen.set(text, offset);
    return offset;
  }

  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.parts));
  }
}

interface OutputSection {
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly offset: number;
  readonly size: number;
  readonly addr: number;
  readonly link: number;
  readonly info: number;
  readonly addralign: number;
  readonly entsize: number;
}

/**
 * Links one relocatable object from `clang -target bpf -mcpu=v2 -c` into the oldest program
 * format the Solana loader accepts (SBPFv0): an `ET_DYN` ELF for `EM_BPF` with `e_flags` 0 and
 * the sections `.text`, `.rodata`, `.dynamic`, `.dynsym`, `.dynstr`, `.rel.dyn`, each loaded at
 * an address equal to its file offset.
 *
 * What the link step resolves itself (so the loader has nothing to guess):
 * - `lddw` of read-only data (`R_BPF_64_64`) and pointers stored in read-only data
 *   (`R_BPF_64_ABS64`) become absolute VM addresses, `0x100000000 + address`;
 * - calls to functions of the object (`R_BPF_64_32` against a defined symbol) become
 *   pc-relative `call imm`, which the loader registers without a relocation;
 * - calls to undefined symbols are syscalls: `call -1` plus an `R_BPF_64_32` entry in `.rel.dyn`
 *   against the name in `.dynsym` (the loader hashes the name).
 *
 * Refused: writable data (`.data`, `.bss`: the loader rejects mutable globals), unknown
 * relocation types, and an object without a global `entrypoint` function.
 *
 * @example
 * const { elf } = linkSbpfProgram(readFileSync('router.o'));
 * writeFileSync('router.so', elf);
 */
export function linkSbpfProgram(objectBytes: Uint8Array): LinkedSbpfProgram {
  const object = readElfObject(objectBytes);
  if (object.machine !== EM_BPF) throw new SbpfLinkError('not a BPF object (e_machine)');

  const allocated = object.sections.filter(
    (section) => section.flags & SHF_ALLOC && section.data.length + section.size > 0,
  );
  for (const section of allocated) {
    if (section.flags & SHF_WRITE || section.type === SHT_NOBITS) {
      throw new SbpfLinkError(
        `writable section ${section.name} (${section.size} bytes): SBPFv0 has no mutable globals; use the stack or the heap`,
      );
    }
  }
  const textSections = allocated.filter(
    (section) => section.type === SHT_PROGBITS && section.flags & SHF_EXECINSTR,
  );
  const rodataSections = allocated.filter(
    (section) => section.type === SHT_PROGBITS && !(section.flags & SHF_EXECINSTR),
  );
  if (textSections.length === 0) throw new SbpfLinkError('the object has no code');

  const text = concatenate(textSections);
  const rodata = concatenate(rodataSections);

  // Layout: ELF header, .text, .rodata (the loader's read-only image), then the dynamic tables.
  const EHDR_SIZE = 64;
  const textOffset = align(EHDR_SIZE, INSN);
  const rodataOffset = align(textOffset + text.bytes.length, 8);
  const outputOffsetOf = new Map<number, number>();
  for (const { section, offset } of text.placed)
    outputOffsetOf.set(section.index, textOffset + offset);
  for (const { section, offset } of rodata.placed) {
    outputOffsetOf.set(section.index, rodataOffset + offset);
  }

  const symbolAddress = (symbolIndex: number): number | undefined => {
    const symbol = object.symbols[symbolIndex];
    if (!symbol || symbol.shndx === SHN_UNDEF) return undefined;
    const base = outputOffsetOf.get(symbol.shndx);
    if (base === undefined) {
      throw new SbpfLinkError(`symbol ${symbol.name || symbolIndex} is in a section not linked`);
    }
    return base + Number(symbol.value);
  };

  const syscalls: string[] = [];
  const syscallRelocations: { offset: number; symbol: number }[] = [];
  const syscallIndex = (name: string): number => {
    const known = syscalls.indexOf(name);
    if (known >= 0) return known + 1;
    syscalls.push(name);
    return syscalls.length;
  };

  const textView = Buffer.from(text.bytes.buffer, text.bytes.byteOffset, text.bytes.length);
  const rodataView = Buffer.from(rodata.bytes.buffer, rodata.bytes.byteOffset, rodata.bytes.length);
  for (const relocations of object.sections.filter((section) => section.type === SHT_REL)) {
    const target = object.sections[relocations.info];
    if (!target || !(target.flags & SHF_ALLOC)) continue;
    const inText = text.placed.find((placed) => placed.section.index === target.index);
    const inRodata = rodata.placed.find((placed) => placed.section.index === target.index);
    if (!inText && !inRodata) continue;
    for (let at = 0; at + 16 <= relocations.data.length; at += 16) {
      const entry = Buffer.from(relocations.data.buffer, relocations.data.byteOffset + at, 16);
      const rOffset = Number(entry.readBigUInt64LE(0));
      const type = entry.readUInt32LE(8);
      const symbolIndex = entry.readUInt32LE(12);
      const symbol = object.symbols[symbolIndex];
      const name = symbol?.name ?? `#${symbolIndex}`;
      if (inText) {
        const local = inText.offset + rOffset;
        if (type === R_BPF_64_64) {
          const address = symbolAddress(symbolIndex);
          if (address === undefined) throw new SbpfLinkError(`undefined data symbol ${name}`);
          const absolute =
            SBPF_PROGRAM_START + BigInt(address) + BigInt(textView.readInt32LE(local + 4));
          textView.writeUInt32LE(Number(absolute & 0xffff_ffffn), local + 4);
          textView.writeUInt32LE(Number(absolute >> 32n), local + INSN + 4);
        } else if (type === R_BPF_64_32) {
          const address = symbolAddress(symbolIndex);
          if (address === undefined) {
            textView.writeInt32LE(-1, local + 4);
            syscallRelocations.push({ offset: textOffset + local, symbol: syscallIndex(name) });
          } else {
            // A section symbol carries the callee's offset in the instruction (in slots, minus 1).
            const addend =
              symbol?.type === STT_SECTION ? (textView.readInt32LE(local + 4) + 1) * INSN : 0;
            const callee = (address + addend - textOffset) / INSN;
            const caller = local / INSN;
            if (!Number.isInteger(callee)) throw new SbpfLinkError(`misaligned call to ${name}`);
            textView.writeInt32LE(callee - caller - 1, local + 4);
          }
        } else {
          throw new SbpfLinkError(`unsupported relocation type ${type} in code (${name})`);
        }
      } else if (inRodata) {
        const local = inRodata.offset + rOffset;
        if (type !== R_BPF_64_ABS64) {
          throw new SbpfLinkError(`unsupported relocation type ${type} in read-only data`);
        }
        const address = symbolAddress(symbolIndex);
        if (address === undefined) throw new SbpfLinkError(`undefined data symbol ${name}`);
        const addend = rodataView.readBigUInt64LE(local);
        rodataView.writeBigUInt64LE(SBPF_PROGRAM_START + BigInt(address) + addend, local);
      }
    }
  }

  const entry = object.symbols.find(
    (symbol) => symbol.name === 'entrypoint' && symbol.shndx !== SHN_UNDEF,
  );
  if (!entry || entry.type !== STT_FUNC) {
    throw new SbpfLinkError('no global function named entrypoint');
  }
  const entryAddress = symbolAddress(object.symbols.indexOf(entry));
  if (entryAddress === undefined) throw new SbpfLinkError('entrypoint is undefined');

  return {
    elf: writeSharedObject({
      text: text.bytes,
      rodata: rodata.bytes,
      textOffset,
      rodataOffset,
      entryAddress,
      syscalls,
      syscallRelocations,
    }),
    syscalls,
    textSize: text.bytes.length,
    rodataSize: rodata.bytes.length,
  };
}

interface SharedObjectParts {
  readonly text: Uint8Array;
  readonly rodata: Uint8Array;
  readonly textOffset: number;
  readonly rodataOffset: number;
  readonly entryAddress: number;
  readonly syscalls: readonly string[];
  readonly syscallRelocations: readonly { offset: number; symbol: number }[];
}

function writeSharedObject(parts: SharedObjectParts): Uint8Array {
  const image = new ElfImage();
  image.place(new Uint8Array(64), 8);
  const sections: OutputSection[] = [];
  const loaded = (
    name: string,
    type: number,
    flags: number,
    bytes: Uint8Array,
    alignment: number,
    extra: Partial<Pick<OutputSection, 'link' | 'info' | 'entsize'>> = {},
  ): number => {
    const offset = image.place(bytes, alignment);
    sections.push({
      name,
      type,
      flags,
      offset,
      size: bytes.length,
      addr: offset,
      link: extra.link ?? 0,
      info: extra.info ?? 0,
      addralign: alignment,
      entsize: extra.entsize ?? 0,
    });
    return offset;
  };

  if (
    loaded('.text', SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, parts.text, 8) !== parts.textOffset
  ) {
    throw new SbpfLinkError('internal: .text moved');
  }
  if (parts.rodata.length > 0) {
    if (loaded('.rodata', SHT_PROGBITS, SHF_ALLOC, parts.rodata, 8) !== parts.rodataOffset) {
      throw new SbpfLinkError('internal: .rodata moved');
    }
  }

  const dynstr = new StringTable();
  const dynsym = Buffer.alloc(24 * (parts.syscalls.length + 1));
  parts.syscalls.forEach((name, index) => {
    const at = 24 * (index + 1);
    dynsym.writeUInt32LE(dynstr.add(name), at);
    dynsym.writeUInt8((STB_GLOBAL << 4) | STT_FUNC, at + 4);
    // st_other 0, st_shndx SHN_UNDEF, st_value 0, st_size 0: resolved by the loader.
  });
  const rel = Buffer.alloc(16 * parts.syscallRelocations.length);
  parts.syscallRelocations.forEach(({ offset, symbol }, index) => {
    rel.writeBigUInt64LE(BigInt(offset), 16 * index);
    rel.writeBigUInt64LE((BigInt(symbol) << 32n) | BigInt(R_BPF_64_32), 16 * index + 8);
  });
  const dynstrBytes = dynstr.bytes();

  // Section indexes are fixed by the order below: .dynamic, .dynsym, .dynstr, .rel.dyn.
  const dynamicIndex = sections.length + 1;
  const dynsymIndex = dynamicIndex + 1;
  const dynstrIndex = dynamicIndex + 2;
  // The dynamic table points at addresses, so place the tables first and fill it in after.
  const dynamicEntries = parts.syscallRelocations.length > 0 ? 8 : 5;
  const dynamic = Buffer.alloc(16 * dynamicEntries);
  loaded('.dynamic', SHT_DYNAMIC, SHF_ALLOC, dynamic, 8, {
    link: dynstrIndex,
    entsize: 16,
  });
  const dynsymOffset = loaded('.dynsym', SHT_DYNSYM, SHF_ALLOC, dynsym, 8, {
    link: dynstrIndex,
    info: 1,
    entsize: 24,
  });
  const dynstrOffset = loaded('.dynstr', SHT_STRTAB, SHF_ALLOC, dynstrBytes, 1);
  let relOffset = 0;
  if (rel.length > 0) {
    relOffset = loaded('.rel.dyn', SHT_REL, SHF_ALLOC, rel, 8, { link: dynsymIndex, entsize: 16 });
  }
  const tags: [number, number][] = [
    [DT_SYMTAB, dynsymOffset],
    [DT_SYMENT, 24],
    [DT_STRTAB, dynstrOffset],
    [DT_STRSZ, dynstrBytes.length],
  ];
  if (rel.length > 0) tags.push([DT_REL, relOffset], [DT_RELSZ, rel.length], [DT_RELENT, 16]);
  tags.push([DT_NULL, 0]);
  tags.forEach(([tag, value], index) => {
    dynamic.writeBigUInt64LE(BigInt(tag), 16 * index);
    dynamic.writeBigUInt64LE(BigInt(value), 16 * index + 8);
  });

  const shstrtab = new StringTable();
  const names = sections.map((section) => shstrtab.add(section.name));
  const shstrtabName = shstrtab.add('.shstrtab');
  const shstrtabBytes = shstrtab.bytes();
  const shstrtabOffset = image.place(shstrtabBytes, 1);

  const headerCount = sections.length + 2;
  const headers = Buffer.alloc(64 * headerCount);
  const writeHeader = (index: number, nameOffset: number, section: OutputSection) => {
    const at = 64 * index;
    headers.writeUInt32LE(nameOffset, at);
    headers.writeUInt32LE(section.type, at + 4);
    headers.writeBigUInt64LE(BigInt(section.flags), at + 8);
    headers.writeBigUInt64LE(BigInt(section.addr), at + 16);
    headers.writeBigUInt64LE(BigInt(section.offset), at + 24);
    headers.writeBigUInt64LE(BigInt(section.size), at + 32);
    headers.writeUInt32LE(section.link, at + 40);
    headers.writeUInt32LE(section.info, at + 44);
    headers.writeBigUInt64LE(BigInt(section.addralign), at + 48);
    headers.writeBigUInt64LE(BigInt(section.entsize), at + 56);
  };
  sections.forEach((section, index) => writeHeader(index + 1, names[index] ?? 0, section));
  writeHeader(headerCount - 1, shstrtabName, {
    name: '.shstrtab',
    type: SHT_STRTAB,
    flags: 0,
    offset: shstrtabOffset,
    size: shstrtabBytes.length,
    addr: 0,
    link: 0,
    info: 0,
    addralign: 1,
    entsize: 0,
  });
  const headersOffset = image.place(headers, 8);

  const elf = image.bytes();
  const header = Buffer.from(elf.buffer, elf.byteOffset, 64);
  header.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0); // ELF64, little endian, version 1, SysV ABI
  header.writeUInt16LE(ET_DYN, 16);
  header.writeUInt16LE(EM_BPF, 18);
  header.writeUInt32LE(1, 20); // e_version
  header.writeBigUInt64LE(BigInt(parts.entryAddress), 24);
  header.writeBigUInt64LE(64n, 32); // e_phoff: no program headers (e_phnum 0)
  header.writeBigUInt64LE(BigInt(headersOffset), 40);
  header.writeUInt32LE(0, 48); // e_flags 0: SBPFv0
  header.writeUInt16LE(64, 52); // e_ehsize
  header.writeUInt16LE(56, 54); // e_phentsize
  header.writeUInt16LE(0, 56); // e_phnum
  header.writeUInt16LE(64, 58); // e_shentsize
  header.writeUInt16LE(headerCount, 60);
  header.writeUInt16LE(headerCount - 1, 62); // e_shstrndx
  return elf;
}
