# -f drops what reached the disk: after a paced run with -f little of the
# file is left in the page cache, while the same paced run without -f, and
# a --pace none run (which neither waits for writeback nor drops anything),
# leave most of it there - 64 MiB on a machine with gigabytes free is kept
# by the kernel unless something drops it, so the difference is -f's.
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

ws -B 1M --size 64M kept
assert_status 0
res=$(resident "$WORK/kept")
echo "paced without -f: $res of $size bytes resident"
assert_ge "$res" $((size / 2)) "bytes resident after a paced run without -f (at least half)"

ws --pace none -B 1M --size 64M plain
assert_status 0
res=$(resident "$WORK/plain")
echo "with --pace none: $res of $size bytes resident"
assert_ge "$res" $((size / 2)) "bytes resident after --pace none (at least half)"
