// The tape builders and the streaming inflater are internal to APMInspectCore: reachable with `@testable`, which
// only a debug build or one with -enable-testing allows (Fuzz/smoke.sh and Fuzz/campaign.sh define FUZZ_TESTABLE for
// their release builds, which add -enable-testing; a plain release `swift build` compiles the
// checks that need no internals).
import ByteAccess

#if DEBUG || FUZZ_TESTABLE
    @testable import APMInspectCore
#else
    import APMInspectCore
#endif

/// The properties each fuzz target checks, one function per target, called by the libFuzzer harness of that name
/// in Fuzz/Sources and by the `FuzzFailCaseTests` suites that replay its fail cases and seeds under plain
/// `swift test`: both run literally this code.
public enum FuzzChecks {
    /// `FuzzIPSContainer`: the split is deterministic and loses no byte; header and body print as strict JSON; a
    /// body that parses strictly means the same in lenient mode.
    public static func ipsContainer(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let container = IPSContainer(bytes: bytes)
        let again = IPSContainer(bytes: bytes)
        found.require(
            container.header == again.header && container.body == again.body && container.bodyKind == again.bodyKind
                && container.diagnostics == again.diagnostics,
            "two splits of the same bytes differ"
        )
        found.require(
            container.bodyOrigin.byteOffset + container.body.count == bytes.count,
            "the body is not the tail of the file"
        )
        if let header = container.header { found.requireEncodes(header, "the IPS header") }
        if let document = try? container.parseJSONBody() {
            found.requireEncodes(document.root.materialized, "the lenient body")
            if let strict = try? container.parseJSONBody(options: .strict) {
                found.require(
                    strict.root.materialized == document.root.materialized,
                    "strict and lenient parses of the body disagree"
                )
            }
        }
        return found
    }

    /// `FuzzJSONEncoder`: whatever the lenient parser makes of the input prints as strict JSON, compact and pretty
    /// output hold the same value.
    public static func jsonEncoder(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        guard let document = try? JSONDocument(bytes: bytes, options: JSONParseOptions(maxDepth: 64)) else {
            return found
        }
        let value = document.root.materialized
        found.requireEncodes(value, "the parsed value")
        guard let compact = try? SortedJSONEncoder().encode(value),
            let pretty = try? SortedJSONEncoder(pretty: true).encode(value),
            let fromCompact = try? JSONDocument(bytes: Array(compact.utf8), options: .strict),
            let fromPretty = try? JSONDocument(bytes: Array(pretty.utf8), options: .strict)
        else {
            found.require(false, "compact or pretty output does not parse")
            return found
        }
        found.require(
            fromCompact.root.materialized == fromPretty.root.materialized,
            "compact and pretty output hold different values"
        )
        return found
    }

    /// `FuzzTar`: reads are deterministic, and what is read stays within the limits and inside the archive.
    public static func tar(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let options = TarReader.Options(maxTotalBytes: 4 << 20, maxEntries: 200, maxEntryBytes: 256 << 10)
        let reader = TarReader(options: options)
        func entries() -> ([TarEntry], [Diagnostic])? {
            var members: [TarEntry] = []
            guard let diagnostics = try? reader.read(bytes: bytes, { members.append($0) }) else { return nil }
            return (members, diagnostics)
        }
        let first = entries()
        let second = entries()
        found.require(first?.0 == second?.0 && first?.1 == second?.1, "two reads of the same archive differ")
        guard let (members, _) = first else { return found }
        found.require(members.count <= options.maxEntries, "more entries than the limit")
        for entry in members {
            found.require(!entry.path.hasPrefix("/"), "an absolute member path: \(entry.path)")
            found.require(!entry.path.split(separator: "/").contains(".."), "a member path that climbs: \(entry.path)")
            found.require(UInt64(entry.data.count) <= options.maxEntryBytes, "a member larger than the limit")
        }
        return found
    }
}

#if DEBUG || FUZZ_TESTABLE
    extension FuzzChecks {
        /// `FuzzGzip`: gzip and zlib streams, the one-shot decompression against the streaming inflater fed in three
        /// pieces: the same verdict on corruption, the same bytes and the same end of stream.
        public static func gzip(_ bytes: [UInt8]) -> FuzzFindings {
            var found = FuzzFindings()
            let limit = 1 << 20
            let whole = try? Inflate.decompress(bytes, maxOutputBytes: limit)
            if let whole { found.require(whole.bytes.count <= limit, "more output than the limit") }
            // Cut points derived from the input so the mutator can move them.
            let a = bytes.count / 3
            let b = bytes.count - bytes.count / 4
            guard let inflater = try? Inflater() else { return found }
            var pieces: [UInt8] = []
            var ended = false
            var failed = false
            // Every piece is fed: a member may end in one piece and the next member start in the following one.
            for range in [0..<a, a..<b, b..<bytes.count] where !failed {
                do {
                    let (out, done) = try inflater.feed(Array(bytes[range]), maxOutputBytes: limit)
                    pieces += out
                    ended = done
                } catch {
                    failed = true
                }
            }
            found.require((whole == nil) == failed, "one-shot and streaming disagree on whether the data is corrupt")
            if let whole, !failed {
                found.require(pieces == whole.bytes, "streaming and one-shot output differ")
                found.require(ended == !whole.isTruncated, "streaming and one-shot disagree on the end of the stream")
            }
            return found
        }

        /// `FuzzJSONTape`: the three tape builders, differentially.
        ///
        /// The fast strict builder, the repairing builder in strict mode and the repairing builder in lenient mode
        /// build the same tape wherever the stricter one accepts, and lenient mode makes no repair of strict JSON.
        public static func jsonTape(_ bytes: [UInt8]) -> FuzzFindings {
            bytes.withUnsafeBytes { jsonTape($0) }
        }

        /// The same on bytes in place (the harness's own buffer, which the sanitizer bounds exactly).
        public static func jsonTape(_ buffer: UnsafeRawBufferPointer) -> FuzzFindings {
            var found = FuzzFindings()
            let limits = JSONParseOptions(maxDepth: 64)
            var fast = JSONFastTapeBuilder(bytes: BorrowedBytes(unsafeBytes: buffer), maxDepth: limits.maxDepth)
            let fastTape: [JSONNode]? = fast.build() ? fast.nodes.toArray() : nil
            fast.nodes.release()

            var strictOptions = limits
            strictOptions.lenient = false
            var strict = JSONTapeBuilder(bytes: BorrowedBytes(unsafeBytes: buffer), options: strictOptions)
            let strictRoot = try? strict.build()
            let strictTape = strictRoot.map { _ in strict.nodes.toArray() }
            strict.nodes.release()

            var lenient = JSONTapeBuilder(bytes: BorrowedBytes(unsafeBytes: buffer), options: limits)
            let lenientRoot = try? lenient.build()
            let lenientTape = lenientRoot.map { _ in lenient.nodes.toArray() }
            let lenientDiagnostics = lenient.diagnostics
            lenient.nodes.release()

            if let fastTape {
                if let strictTape {
                    found.require(strictRoot == 1, "strict gives root \(String(describing: strictRoot)) for one value")
                    requireSameTape(fastTape, strictTape, "fast", "strict", &found)
                } else {
                    found.require(false, "the fast builder accepts what strict refuses")
                }
            }
            if let strictTape {
                if let lenientTape {
                    found.require(lenientRoot == strictRoot, "strict and lenient disagree on the root")
                    // Notes (a skipped byte order mark) are not repairs.
                    let repairs = lenientDiagnostics.filter { $0.severity >= .warning }
                    found.require(repairs.isEmpty, "lenient repaired strict JSON: \(repairs)")
                    requireSameTape(strictTape, lenientTape, "strict", "lenient", &found)
                } else {
                    found.require(false, "lenient refuses what strict accepts")
                }
            }
            // Whatever lenient makes of the input must print as strict JSON.
            if lenientTape != nil, let document = try? JSONDocument(bytes: Array(buffer), options: limits) {
                found.requireEncodes(document.root.materialized, "the lenient document")
            }
            return found
        }

        /// Compares two tapes node by node: kind, flags, byte range, skip index and child count.
        ///
        /// Only the fast builder stores small integers in the node (``JSONNode/smallIntegerFlag``): that flag and a
        /// number's count are a cache, not part of the tape's meaning.
        private static func requireSameTape(
            _ a: [JSONNode],
            _ b: [JSONNode],
            _ nameA: String,
            _ nameB: String,
            _ found: inout FuzzFindings
        ) {
            guard a.count == b.count else {
                found.require(false, "\(nameA) has \(a.count) nodes, \(nameB) \(b.count)")
                return
            }
            let cache = JSONNode.smallIntegerFlag
            for (index, (x, y)) in zip(a, b).enumerated() {
                let isNumber = x.kind == .number
                let same =
                    x.kind == y.kind && x.flags & ~cache == y.flags & ~cache && x.start == y.start && x.end == y.end
                    && x.next == y.next && (isNumber || x.count == y.count)
                if !same {
                    found.require(false, "node \(index) differs: \(nameA) \(x) vs \(nameB) \(y)")
                    return
                }
            }
        }
    }
#endif
