import APMInspectCore

/// Number formatting for human output, independent of the locale.
package enum Formatting {
    /// `1234567` → `1,234,567`.
    package static func grouped(_ value: some BinaryInteger) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    /// A value with one decimal: `70.8`.
    ///
    /// Values no `Int64` holds in tenths (a hostile `1e300`, `inf`, `nan`) as Swift prints them.
    package static func oneDecimal(_ value: Double) -> String {
        let scaled = (value * 10).rounded()
        guard let tenths = Int64(exactly: scaled), tenths != .min else { return String(value) }
        let whole = tenths / 10
        let tenth = abs(tenths % 10)
        return "\(scaled < 0 && whole == 0 ? "-" : "")\(whole).\(tenth)"
    }

    /// A median: integral values without decimals, halves with one.
    package static func median(_ value: Double) -> String {
        value == value.rounded() ? value.wholeOrDecimalText : oneDecimal(value)
    }

    /// Bytes in MiB with one decimal: `1450.1 MB`.
    package static func megabytes(_ bytes: UInt64) -> String { oneDecimal(Double(bytes) / 1_048_576) + " MB" }

    /// RAM in MiB as people say it: `2 GB`, `1.5 GB`, `512 MB`.
    package static func ram(_ megabytes: Int) -> String {
        if megabytes >= 1024 {
            let gigabytes = Double(megabytes) / 1024
            return (gigabytes == gigabytes.rounded() ? gigabytes.wholeOrDecimalText : oneDecimal(gigabytes)) + " GB"
        }
        return "\(megabytes) MB"
    }
}
