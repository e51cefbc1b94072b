// This file is generated. Do not edit it by hand.
//
// Source: Sources/AppleDeviceCatalog/devices.tsv
// Regenerate with: python3 Scripts/generate-device-catalog.py

extension DeviceCatalog {
    /// Every row of `devices.tsv`, in file order.
    static let generatedModels: [DeviceModel] = [
        DeviceModel(
            identifier: "iPad1,1",
            name: "iPad",
            family: .iPad,
            ramOptionsMB: [256],
            source: "name:N2;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad2,1",
            name: "iPad 2",
            family: .iPad,
            ramOptionsMB: [512],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad2,2",
            name: "iPad 2",
            family: .iPad,
            ramOptionsMB: [512],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad2,3",
            name: "iPad 2",
            family: .iPad,
            ramOptionsMB: [512],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad2,4",
            name: "iPad 2",
            family: .iPad,
            ramOptionsMB: [512],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad2,5",
            name: "iPad mini",
            family: .iPad,
            ramOptionsMB: [512],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad2,6",
            name: "iPad mini",
            family: .iPad,
            ramOptionsMB: [512],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad2,7",
            name: "iPad mini",
            family: .iPad,
            ramOptionsMB: [512],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad3,1",
            name: "iPad (3rd generation)",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad3,2",
            name: "iPad (3rd generation)",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad3,3",
            name: "iPad (3rd generation)",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad3,4",
            name: "iPad (4th generation)",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad3,5",
            name: "iPad (4th generation)",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad3,6",
            name: "iPad (4th generation)",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,1",
            name: "iPad Air",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,2",
            name: "iPad Air",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,3",
            name: "iPad Air",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,4",
            name: "iPad mini 2",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,5",
            name: "iPad mini 2",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,6",
            name: "iPad mini 2",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,7",
            name: "iPad mini 3",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,8",
            name: "iPad mini 3",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad4,9",
            name: "iPad mini 3",
            family: .iPad,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad5,1",
            name: "iPad mini 4",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad5,2",
            name: "iPad mini 4",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad5,3",
            name: "iPad Air 2",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad5,4",
            name: "iPad Air 2",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad6,3",
            name: "iPad Pro (9.7-inch)",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad6,4",
            name: "iPad Pro (9.7-inch)",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad6,7",
            name: "iPad Pro (12.9-inch)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad6,8",
            name: "iPad Pro (12.9-inch)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad6,11",
            name: "iPad (5th generation)",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad6,12",
            name: "iPad (5th generation)",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,1",
            name: "iPad Pro (12.9-inch) (2nd generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,2",
            name: "iPad Pro (12.9-inch) (2nd generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,3",
            name: "iPad Pro (10.5-inch)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,4",
            name: "iPad Pro (10.5-inch)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,5",
            name: "iPad (6th generation)",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,6",
            name: "iPad (6th generation)",
            family: .iPad,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,11",
            name: "iPad (7th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad7,12",
            name: "iPad (7th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad8,1",
            name: "iPad Pro (11-inch)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,2",
            name: "iPad Pro (11-inch)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,3",
            name: "iPad Pro (11-inch)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,4",
            name: "iPad Pro (11-inch)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,5",
            name: "iPad Pro (12.9-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,6",
            name: "iPad Pro (12.9-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,7",
            name: "iPad Pro (12.9-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,8",
            name: "iPad Pro (12.9-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad8,9",
            name: "iPad Pro (11-inch) (2nd generation)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad8,10",
            name: "iPad Pro (11-inch) (2nd generation)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad8,11",
            name: "iPad Pro (12.9-inch) (4th generation)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad8,12",
            name: "iPad Pro (12.9-inch) (4th generation)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad11,1",
            name: "iPad mini (5th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad11,2",
            name: "iPad mini (5th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad11,3",
            name: "iPad Air (3rd generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad11,4",
            name: "iPad Air (3rd generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad11,6",
            name: "iPad (8th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad11,7",
            name: "iPad (8th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad12,1",
            name: "iPad (9th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad12,2",
            name: "iPad (9th generation)",
            family: .iPad,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad13,1",
            name: "iPad Air (4th generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad13,2",
            name: "iPad Air (4th generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad13,4",
            name: "iPad Pro (11-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,5",
            name: "iPad Pro (11-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [16_384],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,6",
            name: "iPad Pro (11-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,7",
            name: "iPad Pro (11-inch) (3rd generation)",
            family: .iPad,
            ramOptionsMB: [16_384],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,8",
            name: "iPad Pro (12.9-inch) (5th generation)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,9",
            name: "iPad Pro (12.9-inch) (5th generation)",
            family: .iPad,
            ramOptionsMB: [16_384],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,10",
            name: "iPad Pro (12.9-inch) (5th generation)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,11",
            name: "iPad Pro (12.9-inch) (5th generation)",
            family: .iPad,
            ramOptionsMB: [16_384],
            source: "name:N1;ram:S2+X"
        ),
        DeviceModel(
            identifier: "iPad13,16",
            name: "iPad Air (5th generation)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad13,17",
            name: "iPad Air (5th generation)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad13,18",
            name: "iPad (10th generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad13,19",
            name: "iPad (10th generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad14,1",
            name: "iPad mini (6th generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad14,2",
            name: "iPad mini (6th generation)",
            family: .iPad,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S2"
        ),
        DeviceModel(
            identifier: "iPad14,3",
            name: "iPad Pro (11-inch) (4th generation)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad14,4",
            name: "iPad Pro (11-inch) (4th generation)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad14,5",
            name: "iPad Pro (12.9-inch) (6th generation)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad14,6",
            name: "iPad Pro (12.9-inch) (6th generation)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad14,8",
            name: "iPad Air 11-inch (M2)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad14,9",
            name: "iPad Air 11-inch (M2)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad14,10",
            name: "iPad Air 13-inch (M2)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad14,11",
            name: "iPad Air 13-inch (M2)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad15,3",
            name: "iPad Air 11-inch (M3)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad15,4",
            name: "iPad Air 11-inch (M3)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad15,5",
            name: "iPad Air 13-inch (M3)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad15,6",
            name: "iPad Air 13-inch (M3)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad15,7",
            name: "iPad (A16)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad15,8",
            name: "iPad (A16)",
            family: .iPad,
            ramOptionsMB: [6144],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad16,1",
            name: "iPad mini (A17 Pro)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad16,2",
            name: "iPad mini (A17 Pro)",
            family: .iPad,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad16,3",
            name: "iPad Pro 11-inch (M4)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad16,4",
            name: "iPad Pro 11-inch (M4)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad16,5",
            name: "iPad Pro 13-inch (M4)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad16,6",
            name: "iPad Pro 13-inch (M4)",
            family: .iPad,
            ramOptionsMB: [8192, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad16,8",
            name: "iPad Air 11-inch (M4) [Wi-Fi]",
            family: .iPad,
            ramOptionsMB: [12_288],
            source: "name:N2;ram:X2"
        ),
        DeviceModel(
            identifier: "iPad16,9",
            name: "iPad Air 11-inch (M4) [Wi-Fi + Cellular]",
            family: .iPad,
            ramOptionsMB: [12_288],
            source: "name:N2;ram:X2"
        ),
        DeviceModel(
            identifier: "iPad16,10",
            name: "iPad Air 13-inch (M4) [Wi-Fi]",
            family: .iPad,
            ramOptionsMB: [12_288],
            source: "name:N2;ram:X2"
        ),
        DeviceModel(
            identifier: "iPad16,11",
            name: "iPad Air 13-inch (M4) [Wi-Fi + Cellular]",
            family: .iPad,
            ramOptionsMB: [12_288],
            source: "name:N2;ram:X2"
        ),
        DeviceModel(
            identifier: "iPad17,1",
            name: "iPad Pro 11-inch (M5)",
            family: .iPad,
            ramOptionsMB: [12_288, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad17,2",
            name: "iPad Pro 11-inch (M5)",
            family: .iPad,
            ramOptionsMB: [12_288, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad17,3",
            name: "iPad Pro 13-inch (M5)",
            family: .iPad,
            ramOptionsMB: [12_288, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPad17,4",
            name: "iPad Pro 13-inch (M5)",
            family: .iPad,
            ramOptionsMB: [12_288, 16_384],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPhone1,1",
            name: "iPhone",
            family: .iPhone,
            ramOptionsMB: [128],
            source: "name:N2;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone1,2",
            name: "iPhone 3G",
            family: .iPhone,
            ramOptionsMB: [128],
            source: "name:N2;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone2,1",
            name: "iPhone 3GS",
            family: .iPhone,
            ramOptionsMB: [256],
            source: "name:N2;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone3,1",
            name: "iPhone 4 (GSM)",
            family: .iPhone,
            ramOptionsMB: [512],
            source: "name:N2;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone3,2",
            name: "iPhone 4 (GSM / 2012)",
            family: .iPhone,
            ramOptionsMB: [512],
            source: "name:N2;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone3,3",
            name: "iPhone 4 (CDMA)",
            family: .iPhone,
            ramOptionsMB: [512],
            source: "name:N2;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone4,1",
            name: "iPhone 4S",
            family: .iPhone,
            ramOptionsMB: [512],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone5,1",
            name: "iPhone 5",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone5,2",
            name: "iPhone 5",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone5,3",
            name: "iPhone 5c",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone5,4",
            name: "iPhone 5c",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone6,1",
            name: "iPhone 5s",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone6,2",
            name: "iPhone 5s",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone7,1",
            name: "iPhone 6 Plus",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone7,2",
            name: "iPhone 6",
            family: .iPhone,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone8,1",
            name: "iPhone 6s",
            family: .iPhone,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone8,2",
            name: "iPhone 6s Plus",
            family: .iPhone,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone8,4",
            name: "iPhone SE (1st generation)",
            family: .iPhone,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone9,1",
            name: "iPhone 7",
            family: .iPhone,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone9,2",
            name: "iPhone 7 Plus",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone9,3",
            name: "iPhone 7",
            family: .iPhone,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone9,4",
            name: "iPhone 7 Plus",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone10,1",
            name: "iPhone 8",
            family: .iPhone,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone10,2",
            name: "iPhone 8 Plus",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone10,3",
            name: "iPhone X",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone10,4",
            name: "iPhone 8",
            family: .iPhone,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone10,5",
            name: "iPhone 8 Plus",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone10,6",
            name: "iPhone X",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone11,2",
            name: "iPhone XS",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone11,4",
            name: "iPhone XS Max",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone11,6",
            name: "iPhone XS Max",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone11,8",
            name: "iPhone XR",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone12,1",
            name: "iPhone 11",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone12,3",
            name: "iPhone 11 Pro",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone12,5",
            name: "iPhone 11 Pro Max",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone12,8",
            name: "iPhone SE (2nd generation)",
            family: .iPhone,
            ramOptionsMB: [3072],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone13,1",
            name: "iPhone 12 mini",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone13,2",
            name: "iPhone 12",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone13,3",
            name: "iPhone 12 Pro",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone13,4",
            name: "iPhone 12 Pro Max",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone14,2",
            name: "iPhone 13 Pro",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone14,3",
            name: "iPhone 13 Pro Max",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone14,4",
            name: "iPhone 13 mini",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone14,5",
            name: "iPhone 13",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone14,6",
            name: "iPhone SE (3rd generation)",
            family: .iPhone,
            ramOptionsMB: [4096],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone14,7",
            name: "iPhone 14",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone14,8",
            name: "iPhone 14 Plus",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone15,2",
            name: "iPhone 14 Pro",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone15,3",
            name: "iPhone 14 Pro Max",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone15,4",
            name: "iPhone 15",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone15,5",
            name: "iPhone 15 Plus",
            family: .iPhone,
            ramOptionsMB: [6144],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone16,1",
            name: "iPhone 15 Pro",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone16,2",
            name: "iPhone 15 Pro Max",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone17,1",
            name: "iPhone 16 Pro",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone17,2",
            name: "iPhone 16 Pro Max",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone17,3",
            name: "iPhone 16",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone17,4",
            name: "iPhone 16 Plus",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:S1"
        ),
        DeviceModel(
            identifier: "iPhone17,5",
            name: "iPhone 16e",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPhone18,1",
            name: "iPhone 17 Pro",
            family: .iPhone,
            ramOptionsMB: [12_288],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPhone18,2",
            name: "iPhone 17 Pro Max",
            family: .iPhone,
            ramOptionsMB: [12_288],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPhone18,3",
            name: "iPhone 17",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPhone18,4",
            name: "iPhone Air",
            family: .iPhone,
            ramOptionsMB: [12_288],
            source: "name:N1;ram:X"
        ),
        DeviceModel(
            identifier: "iPhone18,5",
            name: "iPhone 17e",
            family: .iPhone,
            ramOptionsMB: [8192],
            source: "name:N2;ram:X2"
        ),
        DeviceModel(
            identifier: "iPod1,1",
            name: "iPod touch (1st generation)",
            family: .iPod,
            ramOptionsMB: [128],
            source: "name:N3;ram:S3"
        ),
        DeviceModel(
            identifier: "iPod2,1",
            name: "iPod touch (2nd generation)",
            family: .iPod,
            ramOptionsMB: [128],
            source: "name:N3;ram:S3"
        ),
        DeviceModel(
            identifier: "iPod3,1",
            name: "iPod touch (3rd generation)",
            family: .iPod,
            ramOptionsMB: [256],
            source: "name:N3;ram:S3"
        ),
        DeviceModel(
            identifier: "iPod4,1",
            name: "iPod touch (4th generation)",
            family: .iPod,
            ramOptionsMB: [256],
            source: "name:N3;ram:S4"
        ),
        DeviceModel(
            identifier: "iPod5,1",
            name: "iPod touch (5th generation)",
            family: .iPod,
            ramOptionsMB: [512],
            source: "name:N3;ram:U"
        ),
        DeviceModel(
            identifier: "iPod7,1",
            name: "iPod touch (6th generation)",
            family: .iPod,
            ramOptionsMB: [1024],
            source: "name:N1;ram:S5"
        ),
        DeviceModel(
            identifier: "iPod9,1",
            name: "iPod touch (7th generation)",
            family: .iPod,
            ramOptionsMB: [2048],
            source: "name:N1;ram:S5"
        ),
        DeviceModel(
            identifier: "Watch1,1",
            name: "Apple Watch (1st generation)",
            family: .watch,
            ramOptionsMB: [512],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch1,2",
            name: "Apple Watch (1st generation)",
            family: .watch,
            ramOptionsMB: [512],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch2,3",
            name: "Apple Watch Series 2",
            family: .watch,
            ramOptionsMB: [512],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch2,4",
            name: "Apple Watch Series 2",
            family: .watch,
            ramOptionsMB: [512],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch2,6",
            name: "Apple Watch Series 1",
            family: .watch,
            ramOptionsMB: [512],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch2,7",
            name: "Apple Watch Series 1",
            family: .watch,
            ramOptionsMB: [512],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch3,1",
            name: "Apple Watch Series 3",
            family: .watch,
            ramOptionsMB: [768],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch3,2",
            name: "Apple Watch Series 3",
            family: .watch,
            ramOptionsMB: [768],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch3,3",
            name: "Apple Watch Series 3",
            family: .watch,
            ramOptionsMB: [768],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch3,4",
            name: "Apple Watch Series 3",
            family: .watch,
            ramOptionsMB: [768],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch4,1",
            name: "Apple Watch Series 4",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch4,2",
            name: "Apple Watch Series 4",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch4,3",
            name: "Apple Watch Series 4",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch4,4",
            name: "Apple Watch Series 4",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,1",
            name: "Apple Watch Series 5",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,2",
            name: "Apple Watch Series 5",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,3",
            name: "Apple Watch Series 5",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,4",
            name: "Apple Watch Series 5",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,9",
            name: "Apple Watch SE",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,10",
            name: "Apple Watch SE",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,11",
            name: "Apple Watch SE",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch5,12",
            name: "Apple Watch SE",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,1",
            name: "Apple Watch Series 6",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,2",
            name: "Apple Watch Series 6",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,3",
            name: "Apple Watch Series 6",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,4",
            name: "Apple Watch Series 6",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,6",
            name: "Apple Watch Series 7",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,7",
            name: "Apple Watch Series 7",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,8",
            name: "Apple Watch Series 7",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,9",
            name: "Apple Watch Series 7",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR1"
        ),
        DeviceModel(
            identifier: "Watch6,10",
            name: "Apple Watch SE (2nd generation)",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,11",
            name: "Apple Watch SE (2nd generation)",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,12",
            name: "Apple Watch SE (2nd generation)",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,13",
            name: "Apple Watch SE (2nd generation)",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,14",
            name: "Apple Watch Series 8",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,15",
            name: "Apple Watch Series 8",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,16",
            name: "Apple Watch Series 8",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,17",
            name: "Apple Watch Series 8",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch6,18",
            name: "Apple Watch Ultra",
            family: .watch,
            ramOptionsMB: [1024],
            source: "name:WN1;ram:WR2"
        ),
        DeviceModel(
            identifier: "Watch7,1",
            name: "Apple Watch Series 9",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,2",
            name: "Apple Watch Series 9",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,3",
            name: "Apple Watch Series 9",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,4",
            name: "Apple Watch Series 9",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,5",
            name: "Apple Watch Ultra 2",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,8",
            name: "Apple Watch Series 10",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,9",
            name: "Apple Watch Series 10",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,10",
            name: "Apple Watch Series 10",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,11",
            name: "Apple Watch Series 10",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN1;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,12",
            name: "Apple Watch Ultra 3",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,13",
            name: "Apple Watch SE 3",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,14",
            name: "Apple Watch SE 3",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,15",
            name: "Apple Watch SE 3",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,16",
            name: "Apple Watch SE 3",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,17",
            name: "Apple Watch Series 11",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,18",
            name: "Apple Watch Series 11",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,19",
            name: "Apple Watch Series 11",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "Watch7,20",
            name: "Apple Watch Series 11",
            family: .watch,
            ramOptionsMB: [],
            source: "name:WN2;ram:none"
        ),
        DeviceModel(
            identifier: "i386",
            name: "Simulator",
            family: .simulator,
            ramOptionsMB: [],
            source: "name:SIM;ram:none"
        ),
        DeviceModel(
            identifier: "x86_64",
            name: "Simulator",
            family: .simulator,
            ramOptionsMB: [],
            source: "name:SIM;ram:none"
        ),
        DeviceModel(
            identifier: "arm64",
            name: "Simulator",
            family: .simulator,
            ramOptionsMB: [],
            source: "name:SIM;ram:none"
        ),
    ]
}
