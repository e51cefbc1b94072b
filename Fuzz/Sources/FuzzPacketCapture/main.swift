import FuzzSupport

/// pcap and pcapng: records, link layers, TCP reassembly, and the stream decoders.
///
/// The properties are ``FuzzChecks/packetCapture(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacketCapture(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.packetCapture(fuzzBytes(start, count)))
    return 0
}
