import Foundation
import PropertyBased
import Testing

@testable import HTTPCaptureParsing

/// Addresses, ports and timestamps are written into string storage digit by digit; they must read as the
/// interpolated and calendar forms they replace.
@Suite struct PacketTextTests {
    @Test func dottedQuadsAndPortsReadAsInterpolated() async {
        await propertyCheck(input: Gen.uint32(), Gen.uint16()) { address, port in
            let v = UInt64(address)
            let expected = "\(v >> 24 & 0xFF).\(v >> 16 & 0xFF).\(v >> 8 & 0xFF).\(v & 0xFF)"
            let ip = IPAddress(v4: address)
            #expect(ip.text == expected)
            #expect(Endpoint(address: ip, port: port).text == "\(expected):\(port)")
        }
        #expect(IPAddress(v4: 0).text == "0.0.0.0")
        #expect(Endpoint(address: IPAddress(v4: 0xFFFF_FFFF), port: 65_535).text == "255.255.255.255:65535")
    }

    @Test func timestampsReadAsTheGregorianCalendarSays() async {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        // 1600-01-01 to 9999-12-31, in whole milliseconds (Foundation's calendar is Julian before 1582).
        await propertyCheck(input: Gen.int64(in: -11_676_096_000_000...253_402_300_799_999)) { millis in
            let seconds = Double(millis) / 1000
            let date = Date(timeIntervalSince1970: seconds)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let ms = Int(((millis % 1000) + 1000) % 1000)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                c.year ?? 0,
                c.month ?? 0,
                c.day ?? 0,
                c.hour ?? 0,
                c.minute ?? 0,
                c.second ?? 0,
                ms
            )
            #expect(CaptureTimestamp.iso8601(seconds) == expected, "\(millis)")
        }
        #expect(CaptureTimestamp.iso8601(-0.001) == "1969-12-31T23:59:59.999Z")
        #expect(CaptureTimestamp.iso8601(1_704_164_645.678) == "2024-01-02T03:04:05.678Z")
        // Years past four digits keep the written-out form.
        #expect(CaptureTimestamp.iso8601(253_402_300_800) == "10000-01-01T00:00:00.000Z")
        #expect(CaptureTimestamp.iso8601(.nan) == "")
    }
}
