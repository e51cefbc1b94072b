#!/usr/bin/env python3
"""Generate synthetic iOS crash reports (.ips, bug_type 309) for the crash-parser benchmarks.

What
    Writes N crash reports in the JSON `.ips` form that iOS 15, 16 and 17 write for app crashes:
    line 1 is a one-line compact JSON header (`bug_type` "309", app_name, os_version, incident_id, ...),
    then the body, one JSON object. The files are inputs for comparing apm-inspect's crash parser with
    pycrashreport (`Benchmarks/scripts/crash_pycrashreport.py`), so they have to look and weigh like
    real-world reports rather than like minimal test fixtures.

Usage
    python3 generate_crashes.py --out DIR --count N --seed S

    Writes DIR/crash-00001.ips ... DIR/crash-NNNNN.ips. The same arguments give byte-identical files
    (everything random comes from one random.Random(seed); values that must stay the same across files,
    such as a system library's UUID and symbol offsets for one OS build, come from SHA-256 of the build
    string, so they do not depend on the seed or on the order the files are made in).

How the shape was chosen
    * Key set and order follow iOS 15-17 crash reports and Apple's "Interpreting the JSON format of a
      crash report": header keys, then uptime, procRole, version 2, modelCode, coalitionID, osVersion,
      captureTime, incident, pid, cpuType, procLaunch, procName, procPath, bundleInfo, storeInfo,
      parentProc, parentPid, coalitionName, crashReporterKey, isCorpse, exception, termination, asi,
      lastExceptionBacktrace, faultingThread, threads, usedImages, sharedCache, vmSummary, legacyInfo,
      trialInfo, plus the undocumented keys real files carry (userID, deployVersion, procStartAbsTime,
      codeSigning*, vmregioninfo, exceptionReason, instructionByteStream, bootSessionUUID, ...).
    * Layout follows Apple's writer: 2-space "key" : value lines, `/` escaped as `\\/`, small
      objects and `threads` written compact on one line, `osVersion` nested, and `usedImages`,
      `sharedCache`, `legacyInfo` and `trialInfo` spliced in as separately pretty-printed values
      (their inner lines start at column 0). No trailing newline.
    * Crashes are a mix: EXC_BAD_ACCESS/SIGSEGV (KERN_INVALID_ADDRESS, sometimes a pointer
      authentication failure), EXC_BAD_ACCESS/SIGBUS, EXC_CRASH/SIGABRT (uncaught NSException with
      a Last Exception Backtrace and exceptionReason, or a plain abort), and EXC_BREAKPOINT/SIGTRAP
      (Swift runtime failures, fatalError, dispatch_assert_queue). Stacks are built from real
      UIKit/CoreFoundation/libdispatch/Swift-concurrency call chains of those OS versions; the main
      thread has 15-45 frames, busy workers 3-12, idle workqueue threads 3.
    * The faulting thread (usually 0) has "triggered": true and an ARM_THREAD_STATE64 threadState
      whose pc/lr point at its first two frames. Its frames never carry sourceFile/sourceLine (the
      translated text would print "(File.swift:42)", which pycrashreport's text parser rejects);
      app frames on other threads sometimes do. Some app frames are unsymbolicated (no symbol keys).
    * usedImages: the app first, then its embedded frameworks, then dyld and system libraries in order
      of first use, padded with further real system libraries to 15-60 entries. Shared-cache
      libraries sit at a per-build layout plus a per-file slide; every imageIndex is valid and every
      imageOffset lies inside its image.
    * Sizes come out at roughly 15-80 KB, median about 30 KB, like App Store crash reports.

All identifiers, names and addresses are invented; nothing is copied from real reports.
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import json
import os
import random
from datetime import datetime, timedelta, timezone

# --------------------------------------------------------------------------------------------------
# Catalogue: OS builds, devices, libraries
# --------------------------------------------------------------------------------------------------

# (version, build, release date)
OS_RELEASES = [
    ("15.0.2", "19A404", "2021-10-11"), ("15.1", "19B74", "2021-10-25"), ("15.2", "19C56", "2021-12-13"),
    ("15.3.1", "19D52", "2022-02-10"), ("15.4.1", "19E258", "2022-03-31"), ("15.5", "19F77", "2022-05-16"),
    ("15.6.1", "19G82", "2022-08-17"), ("15.7", "19H12", "2022-09-12"), ("15.7.9", "19H365", "2023-09-11"),
    ("15.8", "19H370", "2023-10-25"),
    ("16.0.2", "20A380", "2022-09-22"), ("16.1", "20B82", "2022-10-24"), ("16.1.2", "20B110", "2022-11-30"),
    ("16.2", "20C65", "2022-12-13"), ("16.3", "20D47", "2023-01-23"), ("16.3.1", "20D67", "2023-02-13"),
    ("16.4.1", "20E252", "2023-04-07"), ("16.5", "20F66", "2023-05-18"), ("16.5.1", "20F75", "2023-06-21"),
    ("16.6", "20G75", "2023-07-24"), ("16.6.1", "20G81", "2023-09-07"), ("16.7.2", "20H115", "2023-10-25"),
    ("17.0.2", "21A350", "2023-09-21"), ("17.0.3", "21A360", "2023-10-04"), ("17.1", "21B80", "2023-10-25"),
    ("17.1.1", "21B91", "2023-11-07"), ("17.1.2", "21B101", "2023-11-30"), ("17.2", "21C62", "2023-12-11"),
    ("17.2.1", "21C66", "2023-12-19"), ("17.3", "21D50", "2024-01-22"), ("17.3.1", "21D61", "2024-02-08"),
    ("17.4", "21E219", "2024-03-05"), ("17.4.1", "21E236", "2024-03-21"), ("17.5", "21F79", "2024-05-13"),
    ("17.5.1", "21F90", "2024-05-20"), ("17.6", "21G80", "2024-07-29"), ("17.6.1", "21G93", "2024-08-07"),
]

# (model code, first iOS major, last iOS major, system libraries are arm64e, relative weight)
DEVICES = [
    ("iPhone10,4", 15, 16, False, 1), ("iPhone10,6", 15, 16, False, 1), ("iPhone11,2", 15, 17, True, 1),
    ("iPhone11,8", 15, 17, True, 3), ("iPhone12,1", 15, 17, True, 5), ("iPhone12,3", 15, 17, True, 2),
    ("iPhone12,5", 15, 17, True, 2), ("iPhone12,8", 15, 17, True, 2), ("iPhone13,2", 15, 17, True, 4),
    ("iPhone13,3", 15, 17, True, 3), ("iPhone13,4", 15, 17, True, 2), ("iPhone14,2", 15, 17, True, 4),
    ("iPhone14,3", 15, 17, True, 3), ("iPhone14,5", 15, 17, True, 5), ("iPhone14,6", 15, 17, True, 1),
    ("iPhone14,7", 16, 17, True, 4), ("iPhone14,8", 16, 17, True, 1), ("iPhone15,2", 16, 17, True, 4),
    ("iPhone15,3", 16, 17, True, 3), ("iPhone15,4", 17, 17, True, 3), ("iPhone15,5", 17, 17, True, 1),
    ("iPhone16,1", 17, 17, True, 3), ("iPhone16,2", 17, 17, True, 3), ("iPad11,6", 15, 17, True, 1),
    ("iPad12,1", 15, 17, True, 2), ("iPad13,1", 15, 17, True, 1), ("iPad13,4", 15, 17, True, 1),
    ("iPad13,18", 16, 17, True, 1), ("iPad14,1", 15, 17, True, 1),
]

TIMEZONES = ["-0800", "-0700", "-0500", "-0400", "-0300", "+0000", "+0100", "+0200", "+0300", "+0530",
             "+0700", "+0800", "+0900", "+1000", "+1200"]

# Xcode builds recorded as DTAppStoreToolsBuild, by iOS major of the device the crash came from.
APP_STORE_TOOLS = {15: ["13C100", "13E500a", "14A309", "14C18"], 16: ["14B47b", "14C18", "14E300c", "15A240d"],
                   17: ["15A240d", "15C500b", "15E204a", "15F31d"]}

# System images: name -> (path, approximate size in KB). All live in the dyld shared cache.
SYSTEM_LIBRARIES = {
    "libsystem_kernel.dylib": ("/usr/lib/system/libsystem_kernel.dylib", 232),
    "libsystem_pthread.dylib": ("/usr/lib/system/libsystem_pthread.dylib", 48),
    "libsystem_c.dylib": ("/usr/lib/system/libsystem_c.dylib", 512),
    "libsystem_platform.dylib": ("/usr/lib/system/libsystem_platform.dylib", 36),
    "libsystem_malloc.dylib": ("/usr/lib/system/libsystem_malloc.dylib", 212),
    "libsystem_trace.dylib": ("/usr/lib/system/libsystem_trace.dylib", 116),
    "libsystem_info.dylib": ("/usr/lib/system/libsystem_info.dylib", 96),
    "libsystem_blocks.dylib": ("/usr/lib/system/libsystem_blocks.dylib", 12),
    "libsystem_m.dylib": ("/usr/lib/system/libsystem_m.dylib", 248),
    "libsystem_notify.dylib": ("/usr/lib/system/libsystem_notify.dylib", 48),
    "libsystem_containermanager.dylib": ("/usr/lib/system/libsystem_containermanager.dylib", 84),
    "libxpc.dylib": ("/usr/lib/system/libxpc.dylib", 280),
    "libdispatch.dylib": ("/usr/lib/system/libdispatch.dylib", 284),
    "libdyld.dylib": ("/usr/lib/system/libdyld.dylib", 24),
    "libcorecrypto.dylib": ("/usr/lib/system/libcorecrypto.dylib", 560),
    "libcommonCrypto.dylib": ("/usr/lib/system/libcommonCrypto.dylib", 60),
    "libcompiler_rt.dylib": ("/usr/lib/system/libcompiler_rt.dylib", 28),
    "libunwind.dylib": ("/usr/lib/system/libunwind.dylib", 40),
    "libmacho.dylib": ("/usr/lib/system/libmacho.dylib", 24),
    "libcache.dylib": ("/usr/lib/system/libcache.dylib", 28),
    "libobjc.A.dylib": ("/usr/lib/libobjc.A.dylib", 316),
    "libc++.1.dylib": ("/usr/lib/libc++.1.dylib", 560),
    "libc++abi.dylib": ("/usr/lib/libc++abi.dylib", 112),
    "libswiftCore.dylib": ("/usr/lib/swift/libswiftCore.dylib", 4160),
    "libswift_Concurrency.dylib": ("/usr/lib/swift/libswift_Concurrency.dylib", 420),
    "libswiftDispatch.dylib": ("/usr/lib/swift/libswiftDispatch.dylib", 76),
    "libswiftFoundation.dylib": ("/usr/lib/swift/libswiftFoundation.dylib", 3300),
    "libswiftObjectiveC.dylib": ("/usr/lib/swift/libswiftObjectiveC.dylib", 20),
    "libswiftDarwin.dylib": ("/usr/lib/swift/libswiftDarwin.dylib", 88),
    "libsqlite3.dylib": ("/usr/lib/libsqlite3.dylib", 1240),
    "libz.1.dylib": ("/usr/lib/libz.1.dylib", 88),
    "libicucore.A.dylib": ("/usr/lib/libicucore.A.dylib", 3100),
    "libboringssl.dylib": ("/usr/lib/libboringssl.dylib", 760),
    "libMobileGestalt.dylib": ("/usr/lib/libMobileGestalt.dylib", 200),
    "libAccessibility.dylib": ("/usr/lib/libAccessibility.dylib", 190),
    "CoreFoundation": ("/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation", 5400),
    "Foundation": ("/System/Library/Frameworks/Foundation.framework/Foundation", 10600),
    "CFNetwork": ("/System/Library/Frameworks/CFNetwork.framework/CFNetwork", 3900),
    "Security": ("/System/Library/Frameworks/Security.framework/Security", 1200),
    "QuartzCore": ("/System/Library/Frameworks/QuartzCore.framework/QuartzCore", 3700),
    "CoreGraphics": ("/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics", 4000),
    "CoreText": ("/System/Library/Frameworks/CoreText.framework/CoreText", 3100),
    "ImageIO": ("/System/Library/Frameworks/ImageIO.framework/ImageIO", 2200),
    "CoreImage": ("/System/Library/Frameworks/CoreImage.framework/CoreImage", 2600),
    "AVFAudio": ("/System/Library/Frameworks/AVFAudio.framework/AVFAudio", 1400),
    "CoreMedia": ("/System/Library/Frameworks/CoreMedia.framework/CoreMedia", 1900),
    "MediaToolbox": ("/System/Library/Frameworks/MediaToolbox.framework/MediaToolbox", 6000),
    "CoreData": ("/System/Library/Frameworks/CoreData.framework/CoreData", 2100),
    "CoreLocation": ("/System/Library/Frameworks/CoreLocation.framework/CoreLocation", 1600),
    "CoreMotion": ("/System/Library/Frameworks/CoreMotion.framework/CoreMotion", 800),
    "JavaScriptCore": ("/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore", 22000),
    "WebKit": ("/System/Library/Frameworks/WebKit.framework/WebKit", 18000),
    "Network": ("/System/Library/Frameworks/Network.framework/Network", 8000),
    "Combine": ("/System/Library/Frameworks/Combine.framework/Combine", 600),
    "SwiftUI": ("/System/Library/Frameworks/SwiftUI.framework/SwiftUI", 26000),
    "MapKit": ("/System/Library/Frameworks/MapKit.framework/MapKit", 4000),
    "Metal": ("/System/Library/Frameworks/Metal.framework/Metal", 700),
    "CoreTelephony": ("/System/Library/Frameworks/CoreTelephony.framework/CoreTelephony", 900),
    "StoreKit": ("/System/Library/Frameworks/StoreKit.framework/StoreKit", 1700),
    "UserNotifications": ("/System/Library/Frameworks/UserNotifications.framework/UserNotifications", 250),
    "Photos": ("/System/Library/Frameworks/Photos.framework/Photos", 2000),
    "SystemConfiguration": ("/System/Library/Frameworks/SystemConfiguration.framework/SystemConfiguration", 300),
    "IOKit": ("/System/Library/Frameworks/IOKit.framework/Versions/A/IOKit", 380),
    "UIKitCore": ("/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore", 28000),
    "GraphicsServices": ("/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices", 36),
    "FrontBoardServices": ("/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices", 700),
    "BaseBoard": ("/System/Library/PrivateFrameworks/BaseBoard.framework/BaseBoard", 560),
    "RunningBoardServices": ("/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices", 480),
    "BackBoardServices": ("/System/Library/PrivateFrameworks/BackBoardServices.framework/BackBoardServices", 300),
    "CoreUI": ("/System/Library/PrivateFrameworks/CoreUI.framework/CoreUI", 1000),
    "UIFoundation": ("/System/Library/PrivateFrameworks/UIFoundation.framework/UIFoundation", 2700),
    "AttributeGraph": ("/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph", 420),
    "CoreAutoLayout": ("/System/Library/PrivateFrameworks/CoreAutoLayout.framework/CoreAutoLayout", 170),
    "TextInput": ("/System/Library/PrivateFrameworks/TextInput.framework/TextInput", 600),
    "UIKitServices": ("/System/Library/PrivateFrameworks/UIKitServices.framework/UIKitServices", 300),
    "AXCoreUtilities": ("/System/Library/PrivateFrameworks/AXCoreUtilities.framework/AXCoreUtilities", 200),
    "AudioToolboxCore": ("/System/Library/PrivateFrameworks/AudioToolboxCore.framework/AudioToolboxCore", 2600),
    "AVFCore": ("/System/Library/PrivateFrameworks/AVFCore.framework/AVFCore", 1800),
    "MediaExperience": ("/System/Library/PrivateFrameworks/MediaExperience.framework/MediaExperience", 900),
    "ManagedConfiguration": ("/System/Library/PrivateFrameworks/ManagedConfiguration.framework/ManagedConfiguration", 900),
    "CoreUtils": ("/System/Library/PrivateFrameworks/CoreUtils.framework/CoreUtils", 1400),
    "ProtocolBuffer": ("/System/Library/PrivateFrameworks/ProtocolBuffer.framework/ProtocolBuffer", 100),
    "dyld": ("/usr/lib/dyld", 536),
}

# Libraries that show up in the usedImages of almost every UIKit app crash; used to pad the list.
COMMON_PADDING = ["Foundation", "CFNetwork", "QuartzCore", "CoreGraphics", "libswiftCore.dylib", "UIFoundation",
                  "FrontBoardServices", "BaseBoard", "RunningBoardServices", "libsystem_platform.dylib",
                  "libsystem_malloc.dylib", "Security", "CoreText", "libxpc.dylib", "libc++.1.dylib"]

# Third-party frameworks an app may embed, with a few symbols each (Swift or Objective-C).
THIRD_PARTY = {
    "Alamofire": ["Session.perform(_:)", "closure #1 in DataRequest.didCompleteTask(_:with:)",
                  "Request.didResume()", "SessionDelegate.urlSession(_:task:didCompleteWithError:)"],
    "Kingfisher": ["ImageDownloader.downloadImage(with:options:completionHandler:)",
                   "closure #1 in KingfisherManager.retrieveImageFromCache(source:context:completionHandler:)",
                   "ImageCache.retrieveImage(forKey:options:callbackQueue:completionHandler:)"],
    "RxSwift": ["SerialDispatchQueueScheduler.scheduleInternal(_:action:)", "Sink.forwardOn(_:)",
                "AnonymousObserver.onCore(_:)",
                "closure #1 in ObservableType.subscribe(onNext:onError:onCompleted:onDisposed:)"],
    "Lottie": ["MainThreadAnimationLayer.display()", "LottieAnimationView.layoutSubviews()",
               "CompositionLayer.displayWithFrame(frame:forceUpdates:)"],
    "SDWebImage": ["-[SDWebImageDownloaderOperation URLSession:dataTask:didReceiveData:]",
                   "-[SDImageCache storeImage:imageData:forKey:options:context:cacheType:completion:]",
                   "-[SDWebImageManager callCacheProcessForOperation:url:options:context:progress:completed:]"],
    "Realm": ["-[RLMRealm refresh]", "realm::Realm::refresh()", "realm::_impl::RealmCoordinator::on_change()",
              "realm::util::EventLoop::Impl::run()"],
    "Sentry": ["handleExceptions", "-[SentryCrashReportSink sendAllReports]", "sentrycrashmc_suspendEnvironment"],
}

APP_NAMES = ["Tideline", "Pebblebox", "Lumenly", "Orbitly", "Brightwave", "Fernly", "Cobaltix", "Northstar", "Quillo",
             "Snapfolio", "Tandemly", "Verdant", "Wayfare", "Zephyra", "Mosaica", "Parcelly", "Kindling", "Driftwood",
             "Beaconly", "Saffron", "Grovekit", "Juniper", "Marlow", "Outpost", "Riverbed", "Sundial", "Trailmix"]
COMPANIES = ["acme", "brightlabs", "northwind", "tinybird", "lakeside", "foxglove", "quietmoon", "redwood", "hexa"]

SWIFT_TYPES = ["FeedViewController", "ProfileViewController", "CheckoutViewController", "SettingsViewController",
               "PhotoGridCell", "ImageCache", "SyncEngine", "NetworkClient", "SessionManager", "AnalyticsTracker",
               "DatabaseStore", "PlayerController", "MapCoordinator", "OnboardingFlow", "CartViewModel",
               "SearchViewModel", "MessageListView", "ThumbnailRenderer", "DownloadManager", "KeychainStore",
               "LocationService", "PushRegistrar", "AudioRecorder", "FeedDataSource", "AccountStore"]
SWIFT_METHODS = ["viewDidLoad()", "viewWillAppear(_:)", "layoutSubviews()", "reload()", "fetch(page:completion:)",
                 "decode(_:from:)", "image(for:)", "save(_:)", "update(with:)", "handle(_:)", "configure(with:)",
                 "didTapBuy(_:)", "tableView(_:cellForRowAt:)", "collectionView(_:didSelectItemAt:)", "start()",
                 "refreshToken()", "process(batch:)", "render(in:)", "apply(_:animated:)", "merge(_:into:)",
                 "scheduleUpload(for:)", "resolve(_:)", "prepareForReuse()", "bind(to:)"]
OBJC_SELECTORS = ["loadURL:completion:", "reloadData", "applySnapshot:", "handleNotification:", "flushQueue",
                  "decodeObjectForKey:", "writeBatch:error:", "startSession", "cancelPendingRequests"]
ASYNC_METHODS = ["load(page:)", "refresh()", "syncChanges()", "uploadPending()", "fetchProfile(id:)"]

NSEXCEPTIONS = [
    # (thrower frames top-first as (library, symbol, location), exception name, message)
    ([("CoreFoundation", "-[__NSArrayM objectAtIndexedSubscript:]", 1192)], "NSRangeException",
     "*** -[__NSArrayM objectAtIndexedSubscript:]: index {n} beyond bounds [0 .. {m}]"),
    ([("CoreFoundation", "-[__NSDictionaryM setObject:forKey:]", 900)], "NSInvalidArgumentException",
     "*** -[__NSDictionaryM setObject:forKey:]: object cannot be nil (key: {key})"),
    ([("CoreFoundation", "-[NSObject(NSObject) doesNotRecognizeSelector:]", 144),
      ("CoreFoundation", "___forwarding___", 1580), ("CoreFoundation", "_CF_forwarding_prep_0", 96)],
     "NSInvalidArgumentException", "-[NSNull length]: unrecognized selector sent to instance 0x{addr:x}"),
    ([("Foundation", "-[NSObject(NSKeyValueCoding) setValue:forUndefinedKey:]", 224)], "NSUnknownKeyException",
     "[<UIViewController 0x{addr:x}> setValue:forUndefinedKey:]: "
     "this class is not key value coding-compliant for the key {key}."),
    ([("Foundation", "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]", 172)],
     "NSInternalInconsistencyException", "Invalid parameter not satisfying: {key} != nil"),
    ([("UIKitCore", "-[UITableView _dequeueReusableCellWithIdentifier:forIndexPath:usingPresentationValues:]", 452)],
     "NSInternalInconsistencyException",
     "unable to dequeue a cell with identifier {key}Cell - must register a nib or a class for the identifier"),
    ([("UIKitCore", "-[UITableView _endCellAnimationsWithContext:]", 9584)], "NSInternalInconsistencyException",
     "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section "
     "after the update ({n}) must be equal to the number of rows contained in that section before the update ({m})"),
]

SWIFT_RUNTIME_FAILURES = ["Unexpectedly found nil while unwrapping an Optional value",
                          "Unexpectedly found nil while implicitly unwrapping an Optional value",
                          "Index out of range", "Division by zero", "arithmetic overflow",
                          "Range requires lowerBound <= upperBound", "force cast failed"]

VM_REGIONS = [
    # (region type, typical size in KB, typical count)
    ("Activity Tracing", 256, 1), ("CG raster data", 1100, 12), ("ColorSync", 16, 1), ("CoreAnimation", 1000, 50),
    ("CoreData", 64, 1), ("CoreData Object IDs", 4100, 2), ("CoreUI image data", 1900, 11), ("Foundation", 48, 2),
    ("IOSurface", 45000, 8), ("Image IO", 2200, 5), ("Kernel Alloc Once", 32, 1), ("MALLOC", 600000, 100),
    ("MALLOC guard page", 192, 12), ("SQLite page cache", 2300, 18), ("STACK GUARD", 560, 35),
    ("Stack", 20000, 36), ("VM_ALLOCATE", 29000, 170), ("WebKit Malloc", 64000, 6), ("__AUTH", 1900, 400),
    ("__AUTH_CONST", 59000, 780), ("__CTF", 1, 1), ("__DATA", 11000, 750), ("__DATA_CONST", 25000, 790),
    ("__DATA_DIRTY", 8700, 700), ("__FONT_DATA", 2, 1), ("__INFO_FILTER", 1, 1), ("__LINKEDIT", 560000, 29),
    ("__OBJC_RO", 78000, 1), ("__OBJC_RW", 2400, 1), ("__TEXT", 690000, 800), ("__TPRO_CONST", 272, 2),
    ("dyld private memory", 272, 2), ("libnetwork", 1600, 24), ("mapped file", 190000, 80),
    ("owned unmapped memory", 13000, 1), ("page table in kernel", 1280, 1), ("shared memory", 768, 16),
    ("Performance tool data", 400, 3), ("Dispatch continuations", 16000, 1), ("JS JIT generated code", 16, 2),
    ("JS VM Gigacage", 384, 4), ("Memory Tag 253", 48, 3), ("Sandbox", 16, 1), ("Accelerate framework", 128, 1),
]


# --------------------------------------------------------------------------------------------------
# Apple-style JSON writer
# --------------------------------------------------------------------------------------------------

def json_string(s: str) -> str:
    """A JSON string the way NSJSONSerialization writes it: UTF-8 kept raw, `/` escaped as `\\/`."""
    return json.dumps(s, ensure_ascii=False).replace("/", "\\/")


def compact(v) -> str:
    """One-line JSON without spaces (Apple's form for threads, exception, bundleInfo, ...)."""
    if isinstance(v, dict):
        return "{" + ",".join(json_string(k) + ":" + compact(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(compact(x) for x in v) + "]"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json_string(v)
    raise TypeError(type(v))


def pretty(v, level: int = 0) -> str:
    """NSJSONSerialization pretty printing: 2-space indent, `"key" : value`, empty containers on 3 lines."""
    pad, close = "  " * (level + 1), "  " * level
    if isinstance(v, dict):
        if not v:
            return "{\n\n" + close + "}"
        items = ",\n".join(pad + json_string(k) + " : " + pretty(x, level + 1) for k, x in v.items())
        return "{\n" + items + "\n" + close + "}"
    if isinstance(v, list):
        if not v:
            return "[\n\n" + close + "]"
        return "[\n" + ",\n".join(pad + pretty(x, level + 1) for x in v) + "\n" + close + "]"
    return compact(v)


def render_body(entries) -> str:
    """entries: (key, value, style); style "compact" (one line), "nested" (indented) or "spliced" (column 0)."""
    lines = []
    for key, value, style in entries:
        if style == "nested":
            text = pretty(value, 1)
        elif style == "spliced":
            text = pretty(value, 0)
        else:
            text = compact(value)
        lines.append("  " + json_string(key) + " : " + text)
    return "{\n" + ",\n".join(lines) + "\n}"


# --------------------------------------------------------------------------------------------------
# Stable per-build values (independent of the seed)
# --------------------------------------------------------------------------------------------------

def digest(*parts) -> int:
    """A stable 64-bit number for the given parts."""
    data = "|".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


def stable_uuid(*parts) -> str:
    """A lower-case dashed UUID (version nibble 3, like LC_UUID values) derived from the parts."""
    h = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:32]
    h = h[:12] + "3" + h[13:16] + "89ab"[int(h[16], 16) % 4] + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@functools.lru_cache(maxsize=None)
def cache_layout(build: str):
    """Shared-cache layout of one OS build: {name: (offset, size, uuid)} and the cache's total size."""
    layout = {}
    offset = 0x4000 * (1 + digest(build, "start") % 0x800)
    for name in sorted(SYSTEM_LIBRARIES, key=lambda n: digest(build, "order", n)):
        kb = SYSTEM_LIBRARIES[name][1]
        jitter = 0.9 + (digest(build, "size", name) % 2000) / 10000.0
        size = max(0x4000, int(kb * 1024 * jitter) // 0x1000 * 0x1000)
        layout[name] = (offset, size, stable_uuid(build, name))
        offset += size + 0x1000 * (digest(build, "gap", name) % 0x3c00)
    total = (offset + 0x1000 * (digest(build, "tail") % 0x8000)) // 0x4000 * 0x4000
    return layout, total


def symbol_start(salt, lib: str, symbol: str, size: int) -> int:
    """Where a symbol starts inside an image: stable for (salt, image, symbol), 4-aligned, within the image."""
    span = max(0x1000, size - 0x3000)
    return 0x800 + (digest(salt, lib, symbol) % span) // 4 * 4


def location(build: str, lib: str, symbol: str, loc: int) -> int:
    """Call-site offsets move a little from build to build; trap stubs (+8 and less) never do."""
    if loc < 40:
        return loc
    return max(8, loc + 4 * (digest(build, "loc", lib, symbol) % 9 - 4))


# --------------------------------------------------------------------------------------------------
# One report
# --------------------------------------------------------------------------------------------------

class CrashBuilder:
    """Builds the header and body of one crash report from the shared RNG."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.pick_platform()
        self.pick_app()
        self.images = []          # usedImages entries
        self.image_index = {}     # name -> index into self.images
        self.app_symbols = {}     # (image name, symbol) -> start offset, stable within the report
        self.add_app_images()

    # ---- setup -----------------------------------------------------------------------------------

    def pick_platform(self):
        rng = self.rng
        self.version, self.build, released = rng.choice(OS_RELEASES)
        self.major = int(self.version.split(".")[0])
        devices = [d for d in DEVICES if d[1] <= self.major <= d[2]]
        model, _, _, arm64e, _ = rng.choices(devices, weights=[d[4] for d in devices])[0]
        self.model, self.system_arch = model, "arm64e" if arm64e else "arm64"
        tz = rng.choice(TIMEZONES)
        sign = 1 if tz[0] == "+" else -1
        self.tz_text = tz
        self.tz = timezone(sign * timedelta(hours=int(tz[1:3]), minutes=int(tz[3:5])))
        start = datetime.strptime(released, "%Y-%m-%d").replace(tzinfo=self.tz)
        self.capture = start + timedelta(seconds=rng.randrange(3600, 150 * 86400), microseconds=rng.randrange(10 ** 6))
        self.running = timedelta(seconds=rng.choice([rng.randrange(2, 60), rng.randrange(60, 4 * 3600)]),
                                 microseconds=rng.randrange(10 ** 6))
        self.launch = self.capture - self.running
        self.uptime = (int(self.running.total_seconds()) + rng.randrange(60, 1500000)) // 1000 * 1000 + 1000

    def pick_app(self):
        rng = self.rng
        name = rng.choice(APP_NAMES)
        if rng.random() < 0.3:
            name += rng.choice(["Pro", "HD", "Go", "Plus", "Lite"])
        self.app = name
        self.bundle_id = f"{rng.choice(['com', 'io', 'app', 'co'])}.{rng.choice(COMPANIES)}.{name.lower()}"
        self.app_version = f"{rng.randrange(1, 12)}.{rng.randrange(0, 30)}.{rng.randrange(0, 10)}"
        self.app_build = str(rng.choice([rng.randrange(1, 2000), rng.randrange(20210000, 20249999)]))
        self.container = uuid_upper(rng)
        self.app_dir = f"/private/var/containers/Bundle/Application/{self.container}/{name}.app"
        self.objc_prefix = name[:3].upper()
        self.types = rng.sample(SWIFT_TYPES, 9)
        self.queue_prefix = self.bundle_id
        self.app_store = rng.random() < 0.8
        self.swiftui = rng.random() < 0.35
        # How well the app part was symbolicated: fully, partly, or not at all.
        self.symbolication = rng.choices(["full", "partial", "none"], weights=[55, 25, 20])[0]
        self.source_info = self.symbolication != "none" and rng.random() < 0.45
        # How much was going on in the process: drives thread count, idle share and image count together,
        # which gives the long upper tail of real report sizes.
        self.busy = rng.betavariate(1.3, 2.2)

    def add_app_images(self):
        rng = self.rng
        base = 0x100000000 + rng.randrange(0x10, 0x1400) * 0x4000
        size = rng.randrange(0x60, 0x2800) * 0x4000
        self.add_image(self.app, "arm64", base, size, uuid_lower(rng), f"{self.app_dir}/{self.app}")
        self.frameworks = []
        names = [self.app + "Kit"] if rng.random() < 0.4 else []
        names += rng.sample(sorted(THIRD_PARTY), rng.choice([0, 0, 1, 2, 3, 4]))
        for fw in names:
            base += size + rng.randrange(1, 0x40) * 0x4000
            size = rng.randrange(0x10, 0x300) * 0x4000
            self.add_image(fw, "arm64", base, size, uuid_lower(rng), f"{self.app_dir}/Frameworks/{fw}.framework/{fw}")
            self.frameworks.append(fw)
        self.cache_base = 0x180000000 + rng.randrange(0, 0x8000) * 0x4000

    def add_image(self, name, arch, base, size, uuid, path):
        self.image_index[name] = len(self.images)
        self.images.append({"source": "P", "arch": arch, "base": base, "size": size, "uuid": uuid,
                            "path": path, "name": name})

    def system_image(self, name) -> int:
        """Index of a shared-cache image, adding it to usedImages on first use."""
        if name not in self.image_index:
            layout, _ = cache_layout(self.build)
            offset, size, uuid = layout[name]
            self.add_image(name, self.system_arch, self.cache_base + offset, size, uuid, SYSTEM_LIBRARIES[name][0])
        return self.image_index[name]

    # ---- frames ----------------------------------------------------------------------------------

    def sys(self, lib, symbol, loc) -> dict:
        index = self.system_image(lib)
        size = self.images[index]["size"]
        loc = location(self.build, lib, symbol, loc)
        offset = symbol_start(self.build, lib, symbol, size) + loc
        return {"imageOffset": offset, "symbol": symbol, "symbolLocation": loc, "imageIndex": index}

    def chain(self, *frames) -> list:
        """System frames from (library, symbol, location) tuples, top first."""
        return [self.sys(*f) for f in frames]

    def app_frame(self, symbol, image=None, source=None, loc=None) -> dict:
        """A frame in the app (or one of its frameworks); may come out unsymbolicated."""
        image = image or self.app
        index = self.image_index[image]
        size = self.images[index]["size"]
        key = (image, symbol)
        if key not in self.app_symbols:
            self.app_symbols[key] = symbol_start(self.images[index]["uuid"], image, symbol, size)
        if loc is None:
            loc = self.rng.randrange(1, 500) * 4
        offset = self.app_symbols[key] + loc
        third_party = image in THIRD_PARTY
        unsymbolicated = (self.symbolication == "none" or
                          (self.symbolication == "partial" and self.rng.random() < 0.3) or
                          (third_party and self.rng.random() < 0.4))
        if unsymbolicated:
            return {"imageOffset": offset, "imageIndex": index}
        frame = {"imageOffset": offset}
        if source and self.source_info and not third_party and self.rng.random() < 0.85:
            frame["sourceLine"] = source[1]
            frame["sourceFile"] = source[0]
        frame.update({"symbol": symbol, "symbolLocation": loc, "imageIndex": index})
        return frame

    def swift_symbol(self):
        """A plausible Swift app symbol and its source file."""
        rng = self.rng
        t = rng.choice(self.types)
        m = rng.choice(SWIFT_METHODS)
        form = rng.random()
        if form < 0.45:
            symbol = f"{t}.{m}"
        elif form < 0.7:
            symbol = f"closure #{rng.randrange(1, 4)} in {t}.{m}"
        elif form < 0.8:
            symbol = f"specialized {t}.{m}"
        elif form < 0.88:
            return f"@objc {t}.{m}", ("<compiler-generated>", 0)
        elif form < 0.94:
            symbol = f"partial apply for closure #{rng.randrange(1, 3)} in {t}.{m}"
        else:
            return "thunk for @escaping @callee_guaranteed () -> ()", ("<compiler-generated>", 0)
        return symbol, (f"{t}.swift", rng.randrange(12, 900))

    def objc_symbol(self):
        cls = self.objc_prefix + self.rng.choice(self.types).replace("ViewController", "Controller")
        return f"-[{cls} {self.rng.choice(OBJC_SELECTORS)}]", (f"{cls}.m", self.rng.randrange(20, 700))

    def app_chain(self, n) -> list:
        """n app frames (top first); a few may come from an embedded framework."""
        frames = []
        for _ in range(n):
            if self.frameworks and self.rng.random() < 0.15:
                fw = self.rng.choice(self.frameworks)
                symbols = THIRD_PARTY.get(fw)
                symbol, source = (self.rng.choice(symbols), None) if symbols else self.objc_symbol()
                frames.append(self.app_frame(symbol, image=fw, source=source))
            else:
                symbol, source = self.swift_symbol() if self.rng.random() < 0.8 else self.objc_symbol()
                frames.append(self.app_frame(symbol, source=source))
        return frames

    def async_chain(self, n) -> list:
        frames = []
        for i in range(n):
            t, m = self.rng.choice(self.types), self.rng.choice(ASYNC_METHODS)
            kind = "suspend resume partial function" if i else "resume partial function"
            frames.append(self.app_frame(f"({self.rng.randrange(1, 6)}) {kind} for {t}.{m}",
                                         source=(f"{t}.swift", self.rng.randrange(12, 400))))
        return frames

    # ---- stack segments (top first) --------------------------------------------------------------

    def mach_wait(self) -> list:
        if self.major >= 16:
            return self.chain(("libsystem_kernel.dylib", "mach_msg2_trap", 8),
                              ("libsystem_kernel.dylib", "mach_msg2_internal", 80),
                              ("libsystem_kernel.dylib", "mach_msg_overwrite", 436),
                              ("libsystem_kernel.dylib", "mach_msg", 24))
        return self.chain(("libsystem_kernel.dylib", "mach_msg_trap", 8), ("libsystem_kernel.dylib", "mach_msg", 72))

    def runloop_wait(self) -> list:
        return self.mach_wait() + self.chain(("CoreFoundation", "__CFRunLoopServiceMachPort", 160),
                                             ("CoreFoundation", "__CFRunLoopRun", 1212),
                                             ("CoreFoundation", "CFRunLoopRunSpecific", 608))

    def thread_start(self, nsthread=True) -> list:
        frames = [("Foundation", "__NSThread__start__", 716)] if nsthread else []
        frames += [("libsystem_pthread.dylib", "_pthread_start", 136), ("libsystem_pthread.dylib", "thread_start", 8)]
        return self.chain(*frames)

    def main_bottom(self) -> list:
        """From GSEventRunModal down to dyld's start."""
        frames = self.chain(("GraphicsServices", "GSEventRunModal", 164), ("UIKitCore", "-[UIApplication _run]", 888),
                            ("UIKitCore", "UIApplicationMain", 340))
        if self.swiftui:
            frames += self.chain(("SwiftUI", "closure #1 in KitRendererCommon(_:)", 168),
                                 ("SwiftUI", "runApp<A>(_:)", 160), ("SwiftUI", "static App.main()", 128))
            frames.append(self.app_frame(f"static {self.app}App.$main()", source=("<compiler-generated>", 0), loc=40))
        frames.append(self.app_frame("main", source=(f"{self.app}App.swift" if self.swiftui else "AppDelegate.swift",
                                                     self.rng.randrange(8, 20)), loc=self.rng.randrange(4, 40) * 4))
        start = {15: 520, 16: 2220, 17: 2240}[self.major]
        frames.append(self.sys("dyld", "start", start))
        return frames

    def main_entry(self) -> list:
        """A run-loop callout on the main thread (top first), ending at CFRunLoopRunSpecific."""
        kind = self.rng.choice(["dispatch", "source0", "observer", "table", "timer"])
        cf = "CoreFoundation"
        if kind == "dispatch":
            drain = ("libdispatch.dylib", "_dispatch_main_queue_drain", 988) if self.major >= 16 else None
            frames = [("libdispatch.dylib", "_dispatch_call_block_and_release", 32),
                      ("libdispatch.dylib", "_dispatch_client_callout", 20)]
            frames += [drain] if drain else []
            frames += [("libdispatch.dylib", "_dispatch_main_queue_callback_4CF", 44),
                       (cf, "__CFRUNLOOP_IS_SERVICING_THE_MAIN_DISPATCH_QUEUE__", 16), (cf, "__CFRunLoopRun", 1996)]
            head = [self.app_frame("thunk for @escaping @callee_guaranteed () -> ()",
                                   source=("<compiler-generated>", 0), loc=48)]
        elif kind == "source0":
            frames = [("UIKitCore", "-[UIApplication sendAction:to:from:forEvent:]", 96),
                      ("UIKitCore", "-[UIControl sendAction:to:forEvent:]", 100),
                      ("UIKitCore", "-[UIControl _sendActionsForEvents:withEvent:]", 96),
                      ("UIKitCore", "-[UIButton _sendActionsForEvents:withEvent:]", 124),
                      ("UIKitCore", "-[UIControl touchesEnded:withEvent:]", 400),
                      ("UIKitCore", "-[UIWindow _sendTouchesForEvent:]", 936),
                      ("UIKitCore", "-[UIWindow sendEvent:]", 2920),
                      ("UIKitCore", "-[UIApplication sendEvent:]", 376),
                      ("UIKitCore", "__dispatchPreprocessedEventFromEventQueue", 1148),
                      ("UIKitCore", "__processEventQueue", 4812),
                      ("UIKitCore", "__eventFetcherSourceCallback", 156),
                      (cf, "__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__", 28),
                      (cf, "__CFRunLoopDoSource0", 176), (cf, "__CFRunLoopDoSources0", 244), (cf, "__CFRunLoopRun", 828)]
            t = self.rng.choice(self.types)
            head = [self.app_frame(f"@objc {t}.didTapBuy(_:)", source=("<compiler-generated>", 0), loc=60)]
        elif kind in ("observer", "table"):
            frames = []
            if kind == "table":
                frames += [("UIKitCore", "-[UITableView _createPreparedCellForGlobalRow:withIndexPath:willDisplay:]", 708),
                           ("UIKitCore", "-[UITableView _updateVisibleCellsNow:]", 1088),
                           ("UIKitCore", "-[UITableView layoutSubviews]", 100)]
            frames += [("UIKitCore", "-[UIView(CALayerDelegate) layoutSublayersOfLayer:]", 1400),
                       ("QuartzCore", "CA::Layer::layout_if_needed(CA::Transaction*)", 504),
                       ("QuartzCore", "CA::Layer::layout_and_display_if_needed(CA::Transaction*)", 120),
                       ("QuartzCore", "CA::Context::commit_transaction(CA::Transaction*, double, double*)", 488),
                       ("QuartzCore", "CA::Transaction::commit()", 648),
                       ("QuartzCore", "CA::Transaction::flush_as_runloop_observer(bool)", 88),
                       ("UIKitCore", "_UIApplicationFlushCATransaction", 52),
                       ("UIKitCore", "_UIUpdateSequenceRun", 84),
                       ("UIKitCore", "schedulerStepScheduledMainSection", 144),
                       ("UIKitCore", "runloopSourceCallback", 92),
                       (cf, "__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__", 28),
                       (cf, "__CFRunLoopDoSource0", 176), (cf, "__CFRunLoopDoSources0", 244), (cf, "__CFRunLoopRun", 828)]
            t = self.rng.choice(self.types)
            method = "tableView(_:cellForRowAt:)" if kind == "table" else "layoutSubviews()"
            head = [self.app_frame(f"@objc {t}.{method}", source=("<compiler-generated>", 0), loc=72)]
        else:
            frames = [("Foundation", "__NSFireTimer", 68),
                      (cf, "__CFRUNLOOP_IS_CALLING_OUT_TO_A_TIMER_CALLBACK_FUNCTION__", 32),
                      (cf, "__CFRunLoopDoTimer", 1012), (cf, "__CFRunLoopDoTimers", 288), (cf, "__CFRunLoopRun", 1856)]
            t = self.rng.choice(self.types)
            head = [self.app_frame(f"@objc {t}.tick(_:)", source=("<compiler-generated>", 0), loc=56)]
        frames.append((cf, "CFRunLoopRunSpecific", 608))
        return head + self.chain(*frames)

    def queue_bottom(self, kind) -> list:
        """Bottom of a workqueue thread that runs a block (top first), and the queue name it reports."""
        d = "libdispatch.dylib"
        wq = [("libsystem_pthread.dylib", "_pthread_wqthread", 288), ("libsystem_pthread.dylib", "start_wqthread", 8)]
        if kind == "serial":
            frames = [(d, "_dispatch_call_block_and_release", 32), (d, "_dispatch_client_callout", 20),
                      (d, "_dispatch_lane_serial_drain", 668), (d, "_dispatch_lane_invoke", 384),
                      (d, "_dispatch_root_queue_drain_deferred_wlh", 292), (d, "_dispatch_workloop_worker_thread", 540)]
            suffix = self.rng.choice(["sync", "database", "imageDecode", "analytics", "upload", "cache"])
            queue = f"{self.queue_prefix}.{suffix}"
        elif kind == "global":
            frames = [(d, "_dispatch_call_block_and_release", 32), (d, "_dispatch_client_callout", 20),
                      (d, "_dispatch_root_queue_drain", 396), (d, "_dispatch_worker_thread2", 164)]
            queue = self.rng.choice(["com.apple.root.default-qos", "com.apple.root.utility-qos",
                                     "com.apple.root.user-initiated-qos", "com.apple.root.background-qos"])
        elif kind == "concurrency":
            frames = [("libswift_Concurrency.dylib", "swift::runJobInEstablishedExecutorContext(swift::Job*)", 416),
                      ("libswift_Concurrency.dylib", "swift_job_runImpl(swift::Job*, swift::ExecutorRef)", 72),
                      (d, "_dispatch_root_queue_drain", 340), (d, "_dispatch_worker_thread2", 156)]
            queue = self.rng.choice(["com.apple.root.user-initiated-qos.cooperative",
                                     "com.apple.root.default-qos.cooperative"])
        else:  # operation queue
            frames = [("Foundation", "__NSBLOCKOPERATION_IS_CALLING_OUT_TO_A_BLOCK__", 24),
                      ("Foundation", "-[NSBlockOperation main]", 96),
                      ("Foundation", "__NSOPERATION_IS_INVOKING_MAIN__", 20), ("Foundation", "-[NSOperation start]", 648),
                      ("Foundation", "__NSOPERATIONQUEUE_IS_STARTING_AN_OPERATION__", 20),
                      ("Foundation", "__NSOQSchedule_f", 172), (d, "_dispatch_block_async_invoke2", 148),
                      (d, "_dispatch_client_callout", 20), (d, "_dispatch_root_queue_drain", 396),
                      (d, "_dispatch_worker_thread2", 164)]
            qos = self.rng.choice(["UTILITY", "USER_INITIATED", "BACKGROUND", "DEFAULT"])
            queue = f"NSOperationQueue 0x{self.heap_address():x} (QOS: {qos})"
        return self.chain(*frames, *wq), queue

    def heap_address(self) -> int:
        if self.major >= 17:
            return 0x300000000 + self.rng.randrange(0, 0x4000000) * 0x10
        return 0x280000000 + self.rng.randrange(0, 0x4000000) * 0x10

    # ---- crash ---------------------------------------------------------------------------------

    def pick_exception(self):
        rng = self.rng
        self.kind = rng.choices(["segv", "bus", "abort", "trap"], weights=[40, 8, 30, 22])[0]
        self.leb = None
        self.asi = None
        self.reason = None
        self.far = 0
        if self.kind == "segv":
            if rng.random() < 0.6:
                self.far = rng.choice([0, 0x8, 0x10, 0x18, 0x20, 0x28, 0x40, 0x80])
            else:   # a garbage pointer in the unmapped gap above the malloc zones
                self.far = rng.randrange(self.nano_zone()[1] + 0x1000, 0xfc0000000) // 8 * 8
            code = 1 if rng.random() < 0.85 else 2
            name = "KERN_INVALID_ADDRESS" if code == 1 else "KERN_PROTECTION_FAILURE"
            subtype = f"{name} at 0x{self.far:016x}"
            raw_far = self.far
            if code == 1 and rng.random() < 0.12:
                raw_far = self.far | (rng.randrange(1, 0x7fff) << 48)
                subtype = f"{name} at 0x{raw_far:016x} -> 0x{self.far:016x} (possible pointer authentication failure)"
            self.exception = {"codes": f"0x{code:016x}, 0x{raw_far:016x}", "rawCodes": [code, raw_far],
                              "type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "subtype": subtype}
            self.termination = (11, "Segmentation fault: 11", "exc handler")
            write = rng.random() < 0.3
            fault = "Translation" if code == 1 else "Permission"
            self.esr = ((0x92000046 if write else 0x92000006) | (0x9 if code == 2 else 0),
                        f"(Data Abort) byte {'write' if write else 'read'} {fault} fault")
        elif self.kind == "bus":
            code, name = rng.choice([(2, "KERN_PROTECTION_FAILURE"), (10, "KERN_MEMORY_ERROR"), (0x101, "EXC_ARM_DA_ALIGN")])
            start = 0x120000000 + rng.randrange(0, 0x4000) * 0x4000
            self.mapped = (start, rng.randrange(0x40, 0x800) * 0x4000)
            self.far = start + rng.randrange(0, self.mapped[1]) // 4 * 4 + (1 if code == 0x101 else 0)
            self.exception = {"codes": f"0x{code:016x}, 0x{self.far:016x}", "rawCodes": [code, self.far],
                              "type": "EXC_BAD_ACCESS", "signal": "SIGBUS", "subtype": f"{name} at 0x{self.far:016x}"}
            self.termination = (10, "Bus error: 10", "exc handler")
            self.esr = {2: (0x9200004f, "(Data Abort) byte write Permission fault"),
                        10: (0x92000010, "(Data Abort) byte read Synchronous external abort"),
                        0x101: (0x92000021, "(Data Abort) byte read Alignment fault")}[code]
        elif self.kind == "abort":
            self.exception = {"codes": "0x0000000000000000, 0x0000000000000000", "rawCodes": [0, 0],
                              "type": "EXC_CRASH", "signal": "SIGABRT"}
            self.termination = (6, "Abort trap: 6", self.app)
            self.esr = (0x56000080, "(Syscall)")
            self.asi = {"libsystem_c.dylib": ["abort() called"]}
            self.nsexception = rng.random() < 0.75
        else:
            self.exception = {"codes": "", "rawCodes": [], "type": "EXC_BREAKPOINT", "signal": "SIGTRAP"}
            self.termination = (5, "Trace/BPT trap: 5", "exc handler")
            self.esr = (0xf2000001, "(Breakpoint) brk 1")
            self.trap = rng.choices(["swift", "fatal", "dispatch"], weights=[60, 30, 10])[0]

    def crash_top(self, on_main) -> list:
        """Top of the faulting thread (above the context it was called from), top first."""
        rng = self.rng
        if self.kind in ("segv", "bus"):
            style = rng.choice(["objc", "objc", "swift_rc", "app", "app", "memmove"])
            if self.kind == "bus" and style in ("objc", "swift_rc"):
                style = "memmove"
            top = []
            if style == "objc":
                top = self.chain(("libobjc.A.dylib", rng.choice(["objc_msgSend", "objc_retain", "objc_release"]),
                                  rng.choice([8, 16, 32])))
            elif style == "swift_rc":
                top = self.chain(("libswiftCore.dylib", rng.choice(["swift_retain", "swift_release",
                                                                    "swift_bridgeObjectRetain"]), rng.choice([44, 56, 60])))
            elif style == "memmove":
                top = self.chain(("libsystem_platform.dylib", "_platform_memmove", rng.choice([76, 96, 168])))
            return top + self.app_chain(rng.randrange(2, 7))
        if self.kind == "abort":
            head = self.chain(("libsystem_kernel.dylib", "__pthread_kill", 8),
                              ("libsystem_pthread.dylib", "pthread_kill", 268),
                              ("libsystem_c.dylib", "abort", 180))
            if not self.nsexception:
                return head + self.chain(("libsystem_c.dylib", "__assert_rtn", 272)) + self.app_chain(rng.randrange(2, 6))
            head += self.chain(("libc++abi.dylib", "abort_message", 132),
                               ("libc++abi.dylib", "demangling_terminate_handler()", 348),
                               ("libobjc.A.dylib", "_objc_terminate()", 144),
                               ("libc++abi.dylib", "std::__terminate(void (*)())", 16))
            if on_main:
                return head + self.chain(("libc++abi.dylib", "__cxa_rethrow", 188),
                                         ("libobjc.A.dylib", "objc_exception_rethrow", 44))
            return head + self.chain(("libc++abi.dylib", "std::terminate()", 56))
        # SIGTRAP
        if self.trap == "swift":
            t, m = rng.choice(self.types), rng.choice(SWIFT_METHODS)
            first = self.app_frame(f"Swift runtime failure: {rng.choice(SWIFT_RUNTIME_FAILURES)}", loc=0)
            second = self.app_frame(f"{t}.{m}")
            if "symbol" in first and "symbol" in second:
                first["imageOffset"] = second["imageOffset"]   # inlined: both lines share one address
            return [first, second] + self.app_chain(rng.randrange(1, 6))
        if self.trap == "fatal":
            return self.chain(("libswiftCore.dylib", "_assertionFailure(_:_:file:line:flags:)", 244)) + \
                self.app_chain(rng.randrange(2, 7))
        self.asi = {"libdispatch.dylib": ["BUG IN CLIENT OF LIBDISPATCH: Block was expected to execute on queue "
                                          f"[com.apple.main-thread (0x{self.cache_base + 0x3f8a1c0:x})]"]}
        return self.chain(("libdispatch.dylib", "_dispatch_assert_queue_fail", 120),
                          ("libdispatch.dylib", "dispatch_assert_queue", 196)) + self.app_chain(rng.randrange(2, 6))

    def last_exception_backtrace(self, context) -> list:
        """8-15 frames: __exceptionPreprocess, objc_exception_throw, the thrower, app frames, then the context."""
        throwers, name, message = self.rng.choice(NSEXCEPTIONS)
        frames = self.chain(("CoreFoundation", "__exceptionPreprocess", 164),
                            ("libobjc.A.dylib", "objc_exception_throw", 60), *throwers)
        frames += self.app_chain(self.rng.randrange(1, 5))
        room = self.rng.randrange(8, 16) - len(frames)
        frames += context[-room:] if room > 0 else context[-2:]
        text = message.format(n=self.rng.randrange(1, 20), m=self.rng.randrange(0, 9), addr=self.heap_address(),
                              key=self.rng.choice(["avatarURL", "titleLabel", "identifier", "delegate", "Feed"]))
        self.reason = {"composed_message": text, "format_string": text, "arguments": [], "name": name,
                       "type": "objc-exception", "class": "NSException"}
        return frames

    # ---- threads ---------------------------------------------------------------------------------

    def faulting_main(self) -> list:
        """The crashed main thread: crash frames, app code, a run-loop callout, UIApplicationMain (15-45 frames)."""
        entry = self.main_entry()
        bottom = self.main_bottom()
        if self.kind == "abort" and self.nsexception:
            self.leb = self.last_exception_backtrace(entry + bottom)
            return self.crash_top(True) + self.chain(("CoreFoundation", "CFRunLoopRunSpecific", 784)) + bottom
        top = self.crash_top(True)
        fixed = len(top) + len(entry) + len(bottom)
        low = max(0, 15 - fixed)
        high = max(low, min(11, 45 - fixed))
        return top + self.app_chain(self.rng.randint(low, high)) + entry + bottom

    def faulting_worker(self):
        """A crashed workqueue thread: (frames, queue)."""
        if self.kind == "abort" and self.nsexception:
            bottom, queue = self.queue_bottom(self.rng.choice(["serial", "global"]))
            self.leb = self.last_exception_backtrace(self.app_chain(1) + bottom)
            # std::terminate() returns into the dispatch callout that caught the exception.
            return self.crash_top(False) + bottom[1:], queue
        kind = self.rng.choice(["serial", "serial", "global", "concurrency", "operation"])
        bottom, queue = self.queue_bottom(kind)
        middle = self.async_chain(self.rng.randrange(1, 4)) if kind == "concurrency" else []
        return self.crash_top(False) + middle + bottom, queue

    def busy_main(self) -> list:
        """A main thread that is not the crashed one: blocked or working inside app code (15-45 frames)."""
        top = self.rng.choice([
            [("libsystem_kernel.dylib", "__psynch_mutexwait", 8),
             ("libsystem_pthread.dylib", "_pthread_mutex_firstfit_lock_wait", 84),
             ("libsystem_pthread.dylib", "_pthread_mutex_firstfit_lock_slow", 248)],
            [("libsystem_kernel.dylib", "semaphore_wait_trap", 8), ("libdispatch.dylib", "_dispatch_sema4_wait", 28),
             ("libdispatch.dylib", "_dispatch_semaphore_wait_slow", 132)],
            [("libsystem_kernel.dylib", "__ulock_wait", 8),
             ("libdispatch.dylib", "_dlock_wait", 56), ("libdispatch.dylib", "_dispatch_thread_event_wait_slow", 56),
             ("libdispatch.dylib", "__DISPATCH_WAIT_FOR_QUEUE__", 368), ("libdispatch.dylib", "_dispatch_sync_f_slow", 148)],
            [("libobjc.A.dylib", "objc_msgSend", 56)],
            [("CoreText", "TLine::SetLevelRange(long, long, unsigned char)", 176),
             ("CoreText", "CTLineCreateWithAttributedString", 40),
             ("UIFoundation", "-[NSStringDrawingTextStorage _drawWithRect:]", 1208)],
        ])
        top = self.chain(*top)
        entry = self.main_entry()
        bottom = self.main_bottom()
        fixed = len(top) + len(entry) + len(bottom)
        low = max(1, 15 - fixed)
        high = max(low, min(15, 45 - fixed))
        return top + self.app_chain(self.rng.randint(low, high)) + entry + bottom

    def worker(self):
        """A non-crashed busy thread with 3-12 frames: (frames, name, queue)."""
        rng = self.rng
        kind = rng.choice(["sema", "sema", "cond", "mutex", "running", "urlloader", "eventfetch_like", "sync"])
        if kind in ("sema", "mutex", "running", "sync"):
            qkind = rng.choice(["serial", "global", "global", "operation"])
            bottom, queue = self.queue_bottom(qkind)
            if kind == "sema":
                top = self.chain(("libsystem_kernel.dylib", "semaphore_wait_trap", 8),
                                 ("libdispatch.dylib", "_dispatch_sema4_wait", 28),
                                 ("libdispatch.dylib", "_dispatch_semaphore_wait_slow", 132))
            elif kind == "mutex":
                top = self.chain(("libsystem_kernel.dylib", "__psynch_mutexwait", 8),
                                 ("libsystem_pthread.dylib", "_pthread_mutex_firstfit_lock_wait", 84),
                                 ("libsystem_pthread.dylib", "_pthread_mutex_firstfit_lock_slow", 248))
            elif kind == "sync":
                top = self.chain(("libsystem_kernel.dylib", "__ulock_wait", 8), ("libdispatch.dylib", "_dlock_wait", 56),
                                 ("libdispatch.dylib", "_dispatch_thread_event_wait_slow", 56),
                                 ("libdispatch.dylib", "__DISPATCH_WAIT_FOR_QUEUE__", 368))
            else:
                top = self.chain(rng.choice([("libsystem_platform.dylib", "_platform_memmove", 96),
                                             ("libsqlite3.dylib", "sqlite3VdbeExec", 3100),
                                             ("libz.1.dylib", "inflate", 1020),
                                             ("ImageIO", "IIOReadPlugin::callDecodeImage(IIODecodeParameter*, "
                                                         "CGImageProvider*, __IOSurface**, void**)", 848),
                                             ("libswiftCore.dylib", "swift_retain", 60)]))
            if len(top) + len(bottom) + 1 > 12:
                bottom, queue = self.queue_bottom("global")
            room = 12 - len(top) - len(bottom)
            return top + self.app_chain(rng.randint(max(1, round(room * self.busy)), room)) + bottom, None, queue
        if kind == "cond":
            top = self.chain(("libsystem_kernel.dylib", "__psynch_cvwait", 8),
                             ("libsystem_pthread.dylib", "_pthread_cond_wait", 1228))
            if rng.random() < 0.5:
                top += self.chain(("libc++.1.dylib", "std::__1::condition_variable::wait("
                                                     "std::__1::unique_lock<std::__1::mutex>&)", 28))
            name = rng.choice([None, f"{self.queue_prefix}.worker", "AVAudioSession Notify Thread", "RealmWorker"])
            return top + self.app_chain(rng.randrange(1, 4)) + self.thread_start(nsthread=False), name, None
        if kind == "urlloader":
            frames = self.runloop_wait() + self.chain(("CFNetwork", "+[__CFN_CoreSchedulingSetRunnable _run:]", 384))
            return frames + self.thread_start(), "com.apple.NSURLConnectionLoader", None
        # a named run-loop thread of a system framework
        variant = rng.choice(["motion", "audio", "js"])
        if variant == "motion":
            frames = self.runloop_wait() + self.chain(("CoreMotion", "CLMotionCore::runMotionThread(void*)", 1208))
            return frames + self.thread_start(nsthread=False), "com.apple.CoreMotion.MotionThread", None
        if variant == "audio":
            frames = self.runloop_wait() + self.chain(("AudioToolboxCore", "GenericRunLoopThread::Entry(void*)", 156),
                                                      ("AudioToolboxCore", "CAPThread::Entry(CAPThread*)", 88))
            return frames + self.thread_start(nsthread=False), "AVAudioSession Notify Thread", None
        frames = self.chain(("libsystem_kernel.dylib", "__psynch_cvwait", 8),
                            ("libsystem_pthread.dylib", "_pthread_cond_wait", 1228),
                            ("JavaScriptCore", "scavenger_thread_main", 1440))
        return frames + self.thread_start(nsthread=False), "JavaScriptCore libpas scavenger", None

    def idle_thread(self) -> list:
        return self.chain(("libsystem_kernel.dylib", "__workq_kernreturn", 8),
                          ("libsystem_pthread.dylib", "_pthread_wqthread", 364),
                          ("libsystem_pthread.dylib", "start_wqthread", 8))

    def crash_reporter_thread(self):
        """The mach exception server thread of an in-app crash reporter."""
        image = "Sentry" if "Sentry" in self.frameworks else None
        symbol = "handleExceptions" if image else self.rng.choice(["FIRCLSMachExceptionServer", "handleExceptions"])
        name = ("SentryCrash Exception Handler (Secondary)" if image else
                self.rng.choice(["com.google.firebase.crashlytics.MachExceptionServer",
                                 "KSCrash Exception Handler (Secondary)"]))
        frames = self.mach_wait() + [self.app_frame(symbol, image=image, source=None, loc=176)]
        return frames + self.thread_start(nsthread=False), name, None

    def threads(self):
        rng = self.rng
        count = min(40, max(8, int(8 + 32 * self.busy ** 0.9 + rng.uniform(-3, 3))))
        idle_share = 0.6 - 0.5 * self.busy
        crash_on_main = rng.random() < 0.75
        fault_index = 0 if crash_on_main else rng.randrange(1, count)
        free = [i for i in range(1, 7) if i != fault_index]
        event_fetch = rng.choice(free) if rng.random() < 0.9 else -1
        reporter = rng.choice(free) if rng.random() < 0.35 else -1
        slots = []  # (frames, name, queue)
        for i in range(count):
            if i == 0:
                slots.append((self.faulting_main() if crash_on_main else self.busy_main(), None, "com.apple.main-thread"))
            elif i == fault_index:
                frames, queue = self.faulting_worker()
                slots.append((frames, None, queue))
            elif i == event_fetch:
                frames = self.runloop_wait() + self.chain(
                    ("Foundation", "-[NSRunLoop(NSRunLoop) runMode:beforeDate:]", 212),
                    ("Foundation", "-[NSRunLoop(NSRunLoop) runUntilDate:]", 64),
                    ("UIKitCore", "-[UIEventFetcher threadMain]", 420)) + self.thread_start()
                slots.append((frames, "com.apple.uikit.eventfetch-thread", None))
            elif i == reporter:
                slots.append(self.crash_reporter_thread())
            elif rng.random() < idle_share:
                slots.append((self.idle_thread(), None, None))
            else:
                slots.append(self.worker())
        thread_id = rng.randrange(100000, 9000000)
        threads = []
        for i, (frames, name, queue) in enumerate(slots):
            thread = {}
            if i == fault_index:
                thread["triggered"] = True
            thread["id"] = thread_id
            thread_id += rng.randrange(1, 400)
            if i == fault_index:
                strip_sources(frames)   # the text form's "(File.swift:42)" would break pycrashreport's frame parser
                thread["threadState"] = self.thread_state(frames, i == 0)
            if name:
                thread["name"] = name
            if queue:
                thread["queue"] = queue
            thread["frames"] = frames
            threads.append(thread)
        self.fault_index, self.fault_queue = fault_index, slots[fault_index][2]
        return threads

    def address(self, frame) -> int:
        return self.images[frame["imageIndex"]]["base"] + frame["imageOffset"]

    def thread_state(self, frames, main) -> dict:
        rng = self.rng
        stack = 0x16f000000 if main else 0x16b000000 + rng.randrange(0, 0x3f) * 0x100000
        sp = stack + rng.randrange(0x1000, 0xfff00) // 16 * 16
        x = []
        for i in range(29):
            r = rng.random()
            if r < 0.25:
                value = 0
            elif r < 0.45:
                value = rng.randrange(1, 300)
            elif r < 0.6:
                value = sp + rng.randrange(0, 0x400) // 8 * 8
            elif r < 0.8:
                value = self.heap_address()
            elif r < 0.9:
                value = self.cache_base + rng.randrange(0, 0x40000000) // 8 * 8
            else:
                value = rng.getrandbits(64)          # signed pointers and tagged values exceed 2^63
            x.append({"value": value})
        if self.kind == "abort":
            x[0], x[1], x[16], x[19] = {"value": 0}, {"value": 0}, {"value": 328}, {"value": 6}
        if self.kind in ("segv", "bus") and rng.random() < 0.5:
            x[0] = {"value": self.far}
        if rng.random() < 0.3:
            lib = self.system_image("libsystem_pthread.dylib")
            image = self.images[lib]
            loc = rng.choice([0, 224])
            start = symbol_start(self.build, "libsystem_pthread.dylib", "_main_thread", image["size"])
            x[rng.randrange(2, 8)] = {"value": image["base"] + start + loc, "symbolLocation": loc, "symbol": "_main_thread"}
        pc = self.address(frames[0])
        lr = self.address(frames[1]) if len(frames) > 1 else 0
        far = self.far if self.kind in ("segv", "bus") else rng.choice([0, self.heap_address()])
        return {"x": x, "flavor": "ARM_THREAD_STATE64", "lr": {"value": lr},
                "cpsr": {"value": rng.choice([0x40001000, 0x60000000, 0x80000000, 0x20001000, 0x1000])},
                "fp": {"value": sp + rng.randrange(2, 0x40) * 16}, "sp": {"value": sp},
                "esr": {"value": self.esr[0], "description": self.esr[1]},
                "pc": {"value": pc, "matchesCrashFrame": 1}, "far": {"value": far}}

    # ---- images, summaries -----------------------------------------------------------------------

    def pad_images(self):
        target = min(60, max(15, int(15 + 45 * (0.7 * self.busy + 0.3 * self.rng.random()))))
        pool = [n for n in COMMON_PADDING if n not in self.image_index]
        rest = sorted(n for n in SYSTEM_LIBRARIES if n not in self.image_index and n not in pool)
        self.rng.shuffle(pool)
        self.rng.shuffle(rest)
        for name in pool + rest:
            if len(self.images) >= target:
                break
            self.system_image(name)

    def vm_summary(self, threads) -> str:
        rng = self.rng
        rows = []
        for name, kb, count in VM_REGIONS:
            if rng.random() < 0.25 and name not in ("MALLOC", "Stack", "STACK GUARD", "__TEXT", "__LINKEDIT"):
                continue
            if name == "Stack":
                size, n = 512 * threads + rng.randrange(0, 8) * 1024, threads + 1
            elif name == "STACK GUARD":
                size, n = 16 * threads, threads
            elif kb < 4:
                size = rng.randrange(1, 600) * 8 / 1024
            else:
                size = int(kb * rng.uniform(0.3, 2.0))
                n = max(1, int(count * rng.uniform(0.5, 1.5)))
            rows.append((name, size, n))
        readonly = sum(s for name, s, _ in rows if name in ("__TEXT", "__LINKEDIT", "__OBJC_RO", "__DATA_CONST"))
        writable = sum(s for name, s, _ in rows if name not in ("__TEXT", "__LINKEDIT", "__OBJC_RO", "__DATA_CONST"))
        lines = [f"ReadOnly portion of Libraries: Total={vm_size(readonly)} resident=0K(0%) "
                 f"swapped_out_or_unallocated={vm_size(readonly)}(100%)",
                 f"Writable regions: Total={vm_size(writable)} written=0K(0%) resident=0K(0%) swapped_out=0K(0%) "
                 f"unallocated={vm_size(writable)}(100%)", "",
                 " " * 32 + "VIRTUAL   REGION ", "REGION TYPE" + " " * 24 + "SIZE    COUNT (non-coalesced) ",
                 "===========" + " " * 21 + "=======  ======= "]
        for name, size, n in rows:
            lines.append(name.ljust(24) + vm_size(size, region=True).rjust(15) + str(n).rjust(9) + " ")
        lines.append("===========" + " " * 21 + "=======  ======= ")
        total = sum(s for _, s, _ in rows)
        count = sum(n for *_, n in rows)
        lines.append("TOTAL".ljust(24) + vm_size(total, region=True).rjust(15) + str(count).rjust(9) + " ")
        return "\n".join(lines) + "\n"

    def nano_zone(self):
        """Start and end of the MALLOC_NANO region of this OS version."""
        return (0x300000000, 0x320000000) if self.major >= 17 else (0x280000000, 0x2a0000000)

    def vm_region_info(self) -> str:
        """The VM Region Info text for the fault address (the `vmregioninfo` key)."""
        columns = "      REGION TYPE                    START - END         [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL\n"
        app = self.images[0]
        if self.far < app["base"]:
            return (f"0x{self.far:x} is not in any region.  Bytes before following region: {app['base'] - self.far}\n"
                    + columns + "      UNUSED SPACE AT START\n--->  \n"
                    f"      __TEXT                   {app['base']:x}-{app['base'] + app['size']:x} "
                    f"[{vm_size(app['size'] // 1024, region=True):>6}] r-x/r-x SM=COW  {app['path']}")
        if self.kind == "bus":
            start, size = self.mapped
            name = self.rng.choice(["feed.sqlite-shm", "cache.db", "thumbnails.bin", "model.mlmodelc/weights.bin"])
            return (f"0x{self.far:x} is in 0x{start:x}-0x{start + size:x};  bytes after start: {self.far - start}  "
                    f"bytes before end: {start + size - self.far - 1}\n" + columns +
                    f"      VM_ALLOCATE              {start - 0x8000:x}-{start - 0x4000:x} [   16K] rw-/rwx SM=PRV  \n"
                    f"--->  mapped file              {start:x}-{start + size:x} [{vm_size(size // 1024, region=True):>6}] "
                    f"r--/rw- SM=COW  Object_id={self.rng.getrandbits(32):x}\n"
                    f"      VM_ALLOCATE              {start + size:x}-{start + size + 0x4000:x} [   16K] rw-/rwx SM=PRV  ")
        low, high = self.nano_zone()
        return (f"0x{self.far:x} is not in any region.  Bytes after previous region: {self.far - high}  "
                f"Bytes before following region: {0x1000000000 - self.far}\n" + columns +
                f"      MALLOC_NANO (reserved)   {low:x}-{high:x} [512.0M] rw-/rwx SM=NUL  ...(unallocated)\n"
                f"--->  GAP OF 0x{0x1000000000 - high:x} BYTES\n"
                "      commpage (reserved)      1000000000-7000000000 [384.0G] ---/--- SM=NUL  ...(unallocated)")

    def trial_info(self) -> dict:
        rng = self.rng
        rollouts = []
        for _ in range(rng.randrange(1, 4)):
            packs = {}
            if rng.random() < 0.6:
                packs[rng.choice(["SIRI_UNDERSTANDING_NL_OVERRIDES", "COREOS_ICLOUD_DRIVE", "SIRI_DIALOG_ASSETS",
                                  "CAMERA_CAPTURE_CONFIG", "SPOTLIGHT_RANKING"])] = hex_id(rng, 24)
            rollouts.append({"rolloutId": hex_id(rng, 24), "factorPackIds": packs,
                             "deploymentId": 240000000 + rng.randrange(1, 900)})
        experiments = [{"treatmentId": uuid_lower(rng), "experimentId": hex_id(rng, 24),
                        "deploymentId": 400000000 + rng.randrange(1, 100)} for _ in range(rng.randrange(0, 3))]
        return {"rollouts": rollouts, "experiments": experiments}

    # ---- assemble --------------------------------------------------------------------------------

    def render(self) -> str:
        rng = self.rng
        self.pick_exception()
        threads = self.threads()
        if self.kind == "trap":
            pc = threads[self.fault_index]["threadState"]["pc"]["value"]
            self.exception["codes"] = f"0x0000000000000001, 0x{pc:016x}"
            self.exception["rawCodes"] = [1, pc]
        self.pad_images()
        incident = uuid_upper(rng)
        pid = rng.randrange(300, 99999)
        slice_uuid = self.images[0]["uuid"]
        stamp = self.capture + timedelta(seconds=rng.randrange(1, 7200))
        header = {"app_name": self.app, "timestamp": stamp.strftime("%Y-%m-%d %H:%M:%S.00 ") + self.tz_text,
                  "app_version": self.app_version, "slice_uuid": slice_uuid, "build_version": self.app_build,
                  "platform": 2, "bundleID": self.bundle_id, "share_with_app_devs": rng.choice([0, 1]),
                  "is_first_party": 0, "bug_type": "309", "os_version": f"iPhone OS {self.version} ({self.build})",
                  "roots_installed": 0, "name": self.app, "incident_id": incident}
        bundle_info = {"CFBundleShortVersionString": self.app_version, "CFBundleVersion": self.app_build,
                       "CFBundleIdentifier": self.bundle_id}
        store_info = {"deviceIdentifierForVendor": uuid_upper(rng), "thirdParty": True}
        if self.app_store:
            bundle_info["DTAppStoreToolsBuild"] = rng.choice(APP_STORE_TOOLS[self.major])
            store_info = {"itemID": str(rng.randrange(300000000, 6500000000)), **store_info,
                          "softwareVersionExternalIdentifier": str(rng.randrange(800000000, 870000000)),
                          "applicationVariant": f"1:{self.model}:{self.major}"}
        ticks = 24_000_000
        start_abs = (self.uptime - int(self.running.total_seconds()) - 5) * ticks + rng.randrange(ticks)
        code, indicator, by_proc = self.termination

        body = [("uptime", self.uptime, "compact"), ("procRole", rng.choice(["Foreground"] * 9 + ["Background"]), "compact"),
                ("version", 2, "compact")]
        if self.major >= 16:
            body += [("userID", 501, "compact"), ("deployVersion", 210, "compact")]
        body += [("modelCode", self.model, "compact"), ("coalitionID", rng.randrange(300, 5000), "compact"),
                 ("osVersion", {"isEmbedded": True, "train": f"iPhone OS {self.version}", "releaseType": "User",
                                "build": self.build}, "nested"),
                 ("captureTime", fmt_time(self.capture, self.tz_text), "compact"),
                 ("incident", incident, "compact"), ("pid", pid, "compact"), ("cpuType", "ARM-64", "compact")]
        if self.major >= 16:
            body += [("roots_installed", 0, "compact"), ("bug_type", "309", "compact")]
        body += [("procLaunch", fmt_time(self.launch, self.tz_text), "compact")]
        if self.major >= 16:
            body += [("procStartAbsTime", start_abs, "compact"),
                     ("procExitAbsTime", start_abs + int(self.running.total_seconds() * ticks), "compact")]
        body += [("procName", self.app, "compact"), ("procPath", f"{self.app_dir}/{self.app}", "compact"),
                 ("bundleInfo", bundle_info, "compact"), ("storeInfo", store_info, "compact"),
                 ("parentProc", "launchd", "compact"), ("parentPid", 1, "compact"),
                 ("coalitionName", self.bundle_id, "compact"), ("crashReporterKey", hex_id(rng, 40), "compact")]
        if self.major >= 17:
            body += [("wasUnlockedSinceBoot", 1, "compact"), ("isLocked", 0, "compact"),
                     ("codeSigningMonitor", rng.choice([1, 2]), "compact")]
        if self.major >= 16:
            body += [("codeSigningID", self.bundle_id, "compact"),
                     ("codeSigningTeamID", "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(10)),
                      "compact"),
                     ("codeSigningFlags", 570450689, "compact"), ("codeSigningValidationCategory", 3, "compact"),
                     ("codeSigningTrustLevel", 4, "compact")]
        if self.major >= 17 and rng.random() < 0.5:
            body += [("instructionByteStream", {"beforePC": b64(rng, 24), "atPC": b64(rng, 16)}, "compact")]
        body += [("bootSessionUUID", uuid_upper(rng), "compact")]
        if self.model.startswith("iPhone"):
            baseband = f"{rng.randrange(1, 4)}.{rng.randrange(0, 80):02d}.{rng.randrange(0, 10):02d}"
            body += [("basebandVersion", baseband, "compact")]
        body += [("isCorpse", 1, "compact"), ("exception", self.exception, "compact"),
                 ("termination", {"flags": 0, "code": code, "namespace": "SIGNAL", "indicator": indicator,
                                  "byProc": by_proc, "byPid": pid}, "compact")]
        if self.kind in ("segv", "bus"):
            body.append(("vmregioninfo", self.vm_region_info(), "compact"))
        if self.asi:
            body.append(("asi", self.asi, "compact"))
        if self.reason and self.major >= 16 and rng.random() < 0.8:
            body.append(("exceptionReason", self.reason, "compact"))
        if self.leb:
            body.append(("lastExceptionBacktrace", self.leb, "compact"))
        body += [("faultingThread", self.fault_index, "compact"), ("threads", threads, "compact"),
                 ("usedImages", self.images, "spliced")]
        _, cache_size = cache_layout(self.build)
        body += [("sharedCache", {"base": self.cache_base, "size": cache_size, "uuid": stable_uuid(self.build, "cache")},
                  "spliced"),
                 ("vmSummary", self.vm_summary(len(threads)), "compact"),
                 ("legacyInfo", {"threadTriggered": {"queue": self.fault_queue} if self.fault_queue else {}}, "spliced"),
                 ("logWritingSignature", hex_id(rng, 40), "compact")]
        if rng.random() < 0.6:
            body.append(("trialInfo", self.trial_info(), "spliced"))
        return compact(header) + "\n" + render_body(body)


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------

def uuid_upper(rng) -> str:
    return uuid_lower(rng).upper()


def uuid_lower(rng) -> str:
    h = f"{rng.getrandbits(128):032x}"
    h = h[:12] + "4" + h[13:16] + "89ab"[int(h[16], 16) % 4] + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def hex_id(rng, n) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def b64(rng, n) -> str:
    return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(n))).decode()


def strip_sources(frames) -> list:
    for frame in frames:
        frame.pop("sourceFile", None)
        frame.pop("sourceLine", None)
    return frames


def fmt_time(moment: datetime, tz_text: str) -> str:
    """`2024-01-18 14:02:49.8712 -0500`, the form captureTime and procLaunch use."""
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 100:04d} " + tz_text


def vm_size(kb, region: bool = False) -> str:
    """VM summary sizes: bytes under 4K (region rows only), K up to ~10M, then M, then G."""
    if region and kb < 4:
        return str(int(kb * 1024))
    if kb < 10000:
        return f"{int(kb)}K"
    if kb < 1024 * 1024:
        return f"{kb / 1024:.1f}M"
    return f"{kb / 1024 / 1024:.1f}G"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="output folder (created if missing)")
    parser.add_argument("--count", type=int, default=100, help="number of reports (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    for n in range(1, args.count + 1):
        text = CrashBuilder(rng).render()
        with open(os.path.join(args.out, f"crash-{n:05d}.ips"), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
