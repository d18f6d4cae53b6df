# -f drops what reached the disk: after a paced run little of the file is
# left in the page cache.  A --pace none run is shown for contrast only
# (how much the kernel keeps cached there is its business).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd fincore

size=$((64 * 1024 * 1024))

resident()
{
	fincore --bytes --noheadings --output RES "$1" | tr -d ' '
}

ws -f -B 1M --size 64M paced
assert_status 0
assert_size "$WORK/paced" "$size"
res=$(resident "$WORK/paced")
[ -n "$res" ] || fail "fincore printed nothing for the file"
echo "with -f: $res of $size bytes resident"
assert_le "$res" $((size / 10)) "bytes resident after -f (at most 10% of the file)"

ws --pace none -B 1M --size 64M plain
assert_status 0
echo "with --pace none: $(resident "$WORK/plain") of $size bytes resident (for contrast)"
