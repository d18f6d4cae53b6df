# A target on tmpfs is named for what it is: the header says "memory, not
# a disk" after the filesystem, and the summary's verdict on the writer
# says the writes themselves were the limit, the target being memory -
# never that the disk was, with --pace direct or otherwise; a target on a
# disk says neither.  Fixed data: generating random data takes as long as
# writing it to memory under a sanitizer (fill 54%, write 46% in one ASan
# run), and this test is about the target, not the data.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

small_tmpfs 64M
for pace in window direct none; do
	rm -f "$TMPFS/data"
	ws -v --size 16M --pace "$pace" --data fixed --json "$TESTDIR/r.json" "$TMPFS/data"
	assert_status 0
	assert_file_match "$OUT" "^writestress .* on tmpfs .* · memory, not a disk \(new file\)$" "the header (--pace $pace)"
	assert_file_match "$OUT" "^[0-9.]+ [MG]iB written in [0-9.]+ s \\([0-9.]+ MiB/s\\): the target is memory, no disk$" "the verdict's first line (--pace $pace)"
	assert_file_match "$OUT" "^  writer   .* → the writes themselves were the limit: the target is memory \(tmpfs, ramfs\), there is no disk$" "the summary (--pace $pace)"
	assert_file_no_match "$OUT" "the disk was the limit" "no disk to be the limit (--pace $pace)"
	python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["summary"]["writer_limit"]["kind"] != "memory")' "$TESTDIR/r.json" ||
		fail "writer_limit.kind is not memory (--pace $pace)"
done

if [ "$(stat -f -c %T "$WORK")" = tmpfs ]; then
	skip_part blockdev "the test directory is on tmpfs here: no disk target to compare with"
else
	ws --size 16M data
	assert_status 0
	assert_file_no_match "$OUT" "memory, not a disk" "a disk target"
fi
