# With stdout not a terminal, a header and then one plain key=value line per
# interval (t, bytes, mibps, avg_mibps, ..., figures all but the other
# writers' commands) with no terminal control characters; -q prints the summary only.  "One line per interval" is
# judged against the intervals the run recorded (its JSON), not against
# the clock: a loaded machine may hold the recorder past a tick or two,
# and then an interval is longer, not a line missing.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

ws --interval 100ms --rate 40M/s --size 16M -B 1M --json "$TESTDIR/plain.json" plain
assert_status 0
assert_file_match "$OUT" '^writestress ' "header"
n=$(grep -c '^t=' "$OUT")
assert_ge "$n" 2 "interval lines for a 0.4 s run at --interval 100ms"
assert_eq "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["intervals"]))' "$TESTDIR/plain.json")" \
	"$n" "interval lines against the intervals the run recorded"
# figures, but the other writers' commands (a traced run's last keys)
bad=$(grep '^t=' "$OUT" | grep -Ev '^t=[0-9]+\.[0-9]+ bytes=[0-9]+ mibps=[0-9]+\.[0-9]+ avg_mibps=[0-9]+\.[0-9]+( [a-z0-9_]+=[-0-9.]*)*( writer[12]=[^ =]+( writer[12]_[a-z]+=[0-9]+)*)*$' | head -n 1)
assert_eq "" "$bad" "a malformed interval line"
# time and bytes only grow, and end at the run's size
grep '^t=' "$OUT" | sed 's/^t=\([0-9.]*\) bytes=\([0-9]*\) .*/\1 \2/' | awk '
	NR > 1 && ($1 <= t || $2 < b) { print "not increasing at line " NR ": " $0; bad = 1 }
	{ t = $1; b = $2 }
	END { if (b != 16777216) { print "last bytes=" b ", not 16777216"; bad = 1 }; exit bad }' >"$TESTDIR/order" ||
	fail "interval lines: $(cat "$TESTDIR/order")"
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_file_no_match "$OUT" "$(printf '[\r\033]')" "terminal control characters"
# the summary comes after the last interval line
last_t=$(grep -n '^t=' "$OUT" | tail -n 1 | cut -d: -f1)
sum_at=$(grep -nE "$SUMMARY_RE" "$OUT" | cut -d: -f1)
assert_le "$last_t" "$sum_at" "line of the summary versus the last interval line"

# a timed run's header says how long, and that the file wraps only if
# the run gets that far
ws -t 500ms --rate 4M/s -B 1M timed
assert_status 0
assert_file_match "$OUT" '^  run      1\.00 MiB buffers for 500 ms, ' "how long, in the header"
assert_file_match "$OUT" 'file wraps at [0-9.]+ [KMGT]iB if the run gets that far$' "the wrap, if it comes"
assert_file_no_match "$OUT" 'until the time is up' "the old words"
rm -f "$WORK/timed"

ws -q --interval 100ms --rate 40M/s --size 16M -B 1M quiet
assert_status 0
assert_eq "" "$(cat "$ERR")" "stderr with -q"
assert_file_no_match "$OUT" '^t=' "interval lines with -q"
assert_file_no_match "$OUT" '^writestress ' "header with -q"
first=$(sed -n 1p "$OUT")
assert_match "$SUMMARY_RE" "$first" "first line with -q"
