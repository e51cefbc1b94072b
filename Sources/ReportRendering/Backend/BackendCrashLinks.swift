import APMInspectCore
import BackendExport
import FleetReport

/// `scan`'s crash events held back until every report is read, then exported once per crash: the copies one crash
/// arrives as (a KSCrash report, a MetricKit diagnostic, Apple's `.ips` and its text) are linked by the fleet
/// report's own `CrashLedger` and only the richest is exported, naming the others.
///
/// Each held event costs a slot of the spool file and its `Held` entry; the event itself waits on disk, and so do the
/// ledger's records past its threshold (`CrashLedger`). Not thread-safe: ``BackendEventPrinter`` calls it under its lock.
final class BackendCrashLinks {
    /// One held event: where its text is, its id, and its time when it is beyond Sentry's retention.
    struct Held {
        var slot: CrashEventSpool.Slot
        var id: EventIdentity
        var beyondRetention: String?
    }

    /// An event to export: its text, its id and the reports it replaces.
    struct Chosen {
        var text: String
        var id: EventIdentity
        var beyondRetention: String?
        var links: LinkedReports
    }

    private var ledger = CrashLedger()
    private var held: [Held] = []
    private let spool: CrashEventSpool

    init(spoolPath: String) {
        spool = CrashEventSpool(path: spoolPath)
    }

    /// Holds one crash event; false when the spool could not take it (the caller exports it at once).
    func hold(_ crash: FleetEvent.Crash, file: String, text: String, id: EventIdentity, beyondRetention: String?)
        -> Bool
    {
        guard let slot = spool.append(text) else { return false }
        ledger.add(crash, file: file)
        held.append(Held(slot: slot, id: id, beyondRetention: beyondRetention))
        return true
    }

    var isEmpty: Bool { held.isEmpty }

    /// Hands each crash's richest event to `body`, in an order that depends on the reports alone (not on the order
    /// they were read in), then empties the spool; returns the events that could not be read back.
    func release(_ body: (Chosen) -> Void) -> Int {
        var lost = 0
        ledger.forEachCrash(in: .content) { crash in
            guard let first = crash.reports.first, held.indices.contains(first.index) else { return }
            let chosen = held[first.index]
            let links = crash.reports.dropFirst().lazy.compactMap { member -> LinkedReports.Report? in
                guard self.held.indices.contains(member.index) else { return nil }
                return LinkedReports.Report(
                    source: member.crash.source,
                    file: member.file,
                    eventID: self.held[member.index].id
                )
            }
            guard let text = spool.text(chosen.slot) else {
                lost += 1
                return
            }
            body(
                Chosen(text: text, id: chosen.id, beyondRetention: chosen.beyondRetention, links: LinkedReports(links))
            )
        }
        held = []
        ledger = CrashLedger()
        spool.remove()
        return lost
    }

    /// Removes the spool without exporting (a run that ends early).
    func discard() {
        spool.remove()
    }
}
