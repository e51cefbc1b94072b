/// The hardware an amount of energy was spent on, shared by the iOS 10+ accounting tables and the iOS 8 BLM table.
package enum PowerLogComponent: String, Sendable, Equatable, Hashable, Codable, CaseIterable, Comparable {
    case cpu
    case gpu
    /// The rest of the system on chip: memory, fabric, video encode/decode blocks.
    case soc
    case display
    case wifi
    case cellular
    case location
    case audio
    case bluetooth
    case camera
    case torch
    case accessory
    case nfc
    /// iOS 8: energy spent by daemons (`BLMEnergyPA_*` columns) on the app's behalf.
    case daemons
    case other

    /// The component of an iOS 10+ root node (`PLAccountingOperator_EventNone_Nodes.Name` of a `RootNodeID`).
    package init(rootNodeName name: String) {
        let lower = name.lowercased()
        switch lower {
        case "cpu": self = .cpu
        case "gpu": self = .gpu
        case "display", "displaydynamic", "socdisplay", "lockscreen": self = .display
        case "gps", "wifi-location": self = .location
        case "torch": self = .torch
        case "accessory": self = .accessory
        case "nfc": self = .nfc
        case "frontcamera", "backcamera", "isp": self = .camera
        case "restofsoc", "dram", "venc", "vdec", "apsocbaseioreport", "soc": self = .soc
        case "bluetooth", "btit": self = .bluetooth
        default:
            if lower.hasPrefix("wifi") {
                self = .wifi
            } else if lower == "bb" || lower.hasPrefix("bb-") {
                self = .cellular
            } else if lower.hasPrefix("audio") || lower.hasSuffix("-audio") {
                self = .audio
            } else {
                self = .other
            }
        }
    }

    /// The component of an iOS 8 `BLMEnergy…` column; nil for the total, the background subsets and other columns.
    package init?(blmColumn name: String) {
        let lower = name.lowercased()
        guard lower.hasPrefix("blmenergy"), !lower.hasPrefix("blmenergy_") else { return nil }
        let part = String(lower.dropFirst("blmenergy".count))
        switch part {
        case "": return nil
        case "cpu": self = .cpu
        case "gpu": self = .gpu
        case "soc": self = .soc
        case "display": self = .display
        case "wifi", "wifipipelinescan": self = .wifi
        case "wifilocationscan", "gps": self = .location
        case "bb": self = .cellular
        case "audio": self = .audio
        case "bluetooth": self = .bluetooth
        case "torch": self = .torch
        case "accessory": self = .accessory
        default:
            self = part.hasPrefix("pa_") ? .daemons : .other
        }
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? Self.allCases.count }

    package static func < (lhs: PowerLogComponent, rhs: PowerLogComponent) -> Bool { lhs.rank < rhs.rank }
}
