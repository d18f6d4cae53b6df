# A FIFO is refused at once (exit 3, one message and a hint): writestress
# must neither block opening it nor write into it, even with --force.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd mkfifo

mkfifo "$WORK/fifo"
before=$(fingerprint "$WORK/fifo")

for force in "" --force; do
	# in the background: a writestress that opened the FIFO would hang
	# shellcheck disable=SC2086 # $force is empty or one word
	ws_bg -b 1 -B 1M $force fifo
	ws_wait "$(scaled 10)"
	assert_status 3
	assert_lines "$ERR" 2 "stderr"
	assert_file_match "$ERR" "^writestress: refusing 'fifo': .*FIFO" "refusal message"
	assert_file_match "$ERR" '^hint: ' "hint line"
	assert_eq "" "$(cat "$OUT")" "stdout"
	assert_eq "$before" "$(fingerprint "$WORK/fifo")" "the FIFO"
done
[ -p "$WORK/fifo" ] || fail "fifo is no longer a FIFO"
