/// One captured packet as the container gives it.
struct PacketRecord {
    /// Nanoseconds since 1970 (nil for pcapng Simple Packet Blocks, which have no time).
    var timestamp: Int64?
    var linkType: UInt16
    var data: ByteView
    var originalLength: Int
}
