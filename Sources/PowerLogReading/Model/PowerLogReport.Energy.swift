import APMInspectCore

extension PowerLogReport {
    /// Energy over the whole history: where it came from, its unit, and how it splits by component and by hour.
    package struct EnergySummary: Sendable, Equatable, Codable {
        /// The table the figures come from (`PLAccountingOperator_Aggregate_RootNodeEnergy`, or the iOS 8
        /// `PLBLMAccountingService_Aggregate_BLMAppEnergyBreakdown`).
        package var source: String
        /// Always `PowerLog energy units`: Apple does not document the unit (its Battery UI divides by 1000;
        /// third parties read the raw value as µWh, which this tool has not verified).
        package var unit: String
        package var total: Double
        /// Hourly buckets summed, and daily buckets for days with no hourly bucket.
        package var hourlyBuckets: Int
        package var dailyBucketsUsed: Int
        package var components: [ComponentShare]
        /// Energy per bucket and consumer, in time order.
        package var buckets: [Bucket]

        package init(
            source: String,
            unit: String,
            total: Double,
            hourlyBuckets: Int,
            dailyBucketsUsed: Int,
            components: [ComponentShare],
            buckets: [Bucket]
        ) {
            self.source = source
            self.unit = unit
            self.total = total
            self.hourlyBuckets = hourlyBuckets
            self.dailyBucketsUsed = dailyBucketsUsed
            self.components = components
            self.buckets = buckets
        }

        /// A component's part of the total.
        package struct ComponentShare: Sendable, Equatable, Codable {
            package var component: PowerLogComponent
            package var energy: Double
            /// Fraction of the total, 0…1.
            package var share: Double

            package init(component: PowerLogComponent, energy: Double, share: Double) {
                self.component = component
                self.energy = energy
                self.share = share
            }
        }

        /// One aggregate bucket, `[start, start + intervalSeconds)` (PowerLog stamps buckets with their start).
        package struct Bucket: Sendable, Equatable, Codable {
            package var start: PowerLogTime
            package var intervalSeconds: Double
            package var total: Double
            /// Energy per consumer in this bucket, highest first.
            package var consumers: [Consumer]
            /// Energy per component in this bucket (`cpu`, `display` …).
            package var components: [String: Double]

            package init(
                start: PowerLogTime,
                intervalSeconds: Double,
                total: Double,
                consumers: [Consumer],
                components: [String: Double]
            ) {
                self.start = start
                self.intervalSeconds = intervalSeconds
                self.total = total
                self.consumers = consumers
                self.components = components
            }

            /// One process of a bucket and its share of the energy.
            package struct Consumer: Sendable, Equatable, Codable {
                package var name: String
                package var energy: Double

                package init(name: String, energy: Double) {
                    self.name = name
                    self.energy = energy
                }
            }
        }
    }

    /// The energy billed to one consumer (an app's bundle id, a daemon, or a hardware node itself).
    package struct AppEnergy: Sendable, Equatable, Codable {
        /// What a consumer is.
        package enum Kind: String, Sendable, Equatable, Codable {
            /// A bundle id (`com.apple.springboard`, `com.example.app`).
            case app
            /// A process or daemon name (`backboardd`, `kernel_task`).
            case process
            /// A hardware or virtual node billed to itself (`WiFi-Idle` on `WiFi-Idle`).
            case system
        }

        package var name: String
        /// The app's name on the home screen (`PLApplicationAgent_EventNone_AllApps.AppName`), when known.
        package var displayName: String?
        package var kind: Kind
        package var energy: Double
        /// Fraction of all energy, 0…1.
        package var share: Double
        /// Energy by component (`cpu`, `display`, `wifi` …).
        package var components: [String: Double]
        /// Energy by the raw source: root node names (`RestOfSOC`, `WiFi-Data`) or iOS 8 `BLMEnergy…` columns,
        /// kept verbatim.
        package var sources: [String: Double]
        /// iOS 8 only: the background parts of ``energy`` (`BLMEnergy_BackgroundCPU`, `…_BackgroundLocation`).
        package var backgroundCPU: Double?
        package var backgroundLocation: Double?
        /// How many buckets the consumer appears in.
        package var buckets: Int

        package init(
            name: String,
            kind: Kind,
            energy: Double,
            share: Double,
            components: [String: Double],
            sources: [String: Double],
            backgroundCPU: Double? = nil,
            backgroundLocation: Double? = nil,
            buckets: Int,
            displayName: String? = nil
        ) {
            self.name = name
            self.displayName = displayName
            self.kind = kind
            self.energy = energy
            self.share = share
            self.components = components
            self.sources = sources
            self.backgroundCPU = backgroundCPU
            self.backgroundLocation = backgroundLocation
            self.buckets = buckets
        }
    }

    /// An app that used location while in the background, in one aggregate bucket.
    package struct BackgroundLocationUse: Sendable, Equatable, Codable {
        package var app: String
        package var start: PowerLogTime
        package var intervalSeconds: Double
        /// iOS 8: `BLMEnergy_BackgroundLocation` in the bucket.
        package var energy: Double?
        /// iOS 9+: `PLAppTimeService_Aggregate_AppRunTime.BackgroundLocationTime` in the bucket.
        package var seconds: Double?
        /// The table it comes from.
        package var source: String

        package init(
            app: String,
            start: PowerLogTime,
            intervalSeconds: Double,
            energy: Double?,
            seconds: Double?,
            source: String
        ) {
            self.app = app
            self.start = start
            self.intervalSeconds = intervalSeconds
            self.energy = energy
            self.seconds = seconds
            self.source = source
        }
    }
}
