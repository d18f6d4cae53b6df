# --probe-cmd, end to end without a rig: a failing command is counted
# apart from the latencies, with its reason and the last line of its
# stderr (summary, JSON); a Ctrl-C kills the command in flight
# and counts it as no probe; and however writestress ends - a second
# Ctrl-C, or killed outright - the command in flight does not outlive it,
# nor do its launcher or any probe file.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

gone()
{
	# the command, its launcher (writestress's own argv) and the files
	n=0
	while pgrep -f "sleep 30\.0$1" >/dev/null; do
		[ "$n" -ge "$(scaled 30)" ] && fail "'sleep 30.0$1' still runs after $2"
		sleep 0.1
		n=$((n + 1))
	done
	# shellcheck disable=SC2012 # plain names
	left=$(ls -A "$WORK" | grep '^writestress-probe' || true)
	[ -z "$left" ] || fail "probe files left after $2: $left"
}

# a command that fails: counted apart (no latency, no interval figure),
# with its exit status and the last line of its stderr
ws -v -t 2 --rate 1M/s --probe fsync,cmd --probe-cmd bad='echo starting >&2; echo "store locked" >&2; exit 3' \
	--json "$TESTDIR/bad.json" data
assert_status 0
assert_file_match "$OUT" '^  bad      0 probes$' "the failing command's probe line: no latency"
assert_file_match "$OUT" '^ +[1-9][0-9]* failed, counted apart from the latencies \(last: exit status 3: store locked\)$' "why it failed"
assert_file_no_match "$OUT" 'bad_p50_ms=[0-9]' "a failed command's time in an interval line"
python3 - "$TESTDIR/bad.json" <<'PY' || fail "the JSON does not say why the command failed"
import json, sys
p = next(p for p in json.load(open(sys.argv[1]))["probes"] if p["name"] == "bad")
f = p["failures"]
print(f"  bad: {p['count']} timed, {p['errors']} failed: {f}")
sys.exit(0 if p["count"] == 0 and p["errors"] == f["count"] > 0 and p["raw"]["count"] == 0
         and f["last"] == "exit status 3" and f["last_stderr"] == "store locked" else 1)
PY

# the command of the issue, as root: nobody may not write in the probe
# directory, and the summary says so in touch's own words
if have_root; then
	ws -v -t 1 --rate 1M/s --probe cmd --probe-cmd mail='touch x && sync x' --json "$TESTDIR/mail.json" data
	assert_status 0
	assert_file_match "$OUT" "failed, counted apart from the latencies \\(last: exit status 1: touch: cannot touch 'x': Permission denied\\)" "nobody's failure, in its words"
	python3 - "$TESTDIR/mail.json" <<'PY' || fail "the JSON lacks touch's words"
import json, sys
p = next(p for p in json.load(open(sys.argv[1]))["probes"] if p["name"] == "mail")
sys.exit(0 if p["failures"]["last_stderr"] == "touch: cannot touch 'x': Permission denied" else 1)
PY
else
	skip_part root "a command nobody may not run: needs root to run it as nobody"
fi

# a command slower than --stall: its stalls, and no wait site of
# writestress's own (the thread that waits for the command polls its
# launcher; the command waits elsewhere)
ws -v -t 2.5 --rate 1M/s --stall 200ms --probe cmd --probe-cmd slow='sleep 0.6' --json "$TESTDIR/slow.json" data
assert_status 0
assert_file_match "$OUT" '^ +[1-9][0-9]* stalls? ≥ 200 ms' "the command's stalls"
assert_file_no_match "$OUT" 'poll_schedule_timeout|waiting in' "a wait site of writestress's own"
python3 - "$TESTDIR/slow.json" <<'PY' || fail "the JSON gives the command a wait site"
import json, sys
p = next(p for p in json.load(open(sys.argv[1]))["probes"] if p["name"] == "slow")
print(f"  slow: {p['stalls']['count']} stalls, sites {p.get('wait_sites')}")
sys.exit(0 if p["stalls"]["count"] > 0 and not p.get("wait_sites") else 1)
PY

# Ctrl-C during a 30 s command: it is killed, the run ends, nothing counted
ws_bg -t 60 --rate 1M/s --probe cmd --probe-cmd nap='sleep 30.01' --json "$TESTDIR/int.json" data
wait_for 10 "the command running" pgrep -f '^sleep 30\.01'
kill -INT "$WS_PID"
ws_wait "$(scaled 5)"
assert_status 130
assert_file_no_match "$OUT" 'failed' "a failure after Ctrl-C"
gone 1 "a Ctrl-C"

# a second Ctrl-C exits at once: the launcher takes the command with it
ws_bg -t 60 --rate 1M/s --probe cmd --probe-cmd nap='sleep 30.02' data
wait_for 10 "the command running" pgrep -f '^sleep 30\.02'
kill -INT "$WS_PID"
sleep 0.1
kill -INT "$WS_PID" 2>/dev/null
ws_wait "$(scaled 5)"
assert_status 130
gone 2 "a second Ctrl-C"

# killed outright: no cleanup of its own, but the command still goes
ws_bg -t 60 --rate 1M/s --probe cmd --probe-cmd nap='sleep 30.03' data
wait_for 10 "the command running" pgrep -f '^sleep 30\.03'
kill -KILL "$WS_PID"
ws_wait "$(scaled 5)"
assert_status 137
gone 3 "writestress was killed"
