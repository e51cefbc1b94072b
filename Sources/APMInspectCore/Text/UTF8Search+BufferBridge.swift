import ByteAccess

extension UTF8Search {
    /// ``firstOffset(of:in:from:)-(UInt8,_,_)`` for a caller that still holds its text as the standard library's
    /// buffer: the Charles XML limits (`XMLMarkupLimits`, HTTPCaptureParsing), until they read through
    /// ``BorrowedBytes``; then this goes.
    package static func firstOffset(of byte: UInt8, in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        firstOffset(of: byte, in: BorrowedBytes(unsafeBytes: UnsafeRawBufferPointer(text)), from: start)
    }
}
