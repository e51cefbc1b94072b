import APMInspectCore
import ReportInspection
import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `symbolicate`'s pipeline: each report with its frames resolved, in its own layout, to standard output (after
/// `==> PATH <==` headings when there are several) or into a folder under its own name; or, as JSON, the
/// envelopes `inspect` prints.
package struct SymbolicationRun {
    package let symbolication: ReportSymbolication
    /// True when standard output is a terminal: the report, data meant for a file, is then escaped.
    package var stdoutIsTerminal: Bool
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink

    package init(symbolication: ReportSymbolication, stdoutIsTerminal: Bool, sink: OutputSink) {
        self.symbolication = symbolication
        self.stdoutIsTerminal = stdoutIsTerminal
        self.sink = sink
    }

    /// Symbolicates `paths` into `output` (a folder, made when missing) or to standard output, never over one of
    /// `inputs`; true when a report could not be read, symbolicated or written (exit status 1).
    package func run(_ paths: [String], output: String?, protecting inputs: Set<FileIdentity>) -> Bool {
        if let output, let problem = Self.prepareFolder(output, inputs: paths) {
            sink.error(ErrorLine.render(path: output, location: nil, message: problem))
            return true
        }
        var failed = false
        var names = Set<String>()
        for (index, path) in paths.enumerated() {
            if sink.stopped { break }
            guard let bytes = read(path) else {
                failed = true
                continue
            }
            let rewritten: [UInt8]
            do {
                let result = try symbolication.rewrite(bytes)
                rewritten = result.bytes
                sink.error(result.diagnostics, about: path)
            } catch {
                sink.error(ErrorLine.render(path: path, location: error.location, message: error.message))
                failed = true
                continue
            }
            let text = String(decoding: rewritten, as: UTF8.self)
            if let output {
                let target = output + "/" + Self.outputName(for: path, taken: &names)
                if let failure = OutputFile.write(text, toPath: target, protecting: inputs) {
                    sink.error(
                        ErrorLine.render(path: target, location: nil, message: "cannot write the report: \(failure)")
                    )
                    failed = true
                }
            } else {
                if paths.count > 1 {
                    sink.out((index > 0 ? "\n" : "") + "==> \(TerminalText.escaped(path)) <==\n")
                }
                // The report is data meant for a file; shown on a terminal, its own bytes are escaped.
                if stdoutIsTerminal { sink.text(text) } else { sink.out(text) }
            }
        }
        return failed
    }

    /// `--format json`: the envelopes `inspect` prints for `inputs`, the reports symbolicated; true when one failed.
    ///
    /// Read by ``InspectRun``, the input layer of `inspect`: an archive, from a path or standard input alike, gives
    /// the envelope of each report inside it. `oneObject`: the only envelope is printed as an object.
    package func printEnvelopes(_ inputs: [PathWalker.Input], oneObject: Bool, temporary: TemporaryFolder) -> Bool {
        var inspector = ReportInspector()
        inspector.symbolicator = symbolication.symbolicator
        let run = InspectRun(
            reader: InputReader(inspector: inspector, temporary: temporary),
            format: .json,
            oneObject: oneObject,
            jobs: 1,
            sink: sink
        )
        return run.run(inputs).failures > 0
    }

    /// The file's bytes, or nil after saying why there are none.
    private func read(_ path: String) -> [UInt8]? {
        // An archive holds many reports: `scan` reads them, from the file or from standard input alike.
        switch InputCheck.reportBytes(atPath: PathWalker.openable(path)).refusingArchives {
        case .problem(let message, let location):
            sink.error(ErrorLine.render(path: path, location: location, message: message))
            return nil
        case .bytes(let bytes, let notes):
            sink.error(notes, about: path)
            return bytes
        case .archive: return nil
        }
    }

    /// Makes the output folder when it is missing; why it cannot be used otherwise, including when it is the
    /// folder of an input (the reports would land beside the user's files, or over them).
    package static func prepareFolder(_ folder: String, inputs: [String]) -> String? {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { return "-o names a file; it must be a folder" }
        } else if mkdir(folder, 0o755) != 0 {
            return "cannot make the folder: \(String(cString: strerror(errno)))"
        }
        var made = stat()
        guard stat(folder, &made) == 0 else { return "cannot use the folder: \(String(cString: strerror(errno)))" }
        for input in inputs where input != PathWalker.standardInputArgument {
            let parent = input.contains("/") ? String(input[..<(input.lastIndex(of: "/") ?? input.endIndex)]) : "."
            var parentInfo = stat()
            let parentPath = parent.isEmpty ? "/" : parent
            if stat(parentPath, &parentInfo) == 0, parentInfo.st_dev == made.st_dev, parentInfo.st_ino == made.st_ino {
                return
                    "-o is the folder of the input \(input): symbolicated reports are never written beside the inputs"
            }
        }
        return nil
    }

    /// The input's own name (`stdin` for standard input), numbered when two inputs share it; never a path.
    package static func outputName(for path: String, taken: inout Set<String>) -> String {
        var base = path == PathWalker.standardInputArgument ? "stdin" : String(path.split(separator: "/").last ?? "")
        base = String(base.map { character in (character.asciiValue ?? 0x20) < 0x20 ? "_" : character })
        if base.isEmpty || base.hasPrefix(".") { base = "report" + base }
        var name = base
        var number = 2
        while taken.contains(name) {
            let dot = base.lastIndex(of: ".")
            name = dot.map { "\(base[..<$0])-\(number)\(base[$0...])" } ?? "\(base)-\(number)"
            number += 1
        }
        taken.insert(name)
        return name
    }
}
