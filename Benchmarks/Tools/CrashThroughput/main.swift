// Crash report parse throughput at library level, the number set next to pycrashreport's in-process time.
//
//     CrashThroughput DIR [ROUNDS] [all|faulting]
//
// Each round reads every file under DIR, parses the full model (CrashReportParser, then WatchdogDetector the way
// `inspect` does) and touches fields so that no work can be skipped: `all` (the default) reads the image, symbol
// and address of every frame of every thread and every register; `faulting` reads what pycrashreport offers (the
// faulting thread's frames and registers), as its baseline script does. Frames' symbols and raw lines become text
// when read, so the two differ by the strings made for the other threads. Prints the median round in seconds and
// microseconds per file, and how many files parsed; process start-up is not counted, as in the Python baseline.
import APMInspectCore
import CrashReportParsing
import Foundation
import WatchdogAnalysis

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: CrashThroughput DIR [ROUNDS] [all|faulting]\n".utf8))
    exit(2)
}
let folder = arguments[1]
let rounds = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 5) : 5
let faultingOnly = arguments.count > 3 && arguments[3] == "faulting"
let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
let paths = names.map { folder + "/" + $0 }

/// Sums a little of every touched field so the optimiser cannot drop the work.
func touch(_ report: CrashReport, _ watchdog: WatchdogTermination?) -> Int {
    var sum = (report.incidentID?.utf8.count ?? 0) + (report.process?.utf8.count ?? 0)
    sum &+= (report.exception?.type?.utf8.count ?? 0) + (report.exception?.subtype?.utf8.count ?? 0)
    sum &+= report.applicationSpecificInformation?.count ?? 0
    sum &+= report.crashedThread ?? 0
    for thread in report.threads where !faultingOnly || thread.index == report.crashedThread {
        for frame in thread.frames {
            sum &+= (frame.image?.utf8.count ?? 0) + (frame.symbol?.utf8.count ?? 0)
            sum &+= Int(truncatingIfNeeded: frame.address?.value ?? 0)
        }
        for register in thread.registers ?? [] { sum &+= Int(truncatingIfNeeded: register.value.value) }
    }
    sum &+= report.binaryImages.count
    sum &+= watchdog == nil ? 0 : 1
    return sum
}

var times: [Double] = []
var parsed = 0
var failed = 0
var checksum = 0
for _ in 0..<rounds {
    parsed = 0
    failed = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for path in paths {
        guard let bytes = try? FileReading.contents(atPath: path) else {
            failed += 1
            continue
        }
        do {
            let result = try CrashReportParser().parse(bytes)
            checksum &+= touch(result.report, WatchdogDetector.analyze(result.report))
            parsed += 1
        } catch {
            failed += 1
        }
    }
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}
let median = times.sorted()[times.count / 2]
print(
    "apm-inspect library, touching \(faultingOnly ? "the faulting thread" : "every thread"): "
        + String(
            format: "%d files, %d parsed, %d failed, median %.3f s, %.1f us/file (checksum %d)",
            paths.count,
            parsed,
            failed,
            median,
            median * 1e6 / Double(max(paths.count, 1)),
            checksum & 0xffff
        )
)
