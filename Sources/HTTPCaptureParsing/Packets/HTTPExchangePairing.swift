/// Pairs the requests of one HTTP/1.x connection with its final responses.
///
/// FIFO is exact while both streams are whole (it is what keep-alive and pipelining guarantee). After a hole that
/// may have swallowed whole messages, FIFO would hand every later response to the wrong request. Then a response
/// answers only a request already sent when it began; one that follows a hole (or meets a request that follows
/// one) goes to the latest such request, and a response that no such request can explain (its request was lost) is
/// left unpaired.
enum HTTPExchangePairing {
    /// How many requests ahead of the FIFO one a response may reach for (bounds the work per response).
    static let lookahead = 1024

    /// For each request, the index in `responses` of its answer (nil: none in the capture).
    static func pair(
        requests: [HTTP1Message],
        responses: [HTTP1Message],
        clientStream: TCPStream,
        serverStream: TCPStream
    ) -> [Int?] {
        var answers = [Int?](repeating: nil, count: requests.count)
        let holed = !clientStream.gaps.isEmpty || !serverStream.gaps.isEmpty
        var next = 0
        for (index, response) in responses.enumerated() {
            guard requests.indices.contains(next) else { break }
            guard holed, let began = serverStream.time(at: response.start),
                clientStream.time(at: requests[next].start) != nil
            else {
                answers[next] = index
                next += 1
                continue
            }
            // The requests already sent when this response began: it can answer no other.
            var sentBefore: [Int] = []
            var candidate = next
            while candidate < requests.count, candidate - next < lookahead,
                let sent = clientStream.time(at: requests[candidate].start), sent <= began
            {
                sentBefore.append(candidate)
                candidate += 1
            }
            // None: the response answers a request the capture lost.
            guard let first = sentBefore.first else { continue }
            let afterHole = response.afterHole || sentBefore.contains { requests[$0].afterHole }
            let chosen = afterHole ? (sentBefore.last ?? first) : first
            answers[chosen] = index
            next = chosen + 1
        }
        return answers
    }
}
