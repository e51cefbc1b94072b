/// One binary image's debug information, opened: where its `__TEXT` segment expects to be loaded and what
/// answers for its addresses.
public struct SymbolImage: Sendable {
    /// The `vmaddr` of the image's `__TEXT` segment: file addresses are the image offset plus this.
    public var textVMAddress: UInt64
    /// What turns an address of this image into symbols and lines.
    public var resolver: any AddressResolver
    /// Where the debug information came from (a dSYM's DWARF file, a binary, a zip entry), for messages.
    public var origin: String
    /// The image is 32-bit ARM code (armv7 and its kin), where Thumb return addresses are odd: the lookup of a
    /// frame clears the Thumb bit and steps back a halfword, not a byte (see ``ReportSymbolicator``).
    package var isARM32: Bool

    package init(textVMAddress: UInt64, resolver: any AddressResolver, origin: String, isARM32: Bool = false) {
        self.textVMAddress = textVMAddress
        self.resolver = resolver
        self.origin = origin
        self.isARM32 = isARM32
    }
}
