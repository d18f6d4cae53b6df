# The window pacing of overwrite.c, seen from the outside with strace:
# -b 4 -B 1M -f must make exactly these calls on the file, in this order:
#   sync_file_range(WRITE) of buffer 0, then for i = 1..3
#   sync_file_range(WRITE) of buffer i,
#   sync_file_range(WAIT_BEFORE|WRITE|WAIT_AFTER) of buffer i-1,
#   fadvise64(DONTNEED) of buffer i-1;
# then the wait and fadvise of buffer 3, and one fdatasync.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd strace
not_under_sanitizer "the sanitizer runtime adds its own calls"

MIB=1048576
LOG=$TESTDIR/strace.log
LAST_CMD="strace ... writestress -b 4 -B 1M -f data"
rc=0
(cd "$WORK" && exec strace -f -qq -e trace=sync_file_range,fadvise64,fdatasync \
	-o "$LOG" "$WS" -b 4 -B 1M -f data) >"$OUT" 2>"$ERR" </dev/null || rc=$?
if [ "$rc" -ne 0 ] && grep -q 'ptrace' "$ERR"; then
	skip_as ptrace "strace cannot trace here (ptrace refused: a container's seccomp filter or Yama): $(head -n 1 "$ERR")"
fi
assert_status 0
assert_size "$WORK/data" $((4 * MIB))

# The file's descriptor is the one the first sync_file_range names; other
# threads (the probes) may sync their own files.
fd=$(sed -n 's/^[0-9]* *sync_file_range(\([0-9]*\),.*/\1/p' "$LOG" | head -n 1)
[ -n "$fd" ] || fail "no sync_file_range call in the trace:
$(cat "$LOG")"

# One line per call on $fd: "name offset length flags" / "fdatasync".
actual=$(sed -n \
	-e "s/^[0-9]* *sync_file_range($fd, \([0-9]*\), \([0-9]*\), \([A-Z_|]*\)) *= 0\$/sfr \1 \2 \3/p" \
	-e "s/^[0-9]* *fadvise64($fd, \([0-9]*\), \([0-9]*\), \([A-Z_]*\)) *= 0\$/fadvise \1 \2 \3/p" \
	-e "s/^[0-9]* *fdatasync($fd) *= 0\$/fdatasync/p" "$LOG")

WAIT=SYNC_FILE_RANGE_WAIT_BEFORE\|SYNC_FILE_RANGE_WRITE\|SYNC_FILE_RANGE_WAIT_AFTER
expected=$(
	echo "sfr 0 $MIB SYNC_FILE_RANGE_WRITE"
	for i in 1 2 3; do
		echo "sfr $((i * MIB)) $MIB SYNC_FILE_RANGE_WRITE"
		echo "sfr $(((i - 1) * MIB)) $MIB $WAIT"
		echo "fadvise $(((i - 1) * MIB)) $MIB POSIX_FADV_DONTNEED"
	done
	echo "sfr $((3 * MIB)) $MIB $WAIT"
	echo "fadvise $((3 * MIB)) $MIB POSIX_FADV_DONTNEED"
	echo "fdatasync"
)

if [ "$actual" != "$expected" ]; then
	LAST_CMD=""	# it exited 0; the trace is what matters
	printf '%s\n' "$expected" >"$TESTDIR/expected"
	printf '%s\n' "$actual" >"$TESTDIR/actual"
	echo "--- the calls on fd $fd, expected versus traced:"
	diff -u "$TESTDIR/expected" "$TESTDIR/actual"
	echo "--- the whole trace:"
	head -n 40 "$LOG"
	fail "the pacing call sequence differs (see the diff above)"
fi
# no call on the file failed or went unparsed
unparsed=$(grep -E "^[0-9]+ +(sync_file_range|fadvise64|fdatasync)\(${fd}[,)]" "$LOG" | grep -vc ' = 0$')
assert_eq 0 "$unparsed" "calls on the file that did not return 0"
