import ByteAccess

/// A parsed JSON document: the source bytes plus a compact tape of its values, decoded lazily.
///
/// Parsing records only structure and byte ranges (about 20 bytes per value), so it runs at several hundred MB/s
/// and a reader pays for decoding just the values it looks at. Strings, numbers and unknown subtrees are turned
/// into Swift values on demand through ``JSONElement``.
///
/// In lenient mode a document that is not one clean value (pasted fragments, members without braces, several
/// objects in a row) is still parsed: ``isFragmentList`` is then true and ``root`` is a synthetic array of the
/// top-level items found.
@usableFromInline
package final class JSONDocument: Sendable {
    /// The source bytes.
    @usableFromInline
    package let bytes: [UInt8]
    /// Where ``bytes`` start in the file they came from.
    @usableFromInline
    package let origin: TextOrigin
    /// The tape, owned by the document (freed in `deinit`): handing the builder's buffer over saves copying it.
    nonisolated(unsafe) private let nodeStorage: ElementStorage<JSONNode>
    let rootIndex: Int
    /// Repairs made while parsing in lenient mode, with their locations.
    @usableFromInline
    package let diagnostics: [Diagnostic]
    /// Containers skipped for nesting past the depth limit, when the options allow it
    /// (``JSONParseOptions/skipsTooDeep``): warnings for the reader to pass on, kept apart from the repairs.
    @usableFromInline
    package let depthCuts: [Diagnostic]
    /// True when the input was cut off and open containers were closed at its end.
    @usableFromInline
    package let isTruncated: Bool
    /// True when the input was not a single value and ``root`` lists the fragments found.
    @usableFromInline
    package let isFragmentList: Bool
    /// The options the document was parsed with (used again to expand opaque containers).
    @usableFromInline
    package let options: JSONParseOptions
    /// Line starts for ``location(ofByte:keyPath:)``, built on its first call.
    private let lineIndex = LineStartIndex()

    /// Parses `bytes`.
    ///
    /// - Throws: ``InputError`` when the input is empty, too large or too deep, or (strict mode) not JSON.
    /// - Parameters:
    ///   - bytes: The JSON text.
    ///   - options: Limits and leniency.
    ///   - origin: Where `bytes` start in a larger file (its byte offset, and the line, which must start there), so
    ///     locations in diagnostics and errors point into that file.
    @usableFromInline
    package init(
        bytes: [UInt8],
        options: JSONParseOptions = JSONParseOptions(),
        origin: TextOrigin = TextOrigin()
    ) throws(InputError) {
        typealias Built = (
            nodes: ElementStorage<JSONNode>, diagnostics: [Diagnostic], truncated: Bool,
            root: Int, depthCuts: [Diagnostic]
        )
        let result: Result<Built, InputError> = bytes.withBorrowedBytes { buffer in
            if buffer.count <= options.maxInputBytes {
                // Strict JSON first, on the fast builder; anything else goes to the builder that repairs and reports.
                var fast = JSONFastTapeBuilder(
                    bytes: buffer,
                    maxDepth: options.maxDepth,
                    opaqueDepth: options.opaqueDepth ?? Int.max,
                    probe: options.opaqueKeyProbe,
                    skipsTooDeep: options.skipsTooDeep
                )
                if fast.build() {
                    return .success((fast.nodes.detach(), [], false, 1, fast.depthCuts.diagnostics))
                }
                fast.nodes.release()
            }
            var builder = JSONTapeBuilder(bytes: buffer, options: options)
            do throws(InputError) {
                let root = try builder.build()
                return .success(
                    (
                        builder.nodes.detach(), builder.diagnostics, builder.wasTruncated, root,
                        builder.depthCuts.diagnostics
                    )
                )
            } catch {
                builder.nodes.release()
                return .failure(error)
            }
        }
        let built: Built
        do {
            built = try result.get()
        } catch {
            var shifted = error
            shifted.location = shifted.location.map(origin.shift)
            throw shifted
        }
        self.bytes = bytes
        self.origin = origin
        self.options = options
        self.nodeStorage = built.nodes
        self.rootIndex = built.root
        func shifted(_ diagnostic: Diagnostic) -> Diagnostic {
            var moved = diagnostic
            moved.location = moved.location.map(origin.shift)
            return moved
        }
        self.diagnostics = built.diagnostics.map(shifted)
        self.depthCuts = built.depthCuts.map(shifted)
        self.isTruncated = built.truncated
        self.isFragmentList = built.root == 0
    }

    /// Parses the UTF-8 bytes of `text`.
    @usableFromInline
    package convenience init(text: String, options: JSONParseOptions = JSONParseOptions()) throws(InputError) {
        try self.init(bytes: Array(text.utf8), options: options)
    }

    deinit {
        nodeStorage.deallocate()
    }

    /// The tape; valid while the document is alive.
    @usableFromInline var nodes: BorrowedElements<JSONNode> {
        nodeStorage.elements
    }

    /// The top-level value, or the synthetic list of fragments when ``isFragmentList`` is true.
    @usableFromInline
    package var root: JSONElement { JSONElement(document: self, index: rootIndex) }

    /// Number of values and keys on the tape.
    @usableFromInline
    package var nodeCount: Int { nodes.count }

    /// The line and column of a byte offset in the source.
    @usableFromInline
    package func location(ofByte offset: Int, keyPath: String? = nil) -> SourceLocation {
        var location = origin.shift(lineIndex.location(in: bytes, byteOffset: offset))
        location.keyPath = keyPath
        return location
    }
}
