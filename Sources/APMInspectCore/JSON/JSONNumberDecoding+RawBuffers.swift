import ByteAccess

/// The number readers over a standard-library buffer: the entry points the decoding tests call with the
/// `withUTF8` buffers they hold. The readers decode ``ByteAccess/BorrowedBytes``; these only forward.
extension JSONNumberDecoding {
    static func uint64(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        uint64(BorrowedBytes(unsafeBytes: UnsafeRawBufferPointer(digits)))
    }

    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        double(BorrowedBytes(unsafeBytes: UnsafeRawBufferPointer(text)))
    }

    static func fastDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        fastDouble(BorrowedBytes(unsafeBytes: UnsafeRawBufferPointer(text)))
    }
}
