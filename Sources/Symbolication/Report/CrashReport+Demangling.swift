import CrashReportParsing

extension CrashReport {
    /// The report with the mangled Swift and C++ symbols it wrote shown as every output shows names, the written
    /// name kept in `mangledSymbol`.
    ///
    /// KSCrash and the SDKs built on it write the linker's names (`$s7Ferrule6LedgerC7balance…`), where Apple's
    /// reports and symbolication give `Ledger.balance(for:)`: without this a frame reads differently, and groups
    /// apart, depending on which reporter caught the crash. Frames already demangled (symbolicated, or Apple's) are
    /// left as they are; each distinct name is demangled once per report; the signature is made again when a name
    /// changed.
    package func demanglingNames(_ demangle: (String) -> String? = { Demangler.demangle($0) }) -> CrashReport {
        var cache: [String: String?] = [:]
        var changed = false
        func convert(_ frames: inout [Frame]) {
            for index in frames.indices {
                guard frames[index].mangledSymbol == nil, let symbol = frames[index].symbol,
                    Demangler.isMangled(symbol)
                else { continue }
                let shown: String?
                if let known = cache[symbol] {
                    shown = known
                } else {
                    shown = demangle(symbol)
                    cache[symbol] = shown
                }
                guard let shown, shown != symbol else { continue }
                frames[index].symbol = shown
                frames[index].mangledSymbol = symbol
                changed = true
            }
        }
        var report = self
        for index in report.threads.indices { convert(&report.threads[index].frames) }
        if var backtrace = report.lastExceptionBacktrace {
            convert(&backtrace)
            report.lastExceptionBacktrace = backtrace
        }
        // A profile's frame table (KSCrash 2.6 `profile` reports): its folded stacks and flame graphs show names.
        if var profile = report.profile {
            convert(&profile.frames)
            report.profile = profile
        }
        // The report KSCrash's handler wrote when it crashed: the same names, shown the same way.
        if let recrash = report.recrashReport {
            let shown = recrash.demanglingNames(demangle)
            if shown != recrash { report.recrashReport = shown }
        }
        if changed {
            // The signature groups on the top app frames' names: made again from the names as shown.
            report.recomputeSignature()
        }
        return report
    }
}
