"""Times `symbolicate` of a fixture report from an HTTP symbol server (python3 -m http.server on 127.0.0.1) with a
cold cache (a new --symbol-cache each run) and a warm one, and with --dsym, median of 5 each.

Usage: python3 Scripts/measure-symbol-cache.py BINARY REPO_ROOT (docs/symbolication.md, "Figures").
"""
import os, shutil, statistics, subprocess, sys, tempfile, time, socket
binary, root = sys.argv[1], sys.argv[2]
os.chdir(root)
t = tempfile.mkdtemp()
dwarf = "Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat"
for u in ["4c4c448655553144a1752df7479ac8fa", "4c4c448e55553144a15d64c4e4fa849b"]:
    os.makedirs(f"{t}/served/{u[:2]}/{u[2:]}")
    shutil.copy(dwarf, f"{t}/served/{u[:2]}/{u[2:]}/debuginfo")
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", f"{t}/served", str(port)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1.5)
report = "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash"
def run(cache):
    start = time.perf_counter()
    subprocess.run([binary, "symbolicate", report, "--symbols", f"http://127.0.0.1:{port}", "--symbol-cache", cache],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start
cold = [run(f"{t}/cold-{i}") for i in range(5)]
run(f"{t}/warm")
warm = [run(f"{t}/warm") for i in range(5)]
direct = []
for i in range(5):
    start = time.perf_counter()
    subprocess.run([binary, "symbolicate", report, "--dsym", dwarf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    direct.append(time.perf_counter() - start)
server.kill()
shutil.rmtree(t)
print("cold  median %.3f s  %s" % (statistics.median(cold), ["%.3f" % x for x in cold]))
print("warm  median %.3f s  %s" % (statistics.median(warm), ["%.3f" % x for x in warm]))
print("--dsym median %.3f s  %s" % (statistics.median(direct), ["%.3f" % x for x in direct]))
