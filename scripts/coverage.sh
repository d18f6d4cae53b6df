#!/bin/sh
# coverage.sh BUILD - line and branch coverage of src/ from the gcov data a
# COVERAGE=1 build left in BUILD (make coverage): gcovr's table per file,
# the files under 80% of their lines, then one summary line starting
# "coverage:" (CI's log carries it).
#
# A sanitizer build that counts its lines (make asan COVERAGE=1, CI's)
# updates gcov's counters without atomics, for speed: threads racing on a
# counter can leave a branch count that gcov prints as negative, which
# gcovr cannot parse; such lines are skipped (--gcov-ignore-parse-errors),
# which leaves whether a line ran as it was.
set -eu
build=${1:?usage: coverage.sh BUILD}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gcovr --gcov-ignore-parse-errors --root "$root" --filter "$root/src/" --object-directory "$build" \
	--txt - --branches 2>/dev/null | sed '/^-*$/d' >"$build/coverage-branches.txt" || true
gcovr --gcov-ignore-parse-errors --root "$root" --filter "$root/src/" --object-directory "$build" \
	--json-summary "$build/coverage.json" --txt "$build/coverage.txt" >/dev/null
cat "$build/coverage.txt"
python3 - "$build/coverage.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
low = [f for f in d["files"] if f["line_percent"] < 80]
for f in sorted(low, key=lambda f: f["line_percent"]):
    print(f"under 80% of lines: {f['filename']} {f['line_percent']:.1f}%")
print(f"coverage: lines {d['line_percent']:.1f}% ({d['line_covered']}/{d['line_total']}),"
      f" branches {d['branch_percent']:.1f}% ({d['branch_covered']}/{d['branch_total']}),"
      f" {len(low)} files of src/ under 80% of lines")
PY
