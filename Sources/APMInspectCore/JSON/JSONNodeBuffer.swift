import ByteAccess

/// The tape the JSON builders append to, one node per value and key, handed over to the ``JSONDocument`` whole
/// (``ByteAccess/ElementBuffer``).
typealias JSONNodeBuffer = ElementBuffer<JSONNode>
