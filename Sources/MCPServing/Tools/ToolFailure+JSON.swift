import Foundation

extension ToolFailure {
    /// `{"error": {"code", "message", "path"}}`: the failure as a client's model and a script read it.
    package var json: String {
        var error: [String: String] = ["code": code.rawValue, "message": message]
        if let path { error["path"] = path }
        let data = try? JSONSerialization.data(
            withJSONObject: ["error": error],
            options: [.sortedKeys, .withoutEscapingSlashes]
        )
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
