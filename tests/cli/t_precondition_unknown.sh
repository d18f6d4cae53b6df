# Without a capacity to precondition against (a tmpfs has no device under
# it), --until-steady asks for an explicit --precondition instead of
# guessing: a usage error naming the option, a hint, exit 2, and the file
# it had created is gone again.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

# no device under a tmpfs: the default 2x has nothing to multiply
small_tmpfs 64M
ws --size 32M --until-steady "$TMPFS/data"
assert_status 2
assert_file_match "$ERR" "^writestress: --precondition default \(2x\): the capacity of the device under '.*/data' is unknown" "refusal"
assert_file_match "$ERR" '^hint: give --precondition SIZE' "hint"
assert_dir_only "$TMPFS"
ws --size 32M --until-steady --precondition 1.5x "$TMPFS/data"
assert_status 2
assert_file_match "$ERR" "^writestress: --precondition as a multiple: the capacity" "refusal of a multiple"
assert_dir_only "$TMPFS"
