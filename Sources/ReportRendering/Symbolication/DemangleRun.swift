import APMInspectCore
import ByteAccess
import Symbolication

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `apm-inspect demangle`: Swift and C++ symbol names made readable, one name per argument or every mangled token of
/// the lines of standard input, as `swift-demangle` and `c++filt` do as filters.
///
/// Names go through the same ``Demangler`` as every other output (atos, symbolicate, the crash views), so a name
/// reads the same here as in a symbolicated report.
package struct DemangleRun {
    package var names: [String]
    /// The full form (module names, types, return types) rather than the form Apple's reports print.
    package var full: Bool
    package let sink: OutputSink

    package init(names: [String], full: Bool, sink: OutputSink) {
        self.names = names
        self.full = full
        self.sink = sink
    }

    /// The longest piece of a line held at once.
    ///
    /// A longer line is handled in pieces, cut where no name can be, so memory stays bounded whatever the input; a
    /// name longer than ``Demangler/maxMangledLength`` is never demangled anyway.
    package static let maxLineBytes = 1 << 20

    /// Prints each name demangled, or as given when it is not a mangled name (as the peers do); with no names,
    /// filters standard input.
    package func run() {
        if names.isEmpty {
            filterStandardInput()
            return
        }
        for name in names {
            guard !sink.stopped else { return }
            sink.text(demangled(name) + "\n")
        }
    }

    /// `name` demangled, or `name` itself.
    func demangled(_ name: String) -> String {
        if let known = cache.names[name] { return known }
        let shown = Demangler.demangle(name, style: full ? .full : .simplified) ?? name
        // Logs repeat the same few thousand names: each is demangled once (a Swift name costs a round trip to the
        // demangler's worker process); the table is emptied when full, so memory stays bounded.
        if cache.names.count >= Self.maxCachedNames { cache.names.removeAll(keepingCapacity: true) }
        cache.names[name] = shown
        return shown
    }

    /// Names already demangled in this run, at most ``maxCachedNames``.
    final class Cache {
        var names: [String: String] = [:]
    }

    private let cache = Cache()
    static let maxCachedNames = 1 << 16

    /// `line` with every mangled token replaced by its readable form; the bytes between tokens kept.
    package func filter(_ line: ArraySlice<UInt8>) -> String {
        var output = ""
        var start = line.startIndex
        var index = line.startIndex
        func flushToken(upTo end: Int) {
            guard start < end else { return }
            let token = String(decoding: line[start..<end], as: UTF8.self)
            output += Demangler.isMangled(token) ? demangled(token) : token
        }
        while index < line.endIndex {
            if Self.isNameByte(line[index]) {
                index += 1
                continue
            }
            flushToken(upTo: index)
            var gap = index
            while gap < line.endIndex, !Self.isNameByte(line[gap]) { gap += 1 }
            output += String(decoding: line[index..<gap], as: UTF8.self)
            index = gap
            start = gap
        }
        flushToken(upTo: index)
        return output
    }

    /// The bytes a mangled name is made of, as c++filt splits its input: letters, digits, `_`, `$` and `.`.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// Reads standard input in chunks and writes each complete line filtered, as it comes.
    private func filterStandardInput() {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !sink.stopped {
            let count = chunk.fillBytes(at: 0, count: chunk.count) { read(0, $0, $1) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += chunk[0..<count]
            var consumed = 0
            while let newline = pending[consumed...].firstIndex(of: 0x0A) {
                sink.text(filter(pending[consumed...newline]))
                consumed = newline + 1
            }
            if pending.count - consumed > Self.maxLineBytes {
                // No name is this long: cut after the last byte that cannot be part of one.
                let rest = pending[consumed...]
                let cut = (rest.lastIndex { !Self.isNameByte($0) }).map { $0 + 1 } ?? pending.count
                sink.text(filter(pending[consumed..<cut]))
                consumed = cut
            }
            pending.removeFirst(consumed)
        }
        if !pending.isEmpty { sink.text(filter(pending[...])) }
    }
}
