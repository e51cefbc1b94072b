extension FuzzOracle {
    /// The verdict kind of an input the symbolication readers read (`inspect` alone calls it `unknown`).
    static let machOKind = "machO"

    /// Reads a Mach-O input twice as `atos` and `symbolicate` read it and checks what the readers answered.
    ///
    /// The bytes stay in memory: the readers take bytes, so no temporary file is needed.
    func machOVerdict(_ bytes: [UInt8]) -> WorkerVerdict {
        let first = MachOProbe(bytes)
        if let problem = first.problems.first {
            return WorkerVerdict(
                kind: Self.machOKind,
                property: problem.property,
                message: problem.message,
                readers: first.readers.sorted()
            )
        }
        for json in first.json {
            if let problem = Self.invalidJSON(json) {
                return WorkerVerdict(
                    kind: Self.machOKind,
                    property: "invalid-json-output",
                    message: problem,
                    readers: first.readers.sorted()
                )
            }
        }
        let second = MachOProbe(bytes)
        let before = (first.transcript + first.json).joined(separator: "\n")
        let after = (second.transcript + second.json).joined(separator: "\n")
        guard before == after else {
            return WorkerVerdict(
                kind: Self.machOKind,
                property: "nondeterministic-parse",
                message: "two reads of the same Mach-O answer differently: " + Self.firstDifference(before, after),
                readers: first.readers.sorted()
            )
        }
        return WorkerVerdict(kind: Self.machOKind, readers: first.readers.sorted())
    }

    /// The verdict kind of a text file of mangled names.
    static let namesKind = "mangledNames"

    /// Demangles every name of a name list twice, in both styles, and checks the answers.
    func namesVerdict(_ names: [String]) -> WorkerVerdict {
        let first = DemanglerProbe(names)
        let readers = first.readers.sorted()
        if let problem = first.problems.first {
            return WorkerVerdict(
                kind: Self.namesKind,
                property: problem.property,
                message: problem.message,
                readers: readers
            )
        }
        guard DemanglerProbe(names).transcript == first.transcript else {
            return WorkerVerdict(
                kind: Self.namesKind,
                property: "nondeterministic-parse",
                message: "two demanglings of the same names differ",
                readers: readers
            )
        }
        return WorkerVerdict(kind: Self.namesKind, readers: readers)
    }
}
