import APMInspectCore
import MetricKitParsing

/// The figures of one MetricKit metric payload under the names OpenTelemetry Swift's MetricKit instrumentation
/// gives them on its `MXMetricPayload` span, for an OTLP log record of that payload.
public struct MetricPayloadFigures: Sendable, Equatable {
    package var attributes: [BackendAttribute]
    /// The end of the payload's window, which stamps the record.
    package var end: AppleTimestamp?
    package var bundleId: String?
    package var appVersion: String?
    package var appBuild: String?
    package var osName: String?
    package var osVersion: String?
    package var osBuild: String?
    package var hardwareModel: String?

    /// The figures of `payload`; nil for a diagnostic payload or one with no figure this table names.
    package init?(_ payload: MetricKitPayload) {
        guard payload.kind == .metric, let metrics = payload.metrics else { return nil }
        var attributes: [BackendAttribute] = []
        func add(_ key: String, _ value: AttributeValue?) {
            guard let value else { return }
            if case .double(let number) = value, !number.isFinite { return }
            attributes.append(BackendAttribute(key: "metrickit." + key, value: value))
        }
        if let version = metrics.appVersion { add("latest_application_version", .string(version)) }
        if let begin = payload.begin?.secondsSince1970 { add("timestamp_begin", .double(begin)) }
        if let end = payload.end?.secondsSince1970 { add("timestamp_end", .double(end)) }
        if let metadata = metrics.metadata {
            if let build = metadata.appBuildVersion { add("metadata.app_build_version", .string(build)) }
            if let device = metadata.deviceType { add("metadata.device_type", .string(device)) }
            if let os = metadata.osVersion { add("metadata.os_version", .string(os)) }
            if let region = metadata.regionFormat { add("metadata.region_format", .string(region)) }
            if let arch = metadata.platformArchitecture { add("metadata.platform_arch", .string(arch)) }
            if let testFlight = metadata.isTestFlightApp { add("metadata.is_test_flight_app", .bool(testFlight)) }
            if let lowPower = metadata.lowPowerModeEnabled { add("metadata.low_power_mode_enabled", .bool(lowPower)) }
            if let pid = metadata.pid { add("metadata.pid", .int(pid)) }
        }
        for entry in metrics.entries {
            guard let name = Self.names["\(entry.category).\(entry.name)"] else { continue }
            add(name, Self.value(of: entry, for: name))
        }
        guard attributes.contains(where: { !$0.key.hasPrefix("metrickit.timestamp_") }) else { return nil }
        self.attributes = attributes
        end = payload.end
        let metadata = metrics.metadata
        bundleId = metadata?.bundleIdentifier
        appVersion = metrics.appVersion ?? metadata?.appVersion
        appBuild = metadata?.appBuildVersion
        osName = AppleCodes.osName(metadata?.osName)
        osVersion = metadata?.osVersionNumber
        osBuild = metadata?.osBuild
        hardwareModel = metadata?.deviceType
    }

    /// Apple's key path → OpenTelemetry Swift's name under `metrickit.` (its spellings kept, the two hyphens too:
    /// a query written against that instrumentation finds these).
    static let names: [String: String] = [
        "cpuMetrics.cumulativeCPUTime": "cpu.cpu_time",
        "cpuMetrics.cumulativeCPUInstructions": "cpu.instruction_count",
        "gpuMetrics.cumulativeGPUTime": "gpu.time",
        "cellularConditionMetrics.histogrammedCellularConditionTime": "cellular_condition.bars_average",
        "applicationTimeMetrics.cumulativeForegroundTime": "app_time.foreground_time",
        "applicationTimeMetrics.cumulativeBackgroundTime": "app_time.background_time",
        "applicationTimeMetrics.cumulativeBackgroundAudioTime": "app_time.background_audio_time",
        "applicationTimeMetrics.cumulativeBackgroundLocationTime": "app_time.background_location_time",
        "locationActivityMetrics.cumulativeBestAccuracyTime": "location_activity.best_accuracy_time",
        "locationActivityMetrics.cumulativeBestAccuracyForNavigationTime":
            "location_activity.best_accuracy_for_nav_time",
        "locationActivityMetrics.cumulativeNearestTenMetersAccuracyTime": "location_activity.accuracy_10m_time",
        "locationActivityMetrics.cumulativeHundredMetersAccuracyTime": "location_activity.accuracy_100m_time",
        "locationActivityMetrics.cumulativeKilometerAccuracyTime": "location_activity.accuracy_1km_time",
        "locationActivityMetrics.cumulativeThreeKilometersAccuracyTime": "location_activity.accuracy_3km_time",
        "networkTransferMetrics.cumulativeWifiUpload": "network_transfer.wifi_upload",
        "networkTransferMetrics.cumulativeWifiDownload": "network_transfer.wifi_download",
        "networkTransferMetrics.cumulativeCellularUpload": "network_transfer.cellular_upload",
        "networkTransferMetrics.cumulativeCellularDownload": "network_transfer.cellular_download",
        "applicationLaunchMetrics.histogrammedTimeToFirstDraw": "app_launch.time_to_first_draw_average",
        "applicationLaunchMetrics.histogrammedApplicationResumeTime": "app_launch.app_resume_time_average",
        "applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw":
            "app_launch.optimized_time_to_first_draw_average",
        "applicationLaunchMetrics.histogrammedExtendedLaunch": "app_launch.extended_launch_average",
        "applicationResponsivenessMetrics.histogrammedApplicationHangTime": "app_responsiveness.hang_time_average",
        "diskIOMetrics.cumulativeLogicalWrites": "diskio.logical_write_count",
        "memoryMetrics.peakMemoryUsage": "memory.peak_memory_usage",
        "memoryMetrics.averageSuspendedMemory": "memory.suspended_memory_average",
        "displayMetrics.averagePixelLuminance": "display.pixel_luminance_average",
        "animationMetrics.scrollHitchTimeRatio": "animation.scroll_hitch_time_ratio",
        "applicationExitMetrics.foregroundExitData.cumulativeNormalAppExitCount":
            "app_exit.foreground.normal_app_exit_count",
        "applicationExitMetrics.foregroundExitData.cumulativeMemoryResourceLimitExitCount":
            "app_exit.foreground.memory_resource_limit_exit-count",
        "applicationExitMetrics.foregroundExitData.cumulativeBadAccessExitCount":
            "app_exit.foreground.bad_access_exit_count",
        "applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount":
            "app_exit.foreground.abnormal_exit_count",
        "applicationExitMetrics.foregroundExitData.cumulativeIllegalInstructionExitCount":
            "app_exit.foreground.illegal_instruction_exit_count",
        "applicationExitMetrics.foregroundExitData.cumulativeAppWatchdogExitCount":
            "app_exit.foreground.app_watchdog_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeNormalAppExitCount":
            "app_exit.background.normal_app_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeMemoryResourceLimitExitCount":
            "app_exit.background.memory_resource_limit_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeCPUResourceLimitExitCount":
            "app_exit.background.cpu_resource_limit_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeMemoryPressureExitCount":
            "app_exit.background.memory_pressure_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeBadAccessExitCount":
            "app_exit.background.bad_access-exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeAbnormalExitCount":
            "app_exit.background.abnormal_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeIllegalInstructionExitCount":
            "app_exit.background.illegal_instruction_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeAppWatchdogExitCount":
            "app_exit.background.app_watchdog_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeSuspendedWithLockedFileExitCount":
            "app_exit.background.suspended_with_locked_file_exit_count",
        "applicationExitMetrics.backgroundExitData.cumulativeBackgroundTaskAssertionTimeoutExitCount":
            "app_exit.background.background_task_assertion_timeout_exit_count",
    ]

    /// Counts as integers; durations in seconds and sizes in bytes (the instrumentation's units); histograms as the
    /// average of their bucket midpoints weighted by count, as the instrumentation estimates them; the scroll hitch
    /// ratio as a ratio (Apple writes `ms per s`).
    static func value(of entry: MetricKitMetrics.Entry, for name: String) -> AttributeValue? {
        if name.hasPrefix("app_exit.") {
            guard let number = entry.number, number.isFinite, let count = Int64(exactly: number.rounded()) else {
                return nil
            }
            return .int(count)
        }
        if let histogram = entry.histogram {
            var sum = 0.0
            var samples = 0.0
            for bucket in histogram.buckets {
                guard let start = bucket.start.flatMap(figure), let end = bucket.end.flatMap(figure) else { continue }
                sum += (start + end) / 2 * Double(bucket.count)
                samples += Double(bucket.count)
            }
            return samples > 0 ? .double(sum / samples) : nil
        }
        let measurement = entry.measurement ?? entry.average?.value
        guard let measurement, var value = figure(measurement) else { return entry.number.map(AttributeValue.double) }
        if name == "animation.scroll_hitch_time_ratio", measurement.unit == "ms per s" { value /= 1_000 }
        if name == "cpu.instruction_count", measurement.unit == "kiloinstructions" { value *= 1_000 }
        return .double(value)
    }

    private static func figure(_ measurement: MetricKitMeasurement) -> Double? {
        guard let value = measurement.normalized ?? measurement.value, value.isFinite else { return nil }
        return value
    }
}

/// A key and its typed value.
package struct BackendAttribute: Sendable, Equatable {
    package var key: String
    package var value: AttributeValue

    /// An attribute from its key and value.
    package init(key: String, value: AttributeValue) {
        self.key = key
        self.value = value
    }
}
