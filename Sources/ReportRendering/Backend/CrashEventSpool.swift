import APMInspectCore
import Foundation

/// Encoded crash events kept in a file of the run's temporary folder until the end of a scan, so holding every
/// crash back for linking costs a few bytes of memory per event, whatever the events' size.
///
/// Not thread-safe: ``BackendEventPrinter`` calls it under its lock.
final class CrashEventSpool {
    /// Where one event's text is in the file.
    struct Slot {
        var offset: UInt64
        var length: Int
    }

    private let path: String
    private var handle: FileHandle?
    private var end: UInt64 = 0

    /// A spool at `path`, made when the first event is held.
    init(path: String) {
        self.path = path
    }

    /// Appends `text`; nil when the file cannot be made or written (the caller then exports the event at once).
    func append(_ text: String) -> Slot? {
        if handle == nil {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
                let opened = FileHandle(forUpdatingAtPath: path)
            else { return nil }
            handle = opened
        }
        guard let handle else { return nil }
        let bytes = Data(text.utf8)
        do {
            try handle.seek(toOffset: end)
            try handle.write(contentsOf: bytes)
        } catch {
            return nil
        }
        let slot = Slot(offset: end, length: bytes.count)
        end += UInt64(bytes.count)
        return slot
    }

    /// The text of a slot `append` gave; nil when the file cannot be read back.
    func text(_ slot: Slot) -> String? {
        guard let handle else { return nil }
        do {
            try handle.seek(toOffset: slot.offset)
            guard let data = try handle.read(upToCount: slot.length), data.count == slot.length else { return nil }
            return String(decoding: data, as: UTF8.self)
        } catch {
            return nil
        }
    }

    /// Closes and deletes the file.
    func remove() {
        try? handle?.close()
        handle = nil
        try? FileManager.default.removeItem(atPath: path)
    }
}
