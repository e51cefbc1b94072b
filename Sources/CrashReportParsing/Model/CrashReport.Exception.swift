import APMInspectCore

extension CrashReport {
    /// The Mach exception and BSD signal, with the codes both as written and decoded.
    public struct Exception: Sendable, Equatable, Codable {
        /// `EXC_BAD_ACCESS`, `EXC_CRASH`, `00000020`, or a bare signal for PLCrash-style reports.
        public var type: String?
        /// The signal the process died of (`SIGSEGV`, `SIGABRT`).
        public var signal: String?
        /// The codes as written (`0x0000000000000001, 0x00000001ad98ab74` or `KERN_INVALID_ADDRESS at 0x8`).
        public var codes: String?
        /// The numeric codes.
        public var codeValues: [HexValue]?
        /// The exception subtype line (`KERN_INVALID_ADDRESS at 0x0000000000000010`).
        public var subtype: String?
        /// The JSON exception `message`: what an abort or a resource limit says.
        public var message: String?
        /// The note, such as `EXC_CORPSE_NOTIFY` or `SIMULATED (this is NOT a crash)`.
        public var note: String?
        /// Whether the crash was captured from a corpse (the `(corpse)` mark or JSON flag).
        public var isCorpse: Bool?
        /// True for `SIMULATED` exceptions, which a watchdog or a tool raised: not crashes.
        public var isSimulated: Bool?
        /// True for `NON-FATAL CONDITION` reports: the process went on running.
        public var isNonFatal: Bool?
        /// The kern_return name of code 0 for EXC_BAD_ACCESS (`KERN_INVALID_ADDRESS`).
        public var kernReturn: String?
        /// The faulting address, from code 1 or the subtype.
        public var faultAddress: HexValue?
        /// True when the subtype says `possible pointer authentication failure`.
        public var possiblePointerAuthenticationFailure: Bool?
        /// What the exception means, in plain words.
        public var meaning: String?

        package init(
            type: String? = nil,
            signal: String? = nil,
            codes: String? = nil,
            codeValues: [HexValue]? = nil,
            subtype: String? = nil,
            message: String? = nil,
            note: String? = nil,
            isCorpse: Bool? = nil,
            isSimulated: Bool? = nil,
            isNonFatal: Bool? = nil,
            kernReturn: String? = nil,
            faultAddress: HexValue? = nil,
            possiblePointerAuthenticationFailure: Bool? = nil,
            meaning: String? = nil
        ) {
            self.type = type
            self.signal = signal
            self.codes = codes
            self.codeValues = codeValues
            self.subtype = subtype
            self.message = message
            self.note = note
            self.isCorpse = isCorpse
            self.isSimulated = isSimulated
            self.isNonFatal = isNonFatal
            self.kernReturn = kernReturn
            self.faultAddress = faultAddress
            self.possiblePointerAuthenticationFailure = possiblePointerAuthenticationFailure
            self.meaning = meaning
        }

        /// The type as Apple's `Exception Type:` line writes it: `EXC_BAD_ACCESS (SIGSEGV)`, or the signal alone
        /// when the report names no Mach exception (PLCrashReporter's `Exception Type: SIGBUS`).
        package var typeAndSignal: String? {
            guard let type else { return signal.map { "(\($0))" } }
            guard let signal, signal != type else { return type }
            return "\(type) (\(signal))"
        }
    }

    /// Why the OS ended the process: namespace, code, and the reason lines.
    public struct Termination: Sendable, Equatable, Codable {
        /// The namespace, such as `SIGNAL`, `FRONTBOARD`, `SPRINGBOARD`, `RUNNINGBOARD`, `WATCHDOG` or `DYLD`.
        public var namespace: String?
        /// The exception code as a number, when the report gives one code.
        public var code: HexValue?
        /// The indicator, such as `Trace/BPT trap: 5`.
        public var indicator: String?
        /// Every reason line: JSON `reasons[]`, text continuation lines, or ` | `-separated description parts.
        public var reasons: [String]
        /// The `Exception Note` / JSON `exception.details` lines, as written.
        public var details: [String]?
        /// The process that sent the terminating signal, when another one did.
        public var byProcess: String?
        /// The pid of ``byProcess``.
        public var byPid: Int64?
        /// The exception flags word, as written.
        public var flags: HexValue?
        /// The iOS 10–14 `Termination Description` as written.
        public var description: String?
        /// The whole `Termination Reason` text as written.
        public var raw: String?

        package init(
            namespace: String? = nil,
            code: HexValue? = nil,
            indicator: String? = nil,
            reasons: [String] = [],
            details: [String]? = nil,
            byProcess: String? = nil,
            byPid: Int64? = nil,
            flags: HexValue? = nil,
            description: String? = nil,
            raw: String? = nil
        ) {
            self.namespace = namespace
            self.code = code
            self.indicator = indicator
            self.reasons = reasons
            self.details = details
            self.byProcess = byProcess
            self.byPid = byPid
            self.flags = flags
            self.description = description
            self.raw = raw
        }
    }
}
