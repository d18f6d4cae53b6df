# I/O errors end the run cleanly: exit 1, the summary, a "failed" line that
# names the call and the offset, one error line on stderr, and a complete
# result file.  Faults are injected with libfiu's POSIX preload (fiu-run):
# EIO from fdatasync, then from a pwrite in the middle of the run.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd_as fiu fiu-run
need_cmd python3
# libfiu's preload and a sanitizer runtime both interpose libc and crash
# together; under sanitizers the fake I/O backend's unit tests cover these
# paths (tests/unit/test_writer.c)
not_under_sanitizer "libfiu's LD_PRELOAD and the sanitizer runtime crash together"
check="python3 $CLI_DIR/py/check_result.py"

fiu() { # FIU-COMMAND WRITESTRESS-ARGS...: run writestress under fiu-run
	_c=$1
	shift
	LAST_CMD="fiu-run -x -c '$_c' writestress $*"
	printf '+ %s\n' "$LAST_CMD"
	rc=0
	(cd "$WORK" && exec fiu-run -x -c "$_c" "$WS" "$@") >"$OUT" 2>"$ERR" </dev/null || rc=$?
}

fiu "enable name=posix/io/sync/fdatasync,failinfo=5" \
	--size 16M -B 1M --no-probe --json "$TESTDIR/a.json" data
assert_status 1
assert_file_match "$OUT" "$SUMMARY_RE" "summary after EIO from fdatasync"
assert_file_match "$OUT" '^  failed   fdatasync at offset 16777216: Input/output error$' "failure line"
assert_lines "$ERR" 1 "stderr"
assert_file_match "$ERR" '^writestress: fdatasync failed at offset 16777216: Input/output error$' "error line"
$check "$TESTDIR/a.json" --reason error --error-op fdatasync --bytes 16777216 ||
	fail "result after EIO from fdatasync"

# the first pwrite fails: nothing is written, and the result says so
rm -f "$WORK/data"
fiu "enable_random name=posix/io/rw/pwrite,probability=1,failinfo=5" \
	--size 16M -B 1M --no-probe --json "$TESTDIR/b.json" data
assert_status 1
assert_file_match "$OUT" '^  failed   write at offset 0: Input/output error$' "failure line for the first write"
$check "$TESTDIR/b.json" --reason error --error-op write --bytes 0 --min-intervals 0 ||
	fail "result after EIO from pwrite"
assert_size "$WORK/data" 0
assert_dir_only "$WORK" data
