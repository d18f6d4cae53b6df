# A symbolic link is refused (exit 3, one message and a hint), with or
# without --force, whether it points at a file writestress itself made or
# nowhere; neither the link nor its target changes.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

ws -b 1 -B 1M real
assert_status 0
ln -s real "$WORK/link"
ln -s missing "$WORK/dangling"
before_real=$(fingerprint "$WORK/real")
before_link=$(fingerprint "$WORK/link")

check_refused()
{
	assert_status 3
	assert_lines "$ERR" 2 "stderr"
	assert_file_match "$ERR" "^writestress: refusing '$1': .*symbolic link" "refusal message"
	assert_file_match "$ERR" '^hint: ' "hint line"
	assert_eq "" "$(cat "$OUT")" "stdout"
}

for force in "" --force; do
	# shellcheck disable=SC2086 # $force is empty or one word
	ws -b 2 -B 1M $force link
	check_refused link
	assert_eq "$before_real" "$(fingerprint "$WORK/real")" "target of the link"
	assert_eq "$before_link" "$(fingerprint "$WORK/link")" "the link itself"

	# shellcheck disable=SC2086
	ws -b 2 -B 1M $force dangling
	check_refused dangling
	assert_missing "$WORK/missing"
done
assert_dir_only "$WORK" real link dangling
