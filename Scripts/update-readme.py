#!/usr/bin/env python3
"""Rewrites README.md with the output of real runs of the command (so the examples cannot go stale unnoticed).

    swift build --product apm-inspect && python3 Scripts/update-readme.py
"""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "debug", "apm-inspect")


def run(args, head=None):
    result = subprocess.run([BIN] + args, cwd=ROOT, capture_output=True, text=True)
    lines = result.stdout.rstrip("\n").split("\n")
    if head and len(lines) > head:
        lines = lines[:head] + ["…"]
    return "$ apm-inspect " + " ".join(args) + "\n" + "\n".join(lines)


def block(args, head=None):
    return "```\n" + run(args, head) + "\n```\n"


def snippets():
    """The lines between `// README: NAME` and `// README end` in LibrarySnippetTests.swift, dedented."""
    source = open(os.path.join(ROOT, "Tests", "ReportInspectionTests", "LibrarySnippetTests.swift")).read()
    found, name, lines = {}, None, []
    for line in source.split("\n"):
        trimmed = line.lstrip(" ")
        if trimmed.startswith("// README: "):
            name, lines = trimmed[len("// README: "):], []
        elif trimmed == "// README end" and name is not None:
            indent = min((len(l) - len(l.lstrip(" ")) for l in lines if l), default=0)
            found[name] = "```swift\n" + "".join(l[indent:] + "\n" for l in lines) + "```\n"
            name = None
        elif name is not None:
            lines.append(line)
    return found


SNIPPETS = snippets()
TEMPLATE = open(os.path.join(ROOT, "Scripts", "README.template.md")).read()
sections = {
    "INSPECT_JETSAM": block(["inspect", "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"]),
    "INSPECT_EXCERPT": block(["inspect", "Corpus/jetsam/blog-excerpt_ios15.2_iPhone13-2_comments-elision-trailing-commas.ips"]),
    "INSPECT_JSON": block(["inspect", "--format", "json", "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"], head=30),
    "INSPECT_CRASH": block(["inspect", "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"], head=40),
    "INSPECT_CRASH_THREADS": block(["inspect", "--threads", "all", "--frames", "2", "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"]),
    "INSPECT_WATCHDOG": block(["inspect", "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"], head=24),
    "TRANSLATE": block(["translate", "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"], head=40),
    "MEMORY_LIMITS": block(["memory-limits", "Corpus/jetsam"]),
    "MEMORY_LIMITS_JSON": block(["memory-limits", "--format", "json", "Corpus/jetsam"], head=28),
    "SCAN": block(["scan", "Corpus/sysdiagnose/sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61.tar.gz"]),
    "ENERGY": block(["energy", "Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"], head=45),
    "HTTP": block(["http", "Corpus/http/chrome_h2_ssl-inside-connect.har"], head=30),
    "LIBRARY_ANY_FILE": SNIPPETS["any-file"],
    "LIBRARY_UPLOAD": SNIPPETS["upload"],
    "LIBRARY_CRASH": SNIPPETS["crash"],
    "LIBRARY_JETSAM": SNIPPETS["jetsam"],
    "LIBRARY_HTTP": SNIPPETS["http"],
}
text = TEMPLATE
for key, value in sections.items():
    text = text.replace("{{" + key + "}}", value)
open(os.path.join(ROOT, "README.md"), "w").write(text)
print("README.md updated")
