#!/usr/bin/env python3
"""Fails unless two `apm-inspect report --format json` outputs are the same report, section by section.

    compare_reports.py DIRECT.json RECIPE.json --direct-root DIR [--recipe-root -!/] [--require KEY...]

DIRECT is `report` over the files under DIR; RECIPE is a scale-out recipe's report over the NDJSON of the same
files (fleet_job.py, ray_job.py). The whole JSON is compared, every key at every depth, after two adjustments,
and only these:

- file names: DIRECT names a file `DIR/batch0000/x.ips`, RECIPE `-!/batch0000/x.ips` (the member of the tar
  stream scan read). Both prefixes are taken off every string that holds one (`representativeFile`, `files`,
  `example`, `skipped[].file`, `findings`, `diagnostics[].file` …): what is left is the same path under the same
  root, so comparing it still checks which file was chosen and in what order (both prefixes are constant, so
  byte order is kept).
- `inputs.ndjsonEnvelopes`: how the report was fed (0 from files, one per envelope from NDJSON); it is checked to
  be 0 in DIRECT and DIRECT's `inputs.reports` in RECIPE, then left out.

`generatedAt` is compared as is: both runs get the same SOURCE_DATE_EPOCH. Every section named by --require must
be non-empty in DIRECT, so a generator that stops writing a kind of report cannot make the check pass vacuously.
"""
import argparse
import json
import sys


def strip(node, prefixes):
    if isinstance(node, dict):
        return {key: strip(value, prefixes) for key, value in node.items()}
    if isinstance(node, list):
        return [strip(value, prefixes) for value in node]
    if isinstance(node, str):
        for prefix in prefixes:
            node = node.replace(prefix, "")
    return node


def differences(left, right, path="$"):
    if type(left) is not type(right):
        yield path, left, right
    elif isinstance(left, dict):
        for key in sorted(set(left) | set(right)):
            if key not in left or key not in right:
                yield "%s.%s" % (path, key), left.get(key, "<missing>"), right.get(key, "<missing>")
            else:
                yield from differences(left[key], right[key], "%s.%s" % (path, key))
    elif isinstance(left, list):
        if len(left) != len(right):
            yield path + ".length", len(left), len(right)
        for index, (a, b) in enumerate(zip(left, right)):
            yield from differences(a, b, "%s[%d]" % (path, index))
    elif left != right:
        yield path, left, right


def filled(value):
    if isinstance(value, dict):
        return any(filled(v) for k, v in value.items() if k not in ("ungrouped", "others", "othersValues"))
    if isinstance(value, list):
        return len(value) > 0
    return value not in (None, 0, "", False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("direct")
    parser.add_argument("recipe")
    parser.add_argument("--direct-root", required=True)
    parser.add_argument("--recipe-root", default="-!/", help="give it as --recipe-root=VALUE: it starts with -")
    parser.add_argument("--require", nargs="*", default=[], help="dotted keys that must be non-empty in DIRECT")
    args = parser.parse_args()
    direct, recipe = (json.load(open(path, encoding="utf-8")) for path in (args.direct, args.recipe))

    reports = direct["inputs"]["reports"]
    assert direct["inputs"]["ndjsonEnvelopes"] == 0, direct["inputs"]
    assert recipe["inputs"]["ndjsonEnvelopes"] == reports > 0, (recipe["inputs"]["ndjsonEnvelopes"], reports)
    for side in (direct, recipe):
        del side["inputs"]["ndjsonEnvelopes"]
    for key in args.require:
        value = direct
        for part in key.split("."):
            value = value[part]
        assert filled(value), "the generated set gives nothing under %s: the check would be vacuous" % key
    direct = strip(direct, [args.direct_root.rstrip("/") + "/"])
    recipe = strip(recipe, [args.recipe_root])
    found = list(differences(direct, recipe))
    if found:
        print("FAIL: the recipe's report differs from report over the files in %d places:" % len(found))
        for path, ours, theirs in found[:40]:
            print("  %s: report %s, recipe %s" % (path, json.dumps(ours)[:200], json.dumps(theirs)[:200]))
        sys.exit(1)
    sections = ", ".join(key for key in direct if filled(direct[key]))
    print("  ok the recipe's report equals report over the files: %d reports; every key of: %s" % (reports, sections))


if __name__ == "__main__":
    main()
