/// The image names a text report's frames have used so far, so that frames naming the same image share one string.
///
/// A backtrace names a dozen images over and over (`libsystem_kernel.dylib`, `CoreFoundation` …); a string made
/// for every frame cost an allocation, a copy and a UTF-8 check each, more than recognising the frame line. The
/// names are compared on their bytes, lengths first, against the last few distinct ones.
struct FrameImageNames {
    private var names: [String] = []
    /// The names' UTF-8 lengths, compared first: looking at a name itself retains and releases it.
    private var lengths: [Int] = []
    private var next = 0
    private static let capacity = 16

    /// The name spelled by `bytes`: one already made when it was seen before, else a new one, remembered.
    mutating func name(_ bytes: TextBytes) -> String {
        let count = bytes.count
        for k in lengths.indices where lengths[k] == count {
            let same = names[k].utf8.withContiguousStorageIfAvailable { stored in bytes.equals(stored) } ?? false
            if same { return names[k] }
        }
        let made = bytes.string
        if names.count < Self.capacity {
            names.append(made)
            lengths.append(count)
        } else {
            names[next] = made
            lengths[next] = count
            next = (next + 1) % Self.capacity
        }
        return made
    }
}
