import Testing

@testable import SymbolServers

/// How a `--symbols` source names a server: the layout prefixes, what diagnostics may show of it, and where S3
/// requests go.
@Suite("symbol servers: sources, layouts, S3 addressing")
struct SymbolServerSourceTests {
    static let uuid = "23516BE4-29BE-350C-91C9-F36E7999F0F1"

    @Test("Sentry's unified layout: lower case, two hex digits, the other thirty, debuginfo")
    func unifiedKey() {
        #expect(SymbolServerLayout.unified.key(forUUID: Self.uuid) == "23/516be429be350c91c9f36e7999f0f1/debuginfo")
    }

    @Test("lldb's layout: the first twenty hex digits in folders of four, the last twelve as the file, upper case")
    func lldbKey() {
        #expect(SymbolServerLayout.lldb.key(forUUID: Self.uuid) == "2351/6BE4/29BE/350C/91C9/F36E7999F0F1")
        #expect(
            SymbolServerLayout.lldb.key(forUUID: "23516be429be350c91c9f36e7999f0f1")
                == "2351/6BE4/29BE/350C/91C9/F36E7999F0F1"
        )
    }

    @Test("anything but 32 hex digits gives no key, so nothing hostile reaches a URL")
    func hostileUUIDs() {
        for bad in ["", "../../etc/passwd", "23516BE4-29BE-350C-91C9-F36E7999F0F", "g3516be429be350c91c9f36e7999f0f1"] {
            #expect(SymbolServerLayout.unified.key(forUUID: bad) == nil)
            #expect(SymbolServerLayout.lldb.key(forUUID: bad) == nil)
        }
    }

    @Test("prefixes choose the layout; http(s) and s3 alone are unified")
    func prefixes() throws {
        let cases: [(String, SymbolServerLayout)] = [
            ("https://symbols.example.com/base", .unified), ("http://127.0.0.1:8080", .unified),
            ("unified+https://symbols.example.com", .unified), ("lldb+https://symbols.example.com/uuids", .lldb),
            ("s3://my-bucket/prefix", .unified), ("lldb+s3://my-bucket", .lldb), ("LLDB+HTTP://host/x", .lldb),
        ]
        for (text, layout) in cases {
            let server = try SymbolServer.parse(text).get()
            #expect(server.layout == layout, "\(text)")
        }
        #expect(
            try SymbolServer.parse("s3://my-bucket//a/b/").get().location == .s3(bucket: "my-bucket", prefix: "a/b")
        )
    }

    @Test("a password, a query and a fragment never reach what diagnostics show")
    func display() throws {
        let server = try SymbolServer.parse("https://user:s3cret@symbols.example.com/base/?token=abc#x").get()
        #expect(server.display == "https://symbols.example.com/base")
        #expect(!server.display.contains("s3cret") && !server.display.contains("abc"))
        guard case .http(let base, let auth) = server.location else {
            Issue.record("not an http source")
            return
        }
        #expect(base.absoluteString == "https://symbols.example.com/base")
        #expect(auth == "user:s3cret")
    }

    @Test("a bucket name S3 would refuse, or an address without a host, is rejected with why")
    func rejected() {
        #expect(throws: SymbolServerSourceError.self) { try SymbolServer.parse("s3://A_B").get() }
        #expect(throws: SymbolServerSourceError.self) { try SymbolServer.parse("https:///nohost").get() }
    }

    @Test("S3: virtual-host style on AWS, path style for IP addresses, localhost, dotted buckets or when asked")
    func addressing() throws {
        let aws = S3Endpoint(environment: ["AWS_REGION": "eu-west-1"])
        let virtual = try #require(aws.request(bucket: "dsyms", key: "ab/cd/debuginfo"))
        #expect(virtual.url.absoluteString == "https://dsyms.s3.eu-west-1.amazonaws.com/ab/cd/debuginfo")
        #expect(virtual.host == "dsyms.s3.eu-west-1.amazonaws.com")
        let dotted = try #require(aws.request(bucket: "my.dsyms", key: "k"))
        #expect(dotted.url.absoluteString == "https://s3.eu-west-1.amazonaws.com/my.dsyms/k")

        let local = S3Endpoint(environment: ["AWS_ENDPOINT_URL": "http://127.0.0.1:9000"])
        let path = try #require(local.request(bucket: "dsyms", key: "ab/cd/debuginfo"))
        #expect(path.url.absoluteString == "http://127.0.0.1:9000/dsyms/ab/cd/debuginfo")
        #expect(path.host == "127.0.0.1:9000")
        #expect(local.region == "us-east-1")
        let named = S3Endpoint(environment: ["AWS_ENDPOINT_URL": "http://localhost:5000"])
        #expect(
            try #require(named.request(bucket: "b12", key: "k")).url.absoluteString == "http://localhost:5000/b12/k"
        )
        let store = S3Endpoint(environment: ["AWS_ENDPOINT_URL": "https://store.example.com"])
        #expect(
            try #require(store.request(bucket: "b12", key: "k")).url.absoluteString == "https://b12.store.example.com/k"
        )
        let forced = S3Endpoint(
            environment: ["AWS_ENDPOINT_URL": "https://store.example.com", "AWS_S3_FORCE_PATH_STYLE": "true"]
        )
        #expect(
            try #require(forced.request(bucket: "b12", key: "k")).url.absoluteString
                == "https://store.example.com/b12/k"
        )
    }

    @Test("credentials need both keys; the session token is optional; the region falls back to AWS_DEFAULT_REGION")
    func credentials() {
        #expect(S3Credentials(environment: ["AWS_ACCESS_KEY_ID": "a"]) == nil)
        let full = S3Credentials(
            environment: ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_SESSION_TOKEN": "t"]
        )
        #expect(full?.sessionToken == "t")
        #expect(S3Endpoint(environment: ["AWS_DEFAULT_REGION": "ap-south-1"]).region == "ap-south-1")
    }

    @Test("sizes take K, M, G and T suffixes (powers of 1024) and refuse the rest")
    func byteCounts() {
        #expect(SymbolDownloadLimits.byteCount("1500") == 1500)
        #expect(SymbolDownloadLimits.byteCount("10G") == 10 << 30)
        #expect(SymbolDownloadLimits.byteCount("512k") == 512 << 10)
        for bad in ["", "-1", "10GB", "1.5G", "99999999999999999999", "8589934592G"] {
            #expect(SymbolDownloadLimits.byteCount(bad) == nil, "\(bad)")
        }
    }
}
