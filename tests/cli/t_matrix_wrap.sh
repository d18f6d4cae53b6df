# writestress matrix --each TIME --file-size SIZE: every strategy runs its
# time, wrapping at SIZE as the help says, not one pass over the file (the
# children were once given --size SIZE and stopped at it in milliseconds,
# with one probe, and the table still recommended one).  On a small tmpfs:
# each run ends by its time, after writing more than the file holds, and
# the file never grows past SIZE.
# needs: cpu (memory-speed writes for 4 s)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3
small_tmpfs 96M
ws matrix --strategies window,direct --each 2s --file-size 16M --json "$TESTDIR/m.json" "$TMPFS/f"
assert_status 0
assert_size "$TMPFS/f" $((16 * 1024 * 1024))
python3 - "$TESTDIR/m.json" <<'PY' || fail "the matrix's runs did not run their time, wrapping"
import json, sys
m = json.load(open(sys.argv[1]))
bad = []
for run in m["runs"]:
    s = run["result"]["summary"]
    print(f"  {run['strategy']}: {s['bytes'] >> 20} MiB in {s['elapsed_s']:.2f} s, ended by {s['exit_reason']}")
    if s["exit_reason"] != "time" or s["elapsed_s"] < 1.9:
        bad.append(f"{run['strategy']} ended by {s['exit_reason']} after {s['elapsed_s']:.2f} s")
    if s["bytes"] <= 16 << 20:
        bad.append(f"{run['strategy']} wrote {s['bytes']} bytes: no wrap")
for b in bad:
    print("  BAD:", b)
sys.exit(1 if bad else 0)
PY
