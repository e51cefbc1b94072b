import APMInspectCore
import FleetReport
import ReportInspection

/// The views of every model the standard families produce.
///
/// Recognising and parsing is the inspector's (``ReportInspector/registeredFamilies``: a family there is one line);
/// everything a command does with the model afterwards goes through here, so no command switches over the
/// report's kind. A family on the generic path (``Inspection/Report/family(_:)``) brings its views with its model
/// (``ViewedFamilyReport``) and adds no line here; the list holds the views of the models with a case of their own.
/// A family whose model is already known (a new crash format read into a `CrashReport`) needs nothing here at all;
/// KSCrash and Apple's crash reports share the crash views, so one report is shown the same way whichever file it
/// came from.
package enum FamilyRegistry {
    private static let views: [any ReportViews] = [
        HTTPViews(),
        MetricKitViews(),
        AppStoreConnectViews(),
        PowerLogViews(),
        CrashViews(),
        WatchdogViews(),
        JetsamViews(),
        SystemWatchdogViews(),
        ResourceViews(),
        IPSViews(),
        UnrecognisedViews(),
    ]

    /// The views of `report`: those its model brings on the generic path (``ViewedFamilyReport``), else the first
    /// listed that claims it; nil for a model registered from outside this package, which has no views here and is
    /// shown as its JSON.
    package static func views(of report: Inspection.Report) -> (any ReportViews)? {
        if case .family(let model) = report {
            guard let viewed = model as? any ViewedFamilyReport else { return nil }
            return views(of: viewed)
        }
        return views.first { $0.claims(report) }
    }

    /// The views a generic family's model names (the existential opened, so its type's `views` can be read).
    private static func views<Model: ViewedFamilyReport>(of model: Model) -> any ReportViews {
        Model.views
    }

    /// Whether `--app` keeps an inspection: whether its model speaks of one of the apps.
    ///
    /// A file that could not be read is kept, so its error is not hidden; one that names no app is left out.
    package static func keeps(_ inspection: Inspection, filter: FleetFilter) -> Bool {
        guard let report = inspection.report, let views = views(of: report) else { return inspection.failure != nil }
        return views.speaks(of: filter, report: report) || inspection.failure != nil
    }

    /// The sampled call stacks of an inspection (`inspect --format folded`); nil when its model has none.
    package static func foldedStacks(of inspection: Inspection) -> FoldedStacks? {
        guard let report = inspection.report else { return nil }
        return views(of: report)?.foldedStacks(of: report)
    }
}
