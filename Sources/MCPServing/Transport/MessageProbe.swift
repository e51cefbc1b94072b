import Foundation
import MCP

/// The little of a JSON-RPC message the transport needs: its id, its method, and the request a cancellation names.
///
/// Read so that the server can answer every request before it ends at the end of its input (see
/// ``LineChannel``), counting exactly the requests the SDK answers with their own id: those whose id is a string
/// or an integer.
struct MessageProbe: Decodable {
    struct CancelParameters: Decodable {
        var requestId: ID?
    }

    var id: ID?
    var method: String?
    var params: CancelParameters?

    private enum CodingKeys: String, CodingKey {
        case id, method, params
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try? container.decodeIfPresent(ID.self, forKey: .id)
        method = try? container.decodeIfPresent(String.self, forKey: .method)
        params =
            method == "notifications/cancelled"
            ? try? container.decodeIfPresent(CancelParameters.self, forKey: .params) : nil
    }

    /// The messages of `data`: one object, or each object of a batch; none when it is neither.
    static func messages(in data: Data) -> [MessageProbe] {
        let decoder = JSONDecoder()
        if let one = try? decoder.decode(MessageProbe.self, from: data) { return [one] }
        if let batch = try? decoder.decode([Lenient].self, from: data) { return batch.compactMap(\.probe) }
        return []
    }

    /// A batch member that may not be an object.
    struct Lenient: Decodable {
        var probe: MessageProbe?
        init(from decoder: any Decoder) throws {
            probe = try? MessageProbe(from: decoder)
        }
    }
}
