# --file-size 64M --size 256M wraps three times: a 64 MiB file that has
# been written 4 times over.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

ws -v --file-size 64M --size 256M -B 1M data
assert_status 0
assert_size "$WORK/data" 67108864
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_file_match "$OUT" '^256\.0 MiB written in ' "amount in the summary"
assert_file_match "$OUT" 'overwritten in place 3 times' "wrap count"
assert_dir_only "$WORK" data
