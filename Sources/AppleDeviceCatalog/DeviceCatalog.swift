/// The table of Apple device models: identifier to marketing name, family and installed RAM.
///
/// The rows come from `Sources/AppleDeviceCatalog/devices.tsv`, compiled into the library by
/// `Scripts/generate-device-catalog.py`, so nothing is read from disk at run time.
package enum DeviceCatalog {
    /// Every known model, in the order of `devices.tsv`.
    package static let all: [DeviceModel] = generatedModels

    /// The share of nominal RAM that a report's memory estimate is expected to show.
    ///
    /// jetsam.md §2.3: the estimate from `memoryStatus` is 88–104 % of nominal RAM in real reports;
    /// 0.96 is the middle of that range.
    static let expectedEstimateRatio = 0.96

    /// The models keyed by identifier, built once on first use (a `static let` is initialised lazily and thread-safely).
    private static let modelsByIdentifier: [String: DeviceModel] = {
        var table: [String: DeviceModel] = [:]
        table.reserveCapacity(all.count)
        for model in all where table[model.identifier] == nil {
            table[model.identifier] = model
        }
        return table
    }()

    /// Looks up a model by its identifier.
    ///
    /// The match is exact and case-sensitive after leading and trailing whitespace is trimmed.
    ///
    /// - Parameter identifier: A model identifier such as `"iPhone8,2"`, as found in a report's `product` field.
    /// - Returns: The model, or nil when the identifier is unknown.
    package static func model(for identifier: String) -> DeviceModel? {
        if let model = modelsByIdentifier[identifier] {
            return model
        }
        guard let first = identifier.firstIndex(where: { !$0.isWhitespace }),
            let last = identifier.lastIndex(where: { !$0.isWhitespace })
        else {
            return nil
        }
        return modelsByIdentifier[String(identifier[first...last])]
    }

    /// Picks the nominal RAM for a device, using a RAM estimate from a report when the identifier is ambiguous.
    ///
    /// jetsam.md §2.3: the estimate from `memoryStatus` is 88–104 % of nominal RAM.
    /// - With one RAM option, returns it (`ambiguous` false, `resolvedByEstimate` false); the estimate is ignored.
    /// - With several options, returns the option nearest to the estimate (`ambiguous` true,
    ///   `resolvedByEstimate` true). "Nearest" compares ratios, not differences: the option whose expected
    ///   estimate (96 % of the option, the middle of 88–104 %) is the smallest factor away from the estimate.
    ///   Without a usable estimate (nil, not finite, or not positive) it returns nil.
    /// - Returns nil for unknown identifiers and for models whose RAM is unknown.
    ///
    /// - Parameters:
    ///   - identifier: A model identifier such as `"iPad14,3"`; whitespace around it is ignored.
    ///   - estimatedMB: The RAM estimate in MiB computed from the report, if any.
    /// - Returns: The chosen RAM and how it was chosen, or nil when it cannot be decided.
    package static func resolveRAM(for identifier: String, estimatedMB: Double?) -> RAMResolution? {
        guard let model = model(for: identifier), let firstOption = model.ramOptionsMB.first else {
            return nil
        }
        if model.ramOptionsMB.count == 1 {
            return RAMResolution(ramMB: firstOption, ambiguous: false, resolvedByEstimate: false)
        }
        guard let estimate = estimatedMB, estimate.isFinite, estimate > 0 else {
            return nil
        }
        var best = firstOption
        var bestFactor = Double.infinity
        for option in model.ramOptionsMB {
            let factor = ratioDistance(estimate, Double(option) * expectedEstimateRatio)
            if factor < bestFactor {
                best = option
                bestFactor = factor
            }
        }
        return RAMResolution(ramMB: best, ambiguous: true, resolvedByEstimate: true)
    }

    /// How many times larger the larger of two positive values is than the smaller (1 when they are equal).
    private static func ratioDistance(_ lhs: Double, _ rhs: Double) -> Double {
        guard lhs > 0, rhs > 0 else {
            return .infinity
        }
        return lhs > rhs ? lhs / rhs : rhs / lhs
    }
}
