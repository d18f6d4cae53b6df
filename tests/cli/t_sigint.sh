# SIGINT and SIGTERM stop a run gracefully: exit 128+signal within a few
# seconds, the summary, and a line naming the signal.  The probe files of
# the monitor are gone afterwards; the file stays.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

for sig in INT TERM; do
	case $sig in
	INT) want=130 ;;
	TERM) want=143 ;;
	esac
	rm -f "$WORK/data"
	ws_bg --rate 20M/s --size 1G -B 1M data
	wait_for 10 "the first MiB written" size_at_least "$WORK/data" 1048576
	alive "$WS_PID" || fail "writestress ended before SIG$sig was sent"
	kill -s "$sig" "$WS_PID"
	ws_wait "$(scaled 5)"
	assert_status "$want"
	assert_file_match "$OUT" "$SUMMARY_RE" "summary line after SIG$sig"
	assert_file_match "$OUT" "^ +stopped +by SIG$sig" "stop reason after SIG$sig"
	assert_file_no_match "$ERR" '.' "stderr after SIG$sig"
	# it stopped early: some but far from all of the 1 GiB
	size=$(stat -c %s "$WORK/data")
	assert_ge "$size" 1048576 "bytes written before SIG$sig"
	assert_le "$size" $((200 * 1024 * 1024)) "bytes written before SIG$sig"
	assert_dir_only "$WORK" data
done
