#if arch(x86_64)
    import CBlockScan

    /// The SSE2 block tests of `block_scan.h` over borrowed bytes, for the JSON scanners' hot loops.
    ///
    /// The caller's loop condition has already checked that the block lies inside the bytes; that is asserted in
    /// debug builds only, as the standard library's unsafe buffers do, since a second check per block would cost
    /// the loop what the SSE2 compares save.
    extension BorrowedBytes {
        /// One bit per byte of `offset ..< offset + 16` that is `"`, `\` or below 0x20 (bit k for byte k).
        @inlinable @inline(__always)
        @usableFromInline
        package func stringStops16(uncheckedAt offset: Int) -> UInt32 {
            assert(offset >= 0 && offset <= base.count - 16, "stringStops16 past the end")
            return apm_string_stops16(base.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + offset)
        }

        /// The quote, control, bracket and backslash bitmaps of the 64 bytes `offset ..< offset + 64`.
        @inlinable @inline(__always)
        @usableFromInline
        package func blockFlags64(uncheckedAt offset: Int) -> apm_block_flags {
            assert(offset >= 0 && offset <= base.count - 64, "blockFlags64 past the end")
            return apm_block_classify(base.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + offset)
        }
    }
#endif
