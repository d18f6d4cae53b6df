# --pace direct --iodepth N queues O_DIRECT writes with io_uring:
# - the option is refused outside direct and dontcache, and out of range;
# - a queued run writes every byte where it belongs (--verify, random data
#   reusing its pool slots), the device's own counters saw at least those
#   bytes, the writes went through io_uring_enter and not pwrite, and the
#   result names the engine, the depth and the most writes in flight;
# - where the kernel refuses io_uring (kernel.io_uring_disabled=2, root),
#   the run says so, goes on with synchronous writes, and the result says
#   which engine wrote;
# - dontcache takes the same depth where the kernel has RWF_DONTCACHE.
# needs: alone (it sets kernel.io_uring_disabled for the whole machine)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

HINT="Try 'writestress --help' for more information."
ws --iodepth 4 -s 8M data
assert_usage_error "writestress: --" "$HINT" "--iodepth needs --pace direct or dontcache, not window" "--iodepth with window"
ws --pace direct --iodepth 0 -s 8M data
assert_usage_error "writestress: invalid --iodepth '0'" "$HINT" "between 1 and 64" "--iodepth 0"
ws --pace direct --iodepth 65 -s 8M data
assert_usage_error "writestress: invalid --iodepth '65'" "$HINT" "between 1 and 64" "--iodepth 65"

# result.json EXPECT...: python assertions on r (the result) and s (summary)
check_json()
{
	_json=$1
	shift
	python3 - "$WORK/$_json" "$@" <<'PY' || fail "result checks on $_json"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
q = r["config"]["queue"]
devs = [iv["device"]["write_bytes"] for iv in r["intervals"] if iv.get("device")]
dev = sum(devs) if devs else None
print("queue:", q, "peak:", s["queue_peak"], "bytes:", s["bytes"], "device:", dev)
for expr in sys.argv[2:]:
    assert eval(expr), expr
PY
}

ws -v --pace direct --iodepth 4 --size 256M -B 8M --verify --json q.json data
assert_status 0
assert_file_match "$OUT" '^  run      32 × 8\.00 MiB = 256 MiB, pace direct, io_uring depth 4, data random$' "the header names the queue"
assert_file_match "$OUT" 'submit [0-9]+% · wait completions [0-9]+%' "the time split is submit and wait"
assert_file_no_match "$OUT" ' write [0-9]+% ' "no write() in the time split"
assert_file_match "$OUT" '^  verified: every block as written$' "every block where it belongs"
check_json q.json 'q["engine"] == "io_uring" and q["depth"] == 4 and q["refused"] is None' \
	'r["config"]["iodepth"] == 4' 's["bytes"] == 256 << 20' 's["queue_peak"] == 4' \
	's["verify"]["clean"]' \
	'dev is None or dev >= s["bytes"]' \
	's["writer_s"]["wait_completion"] > 0 and s["writer_s"]["write"] == 0'
python3 -c 'import json, sys; sys.exit(any(iv.get("device") for iv in json.load(open(sys.argv[1]))["intervals"]))' "$WORK/q.json" &&
	skip_part blockdev "$WORK is on no block device: the device's counters against the bytes queued not checked"

# one synchronous O_DIRECT write at a time: write() is its time, and
# the disk behind it the limit (the job's fact that the writes bypass
# the page cache, not a guess from the pace)
ws -v --pace direct --size 32M -B 8M --no-probe --json d.json data
assert_status 0
check_json d.json 'q["engine"] == "sync" and q["depth"] == 1' \
	's["writer_s"]["write"] > 0'
if python3 -c 'import json, sys; sys.exit(not any(iv.get("device") for iv in json.load(open(sys.argv[1]))["intervals"]))' "$WORK/d.json"; then
	assert_file_match "$OUT" '→ the disk was the limit \(O_DIRECT writes\)$' "O_DIRECT writes named as the limit"
else
	skip_part blockdev "$WORK is on no block device: --pace direct's limit not checked"
fi

# seen from outside: io_uring_enter, and no pwrite of the data
if [ -z "$SANITIZE" ] && command -v strace >/dev/null 2>&1; then
	LOG=$TESTDIR/strace.log
	LAST_CMD="strace writestress --pace direct --iodepth 4 --size 64M data"
	(cd "$WORK" && exec strace -f -qq -e trace=io_uring_setup,io_uring_enter,pwrite64,pwritev2 \
		-o "$LOG" "$WS" --pace direct --iodepth 4 --size 64M -B 8M --no-probe -q data) \
		>"$OUT" 2>"$ERR" </dev/null
	rc=$?
	assert_status 0
	assert_file_match "$LOG" 'io_uring_setup\(4,' "one ring of depth 4"
	n=$(grep -c 'io_uring_enter(' "$LOG")
	assert_ge "$n" 8 "io_uring_enter calls for 8 buffers"
	assert_file_no_match "$LOG" 'pwrite(64|v2)\(' "no synchronous writes"
elif [ -n "$SANITIZE" ]; then
	skip_part sanitizer "strace part: the $SANITIZE runtime makes calls of its own"
else
	skip_part cmd "strace part: needs strace, which is not installed"
fi

# the kernel refuses io_uring: say so, write synchronously, record it
SYSCTL=/proc/sys/kernel/io_uring_disabled
if ! have_root; then
	skip_part root "the io_uring fallback part sets $SYSCTL"
elif [ ! -w "$SYSCTL" ]; then
	skip_part_kernel 6.6 "the io_uring fallback part needs $SYSCTL"
else
	old=$(cat "$SYSCTL")
	at_exit "echo $old > $SYSCTL"
	echo 2 >"$SYSCTL"
	ws --pace direct --iodepth 4 --size 64M -B 8M --json f.json data
	echo "$old" >"$SYSCTL"
	assert_status 0
	assert_file_match "$ERR" '^writestress: --iodepth 4: io_uring is not available here \(Operation not permitted\); writing one synchronous direct write at a time$' "the fallback said"
	assert_file_match "$ERR" '^hint: .*io_uring_disabled' "with a hint"
	check_json f.json 'q["engine"] == "sync" and q["depth"] == 1' 'q["refused"] == "Operation not permitted"' \
		's["queue_peak"] is None' 's["bytes"] == 64 << 20' 's["writer_s"]["write"] > 0'
fi

# dontcache at depth 4, where the kernel and filesystem have it
ws --pace dontcache --iodepth 4 --size 64M -B 8M --json d.json data
if [ "$rc" -ne 0 ] && grep -q 'is not supported' "$ERR"; then
	skip_part_kernel 6.14 "dontcache part: $(head -n 1 "$ERR")"
else
	assert_status 0
	check_json d.json 'q["engine"] == "io_uring" and q["depth"] == 4' 's["bytes"] == 64 << 20' \
		'1 <= s["queue_peak"] <= 4'
fi
