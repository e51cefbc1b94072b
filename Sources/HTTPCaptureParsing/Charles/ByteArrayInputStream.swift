import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An `InputStream` over a byte array that copies nothing.
///
/// `InputStream(data:)` needs a `Data` (a copy of the session) and bridges it to a `CFData` on Linux: with the
/// parser's own buffer, a 650 MB session peaked at 1.9 GB. `XMLParser(stream:)` only opens, reads and closes its
/// stream.
final class ByteArrayInputStream: InputStream {
    private let bytes: [UInt8]
    private var position = 0
    private var status: Stream.Status = .notOpen

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        super.init(data: Data())
    }

    override func open() { status = .open }

    override func close() { status = .closed }

    override var streamStatus: Stream.Status { status }

    override var hasBytesAvailable: Bool { position < bytes.count }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        let count = min(max(0, len), bytes.count - position)
        guard count > 0 else {
            status = .atEnd
            return 0
        }
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            buffer.update(from: base + position, count: count)
        }
        position += count
        return count
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length len: UnsafeMutablePointer<Int>
    )
        -> Bool
    { false }
}
