# A target on tmpfs is named for what it is: the header says "memory, not
# a disk" after the filesystem, and the summary's verdict on the writer
# says the target is memory; a target on a disk says neither.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

small_tmpfs 64M
ws --size 16M "$TMPFS/data"
assert_status 0
assert_file_match "$OUT" "^writestress .* on tmpfs .* · memory, not a disk \(new file\)$" "the header"
assert_file_match "$OUT" "^  writer   .* → .*; the target is memory, not a disk$" "the summary"

if [ "$(stat -f -c %T "$WORK")" = tmpfs ]; then
	echo "(the test directory is on tmpfs here: no disk target to compare with)"
else
	ws --size 16M data
	assert_status 0
	assert_file_no_match "$OUT" "memory, not a disk" "a disk target"
fi
