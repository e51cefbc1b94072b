/// Pairs the requests of one HTTP/1.x connection with its final responses.
///
/// FIFO is exact while both streams are whole (it is what keep-alive and pipelining guarantee). After a hole that
/// may have swallowed whole messages, FIFO would hand every later response to the wrong request, so a response that
/// follows a hole (or meets a request that follows one) goes to the latest unanswered request sent before it began,
/// and a response that no such request can explain is left unpaired.
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
            guard holed, let began = serverStream.time(at: response.start) else {
                answers[next] = index
                next += 1
                continue
            }
            // The requests already sent when this response began.
            var sentBefore: [Int] = []
            var candidate = next
            while candidate < requests.count, candidate - next < lookahead,
                let sent = clientStream.time(at: requests[candidate].start), sent <= began
            {
                sentBefore.append(candidate)
                candidate += 1
            }
            let afterHole = response.afterHole || sentBefore.contains { requests[$0].afterHole }
            guard afterHole else {
                answers[next] = index
                next += 1
                continue
            }
            // None sent yet: the response answers a request lost in a hole.
            guard let chosen = sentBefore.last else { continue }
            answers[chosen] = index
            next = chosen + 1
        }
        return answers
    }
}
