import ByteAccess

extension JSONArraySpool {
    /// ``writeArray(order:element:to:)`` for a caller that still takes its bytes as the standard library's buffers:
    /// the HTTP capture spool (`HTTPTransactionSpool`), until it reads through ``BorrowedBytes``; then this goes.
    package func writeArray(
        order: [Int]? = nil,
        element:
            @escaping (_ rank: Int, _ position: Int, UnsafeBufferPointer<UInt8>, (UnsafeBufferPointer<UInt8>) -> Void)
            -> Void,
        to body: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        writeArray(
            order: order,
            element: { rank, position, bytes, out in
                element(rank, position, Self.buffer(bytes)) {
                    out(BorrowedBytes(unsafeBytes: UnsafeRawBufferPointer($0)))
                }
            },
            to: { body(Self.buffer($0)) }
        )
    }

    private static func buffer(_ bytes: BorrowedBytes) -> UnsafeBufferPointer<UInt8> {
        bytes.unsafeBytes.assumingMemoryBound(to: UInt8.self)
    }
}
