/// The model of a family without a case of its own in ``Inspection/Report``: carried by
/// ``Inspection/Report/family(_:)``.
///
/// The generic path: a family added to this package, or registered from outside it, reads into its own model and
/// conforms it here. The envelope writes it under `report` as it encodes itself, and the commands find its views
/// from the model (an in-package family's views conform its model in `ReportRendering`), so adding a family edits
/// no switch over the report's kind. A consumer reads one back with a cast:
/// `if case .family(let model) = inspection.report, let info = model as? XcodeCrashpointInfo`.
public protocol FamilyReport: Encodable, Sendable {}
