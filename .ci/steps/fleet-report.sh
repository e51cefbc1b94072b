#!/usr/bin/env bash
# report: the fleet report of Corpus/ plus a generated set, in every format; the HTML page opened in headless
# Chromium must render its tables and charts, ask for nothing over the network, show the numbers of the JSON, keep
# the console free of errors, and fit a 1400 px and a 390 px (phone) viewport.
set -euo pipefail
: "${BIN:?BIN must name the apm-inspect binary}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/apm-inspect-fleet.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

if ! command -v chromium >/dev/null 2>&1; then
  echo "  installing chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
command -v chromium >/dev/null 2>&1 || { echo "FAIL: chromium cannot be installed; the HTML page is unchecked"; exit 1; }

python3 Scripts/spark/generate_reports.py "$WORK/generated" --count 1500 --seed 5
# Two JetsamEvents that kill the generated reports' app (Harbor) at its limit: one by the main binary UUID the
# generated reports list (tied to their newest version), one by name only on an iPhone15,3 (tied by name).
mkdir -p "$WORK/jetsam"
python3 - "$WORK/jetsam" <<'PY'
import json, sys
for n, (uuid, day) in enumerate([("ba653f7d-d052-38f8-babe-c9cb4861dd33", "2024-05-03"), (None, "2024-05-04")]):
    incident = f"0000000{n}-1111-4222-8333-444455556666"
    harbor = {"pid": 4187, "name": "Harbor", "states": ["frontmost"], "reason": "per-process-limit", "rpages": 184320}
    if uuid: harbor["uuid"] = uuid
    body = {"product": "iPhone15,3", "incident": incident, "date": f"{day} 10:00:00.12 +0000",
            "build": "iPhone OS 17.2.1 (21C66)", "memoryStatus": {"pageSize": 16384}, "largestProcess": "Harbor",
            "processes": [harbor, {"pid": 88, "name": "mediaserverd", "states": ["daemon"], "rpages": 900}]}
    header = {"bug_type": "298", "timestamp": f"{day} 10:00:00.00 +0000", "os_version": "iPhone OS 17.2.1 (21C66)",
              "incident_id": incident}
    with open(f"{sys.argv[1]}/JetsamEvent-{day}.ips", "w") as out:
        out.write(json.dumps(header) + "\n" + json.dumps(body, indent=2) + "\n")
PY
inputs=(Corpus/crash Corpus/kscrash Corpus/watchdog Corpus/jetsam Corpus/metrickit Corpus/system "$WORK/generated" "$WORK/jetsam")
"$BIN" report --format json "${inputs[@]}" > "$WORK/report.json"
"$BIN" report --format html -o "$WORK/report.html" "${inputs[@]}"
"$BIN" report --format markdown "${inputs[@]}" > "$WORK/report.md"
"$BIN" report "${inputs[@]}" > "$WORK/report.txt"
"$BIN" report --format folded "${inputs[@]}" > "$WORK/report.folded"
# The folded lines are the JSON's hang stacks, root first, each `frame;frame;… count`.
python3 - "$WORK/report.json" "$WORK/report.folded" <<'PY'
import json, re, sys
stacks = json.load(open(sys.argv[1]))["hangs"]["stacks"]
lines = open(sys.argv[2], encoding="utf-8").read().splitlines()
assert stacks and lines == [";".join(s["frames"]) + " " + str(s["count"]) for s in stacks], lines[:3]
assert all(re.fullmatch(r"[^\s;]+(;[^\s;]+)* [1-9][0-9]*", line) for line in lines), "a folded line is malformed"
print(f"  ok --format folded: {len(lines)} hang stacks")
PY
grep -q '^## Crash groups' "$WORK/report.md" || { echo "FAIL: the Markdown report has no crash groups"; exit 1; }
grep -q '^Crash groups' "$WORK/report.txt" || { echo "FAIL: the text report has no crash groups"; exit 1; }

# -o never overwrites an input, even one inside a folder given.
cp Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash "$WORK/generated/batch0000/evidence.crash"
status=0
"$BIN" report -o "$WORK/generated/batch0000/evidence.crash" "$WORK/generated" 2>/dev/null || status=$?
[ "$status" -eq 2 ] || { echo "FAIL: report -o INPUT exited with $status, not 2"; exit 1; }
cmp -s Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash "$WORK/generated/batch0000/evidence.crash" \
  || { echo "FAIL: report -o overwrote an input"; exit 1; }
rm "$WORK/generated/batch0000/evidence.crash"

# The NDJSON of a scan reads to the same report as the files.
"$BIN" scan --format ndjson "${inputs[@]}" > "$WORK/scan.ndjson" 2>/dev/null
"$BIN" report --format json "$WORK/scan.ndjson" > "$WORK/from-ndjson.json"
python3 - "$WORK/report.json" "$WORK/from-ndjson.json" <<'PY'
import json, sys
direct, replayed = (json.load(open(p)) for p in sys.argv[1:3])
for key in ("crashes", "watchdog", "oom", "metricKit", "resourceKills", "hangs"):
    assert direct[key] == replayed[key], key
assert replayed["inputs"]["ndjsonEnvelopes"] == direct["inputs"]["reports"], replayed["inputs"]
print(f"  ok NDJSON of a scan: the same report ({direct['inputs']['reports']} reports)")
PY

# --grouping names groups by rule, the same from the files and from the NDJSON; groups no rule holds for stay.
"$BIN" report --format json --grouping docs/examples/grouping.rules "${inputs[@]}" > "$WORK/grouped.json"
"$BIN" report --format json --grouping docs/examples/grouping.rules "$WORK/scan.ndjson" > "$WORK/grouped-ndjson.json"
python3 - "$WORK/report.json" "$WORK/grouped.json" "$WORK/grouped-ndjson.json" <<'PY'
import json, sys
plain, grouped, replayed = (json.load(open(p)) for p in sys.argv[1:4])
assert grouped["crashes"] == replayed["crashes"], "crashes"
ruled = [g for g in grouped["crashes"]["groups"] if "fingerprint" in g]
assert ruled and all(g["signature"].startswith("fingerprint:") and "line" in g["groupingRule"] for g in ruled), ruled
assert grouped["crashes"]["total"] == plain["crashes"]["total"]
kept = {g["signature"]: g["count"] for g in grouped["crashes"]["groups"] if "fingerprint" not in g}
assert all(plain_count == kept[s] for s, plain_count in ((g["signature"], g["count"]) for g in plain["crashes"]["groups"]) if s in kept)
print(f"  ok --grouping: {len(ruled)} rule-made groups, the same from the NDJSON")
PY

# Headless Chromium with every host name unresolvable: the page must not need any.
run_chromium() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --disable-background-networking --host-resolver-rules="MAP * ~NOTFOUND" "$@" 2>>"$WORK/chromium.log"
}
run_chromium --dump-dom "file://$WORK/report.html" > "$WORK/dom.html"
run_chromium --window-size=1400,1800 --screenshot="$WORK/report.png" "file://$WORK/report.html" >/dev/null
[ -s "$WORK/report.png" ] || { echo "FAIL: chromium wrote no screenshot"; tail -20 "$WORK/chromium.log"; exit 1; }

# The console stays empty: the page has no script, so any message is an error (a CSP violation, a resource it
# tried to load). Chromium logs each console message as a line with CONSOLE and the page's URL as its source.
console_log="$WORK/console.log"
run_chromium --enable-logging=stderr --v=0 --dump-dom "file://$WORK/report.html" >/dev/null 2>"$console_log" || true
if grep -a 'CONSOLE' "$console_log" | grep -a -F "file://$WORK/report.html"; then
  echo "FAIL: the page wrote to the console"; exit 1
fi

# Layout at 1400 px and at phone width (390 px): the page is loaded in an iframe of that width (headless windows
# are at least 500 px wide), and a script of this harness, not of the page, measures it: the document is no wider
# than the viewport, every table sits in a box that fits (and scrolls sideways when the table is wider), and no
# element outside such a box passes the right edge. A copy with an overwide element must fail, so the check is live.
layout_check() { # $1 page file name in $WORK, $2 width; prints the measurements as JSON
  cat > "$WORK/layout-$2.html" <<HTML
<!DOCTYPE html><html><body style="margin:0">
<iframe id="page" src="$1" style="width:$2px;height:900px;border:0"></iframe>
<script>
window.onload = function () {
  var frame = document.getElementById("page"), w = frame.contentWindow, d = frame.contentDocument;
  var width = w.innerWidth, result = {width: width, scrollWidth: d.documentElement.scrollWidth, tables: 0,
    scrolling: 0, offenders: []};
  function scroller(el) {
    for (var p = el.parentElement; p && p !== d.body; p = p.parentElement) {
      var o = w.getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll") return p;
    }
    return null;
  }
  function name(el) {
    var cls = typeof el.className === "string" && el.className ? "." + el.className : "";
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + cls;
  }
  var all = d.body.getElementsByTagName("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i], box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    var s = scroller(el);
    var edge = s ? s.getBoundingClientRect().right : box.right;
    if (edge > width + 0.5 || (!s && box.left < -0.5)) result.offenders.push(name(s || el) + " right " + Math.round(edge));
    if (el.tagName === "TABLE") { result.tables += 1; if (s) result.scrolling += 1; }
  }
  document.body.setAttribute("data-result", JSON.stringify(result));
};
</script></body></html>
HTML
  run_chromium --allow-file-access-from-files --dump-dom "file://$WORK/layout-$2.html" \
    | python3 -c 'import html, re, sys; m = re.search(r"data-result=\"([^\"]*)\"", sys.stdin.read()); print(html.unescape(m.group(1)) if m else "{}")'
}
sed 's|<body>|<body><div style="width:3000px">overwide</div>|' "$WORK/report.html" > "$WORK/broken.html"
for width in 1400 390; do
  layout_check report.html "$width" > "$WORK/layout-$width.json"
  layout_check broken.html "$width" > "$WORK/broken-$width.json"
  python3 - "$WORK/layout-$width.json" "$WORK/broken-$width.json" "$width" <<'PY'
import json, sys
good, broken, width = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
assert good.get("width") == width, f"the layout harness did not run at {width} px: {good}"
assert good["scrollWidth"] <= good["width"], f"at {width} px the page is {good['scrollWidth']} px wide: {good['offenders'][:10]}"
assert not good["offenders"], f"at {width} px these pass the right edge: {good['offenders'][:10]}"
assert good["tables"] > 0 and good["scrolling"] == good["tables"], f"a table is not in a scrolling box: {good}"
assert broken["scrollWidth"] > width and broken["offenders"], f"the layout check missed an overwide element: {broken}"
print(f"  ok layout at {width} px: page {good['scrollWidth']} px wide, {good['tables']} tables in scrolling boxes")
PY
done

python3 - "$WORK/dom.html" "$WORK/report.json" "$WORK/report.html" <<'PY'
import json, re, sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements = []
    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

dom_text = open(sys.argv[1], encoding="utf-8").read()
report = json.load(open(sys.argv[2]))
page = Page()
page.feed(dom_text)
elements = page.elements
ids = {a.get("id") for _, a in elements}
for needed in ("crash-groups", "crashes-per-day", "oom-by-device", "watchdog", "oom", "metrickit", "crash-total",
               "generated", "input-kinds", "group-files", "newest-versions", "hangs", "oom-confirmed", "oom-truth",
               "resource-kills", "hang-rate", "hang-groups", "hang-flame", "hang-sources"):
    assert needed in ids, f"the rendered page has no #{needed}"
assert sum(1 for t, _ in elements if t == "svg") >= 2, "charts missing"

# Nothing to fetch: no src, href, srcset, action or poster; no url() or @import in styles; no script at all.
for tag, attrs in elements:
    assert tag not in ("script", "link", "iframe", "img", "object", "embed"), f"<{tag}> in the page"
    for name in ("src", "href", "xlink:href", "srcset", "action", "poster", "data"):
        assert name not in attrs, f"<{tag} {name}=...> in the page"
raw = open(sys.argv[3], encoding="utf-8").read()
assert not re.search(r"url\(|@import", raw), "a style fetches something"
assert set(re.findall(r"https?://[^\s\"'<>]+", raw)) <= {"http://www.w3.org/2000/svg"}, "a URL in the page"

def rows(cls):
    return [a for t, a in elements if (a.get("class") or "").split() and cls in a["class"].split()]

crashes = report["crashes"]
shown = [(r["data-signature"], int(r["data-count"])) for r in rows("crash-group")]
expected = [(g["signature"], g["count"]) for g in crashes["groups"][: len(shown)]]
assert shown and shown == expected, (shown[:5], expected[:5])
assert len(shown) == min(200, len(crashes["groups"]))
total = next(a for _, a in elements if a.get("id") == "crash-total")
assert int(total["data-count"]) == crashes["total"]
days = {(r["data-signature"], r["data-day"]): int(r["data-count"]) for r in rows("day")}
chart = {(s["signature"], d["day"]): d["count"] for s in crashes["perDay"] for d in s["days"]}
assert days and all(chart[k] == v for k, v in days.items()), "a bar differs from the JSON"
watchdog = [(r["data-reason"], r["data-verdict"], int(r["data-count"])) for r in rows("watchdog-row")]
assert watchdog == [(w["reason"], w["verdict"], w["count"]) for w in report["watchdog"]["rows"]], watchdog
oom = [(r["data-device"], int(r["data-events"]), int(r["data-killed"])) for r in rows("oom-row")]
assert oom == [(d["device"], d["events"], d["killed"]) for d in report["oom"]["byDevice"]], oom
bars = [(r["data-device"], int(r["data-killed"])) for r in rows("device")]
assert bars == [(d["device"], d["killed"]) for d in report["oom"]["byDevice"][:15]], bars
events = next(a for _, a in elements if a.get("id") == "oom-events")
assert int(events["data-count"]) == report["oom"]["events"]
files = [(r["data-signature"], int(r["data-more-files"])) for r in rows("group-files")]
assert files == [(g["signature"], g["moreFiles"]) for g in crashes["groups"][: len(files)]], files[:5]
assert len(files) == len(shown), "a crash group does not list its files"
kinds = {r["data-kind"]: int(r["data-count"]) for r in rows("input-kind")}
assert kinds == report["inputs"]["kinds"], kinds
read = next(a for _, a in elements if a.get("id") == "reports-read")
assert int(read["data-count"]) == report["inputs"]["reports"]
newest = {r["data-app"]: r["data-version"] for r in rows("newest-version")}
assert newest == crashes["newestVersionByApp"] and all(v.strip("? ") for v in newest.values()), newest
mk = [(r["data-version"], int(r["data-exits"])) for r in rows("metrickit-row")]
assert mk == [(m["version"], sum(m["exits"].values())) for m in report["metricKit"]], mk
truth = [(r["data-app"], r["data-version"], r["data-device"], int(r["data-confirmed"]), int(r["data-inferred"]),
          int(r["data-other"])) for r in rows("oom-truth-row")]
assert truth and truth == [(t["app"], t["version"], t["device"], t["confirmed"]["count"], t["inferred"]["count"],
                            t["otherTerminations"]["count"]) for t in report["oom"]["byVersionAndDevice"][:200]], truth[:5]
links = [t["jetsamLinks"] for t in report["oom"]["byVersionAndDevice"]]
assert sum(l["uuid"] for l in links) >= 1 and sum(l["name"] for l in links) >= 1, "a JetsamEvent kill was not tied"
resource = [(r["data-kind"], int(r["data-count"]), int(r["data-fatal"])) for r in rows("resource-row")]
assert resource and resource == [(g["kind"], g["count"], g["fatal"]) for g in report["resourceKills"]["groups"][:200]], resource
rates = [(r["data-app"], r["data-version"], float(r["data-rate"]) if r["data-rate"] else None)
         for r in rows("hang-rate-row")]
assert rates and rates == [(h["app"], h["version"], h.get("hangSecondsPerHour"))
                           for h in report["hangs"]["rateByVersion"][:200]], rates
hang_groups = [(r["data-verdict"], int(r["data-count"])) for r in rows("hang-group-row")]
assert hang_groups and hang_groups == [(g["verdict"], g["count"]) for g in report["hangs"]["groups"][:200]], hang_groups
sources = next(a for _, a in elements if a.get("id") == "hang-sources")
assert int(sources["data-total"]) == sum(report["hangs"]["bySource"].values())
flame = [a for _, a in elements if "flame-frame" in (a.get("class") or "").split()]
assert flame and int(flame[0]["data-count"]) == sum(s["count"] for s in report["hangs"]["stacks"]), flame[:1]
print(f"  ok HTML in chromium: {len(shown)} crash groups, {len(days)} day bars, {len(watchdog)} watchdog rows, "
      f"{len(oom)} devices, {len(mk)} MetricKit versions, {len(truth)} OOM truth rows, {len(resource)} resource "
      f"groups equal the JSON; nothing fetched")
PY
