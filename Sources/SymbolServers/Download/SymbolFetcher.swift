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

    /// Requests one download makes while each gets more of the file: a connection cut after some bytes is
    /// resumed from them (`Range`, with `If-Range` when the server gave a validator).
    static let maxAttempts = 3

    /// Where one download's bytes go: the cache's resumable file of the UUID and source, or a private temporary
    /// file when another process holds that one.
    private struct Target {
        var path: String
        var descriptor: Int32
        var held: Int64
        var validator: String?
        var resumable: ResumableFile?
    }

    private func download(_ uuid: String, from server: SymbolServer, into cache: SymbolDownloadCache) -> Answer {
        guard let key = server.layout.key(forUUID: uuid), let shown = request(for: key, on: server)?.1 else {
            return .failed(Diagnostic(.warning, .symbolsDownloadFailed, "cannot make a request for \(server.display)"))
        }
        let about = "\(shown) (UUID \(Self.dashed(uuid)))"
        var target: Target
        if let file = cache.resumableFile(uuid: uuid, source: server.display) {
            target = Target(
                path: file.path,
                descriptor: file.descriptor,
                held: file.held,
                validator: file.validator,
                resumable: file
            )
        } else if let file = cache.makeTemporaryFile() {
            target = Target(path: file.path, descriptor: file.descriptor, held: 0, validator: nil, resumable: nil)
        } else {
            return .failed(
                Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): no file can be made in the cache"
                )
            )
        }
        /// Drops the bytes held (a temporary file always, a resumable one unless `keepHeld`).
        func finish(keepHeld: Bool) {
            close(target.descriptor)
            if let resumable = target.resumable {
                if !keepHeld || target.held == 0 { cache.discardResumable(resumable) }
            } else {
                unlink(target.path)
            }
        }
        let resumedFrom = target.held
        var attempts = 0
        while true {
            attempts += 1
            let answer = attempt(key: key, on: server, about: about, into: &target)
            switch answer {
            case .complete:
                if let resumable = target.resumable { cache.keepValidator(nil, for: resumable) }
                close(target.descriptor)
                guard let path = cache.store(temporary: target.path, uuid: uuid) else {
                    return .failed(
                        Diagnostic(
                            .warning,
                            .symbolsDownloadFailed,
                            "cannot download \(about): the file cannot be kept in the cache"
                        )
                    )
                }
                if resumedFrom > 0 || attempts > 1 {
                    report(
                        Diagnostic(
                            .note,
                            .symbolsDownloadResumed,
                            "\(about) was resumed after a cut (\(attempts) request(s)"
                                + (resumedFrom > 0 ? ", \(resumedFrom) bytes kept from an earlier run" : "") + ")"
                        )
                    )
                }
                return .stored(path)
            case .startOver:
                guard attempts < Self.maxAttempts else {
                    finish(keepHeld: false)
                    return .failed(
                        Diagnostic(
                            .warning,
                            .symbolsDownloadFailed,
                            "cannot download \(about): the server's ranges did not continue the file"
                        )
                    )
                }
            case .cut(let progressed, var said):
                if progressed, attempts < Self.maxAttempts { continue }
                finish(keepHeld: true)
                guard target.held > 0 else { return .unreachable(said) }
                if target.resumable != nil {
                    said.message += "; \(target.held) bytes are kept and the next run resumes from them"
                }
                return .failed(said)
            case .done(let final, let keepHeld):
                finish(keepHeld: keepHeld)
                return final
            }
        }
    }

    /// What one request gave.
    private enum Attempt {
        /// The file is whole in the target.
        case complete
        /// The held bytes were dropped (a range that does not continue them); the next request asks for all.
        case startOver
        /// The body stopped early; `progressed` when it brought bytes, so another request may resume. Without any
        /// byte held, the server counts as unreachable.
        case cut(progressed: Bool, Diagnostic)
        /// The download ends with this answer; the held bytes stay for a later run when `keepHeld`.
        case done(Answer, keepHeld: Bool)
    }

    private func attempt(key: String, on server: SymbolServer, about: String, into target: inout Target) -> Attempt {
        guard let made = request(for: key, on: server, from: target.held, validator: target.validator) else {
            return .done(
                .failed(Diagnostic(.warning, .symbolsDownloadFailed, "cannot make a request for \(server.display)")),
                keepHeld: true
            )
        }
        requests.withLock { $0 += 1 }
        let delegate = DownloadDelegate(
            descriptor: target.descriptor,
            maxBytes: limits.maxBytes,
            resumeFrom: target.held
        )
        let failure: (any Error)?
        do {
            _ = try client.execute(
                request: made.0,
                delegate: delegate,
                deadline: .now() + .seconds(limits.totalSeconds)
            ).futureResult.wait()
            failure = nil
        } catch is DownloadDelegate.TooLarge {
            return .done(
                .failed(
                    Diagnostic(
                        .warning,
                        .symbolsDownloadTooLarge,
                        "\(about) is larger than \(limits.maxBytes) bytes: not downloaded"
                    )
                ),
                keepHeld: false
            )
        } catch {
            failure = error
        }
        let outcome = delegate.progress
        if outcome.writeFailed {
            return .done(
                .failed(
                    Diagnostic(
                        .warning,
                        .symbolsDownloadFailed,
                        "cannot download \(about): the cache folder cannot be written"
                    )
                ),
                keepHeld: false
            )
        }
        if outcome.status == 200 { target.held = 0 }
        if outcome.isKept {
            let before = target.held
            target.held = outcome.held
            if let validator = outcome.validator { target.validator = validator }
            if let resumable = target.resumable { cache?.keepValidator(target.validator, for: resumable) }
            let whole = outcome.status == 206 ? outcome.total : outcome.announced.map { $0 + outcome.start }
            if let failure {
                let said = Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): \(describe(failure))"
                )
                return .cut(progressed: target.held > before, said)
            }
            if let whole, whole != target.held {
                let said = Diagnostic(
                    .warning,
                    .symbolsDownloadFailed,
                    "cannot download \(about): the body ended after \(target.held) of \(whole) bytes"
                )
                return .cut(progressed: target.held > before, said)
            }
            return .complete
        }
        if let failure {
            return .done(
                .unreachable(
                    Diagnostic(.warning, .symbolsDownloadFailed, "cannot download \(about): \(describe(failure))")
                ),
                keepHeld: true
            )
        }
        switch outcome.status {
        case 404: return .done(.missing, keepHeld: false)
        case 206, 416:
            // A range that does not continue the held bytes, or one past the file's end: ask for the whole file.
            if ftruncate(target.descriptor, 0) != 0 { return .done(.failed(Self.unwritable(about)), keepHeld: false) }
            target.held = 0
            target.validator = nil
            return .startOver
        default:
            return .done(
                .failed(
                    Diagnostic(
                        .warning,
                        .symbolsDownloadFailed,
                        "cannot download \(about): the server answered \(outcome.status)"
                    )
                ),
                keepHeld: true
            )
        }
    }

    private static func unwritable(_ about: String) -> Diagnostic {
        Diagnostic(.warning, .symbolsDownloadFailed, "cannot download \(about): the cache folder cannot be written")
    }

    /// The request for `key` on `server` and how diagnostics show it (no credentials, no query).
    private func request(
        for key: String,
        on server: SymbolServer,
        from held: Int64 = 0,
        validator: String? = nil
    ) -> (HTTPClient.Request, String)? {
        var headers = HTTPHeaders([("User-Agent", "apm-inspect")])
        if held > 0 {
            // The rest of the file, and only if it is still the file the held bytes came from.
            headers.add(name: "Range", value: "bytes=\(held)-")
            if let validator { headers.add(name: "If-Range", value: validator) }
        }
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
