import APMInspectCore
import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension DSYMStore {
    /// Finds the Mach-O files under the paths given and reads their headers.
    ///
    /// A file is recognised by its first bytes (Mach-O or fat magic, zip signature), never by its name, except
    /// inside a zip, where only entries in a dSYM's `Contents/Resources/DWARF/` folder are inflated (an archive of
    /// dSYMs holds little else, and inflating every entry of an unrelated archive would be wasted work).
    struct Discovery {
        let loader: any DebugImageLoader
        let limits: DSYMStoreLimits
        /// Keeps a slice each time it is found (`apm-inspect uuid` lists every copy); a store keeps one per UUID and
        /// architecture, the dSYM's where there is one.
        var keepsEveryCopy = false
        /// What earlier runs found in the files of folder sources (`--symbols DIR`), by the folder's path as given:
        /// a file unchanged since is not read again.
        var folderIndexes: [[UInt8]: DSYMFolderIndex] = [:]

        func index(_ paths: [RawPath]) -> (entries: [Entry], findings: [Diagnostic]) {
            let (entries, located) = indexLocated(paths)
            return (entries, located.map(\.joined))
        }

        /// ``index(_:)``, each finding beside the path it is about (the message without that path).
        func indexLocated(_ paths: [RawPath]) -> (entries: [Entry], findings: [LocatedFinding]) {
            var state = State()
            for path in paths {
                guard let info = Self.status(path) else {
                    state.finding(
                        .error,
                        .dsymCannotOpen,
                        path.display,
                        "cannot open: \(String(cString: strerror(errno)))"
                    )
                    continue
                }
                if info.st_mode & S_IFMT == S_IFDIR {
                    let (files, walked) = DirectoryWalker().files(in: [path])
                    for finding in walked {
                        state.finding(
                            finding.isError ? .warning : .note,
                            finding.code,
                            finding.path.display,
                            finding.message
                        )
                    }
                    var looked = 0
                    let folderIndex = folderIndexes[path.bytes]
                    for file in files {
                        guard looked < limits.maxFiles else {
                            state.finding(
                                .warning,
                                .dsymFileLimit,
                                path.display,
                                "more than \(limits.maxFiles) files: the rest were not searched for dSYMs"
                            )
                            break
                        }
                        looked += 1
                        guard let index = folderIndex, let info = Self.status(file) else {
                            consider(file, given: false, into: &state)
                            continue
                        }
                        if let cached = index.entries(of: file, status: info) {
                            for (entry, inDSYM) in cached { state.merge(entry, inDSYM: inDSYM) }
                            continue
                        }
                        let (foundBefore, findingsBefore) = (state.found.count, state.findings.count)
                        consider(file, given: false, into: &state)
                        // A file that gave a finding is read again next time, in case it was being written.
                        if state.findings.count == findingsBefore {
                            index.record(file, status: info, entries: Array(state.found[foundBefore...]))
                        }
                    }
                } else {
                    consider(path, given: true, into: &state)
                }
            }
            if state.entries.isEmpty {
                state.finding(
                    .warning,
                    .dsymNoneFound,
                    paths.map(\.display).joined(separator: ", "),
                    "no dSYM or Mach-O file found"
                )
            }
            return (state.entries, state.findings)
        }

        /// Indexes one file: a Mach-O, a zip, or (when `given` directly) something that is neither.
        private func consider(_ path: RawPath, given: Bool, into state: inout State) {
            let prefix = Self.prefix(of: path, count: 8)
            if DyldCacheHeader.hasMagic(prefix) {
                indexDyldCache(path, given: given, into: &state)
            } else if ZipReader.looksLikeZip(prefix) {
                indexZip(path, into: &state)
            } else if Self.isMachO(prefix) {
                // The headers alone give the UUIDs; the whole file is read only when they cannot be read apart.
                if let slices = loader.slices(atPath: path) {
                    add(slices, location: .file(path), inDSYM: Self.isInDSYM(path.bytes), into: &state)
                    return
                }
                let bytes: [UInt8]
                do {
                    bytes = try FileReading.contents(at: path, maxBytes: limits.maxFileBytes)
                } catch {
                    state.finding(.warning, .input(error.code), path.display, error.message)
                    return
                }
                add(bytes, location: .file(path), inDSYM: Self.isInDSYM(path.bytes), into: &state)
            } else if given || Self.isInDSYM(path.bytes) {
                // A dSYM's DWARF folder holds only Mach-O files: anything else there is damage worth saying.
                state.finding(.warning, .dsymNotMachO, path.display, "not a dSYM, a Mach-O file or a zip of dSYMs")
            }
        }

        /// Indexes the images of a dyld shared cache by UUID.
        ///
        /// A subcache or `.symbols` file lists no images: found
        /// in a folder beside its main file, it adds nothing and is not said; given by itself, it is.
        private func indexDyldCache(_ path: RawPath, given: Bool, into state: inout State) {
            let cache: DyldSharedCache
            do throws(DyldCacheProblem) {
                cache = try DyldSharedCache(path: path)
            } catch {
                state.finding(.warning, error.code, path.display, error.message)
                return
            }
            if cache.images.isEmpty {
                if given {
                    state.finding(
                        .warning,
                        .symbolsDyldCacheNoImages,
                        path.display,
                        "a dyld shared cache file that lists no images (a subcache or .symbols file): give the main "
                            + "cache file, or its folder"
                    )
                }
                return
            }
            for problem in cache.problems {
                state.finding(.warning, problem.code, path.display, problem.message)
            }
            let slices = cache.images.map { image in
                DebugSlice(
                    uuid: image.plainUUID,
                    arch: cache.architecture,
                    textVMAddress: image.address,
                    size: MachOBytes.offset(image.textSize) ?? 0
                )
            }
            for (image, slice) in zip(cache.images, slices) {
                let name = cache.installName(of: image) ?? ""
                add([slice], location: .dyldCacheImage(cache: path, name: name), inDSYM: false, into: &state)
            }
        }

        private func indexZip(_ path: RawPath, into state: inout State) {
            let reader: ZipReader
            do {
                reader = try ZipReader(
                    path: path,
                    limits: ZipReader.Limits(maxEntries: limits.maxZipEntries, expansion: limits.zipExpansion)
                )
            } catch {
                state.finding(
                    .warning,
                    .dsymUnreadableZip,
                    path.display,
                    "not a readable zip archive: \(error.message)"
                )
                return
            }
            var found = false
            for entry in reader.entries where !entry.isDirectory && Self.isInDSYM(entry.rawName) {
                found = true
                let display = path.display + ":" + TerminalText.escaped(entry.name)
                if !entry.isSafePath {
                    state.finding(
                        .note,
                        .dsymUnsafeZipEntry,
                        display,
                        "an entry name that leaves its folder (read in memory only)"
                    )
                }
                let bytes: [UInt8]
                do {
                    bytes = try reader.contents(of: entry)
                } catch {
                    state.finding(.warning, .input(error.code), display, error.message)
                    continue
                }
                guard Self.isMachO(bytes.prefix(4)) else {
                    state.finding(.warning, .dsymNotMachO, display, "not a Mach-O file")
                    continue
                }
                add(
                    bytes,
                    location: .zipEntry(archive: path, index: entry.index, name: entry.name),
                    inDSYM: true,
                    into: &state
                )
            }
            if !found {
                state.finding(
                    .note,
                    .dsymZipWithoutDSYMs,
                    path.display,
                    "a zip archive without dSYMs (no `Contents/Resources/DWARF/`)"
                )
            }
        }

        private func add(_ bytes: [UInt8], location: DSYMLocation, inDSYM: Bool, into state: inout State) {
            let slices: [DebugSlice]
            do {
                slices = try loader.slices(in: bytes)
            } catch {
                state.finding(.warning, .input(error.code), location.description, error.message)
                return
            }
            add(slices, location: location, inDSYM: inDSYM, into: &state)
        }

        private func add(_ slices: [DebugSlice], location: DSYMLocation, inDSYM: Bool, into state: inout State) {
            for slice in slices {
                let entry = Entry(slice: slice, location: location)
                state.found.append((entry, inDSYM))
                if keepsEveryCopy {
                    state.entries.append(entry)
                    state.inDSYM.append(inDSYM)
                } else {
                    state.merge(entry, inDSYM: inDSYM)
                }
            }
        }

        private struct State {
            var entries: [Entry] = []
            var inDSYM: [Bool] = []
            var seen: [String: Int] = [:]
            var findings: [LocatedFinding] = []
            /// Every slice found, each copy, in order: what a folder index records per file.
            var found: [(Entry, Bool)] = []

            /// Keeps one slice per UUID and architecture.
            mutating func merge(_ entry: Entry, inDSYM: Bool) {
                let key = entry.slice.uuid + "/" + entry.slice.arch
                if let existing = seen[key] {
                    // An Xcode archive holds the app and its dSYM, with one UUID: the dSYM has the DWARF.
                    if inDSYM && !self.inDSYM[existing] {
                        entries[existing] = entry
                        self.inDSYM[existing] = true
                    }
                    return
                }
                seen[key] = entries.count
                entries.append(entry)
                self.inDSYM.append(inDSYM)
            }

            mutating func finding(
                _ severity: Diagnostic.Severity,
                _ code: Diagnostic.Code,
                _ path: String,
                _ message: String
            ) {
                findings.append(LocatedFinding(path: path, diagnostic: Diagnostic(severity, code, message)))
            }
        }

        // MARK: - Files

        static func status(_ path: RawPath) -> stat? {
            var info = stat()
            return path.withCString { stat($0, &info) } == 0 ? info : nil
        }

        /// The first `count` bytes of the file (fewer when it is shorter or unreadable).
        static func prefix(of path: RawPath, count: Int) -> [UInt8] {
            let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK) }
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: count)
            let got = buffer.fillBytes(at: 0, count: count) { read(fd, $0, $1) }
            return got > 0 ? Array(buffer.prefix(got)) : []
        }

        /// Mach-O (32/64-bit, either byte order) or fat (32/64-bit) magic.
        static func isMachO(_ prefix: some Collection<UInt8>) -> Bool {
            let head = Array(prefix.prefix(4))
            guard head.count == 4 else { return false }
            let big = UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3])
            let magics: Set<UInt32> = [
                0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE, 0xCAFE_BABE, 0xBEBA_FECA, 0xCAFE_BABF, 0xBFBA_FECA,
            ]
            return magics.contains(big)
        }

        /// True for a path inside a dSYM bundle's DWARF folder.
        static func isInDSYM(_ path: [UInt8]) -> Bool {
            let marker = Array("/Contents/Resources/DWARF/".utf8)
            guard path.count > marker.count else { return false }
            for start in 0...(path.count - marker.count) where path[start] == 0x2F {
                if path[start..<(start + marker.count)].elementsEqual(marker) { return true }
            }
            // An entry at the top of a zip: `App.dSYM/Contents/Resources/DWARF/App` has no leading slash.
            return path.starts(with: marker.dropFirst())
        }
    }
}
