# A closed stdout (writestress ... | head -3) ends the run as a Ctrl-C
# does: at once (not at --time), exit status 141 (128 + SIGPIPE), the
# summary on stderr naming SIGPIPE, the probe files (fsync, sqlite) gone
# and --remove honoured; the lines before stay on stdout whole.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

start=$(date +%s)
(cd "$WORK" && "$WS" -t 60 --rate 2M/s -i 100ms --probe fsync,sqlite --remove data \
	2>"$ERR" </dev/null; echo $? >"$TESTDIR/status") | head -3 >"$OUT"
# the subshell has written its status once writestress ended
n=0
while [ ! -s "$TESTDIR/status" ] && [ "$n" -lt "$(scaled 100)" ]; do
	sleep 0.1
	n=$((n + 1))
done
rc=$(cat "$TESTDIR/status" 2>/dev/null)
LAST_CMD="writestress -t 60 --rate 2M/s -i 100ms --probe fsync,sqlite --remove data | head -3"
assert_status 141
took=$(($(date +%s) - start))
assert_le "$took" "$(scaled 10)" "seconds until the run ended"
assert_lines "$OUT" 3 "stdout before its reader left"
assert_file_match "$OUT" '^writestress ' "the header's first line on stdout"
assert_file_match "$ERR" "$SUMMARY_RE" "the summary on stderr"
assert_file_match "$ERR" '^ +stopped +by SIGPIPE' "the stop reason on stderr"
assert_file_no_match "$ERR" '^t=' "no interval lines on stderr"
assert_dir_only "$WORK"
