# End to end: a Ctrl-C in the middle of a --dirty-bytes matrix on a
# throttled disk (20 MiB/s): exit 130, the table so far, a partial JSON
# (complete false) and vm.dirty_bytes / dirty_ratio as they were.
# needs: alone (--dirty-bytes sets vm.dirty_bytes for the whole machine)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

R=$((20 * MiB))
rig_up rig --size 512M --rate "$R"

# Ctrl-C mid-matrix, under a changed vm.dirty_bytes
old_bytes=$(cat /proc/sys/vm/dirty_bytes)
old_ratio=$(cat /proc/sys/vm/dirty_ratio)
ws_bg matrix --strategies window,window+fadvise --each 2s --dirty-bytes 64M,128M \
	--file-size 64M --json "$TESTDIR/int.json" "$RIG_MNT/big"
# the second run's writer thread is up (its signal handling too): Ctrl-C
writing_second()
{
	grep -q '\[2/4\]' "$OUT" 2>/dev/null || return 1
	for st in /proc/[0-9]*/stat; do
		# pid (comm) state ppid: the matrix's child
		# shellcheck disable=SC2046 # the fields are meant to split
		set -- $(cat "$st" 2>/dev/null) x x x x
		[ "$4" = "$WS_PID" ] || continue
		cat /proc/"$1"/task/*/comm 2>/dev/null | grep -q '^ws-writer' && return 0
	done
	return 1
}
i=0
while ! writing_second; do
	i=$((i + 1))
	[ "$i" -lt "$(scaled 600)" ] || fail "the matrix never started its second run"
	sleep 0.1
done
kill -INT "$WS_PID"
ws_wait "$(scaled 60)"
assert_status 130
cat "$OUT"
assert_file_match "$OUT" 'interrupted: 2 of 4 runs done' "what was done"
assert_file_match "$OUT" '^  (no )?recommendation' "the table so far"
assert_eq "$old_bytes" "$(cat /proc/sys/vm/dirty_bytes)" "vm.dirty_bytes put back"
assert_eq "$old_ratio" "$(cat /proc/sys/vm/dirty_ratio)" "vm.dirty_ratio put back"
python3 - "$TESTDIR/int.json" <<'PY' || fail "the interrupted matrix's JSON is not a partial result"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["complete"] is False, m["complete"]
assert len(m["runs"]) == 2, len(m["runs"])
assert m["runs"][0]["result"]["summary"]["exit_reason"] == "time", m["runs"][0]["result"]["summary"]["exit_reason"]
assert m["runs"][1]["result"]["summary"]["exit_reason"] == "signal", m["runs"][1]["result"]["summary"]["exit_reason"]
assert m["setting_kind"] == "dirty_bytes" and m["settings"] == ["64M", "128M"]
print("  interrupted matrix: 2 runs, the second ended by the signal")
PY

