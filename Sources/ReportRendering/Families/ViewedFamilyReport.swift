import ReportInspection

/// A model on the generic path (``Inspection/Report/family(_:)``) that brings its views.
///
/// The registry finds the views from the model itself, so a family on this path adds no line to
/// ``FamilyRegistry``: its views file conforms its model here (`extension MyModel: ViewedFamilyReport`), beside
/// the renderer. `FamilyRegistryTests` checks that every model the corpus produces has views, so a family that forgets
/// is caught there rather than shown as bare JSON.
protocol ViewedFamilyReport: FamilyReport {
    /// The views, whose model is this type.
    associatedtype Views: ReportViews where Views.Model == Self

    /// The views of every report of this model.
    static var views: Views { get }
}

extension ReportViews where Model: FamilyReport {
    /// A generic family's model is the one its case carries, when it is of this type.
    package func model(of report: Inspection.Report) -> Model? {
        guard case .family(let model) = report else { return nil }
        return model as? Model
    }
}
