import APMInspectCore

/// The evidence, gathered one entry at a time, for a HAR file's timing conventions (``HARReplay/Conventions``).
///
/// Whether `ssl` comes on top of `connect` is a property of the tool that wrote the file, decided from all its
/// entries: any entry with `ssl > connect` proves it; otherwise entries whose `time` equals the sum with `ssl` added
/// (and not without it) vote against the entries whose `time` matches the HAR 1.2 rule. A creator name alone never
/// decides, because creators lie (mitmproxy files labelled Firefox).
struct SSLVotes {
    /// An entry had `ssl > connect`: the file's `ssl` is additive whatever the other entries say.
    private(set) var sslAboveConnect = false
    private var additive = 0
    private var nested = 0
    private var anyDNS = false

    /// Adds the evidence of one entry (expanded), whatever its shape.
    mutating func observe(_ entry: JSONElement) {
        let timings = entry.member("timings")
        if !anyDNS, timings?.member("dns") != nil { anyDNS = true }
        guard entry.kind == .object, let timings, timings.kind == .object,
            let ssl = number(timings.member("ssl")), ssl > 0,
            let connect = number(timings.member("connect")), connect >= 0
        else { return }
        if ssl > connect {
            sslAboveConnect = true
            return
        }
        guard let time = number(entry.member("time")) else { return }
        var sum = 0.0
        for phase in [
            timings.member("blocked"), timings.member("dns"), timings.member("connect"), timings.member("send"),
            timings.member("wait"), timings.member("receive"),
        ] {
            if let value = number(phase), value > 0 { sum += value }
        }
        let tolerance = 0.5
        if abs(time - sum) <= tolerance {
            nested += 1
        } else if abs(time - (sum + ssl)) <= tolerance {
            additive += 1
        }
    }

    /// True when the file's `ssl` is on top of `connect`.
    var sslAdditive: Bool { sslAboveConnect || additive > nested }

    /// The conventions the evidence decides.
    ///
    /// `connectIncludesDNS` is mitmproxy's signature: TLS on top of connect and no DNS timing in any entry, because
    /// it resolves inside connect.
    func conventions(wallClock: Bool) -> HARReplay.Conventions {
        HARReplay.Conventions(
            sslAdditive: sslAdditive,
            connectIncludesDNS: sslAdditive && !anyDNS,
            wallClock: wallClock
        )
    }
}
