# writestress verify reads a file back and checks every 4 KiB block by its
# stamp: a clean run verifies; a doctored copy of it is caught block by
# block - one flipped byte (corrupt), a block copied to another offset
# (misplaced), a block of an older pass put back where the newest pass
# wrote (a lost write) - and data without stamps (fixed) is called so.
# Usage errors exit 2, bad blocks 1.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd dd cmp

verify()
{
	LAST_CMD="writestress verify $*"
	printf '+ %s\n' "$LAST_CMD"
	rc=0
	(cd "$WORK" && exec "$WS" verify "$@") >"$OUT" 2>"$ERR" </dev/null || rc=$?
	cat "$OUT"
}

# put_block FROM_FILE FROM_OFFSET TO_FILE TO_OFFSET: one 4 KiB block
put_block()
{
	dd if="$1" of="$3" bs=4096 skip=$(($2 / 4096)) seek=$(($4 / 4096)) count=1 \
		conv=notrunc status=none || fail "dd"
}

ws --size 16M -B 1M --no-probe --seed 5 -q data
assert_status 0
verify data
assert_status 0
assert_file_match "$OUT" '^verify   data: 4096 blocks of 4 KiB \(16\.0 MiB\); run 0000000000000005 wrote 0 B–16\.0 MiB, newest pass 0 to 16\.0 MiB$' "the clean file"
assert_file_match "$OUT" '^         4096 ok, 0 corrupt, 0 misplaced, 0 lost' "all ok"
assert_file_match "$OUT" '^verified: every block as written$' "verdict"
cp "$WORK/data" "$WORK/clean"

# one flipped byte in a block's payload
printf '\377' | dd of="$WORK/data" bs=1 seek=$((5 * 4096 + 100)) conv=notrunc status=none
verify data
assert_status 1
assert_file_match "$OUT" '^         4095 ok, 1 corrupt, 0 misplaced, 0 lost' "one corrupt"
assert_file_match "$OUT" '^         at 20\.0 KiB: corrupt$' "where"
assert_file_match "$OUT" '^NOT verified' "verdict"

# a block written at the wrong place
cp "$WORK/clean" "$WORK/data"
put_block "$WORK/clean" 8192 "$WORK/data" 40960
verify data
assert_status 1
assert_file_match "$OUT" '^         4095 ok, 0 corrupt, 1 misplaced' "one misplaced"
assert_file_match "$OUT" '^         at 40\.0 KiB: misplaced \(written for offset 8\.00 KiB\)$' "where, and for where"

# a lost write: the same run rewrites the first 8 MiB (pass 1); one block
# of pass 0 put back inside them is what a write that never landed leaves
cp "$WORK/clean" "$WORK/data"
ws --size 24M --file-size 16M -B 1M --no-probe --seed 5 -q data
assert_status 0
verify data
assert_status 0
assert_file_match "$OUT" 'newest pass 1 to 8\.00 MiB$' "the second pass"
put_block "$WORK/clean" 4096 "$WORK/data" 4096
verify data
assert_status 1
assert_file_match "$OUT" '^         4095 ok, 0 corrupt, 0 misplaced, 1 lost' "one lost"
assert_file_match "$OUT" '^         at 4\.00 KiB: lost: an older pass$' "where"
# the run given explicitly: another run's blocks are not this one's
verify --run 6 clean
assert_status 1
assert_file_match "$OUT" '4096 of another run$' "another run"

# fixed data (overwrite.c's) carries no stamps
ws --size 1M -B 1M --no-probe --data fixed -q fixed
assert_status 0
verify fixed
assert_status 1
assert_file_match "$OUT" '^         0 ok, 0 corrupt, 0 misplaced, 0 lost \(an older pass\), 256 unstamped' "unstamped"

# usage and refusals: exit 2, one line and the hint
verify
assert_usage_error "writestress: verify: " \
	"Try 'writestress verify --help' for more information." "missing FILE operand" "writestress verify"
verify --run xyz data
assert_status 2
assert_file_match "$ERR" "^writestress: verify: invalid --run 'xyz': " "bad --run"
verify data data
assert_usage_error "writestress: verify: " \
	"Try 'writestress verify --help' for more information." "one FILE only" "writestress verify data data"
mkdir "$WORK/adir"
verify adir
assert_status 2
assert_file_match "$ERR" "^writestress: verify: cannot read 'adir': not a regular file" "a directory is no file"
verify --help
assert_status 0
assert_file_match "$OUT" '^Usage: writestress verify \[OPTION\]\.\.\. FILE$' "verify's usage line"
assert_file_match "$OUT" '^Exit status:$' "verify's exit statuses"
ln -s data "$WORK/link"
verify link
assert_status 2
assert_file_match "$ERR" "^writestress: verify: cannot read 'link': " "a symlink is not followed"

# --verify: the run reads its file back after the clock stopped
ws -v --size 16M -B 1M --no-probe --seed 9 --verify --json r.json -q after
assert_status 0
assert_file_match "$OUT" '^  verify   .*after: 4096 blocks of 4 KiB \(16\.0 MiB\); run 0000000000000009 wrote 0 B–16\.0 MiB, newest pass 0 to 16\.0 MiB$' "the read-back"
assert_file_match "$OUT" '^  verified: every block as written$' "its verdict"
python3 - "$WORK/r.json" <<'PY' || fail "the result's verify member"
import json, sys
v = json.load(open(sys.argv[1]))["summary"]["verify"]
assert v["clean"] is True and v["blocks"] == 4096 and v["ok"] == 4096, v
assert v["run"] == 9 and v["lost"] == 0 and v["bad"] == [], v
PY
ws --size 1M --no-probe --data fixed --verify fixed2
assert_usage_error "writestress: " "Try 'writestress --help' for more information." \
	"--verify needs stamped data: --data random or compressible, not fixed" "--verify --data fixed"

# nothing to verify is no pass: a file shorter than one block
printf 'short' >"$WORK/tiny"
ws verify tiny
assert_status 1
assert_file_match "$OUT" '^NOT verified: nothing to verify$' "nothing to verify"
# a shorter rerun in place: the newest run's extent judged, the earlier
# run's tail named as such, not a failure
rm -f "$WORK/long"
ws -s 8M -B 1M -q --no-probe --seed 11 long
ws -s 2M -B 1M -q --no-probe --seed 12 long
ws verify long
assert_status 0
assert_file_match "$OUT" 'wrote 0 B–2\.00 MiB' "the newest run's extent"
assert_file_match "$OUT" '^         after 2\.00 MiB: 1536 blocks \(6\.00 MiB\) of an earlier run, [0-9a-f]{16}, intact: its tail, past where this run rewrote the file in place \(--truncate empties the file first\)$' "the earlier run's tail named"
assert_file_match "$OUT" '^verified: every block as written$' "verdict"
