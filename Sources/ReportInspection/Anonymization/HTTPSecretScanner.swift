/// Finds the secrets of an HTTP capture written as JSON (HAR, Charles `.chlsj`) in its bytes, without a parser
/// that could refuse it: a truncated or damaged capture is exactly the one a user shares to report a problem.
///
/// A secret is the `value` of an object whose `name` is a cookie or credential header (HAR and Charles headers), the
/// second element of a `[name, value]` pair whose name is one (HAR 1.1 exporters), and the `value` of every object
/// of a `cookies` array. An object left open at the end of a cut file still gives its secret.
package enum HTTPSecretScanner {
    /// A string to replace: the byte range of its content (between the quotes) and its header's name, lowercased
    /// (nil for a cookie of a `cookies` array).
    package struct Secret: Equatable {
        package var range: Range<Int>
        package var header: String?
    }

    /// The header names whose values are secrets, lowercased.
    package static let secretHeaders: Set<String> = ["cookie", "set-cookie", "authorization", "proxy-authorization"]

    private struct Frame {
        var isObject: Bool
        /// The key this container is the value of (for an array), or of its array (for an object in one).
        var key: String?
        var expectingKey = true
        var pendingKey: String?
        var name: String?
        var value: Range<Int>?
        var index = 0
        var firstString: String?
        var inCookies = false
        var inHeaders = false
    }

    /// The secrets of `bytes`, in order.
    package static func secrets(in bytes: [UInt8]) -> [Secret] {
        var found: [Secret] = []
        var stack: [Frame] = []
        var offset = 0
        func close(_ frame: Frame, cut: Bool = false) {
            guard frame.isObject, let value = frame.value else { return }
            // A header cut before its name may be a credential: its value goes too.
            if frame.inCookies || (cut && frame.inHeaders && frame.name == nil) {
                found.append(Secret(range: value, header: nil))
            } else if let name = frame.name?.lowercased(), secretHeaders.contains(name) {
                found.append(Secret(range: value, header: name))
            }
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let parent = stack.last
                var frame = Frame(isObject: byte == UInt8(ascii: "{"))
                if frame.isObject {
                    frame.inCookies = parent.map { !$0.isObject && $0.key == "cookies" } ?? false
                    frame.inHeaders = parent.map { !$0.isObject && $0.key == "headers" } ?? false
                } else {
                    frame.key = parent?.isObject == true ? parent?.pendingKey : nil
                }
                // Unbounded nesting is no threat here (no recursion), but the stack is kept to a sane depth.
                if stack.count < 10_000 { stack.append(frame) }
                offset += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let frame = stack.popLast() { close(frame) }
                offset += 1
            case UInt8(ascii: ","):
                if let last = stack.indices.last {
                    if stack[last].isObject { stack[last].expectingKey = true } else { stack[last].index += 1 }
                }
                offset += 1
            case UInt8(ascii: "\""):
                let start = offset + 1
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                end = min(end, bytes.count)
                offset = end + 1
                guard let last = stack.indices.last else { continue }
                let range = start..<end
                if stack[last].isObject {
                    if stack[last].expectingKey {
                        stack[last].pendingKey = String(decoding: bytes[range], as: UTF8.self)
                        stack[last].expectingKey = false
                    } else if stack[last].pendingKey == "name" {
                        stack[last].name = String(decoding: bytes[range], as: UTF8.self)
                    } else if stack[last].pendingKey == "value" {
                        stack[last].value = range
                    }
                } else if stack[last].index == 0 {
                    stack[last].firstString = String(decoding: bytes[range], as: UTF8.self)
                } else if stack[last].index == 1, let name = stack[last].firstString?.lowercased(),
                    secretHeaders.contains(name)
                {
                    found.append(Secret(range: range, header: name))
                }
            default:
                offset += 1
            }
        }
        // A cut file: the objects still open hold their secrets too.
        while let frame = stack.popLast() { close(frame, cut: true) }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}
