/// The starting values and the per-row additions the full read (`PowerLogAnalysis`) and the bounded summary
/// (`PowerLogFold`) share, so both count a row the same way.
extension PowerLogReport.AppRunTime {
    /// An app with nothing counted yet.
    init(bundleID: String) {
        self.init(
            bundleID: bundleID,
            foregroundSeconds: 0,
            backgroundSeconds: 0,
            backgroundAudioSeconds: 0,
            backgroundLocationSeconds: 0,
            foregroundPluggedInSeconds: 0,
            backgroundPluggedInSeconds: 0,
            buckets: 0
        )
    }

    /// Adds one `AppRunTime` bucket of this app.
    mutating func add(_ row: RunTimeRow) {
        foregroundSeconds += row.screenOn
        backgroundSeconds += row.background
        backgroundAudioSeconds += row.backgroundAudio
        backgroundLocationSeconds += row.backgroundLocation
        foregroundPluggedInSeconds += row.screenOnPluggedIn
        backgroundPluggedInSeconds += row.backgroundPluggedIn
        buckets += 1
    }
}

extension PowerLogReport.AppEnergy {
    /// A consumer with nothing billed yet; `isSystem` for hardware nodes and nodes billed to themselves.
    init(consumer name: String, isSystem: Bool = false) {
        self.init(
            name: name,
            kind: isSystem ? .system : (name.contains(".") ? .app : .process),
            energy: 0,
            share: 0,
            components: [:],
            sources: [:],
            buckets: 0
        )
    }
}

extension PowerLogReport.Coalition {
    /// A coalition with nothing counted yet.
    init(name: String) {
        self.init(
            name: name,
            intervals: 0,
            seconds: 0,
            cpuSeconds: 0,
            gpuSeconds: 0,
            bytesRead: 0,
            bytesWritten: 0,
            energy: 0
        )
    }

    /// Adds one coalition interval; byte counts wrap rather than trap on a hostile file's values.
    mutating func add(_ row: CoalitionRow) {
        intervals += 1
        seconds += row.seconds
        cpuSeconds += row.cpu
        gpuSeconds += row.gpu
        bytesRead = bytesRead.addingReportingOverflow(row.bytesRead).partialValue
        bytesWritten = bytesWritten.addingReportingOverflow(row.bytesWritten).partialValue
        energy += row.energy
    }
}

extension PowerLogReport.Battery.Session.Kind {
    /// The charging state a sample was taken in.
    init(of sample: PowerLogReport.Battery.Sample) {
        if sample.isCharging == true {
            self = .charging
        } else if sample.externalConnected == true {
            self = .onCharger
        } else {
            self = .discharging
        }
    }
}

extension PowerLogReport.Battery.Session {
    /// Adds `sample`, the next in time order after `previous`, to the session `current`: extends it when the
    /// charging state is the same and no gap longer than `maxGap` came between, else starts the next session and
    /// returns the one it ends.
    static func advance(
        _ current: inout Self?,
        previous: PowerLogReport.Battery.Sample?,
        with sample: PowerLogReport.Battery.Sample,
        maxGap: Double
    ) -> Self? {
        let sampleKind = Kind(of: sample)
        let gap = previous.map { sample.at.utcSeconds - $0.at.utcSeconds } ?? 0
        if var session = current, session.kind == sampleKind, gap <= maxGap {
            session.end = sample.at
            session.endLevel = sample.level ?? sample.rawLevel
            session.samples += 1
            current = session
            return nil
        }
        let ended = current
        // A state change between two close samples starts the new session where the old one ended.
        let start = (gap <= maxGap ? previous?.at : nil) ?? sample.at
        current = .init(
            kind: sampleKind,
            start: start,
            end: sample.at,
            startLevel: (gap <= maxGap ? previous?.level : nil) ?? sample.level ?? sample.rawLevel,
            endLevel: sample.level ?? sample.rawLevel,
            samples: 1
        )
        return ended
    }
}
