import APMInspectCore

extension KSCrashMapping {
    /// `binary_images`: load address, size, path, UUID, CPU type; a `crash_info_message` (a Swift runtime error's
    /// text, as the image's `__crash_info` section held it) becomes an Application Specific Information line.
    mutating func readImages(_ list: JSONElement, keyPath: String, messages: inout [String]) -> [CrashReport
        .BinaryImage]
    {
        guard expectArray(list, of: "images", keyPath) else { return [] }
        let capacity = min(list.count, tally.limits.maxBinaryImages)
        tally.skipImages(list.count - capacity)
        var images: [CrashReport.BinaryImage] = []
        images.reserveCapacity(capacity)
        var unreadable = 0
        var firstUnreadable: (JSONElement, Int)?
        for (position, object) in list.elements.enumerated() {
            guard position < capacity else { break }
            guard object.kind == .object, let base = unsigned(object.member("image_addr")) else {
                unreadable += 1
                if firstUnreadable == nil { firstUnreadable = (object, position) }
                continue
            }
            var image = CrashReport.BinaryImage(base: HexValue(base))
            if let size = unsigned(object.member("image_size")), size > 0 {
                let (end, overflow) = base.addingReportingOverflow(size - 1)
                if !overflow { image.end = HexValue(end) }
            }
            let path = nonEmpty(text(object.member("name")))
            image.path = path
            image.name = path.map(Self.lastComponent)
            image.uuid = nonEmpty(text(object.member("uuid"))).map(Self.normalizedUUID)
            if let type = object.member("cpu_type")?.int64 {
                image.arch = KSCrashNames.architecture(
                    cpuType: type,
                    cpuSubtype: object.member("cpu_subtype")?.int64 ?? 0
                )
            }
            if let major = object.member("major_version")?.int64 {
                let minor = object.member("minor_version")?.int64 ?? 0
                let revision = object.member("revision_version")?.int64 ?? 0
                image.version = "\(major).\(minor).\(revision)"
            }
            if let message = nonEmpty(text(object.member("crash_info_message"))) {
                let trimmed = message.trimmingASCIIWhitespace()
                if !trimmed.isEmpty { messages.append("\(image.name ?? "???"): \(trimmed)") }
            }
            images.append(image)
        }
        if unreadable > 0, let (element, position) = firstUnreadable {
            warn(
                .kscrashImageWithoutAddress,
                "\(unreadable) binary image(s) without a readable image_addr were skipped",
                element,
                keyPath + "[\(position)]"
            )
        }
        return images
    }

    /// The last component of a path (`UIKit` for `/System/Library/Frameworks/UIKit.framework/UIKit`).
    static func lastComponent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        let name = path[path.utf8.index(after: slash)...]
        return name.isEmpty ? path : String(name)
    }

    /// 32 lower-case hex digits without dashes, as the model keeps UUIDs; anything else as written.
    static func normalizedUUID(_ written: String) -> String {
        let digits = written.lowercased().filter { $0 != "-" }
        guard digits.utf8.count == 32,
            digits.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else {
            return written
        }
        return digits
    }
}
