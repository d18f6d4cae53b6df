# writestress compare A.json B.json, on results recorded by the tool
# (tests/fixtures/compare/README.md says how each was made) and variants
# of them made here:
#  - a result compared with itself flags nothing and exits 0;
#  - a planted regression (throughput cut to 45/248 of A's, fsync p99 ten
#    times A's, nothing else) is flagged exactly there and exits 1, and
#    the whole report matches the golden file: throughput only, since 17
#    probes are too few to show or judge a p99 (its cells say what it
#    needs: "p99 needs 1000 probes"); the same runs
#    with 2000 probes flag the p99 too; the other way round both are
#    "improved" and it exits 0; --threshold moves the line;
#  - a latency under the floor (10 ms, --floor) in both runs is not
#    flagged, however large the change; --floor 1ms or 0 flags it;
#  - settings that change the result (--pace window vs none; the user's
#    --rate 25M/s vs 15M/s) are listed before the table, nothing is
#    judged and it exits 3; --force judges, the header still says so;
#    sizes writestress chose are information, in units, said so; another
#    kernel is information;
#  - fingerprint fields are compared leaf by leaf; an older, partial file
#    shows "-" where it lacks a field, and is comparable;
#  - a steady state the run did not judge is "not judged", its reason in
#    a note, never "not reached";
#  - bad command lines exit 2 with the --help pointer, unreadable and
#    foreign files exit 2 with one line naming the file and the reason;
#  - two watches (writestress watch) are compared by how long each
#    watched, what other processes wrote (or "-" untraced) and the
#    probes, never by a writer's rows; another -t is not comparable
#    (exit 3); a watch beside a run exits 2;
#  - compare writes nothing and leaves its inputs alone.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

need_cmd python3
FIX=$CLI_DIR/../fixtures/compare
FIXTURES="window.json none.json regressed.json partial.json fingerprint-a.json fingerprint-b.json watch.json"
for f in $FIXTURES; do
	cp "$FIX/$f" "$WORK/" || fail "cannot copy fixture $f"
done
# hand-made: a fingerprint each, no "tool"
not_a_result "$WORK/fingerprint-a.json" "$WORK/fingerprint-b.json"
HINT="Try 'writestress compare --help' for more information."

# variant SRC DST CODE: $WORK/DST is $WORK/SRC's result with the Python
# statements CODE applied to it (as d).
variant()
{
	python3 - "$WORK/$1" "$WORK/$2" "$3" <<'PY' || fail "cannot make $2"
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# The metrics of the last report's table flagged $1, one per line.
flagged()
{
	awk -F' *[|] *' -v flag="$1" 'NF == 5 && $5 == flag { print $1 }' "$OUT"
}

# The lines of section $1 ("configuration differences", ...).
section()
{
	sed -n "/^$1:\$/,/^\$/p" "$OUT" | sed '1d;/^$/d'
}

# The number of the first line of the last report matching ERE $1.
line_of()
{
	grep -nE -m 1 -- "$1" "$OUT" | cut -d: -f1
}

# A clean report: exit status $1, nothing on stderr, a table whose every
# row has five cells, a verdict last.
assert_report()
{
	assert_status "$1"
	assert_eq "" "$(cat "$ERR")" "stderr of: $LAST_CMD"
	assert_file_match "$OUT" '^metric +\| +A \| +B \| +change \| flag$' "table header"
	_rows=$(grep -c ' | ' "$OUT")
	_good=$(grep -Ec '^[^|]+( \| [^|]+){3} \|( (flag|REGRESSION|improved))?$' "$OUT")
	assert_eq "$_rows" "$_good" "rows with five cells"
	assert_match '^verdict: ' "$(tail -n 1 "$OUT")" "last line"
}

# A judged report states its rules after the table: threshold $1, floor $2.
assert_rules()
{
	assert_eq "  a change beyond $1% of A (--threshold)
  $2
  pX shown and judged only with 10/(1-X) samples in each run: p50 20, p99 1000, p99.9 10000" \
		"$(section 'judged by')" "the rules of: $LAST_CMD"
}
FLOOR10="a latency under 10 ms in both runs is not flagged (--floor)"

# ---- a result compared with itself --------------------------------------
for f in $FIXTURES; do
	ws compare "$f" "$f"
	assert_report 0
	assert_eq "" "$(flagged REGRESSION)$(flagged improved)" "flags comparing $f with itself"
	assert_eq "  (none)" "$(section 'configuration differences')" "configuration differences of $f with itself"
	assert_eq "  (none)" "$(section 'system differences')" "system differences of $f with itself"
	assert_eq "" "$(section 'notes')" "notes comparing $f with itself"
	assert_rules 10 "$FLOOR10"
	assert_eq "verdict: no regression beyond 10%" "$(tail -n 1 "$OUT")" "verdict on $f with itself"
done

# ---- the planted regression ---------------------------------------------
ws compare window.json regressed.json
assert_report 1
assert_eq "throughput MiB/s" "$(flagged REGRESSION)" "metrics flagged REGRESSION"
assert_eq "" "$(flagged improved)" "metrics flagged improved"
assert_file_match "$OUT" '^throughput MiB/s +\| +39\.6 \| +7\.2 \| +-81\.9% \| REGRESSION$' "throughput row"
assert_file_match "$OUT" '^fsync raw p99 ms +\| +p99 needs 1000 probes \| +p99 needs 1000 probes \| +- \|$' "fsync p99 row, not shown"
assert_file_match "$OUT" '^fsync raw p99\.9 ms +\| +p99\.9 needs 10000 probes \| +p99\.9 needs 10000 probes \| +- \|$' "fsync p99.9 row, not shown"
assert_eq "" "$(section notes)" "notes: the cells say why p99 is not judged"
assert_eq "verdict: 1 regression beyond 10% (B vs A)" "$(tail -n 1 "$OUT")" "verdict"
diff -u "$FIX/window-vs-regressed.out" "$OUT" ||
	fail "the report differs from tests/fixtures/compare/window-vs-regressed.out"

ws compare regressed.json window.json
assert_report 0
assert_eq "" "$(flagged REGRESSION)" "regressions, the other way round"
assert_eq "throughput MiB/s" "$(flagged improved)" "improvements, the other way round"
assert_eq "verdict: no regression beyond 10%" "$(tail -n 1 "$OUT")" "verdict, the other way round"

# with 2000 probes each the p99 is judged: 30 -> 300 ms
many='p = d["probes"][0]; p["count"] = p["raw"]["count"] = p["corrected"]["count"] = 2000'
variant window.json many.json "$many"
variant regressed.json many-regressed.json "$many"
ws compare many.json many-regressed.json
assert_report 1
assert_eq "throughput MiB/s
fsync raw p99 ms" "$(flagged REGRESSION)" "metrics flagged REGRESSION with 2000 probes"
assert_eq "" "$(section notes)" "notes with 2000 probes"
assert_eq "verdict: 2 regressions beyond 10% (B vs A)" "$(tail -n 1 "$OUT")" "verdict with 2000 probes"
ws compare many-regressed.json many.json
assert_report 0
assert_eq "throughput MiB/s
fsync raw p99 ms" "$(flagged improved)" "improvements with 2000 probes, the other way round"

# --threshold: -81.9% and +900.0% are beyond 81.8% but not beyond 900%
for args in "--threshold 81.8 many.json many-regressed.json" \
	"--threshold=81.8% many.json many-regressed.json" \
	"many.json many-regressed.json --threshold 81.8"; do
	# shellcheck disable=SC2086 # meant to split
	ws compare $args
	assert_report 1
	assert_rules 81.8 "$FLOOR10"
	assert_eq "verdict: 2 regressions beyond 81.8% (B vs A)" "$(tail -n 1 "$OUT")" "verdict of: $LAST_CMD"
done
ws compare --threshold 90 many.json many-regressed.json
assert_report 1
assert_eq "fsync raw p99 ms" "$(flagged REGRESSION)" "flagged with --threshold 90"
assert_eq "verdict: 1 regression beyond 90% (B vs A)" "$(tail -n 1 "$OUT")" "verdict with --threshold 90"
ws compare --threshold 900 many.json many-regressed.json
assert_report 0
assert_eq "" "$(flagged REGRESSION)" "flagged with --threshold 900"
assert_eq "verdict: no regression beyond 900%" "$(tail -n 1 "$OUT")" "verdict with --threshold 900"
ws compare --threshold 90 window.json regressed.json
assert_report 0
assert_eq "verdict: no regression beyond 90%" "$(tail -n 1 "$OUT")" "verdict on 17 probes with --threshold 90"

# ---- the latency floor: a p50 of 2.2 ms, then 9.5 ms ---------------------
variant many.json fast.json 'd["probes"][0]["raw"]["p50_ms"] = 2.2'
variant many.json slower.json 'd["probes"][0]["raw"]["p50_ms"] = 9.5'
ws compare fast.json slower.json
assert_report 0
assert_file_match "$OUT" '^fsync raw p50 ms +\| +2\.200 \| +9\.500 \| +\+331\.8% \|$' "p50 row under the floor"
assert_eq "  fsync raw p50 ms not flagged: under the 10 ms floor in both runs" "$(section notes)" "why p50 is not flagged"
assert_eq "verdict: no regression beyond 10%" "$(tail -n 1 "$OUT")" "verdict under the floor"
for floor in 1ms 0.001 1000us; do
	ws compare --floor "$floor" fast.json slower.json
	assert_report 1
	assert_eq "fsync raw p50 ms" "$(flagged REGRESSION)" "flagged with --floor $floor"
	assert_rules 10 "a latency under 1 ms in both runs is not flagged (--floor)"
done
ws compare --floor=0 fast.json slower.json
assert_report 1
assert_eq "fsync raw p50 ms" "$(flagged REGRESSION)" "flagged with --floor 0"
assert_rules 10 "every latency, however short (--floor 0)"
ws compare --floor 9ms slower.json fast.json
assert_report 0
assert_eq "fsync raw p50 ms" "$(flagged improved)" "improved from above a 9 ms floor"

# ---- settings that change the result: --pace window, then --pace none ----
ws compare window.json none.json
assert_report 3
assert_eq "settings that change the result differ:
  config.pace = window vs none
not comparable: the table is not judged (--force judges it anyway)" "$(sed -n 4,6p "$OUT")" "the settings, first"
assert_le "$(line_of '^settings that change')" "$(line_of '^metric ')" "the settings before the table"
assert_eq "" "$(flagged REGRESSION)$(flagged improved)" "flags when not comparable"
assert_file_match "$OUT" '^fsync max ms +\| +30\.067 \| +46\.641 \| +\+55\.1% \|$' "max row, shown unjudged"
assert_eq "" "$(section 'judged by')$(section notes)" "rules and notes when not comparable"
assert_eq "  (none besides those above)" "$(section 'configuration differences')" "configuration differences"
assert_eq "  (none)" "$(section 'system differences')" "system differences"
assert_eq "verdict: not comparable: different --pace (--force judges anyway)" "$(tail -n 1 "$OUT")" "verdict, not comparable"

ws compare --force window.json none.json
assert_report 1
assert_eq "settings that change the result differ:
  config.pace = window vs none
judged anyway (--force): they may explain any change below" "$(sed -n 4,6p "$OUT")" "the settings, first, with --force"
# the percentiles of 17 probes are neither shown nor judged; the maximum is
assert_eq "fsync max ms" "$(flagged REGRESSION)" "latency flagged with --pace none"
assert_file_match "$OUT" '^fsync raw p50 ms +\| +p50 needs 20 probes \| +p50 needs 20 probes \| +- \|$' "p50 of 17 probes, not shown"
assert_file_match "$OUT" '^fsync corrected p99 ms +\| +p99 needs 1000 probes \| +p99 needs 1000 probes \| +- \|$' "corrected p99 of 17, not shown"
assert_eq "" "$(section notes)" "notes with --force"
assert_eq "verdict: 1 regression beyond 10% (B vs A), with different --pace (--force)" "$(tail -n 1 "$OUT")" "verdict with --force"

# ---- the user's runs: --rate 25M/s, then 15M/s, on another kernel --------
rate='c = d["config"]; c["total_bytes"] = None; c["time_s"] = 60
d["command_line"] = ["writestress", "--rate", "%dM/s" % R, "--time", "60", "run.dat"]
c["rate_bytes_per_s"] = R << 20; d["summary"]["mibps"] = R; c["file_size"] = S'
variant window.json rate25.json "R = 25; S = 70447529984
$rate"
variant window.json rate15.json "R = 15; S = 70070042624
$rate
d['system']['release'] = '6.19.0'"
ws compare rate25.json rate15.json
assert_report 3
assert_eq "settings that change the result differ:
  config.rate_bytes_per_s = 25.0 MiB/s vs 15.0 MiB/s
not comparable: the table is not judged (--force judges it anyway)" "$(sed -n 4,6p "$OUT")" "--rate, first"
assert_file_match "$OUT" '^throughput MiB/s +\| +25\.0 \| +15\.0 \| +-40\.0% \|$' "throughput row, unjudged"
assert_eq "  config.file_size = 65.6 GiB vs 65.3 GiB (chosen by writestress in A and B)" \
	"$(section 'configuration differences')" "the file sizes writestress chose"
assert_eq "  system.release = 6.18.44-fc-v1098 vs 6.19.0" "$(section 'system differences')" "another kernel"
assert_eq "verdict: not comparable: different --rate (--force judges anyway)" "$(tail -n 1 "$OUT")" "verdict on another --rate"
ws compare rate25.json rate15.json --force
assert_report 1
assert_eq "throughput MiB/s" "$(flagged REGRESSION)" "flagged with --force"
assert_eq "verdict: 1 regression beyond 10% (B vs A), with different --rate (--force)" "$(tail -n 1 "$OUT")" "verdict on another --rate with --force"

# only the kernel and the chosen file size differ: judged
variant rate25.json kernel.json "d['system']['release'] = '6.19.0'; d['config']['file_size'] = 70070042624; d['summary']['mibps'] = 20"
ws compare rate25.json kernel.json
assert_report 1
assert_eq "throughput MiB/s" "$(flagged REGRESSION)" "flagged on another kernel"
assert_eq "" "$(grep '^settings that change' "$OUT")" "settings on another kernel"
assert_eq "verdict: 1 regression beyond 10% (B vs A)" "$(tail -n 1 "$OUT")" "verdict on another kernel"

# ---- fingerprint leaves, an older partial file ---------------------------
ws compare fingerprint-a.json fingerprint-b.json
assert_report 1
assert_eq "  system.release = 6.1.0 vs 6.2.0
  fingerprint.disk.scheduler = mq-deadline vs none
  fingerprint.disk.discard = - vs true
  fingerprint.mounts[0].opts = rw,relatime vs rw,noatime" "$(section 'system differences')" "system differences"
assert_file_match "$OUT" '^throughput MiB/s +\| +248\.0 \| +45\.0 \| +-81\.9% \| REGRESSION$' "throughput row"

ws compare partial.json window.json
assert_report 0
assert_file_match "$OUT" '^steady rate MiB/s +\| +- \| +not reached \| +- \|$' "a missing steady state"
assert_file_match "$OUT" '^fsync corrected p99 ms +\| +- \| +p99 needs 1000 probes \| +- \|$' "a missing percentile"
assert_file_match "$OUT" '^  config\.pace = - vs window$' "a missing configuration"
assert_file_match "$OUT" '^  tool\.version = 0\.0\.9 vs 0\.1\.0$' "another version"
ws compare window.json partial.json
assert_report 0

# ---- a steady state not judged: the run's words and reason ---------------
variant window.json unjudged.json 'd["steady"]["judged"] = False'
ws compare window.json unjudged.json
assert_report 0
assert_file_match "$OUT" '^steady rate MiB/s +\| +not reached \| +not judged \| +- \|$' "steady, not judged in B"
assert_eq "  steady rate MiB/s not judged in B: no window of 5 rounds of 10.0 s in the run" \
	"$(section notes)" "why the steady state was not judged"
ws compare unjudged.json unjudged.json
assert_report 0
assert_eq "" "$(grep 'not reached' "$OUT")" "not reached, where the run did not judge"

# ---- two watches: no writer's rows ----------------------------------------
# watch.json: 2 s watched, dd's 16 MiB and 552 KiB dirtied before the
# trace (17362944 bytes: 0.016 GiB), 21 fsync probes of at most 0.865 ms
ws compare watch.json watch.json
assert_report 0
assert_file_match "$OUT" '^watched s +\| +2\.000 \| +2\.000 \| +0\.0% \|$' "how long each watched"
assert_file_match "$OUT" '^others wrote GiB +\| +0\.016 \| +0\.016 \| +0\.0% \|$' "what the others wrote"
assert_file_match "$OUT" '^fsync max ms +\| +0\.865 \| +0\.865 \| +0\.0% \|$' "the probe's rows"
assert_file_no_match "$OUT" '^(throughput|written|initial|phase|slowdown|steady|free space)' "a writer's rows"
assert_eq "verdict: no regression beyond 10%" "$(tail -n 1 "$OUT")" "verdict of a watch with itself"
# a stall in B (max 250 ms), and B untraced: others' bytes unknown
variant watch.json watch-stalled.json 'd["probes"][0]["max_ms"] = 250.0
d["summary"]["culprits_others"] = None'
ws compare watch.json watch-stalled.json
assert_report 1
assert_eq "fsync max ms" "$(flagged REGRESSION)" "flagged between two watches"
assert_file_match "$OUT" '^others wrote GiB +\| +0\.016 \| +- \| +- \|$' "an untraced watch's others"
variant watch.json watch-1h.json 'd["config"]["time_s"] = 3600'
ws compare watch.json watch-1h.json
assert_report 3
assert_eq "verdict: not comparable: different --time (--force judges anyway)" "$(tail -n 1 "$OUT")" \
	"watches of another -t"
for order in AB BA; do
	if [ "$order" = AB ]; then ws compare watch.json window.json; else ws compare window.json watch.json; fi
	assert_status 2
	assert_eq "" "$(cat "$OUT")" "stdout of: $LAST_CMD"
	if [ "$order" = AB ]; then
		want="'watch.json' is a watch and 'window.json' a single run"
	else
		want="'window.json' is a single run and 'watch.json' a watch"
	fi
	assert_eq "writestress: compare: $want: compare two runs, two watches or two matrices" \
		"$(cat "$ERR")" "stderr of: $LAST_CMD"
done

# ---- --help ---------------------------------------------------------------
for opt in --help -h; do
	ws compare "$opt"
	assert_status 0
	assert_eq "" "$(cat "$ERR")" "stderr of compare $opt"
	assert_file_match "$OUT" '^Usage: writestress compare ' "usage line of compare $opt"
	assert_file_match "$OUT" '^ +--threshold PCT ' "--threshold in compare $opt"
	assert_file_match "$OUT" '^ +--floor DURATION ' "--floor in compare $opt"
	assert_file_match "$OUT" '(default 10ms; 0: flag any)' "--floor's default in compare $opt"
	assert_file_match "$OUT" '^ +--force ' "--force in compare $opt"
	assert_file_match "$OUT" '^Like for like: ' "the settings rule in compare $opt"
	assert_file_match "$OUT" 'fewer than 10/\(1-X\) samples \(p50 20, p99 1000,' "the samples rule in compare $opt"
	assert_file_match "$OUT" '^Not flagged, with a note: a latency under the --floor' "the floor rule in compare $opt"
	assert_file_match "$OUT" '^Exit status' "exit status section of compare $opt"
	for code in 0 1 2 3; do
		assert_file_match "$OUT" "^ +$code +[a-z]" "exit status $code in compare $opt"
	done
done

# ---- bad command lines: exit 2, one message and the pointer to --help ----
# arguments (split on blanks) | fixed strings the message must contain (';' between)
while IFS='|' read -r args needles; do
	case $args in '' | '#'*) continue ;; esac
	set -f
	# shellcheck disable=SC2086 # the table's arguments are meant to split
	ws compare $args
	set +f
	assert_usage_error 'writestress: compare: ' "$HINT" "$needles" "writestress compare $args"
done <<'TABLE'
                                                |missing operands
window.json                                     |missing operand B.json;'window.json'
window.json none.json partial.json              |unexpected argument 'partial.json'
--threshold abc window.json none.json           |--threshold;'abc'
--threshold -5 window.json none.json            |--threshold;'-5'
--threshold= window.json none.json              |--threshold;''
--threshold 1e3 window.json none.json           |--threshold;'1e3'
--threshold 0x10 window.json none.json          |--threshold;'0x10'
--threshold 10%% window.json none.json          |--threshold;'10%%'
--threshold inf window.json none.json           |--threshold;'inf'
window.json none.json --threshold               |option '--threshold' needs a value
--floor 10x window.json none.json               |--floor;'10x'
--floor -1ms window.json none.json              |--floor;'-1ms'
--floor= window.json none.json                  |--floor;''
window.json none.json --floor                   |option '--floor' needs a value
--force=yes window.json none.json               |--force
--bogus window.json none.json                   |unknown option '--bogus'
-x window.json none.json                        |unknown option '-x'
TABLE

# ---- unreadable and foreign files: exit 2, one line -----------------------
mkdir "$WORK/adir"
: >"$WORK/empty.json"
head -c 100 "$WORK/window.json" >"$WORK/cut.json"
{ cat "$WORK/window.json"; printf 'x'; } >"$WORK/trailing.json"
sed 's/"writestress-result\/1"/"writestress-result\/2"/' "$WORK/window.json" >"$WORK/v2.json"
printf '{"name": "something else"}\n' >"$WORK/other.json"
printf '[]\n' >"$WORK/array.json"
not_a_result "$WORK/empty.json" "$WORK/cut.json" "$WORK/trailing.json" "$WORK/v2.json" \
	"$WORK/other.json" "$WORK/array.json"
size=$(stat -c %s "$WORK/window.json")

# file | the whole message
while IFS='|' read -r file msg; do
	[ -n "$file" ] || continue
	for order in AB BA; do
		if [ "$order" = AB ]; then ws compare "$file" window.json; else ws compare window.json "$file"; fi
		assert_status 2
		assert_eq "" "$(cat "$OUT")" "stdout of: $LAST_CMD"
		assert_eq "writestress: compare: $msg" "$(cat "$ERR")" "stderr of: $LAST_CMD"
	done
done <<TABLE
missing.json|cannot read 'missing.json': No such file or directory
adir|cannot read 'adir': Is a directory
empty.json|cannot read 'empty.json': empty file
cut.json|cannot read 'cut.json': invalid JSON at byte 100: unexpected end of data
trailing.json|cannot read 'trailing.json': invalid JSON at byte $size: data after the document
v2.json|'v2.json' has unsupported schema 'writestress-result/2': this writestress reads 'writestress-result/1'
other.json|'other.json' is not a writestress result: no "schema" field
array.json|'array.json' is not a writestress result: not a JSON object
TABLE

# ---- nothing written, inputs untouched ------------------------------------
for f in $FIXTURES; do
	cmp -s "$FIX/$f" "$WORK/$f" || fail "compare changed $f"
done
# shellcheck disable=SC2086 # plain names
assert_dir_only "$WORK" $FIXTURES adir empty.json cut.json trailing.json v2.json other.json array.json \
	many.json many-regressed.json fast.json slower.json rate25.json rate15.json kernel.json unjudged.json \
	watch-stalled.json watch-1h.json
