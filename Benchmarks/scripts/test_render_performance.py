#!/usr/bin/env python3
"""A unit check of render_performance.py on a made-up results file (no timing involved).

    python3 Benchmarks/scripts/test_render_performance.py
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render_performance  # noqa: E402

HEADER = "\t".join(render_performance.COLUMNS)
TSV = f"""{HEADER}
# rowset family=kscrash date=2026-01-01T00:00:00Z nproc=2 load_before=0.10 load_after=0.90 others_before=0.02 others_during=0.04 busy=idle python=CPython_3.11.7 cpu=Some_CPU
kscrash\tapm-inspect scan --format ndjson\tbin scan --format ndjson data\t3\t0.5\t0.4\t0.45\t30000\t1048576\tidle
kscrash\tpython json module\tpy peer.py data\t3\t1.5\t1.6\t1.4\t15000\t1048576\tidle
# rowset family=crash:json date=2026-01-01T00:00:00Z nproc=2 load_before=3.0 load_after=0.2 busy=busy python=CPython_3.11.7 cpu=Some_CPU
crash:json\tapm-inspect scan --jobs 1\tbin scan --jobs 1 d\t3\t0.2\t0.2\t0.2\t20000\t2048\tbusy
crash:json\tpycrashreport process\tpy p.py d 1\t3\t0.6\t0.5\t0.6\t18000\t2048\tbusy
"""
DOC = """# Doc
before
<!-- compare.sh:kscrash begin -->
old
<!-- compare.sh:kscrash end -->
middle
<!-- compare.sh:crash begin -->
<!-- compare.sh:crash end -->
after
"""


class RenderTests(unittest.TestCase):
    def render(self):
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as handle:
            handle.write(TSV)
        try:
            return render_performance.render(DOC, render_performance.read_results(handle.name), "r.tsv")
        finally:
            os.unlink(handle.name)

    def test_tables_ratios_and_flags(self):
        text, missing = self.render()
        self.assertEqual(missing, [])
        kscrash = text[text.index("compare.sh:kscrash begin"):text.index("compare.sh:kscrash end")]
        self.assertNotIn("old", kscrash)
        self.assertIn("| python json module | 1.500 s | 1.600 s | 1.400 s | 14.6 MB | 0.7 MB/s | 3.00× | 4.00× |", kscrash)
        self.assertIn("/usr/bin/time -v py peer.py data", kscrash)
        self.assertNotIn("Machine busy", kscrash)
        self.assertIn("other processes' CPU (cores, before → during) 0.02 → 0.04", kscrash)
        crash = text[text.index("compare.sh:crash begin"):text.index("compare.sh:crash end")]
        self.assertIn("Machine busy", crash)
        self.assertIn("1-minute load 3.0 → 0.2", crash)
        self.assertIn("**json**", crash)
        self.assertIn("3.00× | 2.50× |", crash)
        for outside in ("# Doc\nbefore\n", "\nmiddle\n", "\nafter\n"):
            self.assertIn(outside, text)

    def test_last_row_set_wins(self):
        rows = render_performance.read_results
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as handle:
            handle.write(TSV + TSV.split("\n", 1)[1].replace("0.5\t0.4", "0.25\t0.2"))
        try:
            tables = rows(handle.name)
        finally:
            os.unlink(handle.name)
        self.assertEqual(tables["kscrash"][1][0]["wall_median"], "0.25")
        self.assertEqual(len(tables["kscrash"][1]), 2)


if __name__ == "__main__":
    unittest.main()
