# make demo's script (scripts/demo.sh) as root: in under a minute of its
# own work (the waits for the machine's other writeback to drain, which
# the matrix reports, aside: other tests write beside it), on a slow disk
# of its own, the table shows the problem - the unpaced writes
# (--pace none) freeze the fsync probe for seconds, at least 4x longer at
# p99 than overwrite.c's pacing does (judged from the JSON's own rows), the plot
# and the result are left, and the disk is gone afterwards.  Interrupted
# (Ctrl-C to its process group), it still takes the disk down.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
# its one-minute bound and its figures are the plain build's; its code
# (matrix, the strategies, adaptive pacing) runs under the sanitizers in
# t_e2e_matrix and t_e2e_adaptive
not_under_sanitizer "make demo's bound and figures are judged in the plain build; matrix and adaptive pacing run under the sanitizers in t_e2e_matrix and t_e2e_adaptive"

DEMO=$CLI_DIR/../../scripts/demo.sh
DEMO_BOUND_S=60	# its own work; README.md states it (tests/claims.tsv)
start=$(date +%s)
(cd "$WORK" && sh "$DEMO" "$WS") >"$OUT" 2>"$ERR" </dev/null
rc=$?
took=$(($(date +%s) - start))
LAST_CMD="sh scripts/demo.sh writestress"
assert_status 0
echo "  the demo took $took s"
for s in none window.fadvise adaptive; do
	assert_file_match "$OUT" "^  [ *]$s " "the table's row for $s"
done
assert_dir_only "$WORK" writestress-demo.json writestress-demo.svg
python3 - "$WORK/writestress-demo.json" "$took" "$(scaled "$DEMO_BOUND_S")" <<'PY' || fail "the demo does not show the stall difference, or took too long"
import json, sys
d = json.load(open(sys.argv[1]))
took, bound = int(sys.argv[2]), int(sys.argv[3])
waits = sum(r["quiet_wait_s"] for r in d["runs"])
print(f"  of which {waits:.1f} s waiting for the machine's writeback to drain")
if took - waits > bound:
    print(f"  the demo's own work took {took - waits:.0f} s, more than {bound}")
    sys.exit(1)
NONE_OVER_PACED_X = 4	# README.md states it (tests/claims.tsv)
rows = {r["strategy"]: r for r in d["table"]}
for k, r in rows.items():
    print(f"  {k}: {r['mibps']:.1f} MiB/s, fsync p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms, stalls {r['stalls']}")
none, paced = rows["none"], rows["window+fadvise"]
# the unpaced writes froze the probe for seconds, and at least 4x longer
# than overwrite.c's pacing held it (4.7 s against 0.72-0.76 s in ten runs)
sys.exit(0 if d["complete"] and none["stalls"] >= 1 and none["max_ms"] >= 2000
         and none["p99_ms"] >= NONE_OVER_PACED_X * paced["p99_ms"] else 1)
PY

# interrupted half way, as a Ctrl-C does (to the whole process group, with
# SIGINT not ignored as a background job's is): the disk goes all the same
rm -f "$WORK"/writestress-demo.*
# emptied here, not by the background job's own redirection, which may come
# after the first look for the matrix's first line (the last run's)
: >"$OUT"
(cd "$WORK" && exec setsid env --default-signal=INT sh "$DEMO" "$WS") >"$OUT" 2>"$ERR" </dev/null &
pid=$!
_bg_pids="$_bg_pids $pid"
n=0
until grep -q '^  \[1/3\]' "$OUT" 2>/dev/null; do
	[ "$n" -ge "$(scaled 600)" ] && fail "the demo's matrix did not get going"
	sleep 0.1
	n=$((n + 1))
done
kill -INT -"$pid"
n=0
while alive "$pid" && [ "$n" -lt "$(scaled 300)" ]; do
	sleep 0.1
	n=$((n + 1))
done
alive "$pid" && fail "the demo still runs 30 s after Ctrl-C"
wait "$pid"
rc=$?
assert_status 130
[ ! -e "$WORK/writestress-demo.rig" ] || fail "the demo's disk is still there after Ctrl-C"
