# The golden files of the sinks' suites (tests/expected) are rewritten only
# on purpose: `unit-tests --update-expected` (what `make update-expected`
# runs) rewrites a stale one, while a normal run fails on it, and so does
# a run with WS_UPDATE_EXPECTED left in the environment (the old way, which
# made every golden check rewrite its file and pass) - naming the way to
# do it, and leaving the file alone.  On a copy of the tree: the test
# binary finds tests/expected above itself.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

UNIT=$(dirname "$WS")/unit-tests
[ -x "$UNIT" ] || fail "no unit-tests beside $WS"
TREE=$TESTDIR/tree
mkdir -p "$TREE/build" "$TREE/tests" || fail "cannot make $TREE"
cp "$UNIT" "$TREE/build/unit-tests" || fail "cannot copy $UNIT"
cp -r "$CLI_DIR/../expected" "$CLI_DIR/../fixtures" "$TREE/tests/" || fail "cannot copy the expected files"
not_a_result "$TREE/tests/fixtures/compare/fingerprint-a.json" "$TREE/tests/fixtures/compare/fingerprint-b.json"
GOLD=$TREE/tests/expected/sink_csv.csv
good=$(sha256sum <"$GOLD")
printf 'stale\n' >>"$GOLD"
stale=$(sha256sum <"$GOLD")

unit() # ENV... -- ARGS...: the copy's sink_csv suite, from $TESTDIR
{
	LAST_CMD="unit-tests $*"
	rc=0
	(cd "$TESTDIR" && exec env CK_RUN_SUITE=sink_csv "$@") >"$OUT" 2>&1 </dev/null || rc=$?
}

unit "$TREE/build/unit-tests"
[ "$rc" -ne 0 ] || fail "a normal run passed with a stale expected file"
assert_file_match "$OUT" 'sink_csv\.csv differs at line' "the difference named"
assert_file_match "$OUT" 'make update-expected' "the way to rewrite it on purpose"
assert_eq "$stale" "$(sha256sum <"$GOLD")" "the expected file after a normal run"

unit WS_UPDATE_EXPECTED=1 "$TREE/build/unit-tests"
[ "$rc" -ne 0 ] || fail "WS_UPDATE_EXPECTED=1 made the run pass"
assert_file_match "$OUT" 'WS_UPDATE_EXPECTED is set: .*`make update-expected`' "the refusal of the variable"
assert_eq "$stale" "$(sha256sum <"$GOLD")" "the expected file with WS_UPDATE_EXPECTED set"

touch -d '2000-01-01' "$TREE/tests/expected/sink_csv_error.csv"
unit "$TREE/build/unit-tests" --update-expected
assert_status 0
assert_eq "$good" "$(sha256sum <"$GOLD")" "the expected file rewritten on purpose"
assert_file_match "$OUT" '^update-expected: rewrote tests/expected/sink_csv\.csv$' "the stale file named"
assert_file_no_match "$OUT" 'rewrote tests/expected/sink_csv_error' "a current file named"
assert_eq 2000 "$(date -r "$TREE/tests/expected/sink_csv_error.csv" +%Y)" "a current file left untouched"
unit "$TREE/build/unit-tests"
assert_status 0
