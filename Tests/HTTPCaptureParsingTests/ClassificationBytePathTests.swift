import PropertyBased
import Testing

@testable import HTTPCaptureParsing

/// The traffic type and the URL split take byte paths on ASCII text; they must give the `Character` readings'
/// answers everywhere, with CR LF, combining marks, `;` first, spaces and upper case included.
@Suite struct ClassificationBytePathTests {
    private static let mimePieces = [
        "text/html", "TEXT/", "html", "application/", "json", "JSON", "+xml", "xml", "image/", "video/", "font/",
        "font-woff2", "javascript", "text/plain", "grpc", "protobuf", "multipart/form-data", ";", "; charset=utf-8",
        " ", "\t", "\n", "\r", "\r\n", "\u{301}", "é", "x", "wasm", "application/dash+xml", "",
    ]
    private static let mimes = Gen.int(in: 0...(mimePieces.count - 1)).map { mimePieces[$0] }.array(of: 0...5)
    private static let resourceTypes: [String?] = [nil, "Document", "xhr", "image", "font", "other", "Script"]
    private static let methods = ["GET", "POST", "HEAD", "", "CONNECT", "PUT"]

    @Test func trafficTypeAgreesWithTheCharacterReading() async {
        await propertyCheck(
            input: Self.mimes,
            Gen.int(in: 0...(Self.resourceTypes.count - 1)),
            Gen.int(in: 0...(Self.methods.count - 1))
        ) { pieces, resource, method in
            let mime = pieces.joined()
            let resourceType = Self.resourceTypes[resource]
            let expected = HTTPTransaction.trafficTypeByCharacters(
                mimeType: mime,
                resourceType: resourceType,
                method: Self.methods[method]
            )
            let found = HTTPTransaction.trafficType(
                mimeType: mime,
                resourceType: resourceType,
                method: Self.methods[method]
            )
            #expect(found == expected, "\(mime.debugDescription) \(String(describing: resourceType))")
        }
    }

    @Test func everyMIMERuleHasItsAnswer() {
        #expect(HTTPTransaction.trafficType(mimeType: " Text/HTML ; charset=utf-8") == .web)
        #expect(HTTPTransaction.trafficType(mimeType: "application/vnd.api+json") == .api)
        #expect(HTTPTransaction.trafficType(mimeType: "text/plain", method: "POST") == .api)
        #expect(HTTPTransaction.trafficType(mimeType: "text/plain") == .other)
        #expect(HTTPTransaction.trafficType(mimeType: "IMAGE/png") == .resource)
        #expect(HTTPTransaction.trafficType(mimeType: "", resourceType: "XHR") == .api)
        // The Character split drops the empty piece before a leading `;`: the byte path leaves that to it.
        #expect(HTTPTransaction.trafficType(mimeType: ";text/html") == .web)
        // CR LF is one Character, which is not a space: not trimmed, so not text/html.
        #expect(HTTPTransaction.trafficType(mimeType: "text/html\r\n") == .other)
    }

    private static let urlPieces = [
        "https", "HTTP", "://", ":", "/", "?", "#", "@", "[", "]", "::1", "Example.COM", "8443", "user", "x",
        "\r\n", "é", "\u{301}", "", "a.b",
    ]
    private static let urls = Gen.int(in: 0...(urlPieces.count - 1)).map { urlPieces[$0] }.array(of: 0...8)

    @Test func urlPartsAgreeWithTheCharacterReading() async {
        await propertyCheck(input: Self.urls) { pieces in
            let url = pieces.joined()
            let expected = HTTPTransaction.urlPartsByCharacters(url)
            let found = HTTPTransaction.urlParts(url)
            #expect(found.scheme == expected.scheme, "\(url.debugDescription)")
            #expect(found.host == expected.host, "\(url.debugDescription)")
            #expect(found.port == expected.port, "\(url.debugDescription)")
        }
    }

    private static let namePieces = [
        "Content", "-", "Type", "TYPE", "host", "Host", "\u{212A}", "K", "k", "é", "É", ":",
    ]
    private static let names = Gen.int(in: 0...(namePieces.count - 1)).map { namePieces[$0] }.array(of: 0...3)

    @Test func headerValueAgreesWithLowercasedComparison() async {
        await propertyCheck(input: Self.names, Self.names.array(of: 0...4)) { wanted, present in
            let name = wanted.joined()
            let headers = present.enumerated().map { HTTPTransaction.Header(name: $1.joined(), value: "v\($0)") }
            let expected = headers.first { $0.name.lowercased() == name.lowercased() }?.value
            #expect(HTTPTransaction.headerValue(name, in: headers) == expected, "\(name) in \(headers.map(\.name))")
        }
        // The Kelvin sign lowercases to an ASCII k.
        let kelvin = [HTTPTransaction.Header(name: "\u{212A}eep-Alive", value: "5")]
        #expect(HTTPTransaction.headerValue("keep-alive", in: kelvin) == "5")
    }
}
