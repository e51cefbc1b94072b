#!/usr/bin/env python3
"""Regenerates the armv7 (Thumb) fixtures in Tests/SymbolicationTests/ThumbFixtures from its src/ folder.

No linker on Linux links armv7 Mach-O any more (ld64.lld refuses `-arch armv7`), so this script is the linker for
one small case: clang (the Swift toolchain's) compiles src/Ledger.c for armv7 iOS 9 with -g, and the script lays the
object out as an embedded framework's dylib, `LedgerCore`, and its dSYM, as ld64 and dsymutil would:

- the object's __text moves by one constant, D (the file offset chosen for __text, a multiple of 4), so every
  pc-relative branch inside __text keeps its encoding; only the interworking calls the linker must rewrite are
  rewritten (a Thumb `bl` to an ARM function becomes `blx`, an ARM `bl` to a Thumb function becomes `blx`), and
  the ARM calls to external symbols get their displacement;
- the symbol table keeps the object's flags: N_ARM_THUMB_DEF marks Thumb functions, whose addresses are even;
- the dSYM holds the object's DWARF with every address relocation against __text moved by D.

Any relocation of another kind stops the script: a source change that needs a real linker fails loudly instead of
producing a wrong fixture.

Usage: Scripts/make-thumb-fixtures.py   (needs the Swift toolchain's clang; llvm-nm and llvm-objdump for the
manifest). Writes LedgerCore, LedgerCore.dSYM, expected/LedgerCore.nm and MANIFEST.md.
"""

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "SymbolicationTests", "ThumbFixtures")
NAME = "LedgerCore"
INSTALL_NAME = "@rpath/LedgerCore.framework/LedgerCore"

MH_MAGIC = 0xFEEDFACE
CPU_TYPE_ARM = 12
CPU_SUBTYPE_ARM_V7 = 9
MH_DYLIB = 6
MH_DSYM = 0xA
MH_NOUNDEFS, MH_DYLDLINK, MH_TWOLEVEL, MH_NO_REEXPORTED_DYLIBS = 0x1, 0x4, 0x80, 0x100000
LC_SEGMENT, LC_SYMTAB, LC_DYSYMTAB, LC_ID_DYLIB, LC_UUID = 0x1, 0x2, 0xB, 0xD, 0x1B
LC_VERSION_MIN_IPHONEOS = 0x25
N_STAB, N_EXT, N_SECT, N_TYPE = 0xE0, 0x01, 0x0E, 0x0E
N_ARM_THUMB_DEF = 0x0008
ARM_RELOC_VANILLA, ARM_RELOC_BR24, ARM_THUMB_RELOC_BR22 = 0, 5, 6
S_ATTR_PURE_INSTRUCTIONS, S_ATTR_SOME_INSTRUCTIONS = 0x80000000, 0x00000400
PAGE = 0x1000


def fail(message):
    sys.exit(f"make-thumb-fixtures: {message}")


def find_tool(*candidates):
    for candidate in candidates:
        path = shutil.which(candidate)
        if path:
            return path
    fail(f"missing tool: {' or '.join(candidates)}")


def name16(text):
    return text.encode().ljust(16, b"\0")


def align(value, to):
    return (value + to - 1) // to * to


class MachOObject:
    """The parts of a 32-bit little-endian MH_OBJECT this script uses."""

    def __init__(self, data):
        self.data = data
        magic, cputype, subtype, filetype, ncmds, _, _ = struct.unpack_from("<7I", data, 0)
        if magic != MH_MAGIC or cputype != CPU_TYPE_ARM or filetype != 1:
            fail("the object is not a 32-bit ARM MH_OBJECT")
        self.subtype = subtype
        self.sections = []
        self.symbols = []
        offset = 28
        for _ in range(ncmds):
            cmd, size = struct.unpack_from("<2I", data, offset)
            if cmd == LC_SEGMENT:
                nsects = struct.unpack_from("<I", data, offset + 48)[0]
                for k in range(nsects):
                    at = offset + 56 + k * 68
                    sect, seg = data[at:at + 16].rstrip(b"\0").decode(), data[at + 16:at + 32].rstrip(b"\0").decode()
                    addr, sz, off, algn, reloff, nreloc, flags = struct.unpack_from("<7I", data, at + 32)
                    self.sections.append(dict(sect=sect, seg=seg, addr=addr, size=sz, offset=off, align=algn,
                                              reloff=reloff, nreloc=nreloc, flags=flags))
            elif cmd == LC_SYMTAB:
                symoff, nsyms, stroff, _ = struct.unpack_from("<4I", data, offset + 8)
                for k in range(nsyms):
                    strx, ntype, nsect, ndesc, value = struct.unpack_from("<IBBhI", data, symoff + k * 12)
                    end = data.index(b"\0", stroff + strx)
                    self.symbols.append(dict(name=data[stroff + strx:end].decode(), type=ntype, sect=nsect,
                                             desc=ndesc, value=value))
            offset += size

    def section(self, seg, sect):
        for index, s in enumerate(self.sections):
            if s["seg"] == seg and s["sect"] == sect:
                return index + 1, s
        fail(f"no {seg},{sect} in the object")

    def contents(self, s):
        return bytearray(self.data[s["offset"]:s["offset"] + s["size"]])

    def relocations(self, s):
        result = []
        for k in range(s["nreloc"]):
            address, info = struct.unpack_from("<iI", self.data, s["reloff"] + k * 8)
            if address < 0:
                fail(f"a scattered relocation in {s['sect']}: the source needs a real linker")
            result.append(dict(address=address, symbolnum=info & 0xFFFFFF, pcrel=(info >> 24) & 1,
                               length=(info >> 25) & 3, extern=(info >> 27) & 1, type=info >> 28))
        return result


def thumb_branch_target(code, at, pc):
    """The target of the 32-bit Thumb BL/BLX at `at` whose pc is `pc` (the address of the instruction)."""
    first, second = struct.unpack_from("<HH", code, at)
    s = (first >> 10) & 1
    j1, j2 = (second >> 13) & 1, (second >> 11) & 1
    i1, i2 = 1 - (j1 ^ s), 1 - (j2 ^ s)
    imm = (s << 24) | (i1 << 23) | (i2 << 22) | ((first & 0x3FF) << 12) | ((second & 0x7FF) << 1)
    if s:
        imm -= 1 << 25
    is_blx = not (second >> 12) & 1
    base = (pc + 4) & ~3 if is_blx else pc + 4
    return base + imm


def encode_thumb_blx(pc, target):
    """Thumb BLX (immediate) from `pc` to the ARM function at `target`."""
    offset = target - ((pc + 4) & ~3)
    if offset % 4 or not -(1 << 24) <= offset < (1 << 24):
        fail(f"a Thumb blx at {pc:#x} cannot reach {target:#x}")
    value = offset & 0x1FFFFFF
    s, i1, i2 = (value >> 24) & 1, (value >> 23) & 1, (value >> 22) & 1
    j1, j2 = (1 - i1) ^ s, (1 - i2) ^ s
    first = 0xF000 | (s << 10) | ((value >> 12) & 0x3FF)
    second = 0xC000 | (j1 << 13) | (j2 << 11) | ((value >> 1) & 0x7FE)
    return struct.pack("<HH", first, second)


def encode_arm_call(pc, target, to_thumb):
    """ARM BL (to ARM code) or BLX (to Thumb code) from `pc` to `target`."""
    offset = target - (pc + 8)
    if not -(1 << 25) <= offset < (1 << 25) or (not to_thumb and offset % 4) or offset % 2:
        fail(f"an ARM call at {pc:#x} cannot reach {target:#x}")
    if to_thumb:
        return struct.pack("<I", 0xFA000000 | (((offset >> 1) & 1) << 24) | ((offset >> 2) & 0xFFFFFF))
    return struct.pack("<I", 0xEB000000 | ((offset >> 2) & 0xFFFFFF))


def link(obj, text_offset):
    """The dylib's __text bytes (branches fixed for the shift) and its symbols (name, type, desc, address)."""
    text_index, text = obj.section("__TEXT", "__text")
    code = obj.contents(text)
    shift = text_offset - text["addr"]
    functions = {}
    symbols = []
    for symbol in obj.symbols:
        if symbol["type"] & N_STAB or symbol["type"] & N_TYPE != N_SECT:
            continue
        if symbol["sect"] != text_index:
            fail(f"{symbol['name']} is outside __text: the source must not define data")
        address = symbol["value"] + shift
        functions[symbol["value"]] = bool(symbol["desc"] & N_ARM_THUMB_DEF)
        symbols.append(dict(name=symbol["name"], type=symbol["type"], desc=symbol["desc"], value=address))
    for reloc in obj.relocations(text):
        at = reloc["address"]
        pc = at + text_offset
        if reloc["type"] == ARM_THUMB_RELOC_BR22 and not reloc["extern"] and reloc["symbolnum"] == text_index:
            target = thumb_branch_target(code, at, at + text["addr"])
            if target in functions and not functions[target]:
                code[at:at + 4] = encode_thumb_blx(pc, target + shift)
        elif reloc["type"] == ARM_RELOC_BR24 and reloc["extern"]:
            symbol = obj.symbols[reloc["symbolnum"]]
            if symbol["type"] & N_TYPE != N_SECT or symbol["sect"] != text_index:
                fail(f"the ARM call at {at:#x} goes to {symbol['name']}, outside this object")
            word = struct.unpack_from("<I", code, at)[0]
            imm = word & 0xFFFFFF
            addend = ((imm - (1 << 24)) if imm & 0x800000 else imm) * 4 + at + 8
            target = symbol["value"] + addend + shift
            code[at:at + 4] = encode_arm_call(pc, target, bool(symbol["desc"] & N_ARM_THUMB_DEF))
        else:
            fail(f"a relocation of type {reloc['type']} at {at:#x} in __text: the source needs a real linker")
    return code, symbols, shift


def dwarf_sections(obj, shift):
    """The object's __DWARF sections, address relocations against __text moved by `shift`."""
    text_index, _ = obj.section("__TEXT", "__text")
    result = []
    for s in obj.sections:
        if s["seg"] != "__DWARF":
            continue
        body = obj.contents(s)
        for reloc in obj.relocations(s):
            if reloc["type"] != ARM_RELOC_VANILLA or reloc["extern"] or reloc["pcrel"] or reloc["length"] != 2 \
                    or reloc["symbolnum"] != text_index:
                fail(f"a relocation the script does not apply in {s['sect']} at {reloc['address']:#x}")
            value = struct.unpack_from("<I", body, reloc["address"])[0]
            struct.pack_into("<I", body, reloc["address"], value + shift)
        result.append((s["sect"], bytes(body), s["align"]))
    return result


def symbol_table(symbols):
    """nlist entries (locals first, then external definitions, as ld64 orders them) and the string table."""
    ordered = sorted(symbols, key=lambda s: (bool(s["type"] & N_EXT), s["value"], s["name"]))
    strings = bytearray(b" \0")
    entries = bytearray()
    for symbol in ordered:
        entries += struct.pack("<IBBhI", len(strings), symbol["type"], 1, symbol["desc"], symbol["value"])
        strings += symbol["name"].encode() + b"\0"
    locals_count = sum(1 for s in ordered if not s["type"] & N_EXT)
    return bytes(entries), bytes(strings.ljust(align(len(strings), 4), b"\0")), len(ordered), locals_count


def segment(name, vmaddr, vmsize, fileoff, filesize, prot, sections):
    body = b"".join(
        name16(sect) + name16(name) + struct.pack("<9I", addr, size, offset, algn, 0, 0, flags, 0, 0)
        for sect, addr, size, offset, algn, flags in sections)
    return struct.pack("<2I", LC_SEGMENT, 56 + len(body)) + name16(name) + struct.pack(
        "<8I", vmaddr, vmsize, fileoff, filesize, prot, prot, len(sections), 0) + body


def header(filetype, commands, flags):
    return struct.pack("<7I", MH_MAGIC, CPU_TYPE_ARM, CPU_SUBTYPE_ARM_V7, filetype, len(commands),
                       sum(len(c) for c in commands), flags)


def build(obj, text_offset):
    code, symbols, shift = link(obj, text_offset)
    entries, strings, count, locals_count = symbol_table(symbols)
    uuid = bytearray(hashlib.md5(bytes(code) + entries + strings + INSTALL_NAME.encode()).digest())
    uuid[6] = (uuid[6] & 0x0F) | 0x30
    uuid[8] = (uuid[8] & 0x3F) | 0x80
    text_vmsize = align(text_offset + len(code), PAGE)
    text_section = ("__text", text_offset, len(code), text_offset, 2, S_ATTR_PURE_INSTRUCTIONS | S_ATTR_SOME_INSTRUCTIONS)
    linkedit = text_vmsize
    symoff, stroff = linkedit, linkedit + len(entries)
    linkedit_size = len(entries) + len(strings)
    install = INSTALL_NAME.encode() + b"\0"
    id_dylib = struct.pack("<6I", LC_ID_DYLIB, 24 + align(len(install), 4), 24, 2, 0x10000, 0x10000) \
        + install.ljust(align(len(install), 4), b"\0")
    uuid_command = struct.pack("<2I", LC_UUID, 24) + bytes(uuid)
    symtab = struct.pack("<6I", LC_SYMTAB, 24, symoff, count, stroff, len(strings))
    dysymtab = struct.pack("<20I", LC_DYSYMTAB, 80, 0, locals_count, locals_count, count - locals_count, count, 0,
                           *([0] * 12))
    version_min = struct.pack("<4I", LC_VERSION_MIN_IPHONEOS, 16, 0x090000, 0x0A0000)
    commands = [
        segment("__TEXT", 0, text_vmsize, 0, text_vmsize, 5, [text_section]),
        segment("__LINKEDIT", linkedit, align(linkedit_size, PAGE), linkedit, linkedit_size, 1, []),
        id_dylib, uuid_command, version_min, symtab, dysymtab,
    ]
    head = header(MH_DYLIB, commands, MH_NOUNDEFS | MH_DYLDLINK | MH_TWOLEVEL | MH_NO_REEXPORTED_DYLIBS) \
        + b"".join(commands)
    if len(head) > text_offset:
        fail("the load commands do not fit before __text")
    dylib = head.ljust(text_offset, b"\0") + bytes(code)
    dylib = dylib.ljust(linkedit, b"\0") + entries + strings

    # The dSYM: the same UUID and symbols, __TEXT's sections as headers without contents, the DWARF in __DWARF.
    dwarf = dwarf_sections(obj, shift)
    dwarf_vmaddr = linkedit + align(linkedit_size, PAGE)
    commands_size = 0
    for attempt in range(2):
        cursor = align(28 + commands_size, PAGE)
        d_symoff, d_stroff = cursor, cursor + len(entries)
        cursor = align(d_stroff + len(strings), PAGE)
        dwarf_fileoff = cursor
        laid = []
        for sect, body, algn in dwarf:
            laid.append((sect, dwarf_vmaddr + cursor - dwarf_fileoff, len(body), cursor, algn, 0x02000000))
            cursor += len(body)
        dwarf_size = cursor - dwarf_fileoff
        d_commands = [
            uuid_command,
            struct.pack("<6I", LC_SYMTAB, 24, d_symoff, count, d_stroff, len(strings)),
            version_min,
            segment("__TEXT", 0, text_vmsize, 0, 0, 5, [text_section[:3] + (0,) + text_section[4:]]),
            segment("__LINKEDIT", linkedit, align(linkedit_size, PAGE), d_symoff, d_stroff + len(strings) - d_symoff,
                    1, []),
            segment("__DWARF", dwarf_vmaddr, align(dwarf_size, PAGE), dwarf_fileoff, dwarf_size, 7, laid),
        ]
        commands_size = sum(len(c) for c in d_commands)
    dsym = (header(MH_DSYM, d_commands, 0) + b"".join(d_commands)).ljust(d_symoff, b"\0") + entries + strings
    dsym = dsym.ljust(dwarf_fileoff, b"\0") + b"".join(body for _, body, _ in dwarf)
    return dylib, dsym


def main():
    toolchain = os.environ.get("SWIFT_TOOLCHAIN_BIN") or os.path.dirname(find_tool("swift"))
    clang = os.path.join(toolchain, "clang")
    nm = find_tool("llvm-nm", os.path.join(toolchain, "llvm-nm"))
    objdump = find_tool("llvm-objdump", os.path.join(toolchain, "llvm-objdump"))
    with tempfile.TemporaryDirectory() as work:
        obj_path = os.path.join(work, "Ledger.o")
        # -fdebug-prefix-map keeps the build folder out of the DWARF: the fixture is the same on every machine.
        subprocess.run([clang, "-target", "armv7-apple-ios9.0", "-mthumb", "-g", "-O1", "-ffreestanding",
                        "-fno-stack-protector", f"-fdebug-prefix-map={FIXTURES}/src=/Users/dev/LedgerCore",
                        "-c", os.path.join(FIXTURES, "src", "Ledger.c"), "-o", obj_path], check=True,
                       cwd=os.path.join(FIXTURES, "src"))
        with open(obj_path, "rb") as handle:
            obj = MachOObject(handle.read())
        dylib, dsym = build(obj, text_offset=PAGE)
    dwarf_dir = os.path.join(FIXTURES, f"{NAME}.dSYM", "Contents", "Resources", "DWARF")
    os.makedirs(dwarf_dir, exist_ok=True)
    os.makedirs(os.path.join(FIXTURES, "expected"), exist_ok=True)
    with open(os.path.join(FIXTURES, NAME), "wb") as handle:
        handle.write(dylib)
    with open(os.path.join(dwarf_dir, NAME), "wb") as handle:
        handle.write(dsym)
    with open(os.path.join(FIXTURES, f"{NAME}.dSYM", "Contents", "Info.plist"), "w") as handle:
        handle.write(INFO_PLIST)
    listing = subprocess.run([nm, "--defined-only", "-n", os.path.join(FIXTURES, NAME)], check=True,
                             capture_output=True, text=True).stdout
    with open(os.path.join(FIXTURES, "expected", f"{NAME}.nm"), "w") as handle:
        handle.write(listing)
    headers = subprocess.run([objdump, "--macho", "--private-headers", os.path.join(FIXTURES, NAME)], check=True,
                             capture_output=True, text=True).stdout
    uuid = next(line.split()[1] for line in headers.splitlines() if line.strip().startswith("uuid "))
    version = subprocess.run([clang, "--version"], check=True, capture_output=True, text=True).stdout.splitlines()[0]
    with open(os.path.join(FIXTURES, "MANIFEST.md"), "w") as handle:
        handle.write(MANIFEST.format(version=version, uuid=uuid, size=len(dylib), dsym_size=len(dsym)))
    print(f"fixtures written to {FIXTURES} (UUID {uuid})")


INFO_PLIST = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>CFBundleDevelopmentRegion</key>
\t<string>English</string>
\t<key>CFBundleIdentifier</key>
\t<string>com.apple.xcode.dsym.com.example.LedgerCore</string>
\t<key>CFBundleInfoDictionaryVersion</key>
\t<string>6.0</string>
\t<key>CFBundlePackageType</key>
\t<string>dSYM</string>
\t<key>CFBundleSignature</key>
\t<string>????</string>
\t<key>CFBundleShortVersionString</key>
\t<string>1.0</string>
\t<key>CFBundleVersion</key>
\t<string>1</string>
</dict>
</plist>
"""

MANIFEST = """# Thumb (armv7) fixtures: manifest

Generated by `Scripts/make-thumb-fixtures.py` (do not edit by hand; rerun the script). `src/Ledger.c` compiled
`-target armv7-apple-ios9.0 -mthumb -g -O1` by `{version}`, laid out by the script as an armv7 dylib with the
install name `@rpath/LedgerCore.framework/LedgerCore` and its dSYM (no linker on Linux links armv7 Mach-O; the
script's header says what it does in a linker's place).

| File | UUID | Size (bytes) |
|---|---|---|
| `LedgerCore` | `{uuid}` | {size} |
| `LedgerCore.dSYM/Contents/Resources/DWARF/LedgerCore` | `{uuid}` | {dsym_size} |

The report in `reports/` is written by hand around these addresses; `reports/expected/` holds what `symbolicate`
gives, checked frame by frame against llvm-symbolizer by `.ci/steps/symbolication-oracle.sh`.
"""

if __name__ == "__main__":
    main()
