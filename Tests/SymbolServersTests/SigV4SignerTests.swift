import Foundation
import Testing

@testable import SymbolServers

/// SigV4 against AWS's published examples: the signature test suite's `get-vanilla` and the S3 guide's GET object
/// example (a range of `test.txt` in `examplebucket`).
///
/// A wrong byte anywhere in the canonical request, the string to
/// sign or the key derivation changes the signature.
@Suite("SigV4: AWS's published signing examples")
struct SigV4SignerTests {
    @Test("get-vanilla: the canonical request, its hash in the string to sign, and the Authorization header")
    func getVanilla() {
        let headers = [("Host", "example.amazonaws.com"), ("X-Amz-Date", "20150830T123600Z")]
        let (canonical, signed) = SigV4Signer.canonicalRequest(
            method: "GET",
            path: "/",
            query: [],
            headers: headers,
            payloadHash: SigV4Signer.emptyPayloadHash
        )
        #expect(
            canonical
                == "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
                + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        )
        #expect(signed == "host;x-amz-date")
        #expect(
            SigV4Signer.stringToSign(
                amzDate: "20150830T123600Z",
                scope: "20150830/us-east-1/service/aws4_request",
                canonicalRequest: canonical
            )
                == "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"
        )
        let signer = SigV4Signer(
            credentials: S3Credentials(
                accessKeyID: "AKIDEXAMPLE",
                secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
            ),
            region: "us-east-1",
            service: "service"
        )
        #expect(
            signer.authorization(
                method: "GET",
                path: "/",
                headers: headers,
                payloadHash: SigV4Signer.emptyPayloadHash,
                amzDate: "20150830T123600Z"
            )
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=host;x-amz-date, "
                + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        )
    }

    @Test("S3 GET object example: Range bytes=0-9 of /test.txt in examplebucket")
    func s3GetObject() {
        let signer = SigV4Signer(
            credentials: S3Credentials(
                accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
            ),
            region: "us-east-1"
        )
        let authorization = signer.authorization(
            method: "GET",
            path: "/test.txt",
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
                ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash), ("x-amz-date", "20130524T000000Z"),
            ],
            payloadHash: SigV4Signer.emptyPayloadHash,
            amzDate: "20130524T000000Z"
        )
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        )
    }

    @Test("URI encoding keeps unreserved characters (and / in paths), encodes the rest in upper-case hex")
    func uriEncoding() {
        #expect(SigV4Signer.uriEncode("a b/c~d_e.f-g", keepingSlashes: true) == "a%20b/c~d_e.f-g")
        #expect(SigV4Signer.uriEncode("a/b+c=é", keepingSlashes: false) == "a%2Fb%2Bc%3D%C3%A9")
    }

    @Test("the signed time is UTC, to the second")
    func amzDate() {
        #expect(SigV4Signer.amzDate(Date(timeIntervalSince1970: 1_440_938_160)) == "20150830T123600Z")
    }
}
