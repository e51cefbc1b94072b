import APMInspectCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the debug file of a UUID on the symbol servers, in order, through the download cache.
///
/// Synchronous on purpose: the symbolicator asks for an image from plain threads (scan's workers, the main
/// thread), never from Swift concurrency, and each fetch waits on AsyncHTTPClient's future, which runs on NIO's own
/// event-loop threads. No task of the cooperative pool is ever blocked, so no run can starve it. One fetch at a
/// time: a UUID is asked once per run however many threads want it.
package final class SymbolFetcher: Sendable {
    package let servers: [SymbolServer]
    package let cache: SymbolDownloadCache?
    package let limits: SymbolDownloadLimits
    private let s3: S3Endpoint
    private let report: @Sendable (Diagnostic) -> Void
    private let client: HTTPClient
    /// Lower-case UUID to its file, or nil when no source had it: asked once per run.
    private let answers = Mutex<[String: String?]>([:])
    private let fetching = NSLock()
    private let closed = Mutex(false)
    /// Where downloads go when there is no cache folder: removed at ``shutdown()``.
    private let scratch: String?
    /// Requests sent so far (the tests count what a second run saves).
    private let requests = Mutex(0)
    /// Servers that could not be reached or did not answer in time: not asked again this run, so a server that is
    /// down costs one timeout, not one per image.
    private let unreachable = Mutex<Set<String>>([])

    /// Downloads go to `downloads/` of `cacheDirectory` (the `--symbol-cache` folder), else to a temporary folder of
    /// this process.
    ///
    /// `report` receives every failure, once each.
    package init(
        servers: [SymbolServer],
        cacheDirectory: String?,
        limits: SymbolDownloadLimits,
        environment: [String: String],
        report: @escaping @Sendable (Diagnostic) -> Void
    ) {
        self.servers = servers
        self.limits = limits
        self.report = report
        s3 = S3Endpoint(environment: environment)
        var cache = cacheDirectory.flatMap {
            SymbolDownloadCache(directory: $0, limitBytes: limits.cacheBytes, missingSeconds: limits.missingSeconds)
        }
        var scratch: String?
        if cache == nil {
            let folder =
                NSTemporaryDirectory() + "/apm-inspect-symbols-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            cache = SymbolDownloadCache(directory: folder, limitBytes: limits.maxBytes, missingSeconds: 0)
            scratch = folder
        }
        self.cache = cache
        self.scratch = scratch
        var configuration = HTTPClient.Configuration()
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: .seconds(limits.connectSeconds),
            read: .seconds(limits.readSeconds)
        )
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit { shutdown() }

    /// Closes the connections (and removes the temporary folder when there was no cache); later fetches find
    /// nothing.
    package func shutdown() {
        let wasClosed = closed.withLock { value in
            defer { value = true }
            return value
        }
        guard !wasClosed else { return }
        try? client.syncShutdown()
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    /// How many requests were sent so far.
    package var requestCount: Int { requests.withLock { $0 } }

    /// The path of the debug file for `uuid` (any case, dashes allowed): from the cache, else downloaded from the
    /// first server that has it; nil when none has it or it is not a UUID.
    package func file(forUUID uuid: String) -> String? {
        let hex = uuid.filter { $0 != "-" }.lowercased()
        guard SymbolServerLayout.unified.key(forUUID: hex) != nil else { return nil }
        if let known = answers.withLock({ $0[hex] }) { return known }
        fetching.lock()
        defer { fetching.unlock() }
        if let known = answers.withLock({ $0[hex] }) { return known }
        let found = lookUp(hex)
        answers.withLock { $0[hex] = .some(found) }
        return found
    }

    /// Forgets a cached file that turned out not to hold its UUID, and tells why.
    package func discard(_ path: String, uuid: String, because reason: String) {
        unlink(path)
        report(
            Diagnostic(.warning, .symbolsDownloadFailed, "the file downloaded for UUID \(Self.dashed(uuid)) \(reason)")
        )
    }

    private func lookUp(_ uuid: String) -> String? {
        if let cached = cache?.file(forUUID: uuid) { return cached }
        guard !closed.withLock({ $0 }), let cache else { return nil }
        for server in servers
        where !unreachable.withLock({ $0.contains(server.display) })
            && !cache.isKnownMissing(uuid: uuid, source: server.display)
        {
            switch download(uuid, from: server, into: cache) {
            case .stored(let path): return path
            case .missing: cache.recordMissing(uuid: uuid, source: server.display)
            case .failed(let diagnostic): report(diagnostic)
            case .unreachable(let diagnostic):
                unreachable.withLock { _ = $0.insert(server.display) }
                var said = diagnostic
                said.message += "; \(server.display) is not asked again in this run"
                report(said)
            }
        }
        return nil
    }

    private enum Answer {
        case stored(String)
        case missing
        case failed(Diagnostic)
        /// No answer at all (no connection, a timeout): the server is not asked again this run.
        case unreachable(Diagnostic)
    }

    private func download(_ uuid: String, from server: SymbolServer, into cache: SymbolDownloadCache) -> Answer {
        guard let key = server.layout.key(forUUID: uuid), let made = request(for: key, on: server) else {
            return .failed(Diagnostic(.warning, .symbolsDownloadFailed, "cannot make a request for \(server.display)"))
        }
        let (request, shown) = made
        let about = "\(shown) (UUID \(Self.dashed(uuid)))"
        guard let file = cache.makeTemporaryFile() else {
            return .failed(
                Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): no file can be made in the cache"
                )
            )
        }
        let (temporary, descriptor) = file
        var keep = false
        defer {
            close(descriptor)
            if !keep { unlink(temporary) }
        }
        requests.withLock { $0 += 1 }
        let delegate = DownloadDelegate(descriptor: descriptor, maxBytes: limits.maxBytes)
        let outcome: DownloadDelegate.Outcome
        do {
            outcome = try client.execute(
                request: request,
                delegate: delegate,
                deadline: .now() + .seconds(limits.totalSeconds)
            ).futureResult.wait()
        } catch is DownloadDelegate.TooLarge {
            return .failed(
                Diagnostic(
                    .warning,
                    .symbolsDownloadTooLarge,
                    "\(about) is larger than \(limits.maxBytes) bytes: not downloaded"
                )
            )
        } catch {
            return .unreachable(
                Diagnostic(.warning, .symbolsDownloadFailed, "cannot download \(about): \(describe(error))")
            )
        }
        switch outcome.status {
        case 200: break
        case 404: return .missing
        default:
            return .failed(
                Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): the server answered \(outcome.status)"
                )
            )
        }
        if let announced = outcome.announced, announced != outcome.received {
            return .failed(
                Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): the body ended after \(outcome.received) of \(announced) bytes"
                )
            )
        }
        if outcome.writeFailed {
            return .failed(
                Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): the cache folder cannot be written"
                )
            )
        }
        guard let path = cache.store(temporary: temporary, uuid: uuid) else {
            return .failed(
                Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): the file cannot be kept in the cache"
                )
            )
        }
        keep = true
        return .stored(path)
    }

    /// The request for `key` on `server` and how diagnostics show it (no credentials, no query).
    private func request(for key: String, on server: SymbolServer) -> (HTTPClient.Request, String)? {
        var headers = HTTPHeaders([("User-Agent", "apm-inspect")])
        let url: URL
        let shown: String
        switch server.location {
        case .http(let base, let basicAuth):
            guard let full = URL(string: base.absoluteString + "/" + key) else { return nil }
            url = full
            shown = full.absoluteString
            if let basicAuth {
                headers.add(name: "Authorization", value: "Basic " + Data(basicAuth.utf8).base64EncodedString())
            }
        case .s3(let bucket, let prefix):
            let objectKey = prefix.isEmpty ? key : prefix + "/" + key
            guard let addressed = s3.request(bucket: bucket, key: objectKey) else { return nil }
            let (full, host) = addressed
            url = full
            shown = "s3://\(bucket)/\(objectKey)"
            headers.add(name: "Host", value: host)
            if let credentials = s3.credentials {
                let amzDate = SigV4Signer.amzDate(Date())
                var signed: [(String, String)] = [
                    ("host", host), ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash), ("x-amz-date", amzDate),
                ]
                if let token = credentials.sessionToken { signed.append(("x-amz-security-token", token)) }
                let signer = SigV4Signer(credentials: credentials, region: s3.region)
                let authorization = signer.authorization(
                    method: "GET",
                    path: url.path(percentEncoded: true),
                    headers: signed,
                    payloadHash: SigV4Signer.emptyPayloadHash,
                    amzDate: amzDate
                )
                for (name, value) in signed where name != "host" { headers.add(name: name, value: value) }
                headers.add(name: "Authorization", value: authorization)
            }
        }
        guard let request = try? HTTPClient.Request(url: url, method: .GET, headers: headers) else { return nil }
        return (request, shown)
    }

    /// The error in words, with the limits it ran into.
    private func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            if error == .connectTimeout { return "no connection within \(limits.connectSeconds) s" }
            if error == .readTimeout { return "no data for \(limits.readSeconds) s" }
            if error == .deadlineExceeded { return "not complete within \(limits.totalSeconds) s" }
            if error == .remoteConnectionClosed { return "the connection closed before the answer ended" }
            if error == .redirectLimitReached || error == .redirectCycleDetected { return "too many redirects" }
        }
        if String(describing: type(of: error)) == "NIOConnectionError" { return "the connection was refused" }
        if "\(error)".contains("stream ended at an unexpected time") {
            return "the connection closed before the answer ended"
        }
        return "\(error)"
    }

    static func dashed(_ hex: String) -> String {
        let upper = Array(hex.uppercased())
        guard upper.count == 32 else { return hex }
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(upper[$0]) }.joined(separator: "-")
    }
}
