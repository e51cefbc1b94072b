extension FuzzOracle {
    /// The verdict kind of an input the symbolication readers read (`inspect` alone calls it `unknown`).
    static let machOKind = "machO"

    /// Reads a Mach-O input twice as `atos` and `symbolicate` read it and checks what the readers answered.
    ///
    /// The bytes stay in memory: the readers take bytes, so no temporary file is needed.
    func machOVerdict(_ bytes: [UInt8]) -> WorkerVerdict {
        let first = MachOProbe(bytes)
        if let problem = first.problems.first {
            return WorkerVerdict(kind: Self.machOKind, property: problem.property, message: problem.message)
        }
        for json in first.json {
            if let problem = Self.invalidJSON(json) {
                return WorkerVerdict(kind: Self.machOKind, property: "invalid-json-output", message: problem)
            }
        }
        let second = MachOProbe(bytes)
        let before = (first.transcript + first.json).joined(separator: "\n")
        let after = (second.transcript + second.json).joined(separator: "\n")
        guard before == after else {
            return WorkerVerdict(
                kind: Self.machOKind,
                property: "nondeterministic-parse",
                message: "two reads of the same Mach-O answer differently: " + Self.firstDifference(before, after)
            )
        }
        return WorkerVerdict(kind: Self.machOKind)
    }
}
