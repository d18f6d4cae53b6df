# A character device node is refused (exit 3, one message and a hint), even
# with --force, and is left as it was.  As root the node is made here
# (c 1 3, the null device); otherwise /dev/null itself is the target.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

if ! have_root; then
	skip_part root "a device node of the test's own: /dev/null itself is the target"
	dev=/dev/null
elif mknod "$WORK/null" c 1 3 2>/dev/null; then
	dev=$WORK/null
else
	skip_part root "mknod refused here (a container?): /dev/null itself is the target"
	dev=/dev/null
fi
before=$(fingerprint "$dev")

for force in "" --force; do
	# shellcheck disable=SC2086 # $force is empty or one word
	ws -b 1 -B 1M $force "$dev"
	assert_status 3
	assert_lines "$ERR" 2 "stderr"
	assert_file_match "$ERR" "^writestress: refusing '$dev': .*character device" "refusal message"
	assert_file_match "$ERR" '^hint: ' "hint line"
	assert_eq "" "$(cat "$OUT")" "stdout"
	assert_eq "$before" "$(fingerprint "$dev")" "the device node"
done
[ -c "$dev" ] || fail "$dev is no longer a character device"
