#!/usr/bin/env python3
"""Writes a copy of libnode.so.108 whose references to its own symbols need no lookup.

Why: libnode is linked with BIND_NOW and without -Bsymbolic, so the dynamic
loader looks up ~60,000 symbols (long C++ names) on every start of every
process that links it. On the 2-core dev VM that is about half of hostloop's
start-up time (`perf record` on `hostloop empty.mjs`: _dl_lookup_symbol_x,
do_lookup_x, check_match), and it pages in libnode's 5 MB of symbol names.

What: a relocation against a symbol that libnode itself defines
(R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT) becomes R_X86_64_RELATIVE
with the symbol's offset folded into the addend. glibc's loader applies a
RELATIVE relocation found anywhere in .rela.dyn or .rela.plt (when binding now)
as base + addend, without a lookup. The copy's contents are otherwise byte for
byte the original. 53k of the 60k lookups go; the rest are symbols libnode
takes from other libraries, and the ones left alone below.

What it changes: a converted reference no longer goes through the global
scope, so it binds to libnode's definition even when an object searched before
libnode (the executable, LD_PRELOAD, libraries the executable lists before
libnode) defines the same name. Without the copy, the loader picks the first
definition; libnode comes before every library it depends on, so only those
earlier objects can make a difference:
- STB_GLOBAL symbols: defining one of libnode's strong symbols in the
  executable would be deliberate interposition. `--check` refuses binaries
  that do it; none of ours do, and neither do the ASan and UBSan runtimes.
  (An executable that copies a libnode object with R_X86_64_COPY owns it, so
  libnode must use its copy: `--check` refuses that too, weak or strong.)
- STB_WEAK functions: all of libnode's weak symbols are C++ vague linkage
  (inline functions, template instantiations, vtables, typeinfo). An
  executable defines some of the same functions (hostloop exports ~40,
  std::string and shared_ptr members among them) and libnode is bound to
  those today; by the one-definition rule both copies are the same code, so
  libnode may call its own. Weak objects (vtables, typeinfo, 2.4k
  relocations) are left alone: an executable may own one through a copy
  relocation (the ASan build of hostloop does, for
  v8::ValueSerializer::Delegate's vtable), and then libnode must use it.
- STB_GNU_UNIQUE (a function's static locals), IFUNC and TLS symbols are
  left alone.

Usage:
  prelink_libnode.py IN OUT            write the converted copy, print counts
  prelink_libnode.py --check LIB EXE...  exit 1 if EXE... define a strong symbol
                                         that the copy binds to libnode's own
"""
import os
import struct
import sys

SHT_DYNSYM = 11
SHT_RELA = 4
STB_GLOBAL, STB_WEAK = 1, 2
STT_NOTYPE, STT_OBJECT, STT_FUNC = 0, 1, 2
SHN_UNDEF = 0
R_X86_64_64, R_X86_64_COPY, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT, R_X86_64_RELATIVE = 1, 5, 6, 7, 8
CONVERTIBLE = (R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT)


class Elf:
    def __init__(self, data):
        if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
            raise ValueError('not a little-endian ELF64 file')
        self.data = data
        (self.machine,) = struct.unpack_from('<H', data, 18)
        shoff, = struct.unpack_from('<Q', data, 40)
        shentsize, shnum = struct.unpack_from('<HH', data, 58)
        self.sections = []
        for i in range(shnum):
            (name, stype, flags, addr, off, size, link, info, align, entsize) = struct.unpack_from(
                '<IIQQQQIIQQ', data, shoff + i * shentsize)
            self.sections.append(dict(type=stype, offset=off, size=size, link=link, entsize=entsize))

    def dynsym(self):
        """[(name, bind, type, shndx, value)] of .dynsym, index = symbol index."""
        sec = next(s for s in self.sections if s['type'] == SHT_DYNSYM)
        strtab = self.sections[sec['link']]
        out = []
        for off in range(sec['offset'], sec['offset'] + sec['size'], 24):
            st_name, st_info, _other, st_shndx, st_value, _size = struct.unpack_from('<IBBHQQ', self.data, off)
            start = strtab['offset'] + st_name
            end = self.data.index(b'\0', start)
            out.append((self.data[start:end], st_info >> 4, st_info & 0xF, st_shndx, st_value))
        return out

    def rela_sections(self):
        return [s for s in self.sections if s['type'] == SHT_RELA]


def convertible_symbols(syms):
    """Indexes of symbols whose references may bind to libnode's own definition."""
    return {i for i, (name, bind, stype, shndx, _value) in enumerate(syms)
            if i and shndx != SHN_UNDEF and name
            and ((bind == STB_GLOBAL and stype in (STT_NOTYPE, STT_OBJECT, STT_FUNC))
                 or (bind == STB_WEAK and stype == STT_FUNC))}


def prelink(src, dst):
    data = bytearray(open(src, 'rb').read())
    elf = Elf(data)
    if elf.machine != 62:
        raise ValueError(f'{src}: not x86-64')
    syms = elf.dynsym()
    ok = convertible_symbols(syms)
    converted = kept = 0
    for sec in elf.rela_sections():
        for off in range(sec['offset'], sec['offset'] + sec['size'], 24):
            r_offset, r_info, r_addend = struct.unpack_from('<QQq', data, off)
            rtype, rsym = r_info & 0xFFFFFFFF, r_info >> 32
            if rtype not in CONVERTIBLE or rsym == 0:
                continue
            if rsym not in ok:
                kept += 1
                continue
            value = syms[rsym][4]
            addend = value + (r_addend if rtype == R_X86_64_64 else 0)
            struct.pack_into('<QQq', data, off, r_offset, R_X86_64_RELATIVE, addend)
            converted += 1
    tmp = dst + '.tmp'
    # Written a page at a time: one 47 MB write() leaves the page cache with
    # large folios, which the kernel maps whole on a fault, and hostloop's
    # peak RSS grew from 32 to 40 MB that way (measured on kernel 6.18).
    with open(tmp, 'wb') as f:
        view = memoryview(data)
        for start in range(0, len(data), 4096):
            f.write(view[start:start + 4096])
    os.chmod(tmp, 0o644)
    os.replace(tmp, dst)
    print(f'prelink_libnode: {converted} relocations made relative, {kept} still looked up')


def defined_dynamic_names(path):
    elf = Elf(open(path, 'rb').read())
    return {name for (name, _b, _t, shndx, _v) in elf.dynsym() if shndx != SHN_UNDEF and name}


def copy_relocated_names(path):
    """Names the executable holds through R_X86_64_COPY (it owns the object)."""
    elf = Elf(open(path, 'rb').read())
    syms = elf.dynsym()
    names = set()
    for sec in elf.rela_sections():
        for off in range(sec['offset'], sec['offset'] + sec['size'], 24):
            _offset, r_info, _addend = struct.unpack_from('<QQq', elf.data, off)
            if r_info & 0xFFFFFFFF == R_X86_64_COPY:
                names.add(syms[r_info >> 32][0])
    return names


def check(lib, exes):
    syms = Elf(open(lib, 'rb').read()).dynsym()
    converted = convertible_symbols(syms)
    strong = {syms[i][0] for i in converted if syms[i][1] == STB_GLOBAL}
    weak = {syms[i][0] for i in converted if syms[i][1] == STB_WEAK}
    clashes = []
    for exe in exes:
        names = defined_dynamic_names(exe)
        clashes += [f'{exe}: {name.decode()}' for name in sorted(names & strong)]
        clashes += [f'{exe}: {name.decode()} (copy relocation)'
                    for name in sorted(copy_relocated_names(exe) & weak)]  # none: weak objects stay
        shared = len(names & weak)
        if shared:
            print(f'prelink_libnode: {exe} also defines {shared} of libnode\'s weak '
                  '(vague-linkage) symbols; libnode uses its own copies')
    if clashes:
        print('prelink_libnode: these definitions would no longer interpose libnode\'s own:', file=sys.stderr)
        for line in clashes:
            print('  ' + line, file=sys.stderr)
        return 1
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == '--check':
        return check(argv[1], argv[2:])
    if len(argv) == 2:
        prelink(argv[0], argv[1])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
