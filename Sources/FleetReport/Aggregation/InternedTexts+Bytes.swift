import ByteAccess

extension InternedTexts {
    /// The id of `bytes` taken as they are (not as a `String`: no canonical equivalence), for values kept as bytes.
    mutating func intern(bytes: [UInt8]) -> Int32 {
        bytes.withBorrowedBytes { intern(bytes: $0) }
    }
}
