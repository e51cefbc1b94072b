/// The image names a text report's frames have used so far, so that frames naming the same image share one string.
///
/// A backtrace names a dozen images over and over (`libsystem_kernel.dylib`, `CoreFoundation` …); a string made
/// for every frame cost an allocation, a copy and a UTF-8 check each, more than recognising the frame line. The
/// names are compared on their bytes, lengths first, against the last few distinct ones.
struct FrameImageNames {
    private var names: [String] = []
    private var next = 0
    private static let capacity = 16

    /// The name spelled by `bytes`: one already made when it was seen before, else a new one, remembered.
    mutating func name(_ bytes: TextBytes) -> String {
        let count = bytes.count
        for name in names where name.utf8.count == count {
            let same = name.utf8.withContiguousStorageIfAvailable { stored in bytes.equals(stored) } ?? false
            if same { return name }
        }
        let made = bytes.string
        if names.count < Self.capacity {
            names.append(made)
        } else {
            names[next] = made
            next = (next + 1) % Self.capacity
        }
        return made
    }
}
