# The summary and the JSON say what the tool itself cost in CPU time, and
# the figures agree with what the kernel accounted for the process
# (/usr/bin/time's user + system, read when it exited): the process's
# total is taken a moment before exit, so it is at most that and at least
# 80% of it; the writer's and the probes' shares are within the total;
# seconds per GiB is the total over the GiB written.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3
[ -x /usr/bin/time ] || skip_as cmd "needs /usr/bin/time (Debian's time package)"

LAST_CMD="time writestress -v --size 512M -B 8M --json r.json data"
(cd "$WORK" && exec /usr/bin/time -f 'time %U %S' -o "$TESTDIR/time" "$WS" \
	-v --size 512M -B 8M --pace none --json r.json data) >"$OUT" 2>"$ERR" </dev/null
rc=$?
assert_status 0
cat "$TESTDIR/time"
assert_file_match "$OUT" '^  cpu      [0-9.]+ s, [0-9.]+ s per GiB written: writer [0-9.]+ s, probes [0-9.]+ s, the rest [0-9.]+ s' "the summary's cpu line"
python3 - "$WORK/r.json" "$TESTDIR/time" <<'PY' || fail "cpu figures"
import json, sys
cpu = json.load(open(sys.argv[1]))["summary"]["cpu"]
_, user, sys_ = open(sys.argv[2]).read().split()
kernel = float(user) + float(sys_)
print("json:", cpu, "kernel:", kernel)
# /usr/bin/time has 10 ms resolution; getrusage has microseconds
assert cpu["total_s"] <= kernel + 0.02, (cpu, kernel)
assert cpu["total_s"] >= 0.8 * kernel - 0.02, (cpu, kernel)
assert 0 < cpu["writer_s"] <= cpu["total_s"], cpu
assert 0 <= cpu["probes_s"] <= cpu["total_s"] - cpu["writer_s"] + 1e-6, cpu
gib = 512 / 1024
assert abs(cpu["per_gib_s"] - cpu["total_s"] / gib) <= 1e-6 + 1e-3 * cpu["per_gib_s"], cpu
PY
