import APMInspectCore
import FuzzSupport

@testable import HTTPCaptureParsing

/// One DNS message (a UDP payload, or a TCP one after its length prefix), name compression included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNS(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: start, count: count)
    let first = DNSMessage(ByteView(buffer))
    let second = DNSMessage(ByteView(buffer))
    fuzzRequire(
        first?.id == second?.id && first?.name == second?.name && first?.answers == second?.answers,
        "two decodes of the same message differ"
    )
    if let first {
        fuzzRequire(first.answers.count <= 64, "more answers kept than the limit of 64")
        fuzzRequire(first.name.utf8.count <= count * 4 + 255, "a name longer than the message can spell")
    }
    return 0
}
