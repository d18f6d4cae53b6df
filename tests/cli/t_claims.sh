# Claims equal checks: every figure tests/claims.tsv lists is stated once
# in its doc, with the test that holds it named beside it, and equals the
# bound that test asserts (or the figure the kept measurement says, with
# its command and commit) - py/claims.py.  On a copy of the tree, a doc
# that promises more than its test, and a test whose bound moved without
# its doc, each fail, naming the figure.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3
not_under_sanitizer "the docs and the tests' bounds are the same for every build"

ROOT=$(cd "$CLI_DIR/../.." && pwd)
python3 "$CLI_DIR/py/claims.py" "$ROOT" >"$OUT" 2>&1
rc=$?
cat "$OUT"
LAST_CMD="claims.py $ROOT"
assert_status 0
n=$(sed -n 's/^claims: \([0-9]*\) figures held.*/\1/p' "$OUT")
assert_ge "${n:-0}" 30 "figures held"

# a copy, changed one side at a time
TREE=$TESTDIR/tree
mkdir -p "$TREE"
(cd "$ROOT" && tar cf - README.md man tests bench/README.md bench/results 2>/dev/null) | (cd "$TREE" && tar xf -) ||
	fail "cannot copy the tree"
# the fixtures' results are no claim's; the schema check would judge them
find "$TREE" -name '*.json' -delete
cp "$TREE/README.md" "$TESTDIR/README.orig"
sed -i 's/p99 after settling is at most 20% over the/p99 after settling is at most 10% over the/' "$TREE/README.md"
cmp -s "$TREE/README.md" "$TESTDIR/README.orig" && fail "the README's adaptive figure moved: this test's sed no longer finds it"
python3 "$CLI_DIR/py/claims.py" "$TREE" >"$OUT" 2>&1
rc=$?
assert_status 1
assert_file_match "$OUT" "^claims: adaptive-p99: README.md says .*at most 10% over the.*P99_OVER_TARGET_PCT = 20" "a doc tighter than its test"
cp "$TESTDIR/README.orig" "$TREE/README.md"
sed -i 's/^P99_OVER_TARGET_PCT = 20/P99_OVER_TARGET_PCT = 30/' "$TREE/tests/cli/t_e2e_adaptive.sh"
python3 "$CLI_DIR/py/claims.py" "$TREE" >"$OUT" 2>&1
rc=$?
assert_status 1
assert_file_match "$OUT" "^claims: adaptive-p99: .*P99_OVER_TARGET_PCT = 30" "a test's bound widened without its doc"
