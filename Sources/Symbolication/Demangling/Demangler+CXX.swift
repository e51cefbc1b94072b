extension Demangler {
    /// What llvm-cxxfilt (LLVM 15 and later, as in Apple's toolchain) prints for an Itanium C++ name, or nil where it
    /// keeps the name as it is.
    ///
    /// The C++ runtime's demangler reads the name (in a sandbox when it may print past the length limit, see
    /// ``CXXExpansionBound``) and ``CXXLLVMSpelling`` respells its answer. Around it, the parts of LLVM's reading
    /// that GNU's does not share: a clone suffix (`.cold`, `.isra.0`) printed as ` (.cold)`, a block's invocation
    /// function (`___Z3fooi_block_invoke_2`) as `invocation function for block in foo(int)`, and transaction clones
    /// (`_ZGTt…`), which LLVM does not read, kept mangled. `bytes` has no Mach-O underscore.
    static func demangleCXX(_ bytes: [UInt8]) -> String? {
        let blockPrefix = Array("___Z".utf8)
        if bytes.starts(with: blockPrefix) {
            guard let encoding = blockInvocationEncoding(bytes),
                let function = demangleCXXEncoding(Array("_Z".utf8) + encoding)
            else { return nil }
            let text = "invocation function for block in " + function
            return text.utf8.count <= maxDemangledLength ? text : nil
        }
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return demangleCXXEncoding(bytes) }
        guard let function = demangleCXXEncoding(Array(bytes[..<dot])) else { return nil }
        let text = function + " (" + String(decoding: bytes[dot...], as: UTF8.self) + ")"
        return text.utf8.count <= maxDemangledLength ? text : nil
    }

    /// The encoding between `___Z` and `_block_invoke`, when what follows is LLVM's block suffix: nothing, a number,
    /// or `_` and a number, then optionally `.` and anything (which LLVM drops).
    static func blockInvocationEncoding(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let marker = Array("_block_invoke".utf8)
        let end = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        var start = end - marker.count
        while start >= 4 {
            if bytes[start] == marker[0], bytes[start..<(start + marker.count)].elementsEqual(marker) { break }
            start -= 1
        }
        guard start > 4 else { return nil }
        var suffix = bytes[(start + marker.count)..<end]
        let needsNumber = suffix.first == UInt8(ascii: "_")
        if needsNumber { suffix = suffix.dropFirst() }
        guard suffix.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            !(needsNumber && suffix.isEmpty)
        else { return nil }
        return bytes[4..<start]
    }

    /// One `_Z` encoding, without suffixes, in LLVM's spelling.
    private static func demangleCXXEncoding(_ encoding: [UInt8]) -> String? {
        guard encoding.count > 2, !encoding.starts(with: Array("_ZGT".utf8)) else { return nil }
        let terminated = encoding + [0]
        let answer =
            CXXExpansionBound.isWithin(encoding, limit: maxDemangledLength)
            ? RuntimeDemanglers.cxx(terminated)
            // This name may print past any bound, so it runs where it can be stopped.
            : RuntimeDemanglers.cxxSandboxed(terminated)
        guard let answer, !answer.isEmpty, !answer.utf8.elementsEqual(encoding) else { return nil }
        return CXXLLVMSpelling.respelled(answer, mangled: encoding)
    }
}
