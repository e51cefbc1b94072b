#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension KeyOrderCache {
    /// Runs `body` with the calling thread's cache, kept from one document to the next.
    ///
    /// A cache per document started cold for every report `scan` writes: each report's `.ips` header and unknown
    /// members were sorted again, about a tenth of writing a JSON report's envelope. One per thread needs no lock,
    /// and a sink (so its document) is written by one thread at a time, so no two documents interleave in it.
    static func withCurrentThread<Result>(_ body: (inout KeyOrderCache) -> Result) -> Result {
        body(&ThreadBox.current.cache)
    }

    /// The cache of one thread, freed with the thread.
    private final class ThreadBox {
        @exclusivity(unchecked) var cache = KeyOrderCache()

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            #if canImport(Darwin)
                pthread_key_create(&key) { pointer in Unmanaged<ThreadBox>.fromOpaque(pointer).release() }
            #else
                pthread_key_create(&key) { pointer in
                    guard let pointer else { return }
                    Unmanaged<ThreadBox>.fromOpaque(pointer).release()
                }
            #endif
            return key
        }()

        static var current: ThreadBox {
            if let stored = pthread_getspecific(key) {
                return Unmanaged<ThreadBox>.fromOpaque(stored).takeUnretainedValue()
            }
            let box = ThreadBox()
            pthread_setspecific(key, Unmanaged.passRetained(box).toOpaque())
            return box
        }
    }
}
