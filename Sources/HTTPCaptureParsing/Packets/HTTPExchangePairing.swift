import APMInspectCore

/// Pairs the requests of one HTTP/1.x connection with its final responses.
///
/// FIFO is exact while both streams are whole (it is what keep-alive and pipelining guarantee). After a hole that
/// may have swallowed whole messages, FIFO would hand every later response to the wrong request. Then a response
/// answers only a request already sent when it began; one that follows a hole (or meets a request that follows
/// one) goes to the latest such request, and a response that no such request can explain (its request was lost) is
/// left unpaired.
enum HTTPExchangePairing {
    /// For each request, the index in `responses` of its answer (nil: none in the capture).
    ///
    /// Each response costs a binary search over the requests (their start times rise along the stream), so a
    /// stream of many pipelined requests stays cheap.
    static func pair(
        requests: [HTTP1Message],
        responses: [HTTP1Message],
        clientStream: TCPStream,
        serverStream: TCPStream
    ) -> [Int?] {
        var answers = [Int?](repeating: nil, count: requests.count)
        let holed = !clientStream.gaps.isEmpty || !serverStream.gaps.isEmpty
        // How many requests before each index follow a hole (a range's count in constant time).
        var holesBefore = [0]
        holesBefore.reserveCapacity(requests.count + 1)
        for request in requests { holesBefore.append((holesBefore.last ?? 0) + (request.afterHole ? 1 : 0)) }
        var next = 0
        var pipelined = false
        var pairedBytes: Int64 = 0
        var pairedCount = 0
        for (index, response) in responses.enumerated() {
            guard requests.indices.contains(next) else { break }
            guard holed, let began = serverStream.time(at: response.start),
                let nextSent = clientStream.time(at: requests[next].start)
            else {
                answers[next] = index
                next += 1
                continue
            }
            // A response answers only a request already sent when it began; none: its request was lost.
            guard nextSent <= began else { continue }
            var last = next
            var low = next + 1
            var high = requests.count - 1
            while low <= high {
                let middle = low + (high - low) / 2
                if let sent = clientStream.time(at: requests[middle].start), sent <= began {
                    last = middle
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            let afterHole = response.afterHole || holesBefore[last + 1] - holesBefore[next] > 0
            var chosen = next
            if afterHole && !pipelined {
                chosen = last
            } else if response.afterHole, pairedCount > 0 {
                // Pipelined: every request may be sent already, so guess how many responses the hole took from
                // the bytes it took and the mean response size so far.
                let lostBytes = Double(response.missingBefore) + Double(response.skippedBefore)
                let mean = Double(pairedBytes) / Double(pairedCount)
                let ratio = mean > 0 ? (lostBytes / mean).rounded() : 0
                let guess = ratio.isFinite ? ratio : 0
                chosen = Swift.min(last, next + Int(saturating: Swift.max(0, Swift.min(guess, Double(last - next)))))
            }
            answers[chosen] = index
            pairedBytes += Int64(response.end - response.start) + response.missingBytes
            pairedCount += 1
            // Pipelining: the next request went out before this response began.
            if requests.indices.contains(chosen + 1), let sent = clientStream.time(at: requests[chosen + 1].start),
                sent < began
            {
                pipelined = true
            }
            next = chosen + 1
        }
        return answers
    }
}
