import APMInspectCore
import FuzzSupport

@testable import HTTPCaptureParsing

/// pcap and pcapng: container records, link layers, TCP reassembly, and the DNS, TLS and HTTP/1 decoders on the
/// reassembled streams.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacketCapture(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let analyzer = PacketCaptureAnalyzer(options: HTTPCaptureOptions())
    let first = try? analyzer.analyze(bytes)
    let second = try? analyzer.analyze(bytes)
    fuzzRequire(first?.0 == second?.0 && first?.1 == second?.1, "two analyses of the same bytes differ")
    if let first {
        fuzzCheckEncodes(first.0, "the capture")
        fuzzCheckEncodes(first.1, "the diagnostics")
    }
    return 0
}
