# -b 16 writes exactly 16 buffers of the default 8 MiB: 128 MiB, and says so
# in the overwrite.c-style summary line.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

ws -b 16 data
assert_status 0
assert_size "$WORK/data" 134217728
assert_eq "" "$(cat "$ERR")" "stderr"
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
# 128 MiB is 0.125 GiB, stated exactly
assert_file_match "$OUT" '^128\.0 MiB written in ' "amount in the summary"
# nothing else (probe files, temporaries) is left next to the file
assert_dir_only "$WORK" data
