/// A growable buffer of tape nodes with an inlined append, for the parser's hot loop.
///
/// `Array.append` re-checks uniqueness and capacity through non-inlined paths on every call; the parser appends
/// one node per value and key, so this buffer keeps the pointer and count in the builder instead. The owner must
/// call ``release()`` exactly once.
struct JSONNodeBuffer {
    private var base: UnsafeMutablePointer<JSONNode>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        self.base = UnsafeMutablePointer<JSONNode>.allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ node: JSONNode) {
        if count == capacity { grow() }
        (base + count).initialize(to: node)
        count += 1
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<JSONNode>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    subscript(index: Int) -> JSONNode {
        get {
            precondition(index >= 0 && index < count, "node index out of range")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count, "node index out of range")
            base[index] = newValue
        }
    }

    var last: JSONNode? { count > 0 ? base[count - 1] : nil }

    mutating func removeLast() {
        guard count > 0 else { return }
        count -= 1
    }

    /// The nodes as an array (one copy).
    func toArray() -> [JSONNode] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Hands the storage and count over to the caller, who must deallocate it; the buffer must not be used or
    /// released afterwards.
    func detach() -> (base: UnsafeMutablePointer<JSONNode>, count: Int) { (base, count) }

    /// Frees the storage; the buffer must not be used afterwards.
    func release() { base.deallocate() }
}
