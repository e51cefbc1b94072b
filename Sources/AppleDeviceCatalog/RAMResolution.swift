/// The nominal RAM chosen for a device, and how it was chosen.
///
/// Returned by ``DeviceCatalog/resolveRAM(for:estimatedMB:)``.
package struct RAMResolution: Sendable, Equatable, Codable {
    /// The nominal RAM in MiB.
    package var ramMB: Int

    /// True when the identifier ships with several RAM sizes, so ``ramMB`` is a choice among them.
    package var ambiguous: Bool

    /// True when ``ramMB`` was picked by comparing the options with a RAM estimate from the report.
    package var resolvedByEstimate: Bool

    /// Creates a RAM resolution.
    ///
    /// - Parameters:
    ///   - ramMB: The nominal RAM in MiB.
    ///   - ambiguous: Whether the identifier has several RAM options.
    ///   - resolvedByEstimate: Whether the value was picked using an estimate from the report.
    package init(ramMB: Int, ambiguous: Bool, resolvedByEstimate: Bool) {
        self.ramMB = ramMB
        self.ambiguous = ambiguous
        self.resolvedByEstimate = resolvedByEstimate
    }
}
