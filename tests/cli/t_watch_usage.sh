# writestress watch's command line: a watch needs a bound (-t or
# --forever, not both), takes no FILE and none of a writer's options, no
# --json or --csv with --forever (they would grow without end), and
# its --probe-dir must be a directory, never a symbolic link: each refusal
# is one line naming the option and the value, then the hint, exit 2.  A watch writes no file of its own: the
# directory holds nothing after it.  Without root it runs the probes
# alone and says in one line what tracing needs; its summary says it was
# not traced and its result has no culprits (null).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

HINT="Try 'writestress watch --help' for more information."

ws watch
assert_usage_error "writestress: watch: " "$HINT" "a watch needs a bound;-t 10min;--forever" "no bound"
ws watch -t 5s --forever
assert_usage_error "writestress: watch: " "$HINT" "--forever and -t" "two bounds"
for out in json csv; do
	ws watch --forever --$out w.$out
	assert_usage_error "writestress: watch: " "$HINT" "--forever and --$out 'w.$out';grow;-t 24h;--prom" "--forever with --$out"
done
# to stdout, the reader bounds it: a watch that SIGINT ends
csv_rows() { [ "$(grep -c '^[0-9]' "$OUT" 2>/dev/null)" -ge 2 ]; }
ws_bg watch --forever --csv - -i 200ms --no-trace
wait_for 10 "the CSV's first rows" csv_rows
kill -INT "$WS_PID"
ws_wait "$(scaled 10)"
assert_status 130
assert_file_match "$OUT" '^interval,t_s,' "the CSV's header on stdout"
ws watch -t 5s data.dat
assert_usage_error "writestress: watch: " "$HINT" "unexpected operand 'data.dat';--probe-dir DIR" "a FILE operand"
ws watch -t 5s --size 1G
assert_usage_error "writestress: watch: " "$HINT" "unknown option '--size'" "a writer's option"
ws watch -t 5s -b 100
assert_usage_error "writestress: watch: " "$HINT" "'-b'" "a writer's short option"
ws watch -t 0
assert_usage_error "writestress: watch: " "$HINT" "-t" "a zero duration"
ws watch -t 5s --probe nope
assert_usage_error "writestress: watch: " "$HINT" "--probe;nope" "an unknown probe"
assert_dir_only "$WORK"

ws watch -t 1s --probe-dir "$WORK/missing"
assert_status 2
assert_file_match "$ERR" "^writestress: invalid --probe-dir '$WORK/missing': No such file or directory$" "a missing directory"
assert_file_match "$ERR" "^hint: --probe-dir names a directory" "its hint"
mkdir "$TESTDIR/real" && ln -s "$TESTDIR/real" "$WORK/link"
ws watch -t 1s --probe-dir "$WORK/link"
assert_status 2
assert_file_match "$ERR" "^writestress: invalid --probe-dir '$WORK/link': a symbolic link" "a symbolic link refused"
assert_dir_only "$TESTDIR/real"
rm "$WORK/link"

ws watch --help
assert_status 0
assert_file_match "$OUT" '^Usage: writestress watch \[OPTION\]\.\.\. \(-t DURATION \| --forever\)$' "usage line"
assert_file_no_match "$OUT" '--buffer-size|--pace' "a writer's options in --help"

if ! have_root; then
	skip_part root "a watch without root: needs root to become nobody"
elif ! have_cmd setpriv; then
	skip_part cmd "a watch without root: needs setpriv"
else
	ws_as_nobody watch -t 2s --json w.json
	assert_status 0
	assert_lines "$ERR" 1 "stderr of a watch without root"
	assert_file_match "$ERR" "^writestress: watching with the probes only: .*needs root \(sudo writestress watch \.\.\.\)$" "what tracing needs"
	assert_file_match "$OUT" "^watched $WORK for 2\.[0-9]+ s \(not traced: no culprits\)$" "the headline"
	assert_file_match "$OUT" "^  fsync    [0-9]+ probes: " "the probe's line"
	python3 - "$WORK/w.json" <<'PY' || fail "the result of a watch without root"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
print(f"  mode {d['mode']}, bytes {s['bytes']}, culprits {s['culprits']}, probes {d['probes'][0]['count']}")
assert d["mode"] == "watch" and s["bytes"] == 0 and s["culprits"] is None
assert s["culprits_others"] is None and d["probes"][0]["count"] >= 10
PY
	rm -f "$WORK/w.json"
	assert_dir_only "$WORK"
fi
