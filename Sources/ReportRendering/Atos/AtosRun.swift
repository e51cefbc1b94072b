import APMInspectCore
import ByteAccess
import Foundation
import Symbolication

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `atos`' pipeline: opens the image `-o` names and answers each address as atos does, as it comes, on standard
/// output (``AtosOutputWriter``).
package struct AtosRun {
    /// `-o`: a `.dSYM` bundle, its DWARF file or a Mach-O binary.
    package var object: String
    /// `-arch`: the slice of a fat file.
    package var architecture: String?
    /// `-l`: the image's load address; without it the addresses are file addresses.
    package var loadAddress: UInt64?
    /// `-i`: the inlined frames too.
    package var inlines: Bool
    package var json: Bool
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink

    package init(
        object: String,
        architecture: String?,
        loadAddress: UInt64?,
        inlines: Bool,
        json: Bool,
        sink: OutputSink
    ) {
        self.object = object
        self.architecture = architecture
        self.loadAddress = loadAddress
        self.inlines = inlines
        self.json = json
        self.sink = sink
    }

    /// Answers `addresses`, or with none the words of standard input, as atos does; false when the image could not be
    /// opened (said on standard error: exit status 1).
    package func run(_ addresses: [UInt64]) -> Bool {
        let image: DebugImage
        let binaryName: String
        do {
            (image, binaryName) = try openImage()
        } catch {
            sink.error(ErrorLine.render(path: object, location: error.location, message: error.message))
            return false
        }
        for issue in image.issues.prefix(20) {
            sink.error(
                ErrorLine.render(path: object, location: issue.location, message: issue.message, severity: "warning")
            )
        }
        let locator = ImageLocator(image: image)
        let writer = AtosOutputWriter(
            locator: locator,
            json: json,
            inlines: inlines,
            binary: binaryName,
            output: OutputBuffer { sink.out(bytes: $0) }
        )
        var locations: [ImageLocator.Location] = []
        func answer(_ address: UInt64) {
            // Once the reader is gone (`| head`) the rest would be resolved for nobody.
            guard !sink.stopped else { return }
            let fileAddress = loadAddress.map { image.fileAddress(of: address, loadAddress: $0) } ?? address
            if let fileAddress { locator.locations(at: fileAddress, into: &locations) } else { locations.removeAll() }
            writer.write(locations, address: address, fileAddress: fileAddress)
        }
        if addresses.isEmpty {
            let input = Self.standardInput()
            input.withBorrowedBytes { bytes in
                AtosAddress.forEachWord(of: bytes) { word in
                    if let address = AtosAddress.parse(word) {
                        answer(address)
                    } else {
                        let text = word.string
                        sink.error("warning: '\(TerminalText.escaped(text))' is not a hexadecimal address")
                    }
                }
            }
        } else {
            for address in addresses { answer(address) }
        }
        writer.finish()
        return true
    }

    /// Opens `-o`: a `.dSYM` bundle's DWARF file, or the file itself; picks the slice by `-arch`.
    private func openImage() throws(SymbolicationError) -> (DebugImage, String) {
        let path = Self.dwarfFile(for: object)
        let name = (path as NSString).lastPathComponent
        return (try AtosImage.open(path: path, architecture: architecture), name)
    }

    /// The DWARF file inside a `.dSYM` bundle (the only file of `Contents/Resources/DWARF`, or the one named as
    /// the bundle), else `path` unchanged.
    package static func dwarfFile(for path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return path
        }
        let folder = (path as NSString).appendingPathComponent("Contents/Resources/DWARF")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let bundleName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if let named = names.first(where: { $0 == bundleName }) ?? names.first {
            return (folder as NSString).appendingPathComponent(named)
        }
        return path
    }

    /// Most of standard input read for addresses (about 4 million of them).
    package static let standardInputLimit = 64 << 20

    /// Standard input, up to ``standardInputLimit`` bytes (and the rest of the read that crossed it).
    static func standardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < standardInputLimit {
            let count = chunk.fillBytes(at: 0, count: chunk.count) { read(0, $0, $1) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}
