extension JSONObjectWriter {
    /// Why a document with a spooled array failed: the spool was spent (a full disk) or could not be read back.
    package struct SpoolUnreadable: Error, CustomStringConvertible {
        package var description: String { "a spooled array could not be written back from its temporary file" }
    }

    /// An array whose elements were encoded earlier into `spool`, made for this member's depth (the object's depth
    /// plus one): a document whose header depends on every element (a streamed read's diagnostics) writes the
    /// elements as they are read and the array once the rest is known.
    ///
    /// A spool that cannot be written back fails the document, as a member whose encoding throws does.
    package mutating func write(_ name: StaticString, spool: JSONArraySpool) {
        key(name)
        let sink = self.sink
        if !spool.writeArray(to: { sink.append($0) }) { sink.fail(SpoolUnreadable()) }
    }
}
