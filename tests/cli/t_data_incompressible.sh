# --data random is incompressible although it comes from a 16 MiB pool
# with a stamp a block: gzip and zstd (their default levels and windows)
# save under 1% of 128 MiB of it, as they do of true random bytes; and
# compressible=50 compresses to about half, so the check can fail.  (A
# compressor whose window spans the whole pool, zstd --long=27, would find
# the repeats: the stamps keep 4 KiB blocks unique, not the bytes between;
# SSD controllers compress a block or page at a time.)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd gzip zstd

size=$((128 * 1024 * 1024))

compressed()
{
	"$@" <"$WORK/data" | wc -c
}

ws --size 128M -B 8M --no-probe -q data
assert_status 0
assert_size "$WORK/data" "$size"
for c in "gzip -c" "zstd -q -c"; do
	# shellcheck disable=SC2086 # the compressor and its flags
	n=$(compressed $c)
	echo "$c: $n of $size bytes"
	assert_ge "$n" $((size * 99 / 100)) "$c output of random data (at least 99% of it)"
done

ws --size 128M -B 8M --no-probe -q --data compressible=50 data
assert_status 0
n=$(compressed zstd -q -c)
echo "zstd of compressible=50: $n of $size bytes"
assert_le "$n" $((size * 60 / 100)) "zstd output of compressible=50 data (at most 60%)"
