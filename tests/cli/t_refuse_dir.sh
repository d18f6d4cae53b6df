# A directory is refused (exit 3, one message and a hint), even with
# --force, and nothing in it changes.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

mkdir "$WORK/dir"
echo keep >"$WORK/dir/inside"
before=$(fingerprint "$WORK/dir")
before_inside=$(fingerprint "$WORK/dir/inside")

for target in dir dir/; do
	for force in "" --force; do
		# shellcheck disable=SC2086 # $force is empty or one word
		ws -b 1 -B 1M $force "$target"
		assert_status 3
		assert_lines "$ERR" 2 "stderr"
		assert_file_match "$ERR" "^writestress: refusing '$target': .*directory" "refusal message"
		assert_file_match "$ERR" '^hint: ' "hint line"
		assert_eq "" "$(cat "$OUT")" "stdout"
		assert_eq "$before" "$(fingerprint "$WORK/dir")" "the directory"
		assert_eq "$before_inside" "$(fingerprint "$WORK/dir/inside")" "a file in it"
		assert_dir_only "$WORK/dir" inside
	done
done
