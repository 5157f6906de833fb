/** One section of a relocatable ELF object. */
export interface ElfSection {
  readonly index: number;
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  /** Size from the header (for SHT_NOBITS there are no bytes in the file). */
  readonly size: number;
  readonly link: number;
  readonly info: number;
  readonly addralign: number;
  readonly data: Uint8Array;
}

/** One entry of `.symtab`. */
export interface ElfSymbol {
  readonly name: string;
  /** STT_* (low nibble of st_info). */
  readonly type: number;
  /** STB_* (high nibble of st_info). */
  readonly binding: number;
  readonly shndx: number;
  readonly value: bigint;
}

/** What the link step needs from a 64-bit little-endian relocatable object. */
export interface ElfObject {
  readonly machine: number;
  readonly sections: readonly ElfSection[];
  readonly symbols: readonly ElfSymbol[];
}

const SHT_SYMTAB = 2;
const SHT_NOBITS = 8;

function cString(bytes: Buffer, offset: number): string {
  const end = bytes.indexOf(0, offset);
  return bytes.toString('utf8', offset, end < 0 ? bytes.length : end);
}

/**
 * Reads the sections and the symbol table of an ELF64 little-endian relocatable object (what
 * `clang -c` writes). Throws on anything else.
 *
 * @example
 * const object = readElfObject(readFileSync('program.o'));
 */
export function readElfObject(input: Uint8Array): ElfObject {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.length);
  if (bytes.length < 64 || bytes.readUInt32BE(0) !== 0x7f454c46) {
    throw new Error('not an ELF file');
  }
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new Error('not a 64-bit little-endian ELF');
  if (bytes.readUInt16LE(16) !== 1) throw new Error('not a relocatable object (ET_REL)');
  const machine = bytes.readUInt16LE(18);
  const shoff = Number(bytes.readBigUInt64LE(40));
  const shentsize = bytes.readUInt16LE(58);
  const shnum = bytes.readUInt16LE(60);
  const shstrndx = bytes.readUInt16LE(62);

  const raw = Array.from({ length: shnum }, (_, index) => {
    const at = shoff + index * shentsize;
    const type = bytes.readUInt32LE(at + 4);
    const offset = Number(bytes.readBigUInt64LE(at + 24));
    const size = Number(bytes.readBigUInt64LE(at + 32));
    return {
      nameOffset: bytes.readUInt32LE(at),
      type,
      flags: Number(bytes.readBigUInt64LE(at + 8)),
      size,
      link: bytes.readUInt32LE(at + 40),
      info: bytes.readUInt32LE(at + 44),
      addralign: Number(bytes.readBigUInt64LE(at + 48)),
      data:
        type === SHT_NOBITS
          ? new Uint8Array(0)
          : new Uint8Array(bytes.buffer, bytes.byteOffset + offset, size),
    };
  });
  const names = raw[shstrndx]?.data;
  if (!names) throw new Error('no section name table');
  const nameTable = Buffer.from(names.buffer, names.byteOffset, names.length);
  const sections: ElfSection[] = raw.map(({ nameOffset, ...section }, index) => ({
    index,
    name: cString(nameTable, nameOffset),
    ...section,
  }));

  const symtab = sections.find((section) => section.type === SHT_SYMTAB);
  const strtab = symtab ? sections[symtab.link] : undefined;
  const symbols: ElfSymbol[] = [];
  if (symtab && strtab) {
    const table = Buffer.from(symtab.data.buffer, symtab.data.byteOffset, symtab.data.length);
    const strings = Buffer.from(strtab.data.buffer, strtab.data.byteOffset, strtab.data.length);
    for (let at = 0; at + 24 <= table.length; at += 24) {
      const info = table.readUInt8(at + 4);
      symbols.push({
        name: cString(strings, table.readUInt32LE(at)),
        type: info & 0xf,
        binding: info >> 4,
        shndx: table.readUInt16LE(at + 6),
        value: table.readBigUInt64LE(at + 8),
      });
    }
  }
  return { machine, sections, symbols };
}
