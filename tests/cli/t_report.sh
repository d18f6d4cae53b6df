# writestress report RESULT.json... | DIR, on results recorded by the tool:
#  - three short real runs: one row each, the host named, CSV and JSON
#    parse (their figures are the machine's: no flags are asserted);
#  - a fleet made from a real result by tests/cli/py/report_fleet.py:
#    grouped by model, exactly the planted outlier flagged (exit 1), the
#    two-result group not judged, a p99 of 20 probes neither shown nor
#    flagged however far out (1000 make one), a steady state the runs did
#    not judge in their words with their reason, never "not reached",
#    a writestress-result/2 file read, a
#    matrix, a report and a watch's result in the directory skipped with
#    a warning each;
#    CSV, JSON and SVG parse; the SVG has one curve per result, the
#    outlier's red; --by host regroups; - puts one output on stdout;
#  - results that differ in settings that change the result: a group
#    each, headed by the options as typed (-B 1.00 MiB, -s 300 MiB;
#    -t 5m00s), none at its default or unset;
#  - bad command lines exit 2 with the --help pointer; a named foreign,
#    unreadable or broken file, or a watch's result, exits 2 naming it; no
#    results exits 2;
#  - 2,000 results: a few seconds, and memory flat in the number of files
#    (max RSS of 2,000 vs 200 files; not under sanitizers, whose
#    quarantine keeps freed memory).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

need_cmd python3
PY=$CLI_DIR/py
HINT="Try 'writestress report --help' for more information."

# The data rows of the last table: lines with a '|' that are neither the
# title nor a median row.
rows()
{
	grep ' | ' "$1" | grep -v '^file  *|' | grep -v '^median of '
}

# The first cells (files) of the rows whose flags cell is not empty.
flagged()
{
	rows "$1" | awk -F' [|]' '$NF != "" { sub(/ +$/, "", $1); print $1 }'
}

# ---- three real runs ----------------------------------------------------
for i in 1 2 3; do
	ws -s 16M -q --json "r$i.json" --remove "data$i"
	assert_status 0
done
ws report r1.json r2.json r3.json --csv real.csv --json real.json
case $rc in 0 | 1) ;; *) fail "report of three real runs: exit $rc: $(cat "$ERR")" ;; esac
assert_eq "" "$(cat "$ERR")" "stderr of the report of three real runs"
assert_eq 3 "$(rows "$OUT" | wc -l)" "rows for three real runs"
assert_file_match "$OUT" "^r1\.json +\| $(uname -n | cut -c1-63 | sed 's/[.]/[.]/g') +\|" "the host of r1.json"
assert_file_match "$OUT" '^outlier rule: \|x - median\| > 3\.5 x 1\.4826 x MAD' "the rule in the footer"
python3 - "$WORK/real.csv" "$WORK/real.json" <<'EOF' || fail "real.csv or real.json"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["file"] for r in rows] == ["r1.json", "r2.json", "r3.json"], rows
assert all(float(r["mibps"]) > 0 and r["schema_version"] == "1" for r in rows), rows
doc = json.load(open(sys.argv[2]))
assert doc["schema"] == "writestress-report/1" and doc["count"] == 3, doc
EOF

# ---- a fleet with one planted outlier -----------------------------------
python3 "$PY/report_fleet.py" "$WORK/r1.json" fleet "$WORK/fleet" || fail "report_fleet.py"
# made to be skipped: a result of a version with no schema file, a matrix
# and a report that name no tool
not_a_result "$WORK/fleet/b4-v2.json" "$WORK/fleet/matrix.json" "$WORK/fleet/old-report.json"
# and a watch's result (writestress watch: no writer, nothing to table)
cp "$CLI_DIR/../fixtures/compare/watch.json" "$WORK/fleet/watch.json" || fail "cannot copy watch.json"
ws report fleet --csv fleet.csv --json fleet.json --svg fleet.svg
assert_status 1
assert_eq "writestress: report: skipping 'fleet/matrix.json': it has schema 'writestress-matrix/1', not writestress-result/N
writestress: report: skipping 'fleet/old-report.json': it has schema 'writestress-report/1', not writestress-result/N
writestress: report: skipping 'fleet/watch.json': it is a watch's result, not a run's (compare two watches with writestress compare)" \
	"$(cat "$ERR")" "warnings for the files that are not results"
assert_eq 14 "$(rows "$OUT" | wc -l)" "rows of the fleet"
assert_eq "fleet/a-outlier.json" "$(flagged "$OUT")" "the rows flagged"
assert_file_match "$OUT" '^fleet/a-outlier\.json .*\| +60\.0! \|.*\| MiB/s low$' "the outlier's cell and flags"
assert_file_match "$OUT" '^== model Disk A: 5 results ==$' "group Disk A"
assert_file_match "$OUT" '^== model Disk B: 4 results ==$' "group Disk B"
assert_file_match "$OUT" '^== model Disk C: 2 results, not judged \(fewer than 3\) ==$' "group Disk C"
assert_file_match "$OUT" '^== model Disk D: 3 results ==$' "group Disk D"
assert_file_match "$OUT" '^median of 5 +\|.*\| +200\.0 \|' "Disk A's median row"
assert_file_match "$OUT" '^14 results in 4 groups by model; 1 with outliers; 1 group not judged; 3 files skipped$' "the totals"
# 20 probes: no p99 shown, the slow one's 95 ms not flagged
assert_file_match "$OUT" '^fleet/d-slow\.json .*\| p99 needs 1000 probes \| +0 \|$' "a p99 of 20 probes"
assert_file_match "$OUT" '^median of 3 .*\| p99 needs 1000 probes \| +0 \|$' "Disk D's median p99"
assert_file_match "$OUT" '^  of fewer than 1000 probes is neither shown nor judged$' "the sample rule in the footer"
# the real run's steady state was not judged: its words and reason
assert_file_match "$OUT" '^fleet/a1\.json .*\| +not judged \|' "a steady state not judged"
assert_file_match "$OUT" '^steady not judged in 10 results: no window of 5 rounds of 10\.0 s in the run$' "why not judged"
assert_eq "" "$(grep 'not reached' "$OUT")" "not reached, for runs not judged"
# the groups in order, the rows of each together
assert_eq "Disk A
Disk B
Disk C
Disk D" "$(sed -n 's/^== model \(.*\): .*/\1/p' "$OUT")" "group order"
python3 - "$WORK/fleet.csv" "$WORK/fleet.json" "$WORK/fleet.svg" <<'EOF' || fail "fleet outputs"
import csv, json, sys
import xml.etree.ElementTree as ET
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 14, len(rows)
flagged = [(r["file"], r["outliers"], r["mibps_outlier"]) for r in rows if r["outliers"]]
assert flagged == [("fleet/a-outlier.json", "mibps", "low")], flagged
assert {r["group"] for r in rows} == {"Disk A", "Disk B", "Disk C", "Disk D"}
assert [r["fsync_p99_ms"] for r in rows if r["file"] == "fleet/d-slow.json"] == [""]
assert [r["schema_version"] for r in rows if r["file"].endswith("b4-v2.json")] == ["2"]
doc = json.load(open(sys.argv[2]))
assert doc["schema"] == "writestress-report/1" and doc["by"] == "model"
assert doc["count"] == 14 and doc["skipped"] == 3 and doc["outlier_results"] == 1
assert doc["rule"]["k"] == 3.5 and doc["rule"]["min_group"] == 3
g = {x["key"]: x for x in doc["groups"]}
assert g["Disk C"]["judged"] is False and g["Disk A"]["judged"] is True
assert g["Disk A"]["median"]["mibps"] == 200 and g["Disk B"]["median"]["steady_mibps"] == 301
slow = [r for r in g["Disk D"]["results"] if r["file"] == "fleet/d-slow.json"][0]
assert slow["probes"]["fsync"] == {"count": 20, "p99_ms": None, "stalls": 0}, slow["probes"]
assert slow["steady_not_judged"] is True and slow["steady_not_reached"] is False, slow
out = [(r["file"], r["outliers"]) for x in doc["groups"] for r in x["results"] if r["outliers"]]
assert out == [("fleet/a-outlier.json", {"mibps": "low"})], out
ns = {"s": "http://www.w3.org/2000/svg"}
svg = ET.parse(sys.argv[3]).getroot()
curves = [p for p in svg.iter("{http://www.w3.org/2000/svg}path")
          if "curve" in p.get("class", "").split()]
assert len(curves) == 14, len(curves)
assert all(p.get("d", "").startswith("M") for p in curves)
red = [p.find("s:title", ns).text for p in curves if "outlier" in p.get("class").split()]
assert red == ["fleet/a-outlier.json"], red
assert len(svg.findall(".//s:g[@class='group']", ns)) == 4
# runs of 16 MiB read in MiB, as the run's own plot
texts = ["".join(t.itertext()) for t in svg.iter("{http://www.w3.org/2000/svg}text")]
assert "MiB written" in texts and "GiB written" not in texts, [t for t in texts if "written" in t]
EOF

ws report --by host fleet/a1.json fleet/a2.json fleet/b1.json
assert_status 0
assert_file_match "$OUT" '^== host ha1: 1 result, not judged \(fewer than 3\) ==$' "--by host"
assert_eq 3 "$(grep -c '^== host ' "$OUT")" "groups by host"

# one kernel, one group of 11: judged among the other models' rates, the
# planted MiB/s is no outlier; Disk C's slow fsync now is
ws report --by kernel fleet
assert_status 1
assert_eq 1 "$(grep -c '^== kernel ' "$OUT")" "groups by kernel"
assert_eq "fleet/c1.json
fleet/c2.json" "$(flagged "$OUT")" "the rows flagged by kernel"

# settings that change the result: a group each, the options as typed
python3 "$PY/report_fleet.py" "$WORK/r1.json" settings "$WORK/settings" || fail "report_fleet.py settings"
ws report settings
assert_status 0
assert_eq "== model Disk S · -B 1.00 MiB, -s 300 MiB: 1 result, not judged (fewer than 3) ==
== model Disk S · -t 5m00s: 1 result, not judged (fewer than 3) ==" "$(grep '^== ' "$OUT")" "headings by settings"

# one output on stdout: the table goes to stderr
ws report --json - fleet/a1.json fleet/a2.json
assert_status 0
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["count"] == 2' "$OUT" ||
	fail "--json - on stdout"
assert_file_match "$ERR" '^fleet/a1\.json +\|' "the table on stderr"

# ---- refusals -----------------------------------------------------------
ws report
assert_usage_error "writestress: report: " "$HINT" "missing operand RESULT.json or DIR" "no operand"
ws report --by disk fleet
assert_usage_error "writestress: report: " "$HINT" "--by;disk;model, kernel, host or fs" "--by disk"
ws report --json - --csv - fleet
assert_usage_error "writestress: report: " "$HINT" "only one of --json, --csv and --svg" "two outputs on stdout"

ws report fleet/a1.json fleet/matrix.json
assert_status 2
assert_eq "writestress: report: 'fleet/matrix.json' has schema 'writestress-matrix/1', not writestress-result/N" \
	"$(cat "$ERR")" "a named matrix"
assert_eq "" "$(cat "$OUT")" "stdout after a named matrix"
ws report fleet/a1.json fleet/watch.json
assert_status 2
assert_eq "writestress: report: 'fleet/watch.json' is a watch's result, not a run's (compare two watches with writestress compare)" \
	"$(cat "$ERR")" "a named watch"
assert_eq "" "$(cat "$OUT")" "stdout after a named watch"

printf '{"schema": "writestress-result/1", ' >"$WORK/fleet/broken.json"
ws report fleet
assert_status 2
assert_file_match "$ERR" "^writestress: report: cannot read 'fleet/broken\.json': invalid JSON" "a broken file in a directory"
rm "$WORK/fleet/broken.json"

ws report fleet/nonexistent.json
assert_status 2
assert_eq "writestress: report: cannot read 'fleet/nonexistent.json': No such file or directory" "$(cat "$ERR")" "a missing file"

mkdir "$WORK/empty"
ws report empty
assert_status 2
assert_eq "writestress: report: no results to report" "$(cat "$ERR")" "an empty directory"

ws report --csv nodir/x.csv fleet/a1.json
assert_status 2
assert_file_match "$ERR" "^writestress: report: invalid --csv 'nodir/x\.csv': cannot write 'nodir/x\.csv': No such file or directory" "an output that cannot be written"
# an output is a result file: never a device node, never through a link
ln -s "$TESTDIR/elsewhere.json" "$WORK/link.json"
for out in /dev/null link.json; do
	ws report --json "$out" fleet/a1.json
	assert_status 2
	assert_file_match "$ERR" "^writestress: report: invalid --json '$out': '$out' exists and is not a regular file" "--json $out"
done
# nor a file writestress did not write (unless --force), nor a RESULT read
echo "my notes" >"$WORK/notes.json"
ws report --json notes.json fleet/a1.json
assert_status 2
assert_file_match "$ERR" "^writestress: report: refusing to replace --json: 'notes.json' exists and writestress did not write it$" "a file not ours"
assert_eq "my notes" "$(cat "$WORK/notes.json")" "the file not ours, after the refusal"
ws report --force --json notes.json fleet/a1.json
assert_status 0
head -c 40 "$WORK/notes.json" | grep -q '^{"schema":"writestress-report/' || fail "--force did not replace notes.json"
ws report --json fleet/./a1.json fleet/a1.json
assert_status 2
assert_file_match "$ERR" "^writestress: report: invalid --json 'fleet/\./a1\.json': the same file as the RESULT 'fleet/a1\.json' it reads" "an output on a result it reads"
ws report --json r.json --csv ./r.json fleet/a1.json
assert_status 2
assert_file_match "$ERR" "already another output" "two outputs on one path"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
[ -L "$WORK/link.json" ] && [ ! -e "$TESTDIR/elsewhere.json" ] || fail "the link was followed or replaced"
rm "$WORK/link.json"
[ -z "$(find "$WORK" -name '*.tmp.*')" ] || fail "temporary files left behind: $(find "$WORK" -name '*.tmp.*')"

# ---- 2,000 results: all of them read, and memory flat --------------------
# (how long they take is a claim of bench/run.sh's report section, measured
# against cat and python's json.load in the same run, not a wall-clock
# bound here)
need_cmd /usr/bin/time
python3 "$PY/report_fleet.py" "$WORK/r1.json" many "$WORK/many" 2000 "$WORK/few" 200 ||
	fail "report_fleet.py many"
assert_eq 200 "$(find "$WORK/few" -name '*.json' | wc -l)" "files in few"

# max RSS in KiB and elapsed seconds of a report of DIR
measure()
{
	(cd "$WORK" && /usr/bin/time -f '%M %e' -o "$TESTDIR/time.$1" "$WS" report \
		--csv "$1.csv" --json "$1.json" --svg "$1.svg" "$1" >"$TESTDIR/out.$1" 2>"$TESTDIR/err.$1")
	_rc=$?
	[ "$_rc" -le 1 ] || fail "report of $1: exit $_rc: $(cat "$TESTDIR/err.$1")"
	cat "$TESTDIR/time.$1"
}
read -r rss_few _ <<EOF
$(measure few)
EOF
read -r rss_many secs_many <<EOF
$(measure many)
EOF
case $rss_few$rss_many in
'' | *[!0-9]*) fail "no max RSS measured (200: '$rss_few', 2000: '$rss_many'): $(cat "$TESTDIR"/err.*)" ;;
esac
echo "2000 results: ${secs_many} s, max RSS ${rss_many} KiB (200: ${rss_few} KiB)"
assert_eq 2000 "$(($(wc -l <"$WORK/many.csv") - 1))" "CSV rows of 2,000 results"
assert_eq 4 "$(grep -c '^== model Disk ' "$TESTDIR/out.many")" "groups of 2,000 results"
python3 -c 'import sys, xml.etree.ElementTree as ET
n = sum(1 for p in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}path") if "curve" in p.get("class", ""))
assert n == 2000, n' "$WORK/many.svg" || fail "curves of 2,000 results"
if [ -z "$SANITIZE" ]; then
	# a row is a few hundred bytes: 1,800 more rows stay well under 4 MiB
	RSS_GROWTH_MIB=4	# README.md states it (tests/claims.tsv)
	assert_le "$rss_many" "$((rss_few + RSS_GROWTH_MIB * 1024))" "max RSS (KiB) of 2,000 results vs 200 ($rss_few) + $RSS_GROWTH_MIB MiB"
else
	skip_part sanitizer "the max RSS of 2,000 results against 200: under $SANITIZE the sanitizer's own memory (ASan's quarantine of freed blocks, TSan's shadow) grows with every allocation, so the figure is not the report's"
fi
