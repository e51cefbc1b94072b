import ByteAccess

/// The scans over a standard-library raw buffer: the entry points the scanner tests and fuzz replays call with the
/// `withUnsafeBytes` buffers they hold. The builders scan ``ByteAccess/BorrowedBytes``; these only forward.
extension JSONScanning {
    static func scanStringRun(_ buffer: UnsafeRawBufferPointer, from start: Int) -> (end: Int, hasEscapes: Bool) {
        scanStringRun(BorrowedBytes(unsafeBytes: buffer), from: start)
    }

    static func matchingBracket(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        matchingBracket(BorrowedBytes(unsafeBytes: buffer), from: start)
    }

    static func matchingBracket(
        _ buffer: UnsafeRawBufferPointer,
        from start: Int,
        maxNesting: Int = 10_000,
        probe: KeyProbe? = nil,
        probeHit: inout Bool
    ) -> Int? {
        matchingBracket(
            BorrowedBytes(unsafeBytes: buffer),
            from: start,
            maxNesting: maxNesting,
            probe: probe,
            probeHit: &probeHit
        )
    }
}

extension JSONScanning.KeyProbe {
    func matches(_ buffer: UnsafeRawBufferPointer, at i: Int) -> Bool {
        matches(BorrowedBytes(unsafeBytes: buffer), at: i)
    }
}

extension JSONScanning.BlockFlags {
    init(_ buffer: UnsafeRawBufferPointer, at p: Int) {
        self.init(BorrowedBytes(unsafeBytes: buffer), at: p)
    }

    init(wordsOf buffer: UnsafeRawBufferPointer, at p: Int) {
        self.init(wordsOf: BorrowedBytes(unsafeBytes: buffer), at: p)
    }
}
