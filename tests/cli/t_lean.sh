# A lean record (#39): scripts/lean.py holds the tree to its weight rules -
# no struct member of the tool a fixed array over 64 KiB (pahole reads the
# build's DWARF), no .c or .h under src/ and include/ over 600 lines,
# comments at most 15% of their bytes and none trailing a line only to
# restate it.  Then each rule on both sides of its boundary, planted: an
# array of 65536 bytes passes and one of 65537 fails, a file of 600 lines
# passes and one of 601 fails, comments at 15% pass and just over fail, a
# restating trailing comment fails.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3
need_cmd pahole
need_cmd cc
not_under_sanitizer "the tree's weight is the same for every build (the plain build's DWARF is read)"

ROOT=$(cd "$CLI_DIR/../.." && pwd)
LEAN=$ROOT/scripts/lean.py

lean() {
	LAST_CMD="lean.py $*"
	python3 "$LEAN" "$@" >"$OUT" 2>&1
	rc=$?
	cat "$OUT"
}

lean arrays "$WS"
assert_status 0
lean lines "$ROOT"
assert_status 0
lean comments "$ROOT"
assert_status 0
assert_file_match "$OUT" "^comments: [0-9]+ of [0-9]+ bytes, [0-9.]+% \\(at most 15%\\)$" "the share in words"

# arrays: 64 KiB is allowed, a byte more is not
printf 'struct edge { char a[65536]; int n; } edge;\n' >"$TESTDIR/edge.c"
printf 'struct over { char a[65537]; int n; } over;\n' >"$TESTDIR/over.c"
cc -g -c -o "$TESTDIR/edge.o" "$TESTDIR/edge.c" || fail "cc edge.c failed"
cc -g -c -o "$TESTDIR/over.o" "$TESTDIR/over.c" || fail "cc over.c failed"
lean arrays "$TESTDIR/edge.o"
assert_status 0
lean arrays "$TESTDIR/over.o"
assert_status 1
assert_file_match "$OUT" "struct over: char a\\[65537\\]; is 65537 bytes: no fixed array over 64 KiB" "the planted array named"

# lines: 600 is allowed, 601 is not
mkdir -p "$TESTDIR/tree/src" "$TESTDIR/tree/include"
for i in $(seq 600); do echo "int v$i;"; done >"$TESTDIR/tree/src/a.c"
lean lines "$TESTDIR/tree"
assert_status 0
echo "int v601;" >>"$TESTDIR/tree/src/a.c"
lean lines "$TESTDIR/tree"
assert_status 1
assert_file_match "$OUT" "^src/a.c: 601 lines: no file over 600$" "the planted file named"

# comments: a file of 100 bytes, 15 of them a comment, then 16
rm -f "$TESTDIR/tree/src/a.c"
{ printf '/* 123456789 */\n'; printf 'int a;\n%.0s' $(seq 12); } >"$TESTDIR/tree/src/c.c"
[ "$(wc -c <"$TESTDIR/tree/src/c.c")" = 100 ] || fail "the planted file is not 100 bytes"
lean comments "$TESTDIR/tree"
assert_status 0
assert_file_match "$OUT" "^comments: 15 of 100 bytes, 15.0% \\(at most 15%\\)$" "15% exactly"
{ printf '/* 1234567890 */\n'; printf 'int a;\n%.0s' $(seq 11); printf 'int b;'; } >"$TESTDIR/tree/src/c.c"
[ "$(wc -c <"$TESTDIR/tree/src/c.c")" = 100 ] || fail "the second planted file is not 100 bytes"
lean comments "$TESTDIR/tree"
assert_status 1
assert_file_match "$OUT" "^comments are 16.0% of the source: at most 15%$" "16% refused"
# a trailing comment that says only what its line says
{ printf 'int free_buffer; /* the free buffer */\n'; for i in $(seq 60); do echo "int v$i;"; done; } >"$TESTDIR/tree/src/c.c"
lean comments "$TESTDIR/tree"
assert_status 1
assert_file_match "$OUT" "^src/c.c:1: \"/\\* the free buffer \\*/\" restates its line$" "the restating comment named"
