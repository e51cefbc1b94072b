# Sourced by smoke.sh and campaign.sh: the fuzz targets and the seeds each starts from.
# Target, runs at -seed=1, and the Corpus/ files it starts from (besides Seeds/<target>/). The runs are about
# 12 s of each target's debug-build speed on the shared 2-core machine (docs/robustness.md), seeds included.
TARGETS=(
  "FuzzIPSContainer 150 jetsam/*.ips crash/*.ips watchdog/*.ips"
  "FuzzJetsam 80 jetsam/*.ips"
  "FuzzJetsamLimits 250 jetsam/*.ips"
  "FuzzCrashText 150 crash/*.crash crash/*.txt watchdog/*.crash"
  "FuzzCrashJSON 150 crash/*.ips watchdog/*.ips"
  "FuzzKSCrash 150 kscrash/*.json"
  "FuzzWatchdog 700 watchdog/*.crash watchdog/*.ips"
  "FuzzHAR 200 http/*.har"
  "FuzzCharlesJSON 120 http/*.chlsj"
  "FuzzCharlesXML 150 http/*.chlsx"
  "FuzzPacketCapture 150 http/*.pcap http/*.pcapng"
  "FuzzDNS 100000"
  "FuzzTLS 6000"
  "FuzzHTTP1 25000"
  "FuzzPowerLog 120 powerlog/*.PLSQL powerlog/rotated/*.PLSQL powerlog/rotated/*.PLSQL.gz"
  "FuzzTar 2500 sysdiagnose/*.tar.gz sysdiagnose/hostile/links.tar.gz sysdiagnose/hostile/traversal.tar.gz"
  "FuzzGzip 60000 http/*.zhar http/*.har.gz powerlog/*.gz"
  "FuzzJSONTape 1000 jetsam/blog-excerpt*.ips http/*.har"
  "FuzzJSONEncoder 1000 jetsam/blog-excerpt*.ips http/truncated_mid-entry.har"
  "FuzzMetricKit 150 metrickit/*.json"
  "FuzzMachO 3000 ../Tests/SymbolicationTests/Fixtures/Demo-x86_64 ../Tests/SymbolicationTests/Fixtures/Demo-fat ../Tests/SymbolicationTests/Fixtures/Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64"
  "FuzzDWARF 5000"
  "FuzzDWARFLine 5000"
  "FuzzSwiftDemangle 5000"
  "FuzzCxxDemangle 5000"
)
# Targets whose inputs are JSON get the dictionary.
JSON_TARGETS=" FuzzIPSContainer FuzzJetsam FuzzJetsamLimits FuzzCrashJSON FuzzKSCrash FuzzHAR FuzzCharlesJSON FuzzJSONTape FuzzJSONEncoder FuzzMetricKit "

# Targets with a dictionary of their own (the rest of the targets above take none).
declare -A DICTS=([FuzzSwiftDemangle]=swift-mangling.dict [FuzzCxxDemangle]=cxx-mangling.dict)
# Tighter bounds than the default -timeout=10 -rss_limit_mb=2048 where one input's cost is the property: a name
# that takes seconds or gigabytes to demangle is the finding (issue 38's doubling substitutions), and so is a
# line section whose tables grow without bound.
declare -A LIMITS=(
  [FuzzSwiftDemangle]="-timeout=3 -rss_limit_mb=1024 -max_len=4096"
  [FuzzCxxDemangle]="-timeout=3 -rss_limit_mb=1024 -max_len=4096"
  [FuzzDWARFLine]="-timeout=5 -rss_limit_mb=1024"
)
