# writestress matrix: bad command lines exit 2 with one line naming the
# option and the value and the pointer to its --help, print nothing and
# create no file (the run's options by the run's rules, before any run);
# --help describes the strategies; --dirty-bytes is
# refused to a user who is not root.  --headroom reaches the adaptive row
# alone, and the matrix file says it (a second each on a tmpfs).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

HINT="Try 'writestress matrix --help' for more information."
rows=0
while IFS='|' read -r args needles; do
	case $args in '' | '#'*) continue ;; esac
	set -f
	# shellcheck disable=SC2086 # the table's arguments are meant to split
	ws matrix $args
	set +f
	assert_usage_error 'writestress: matrix: ' "$HINT" "$needles" "writestress matrix $args"
	assert_dir_only "$WORK"
	rows=$((rows + 1))
done <<'TABLE'
--strategies bogus f              |--strategies;unknown strategy 'bogus'
--strategies window,window f      |'window' is listed twice
--strategies window:W=0 f         |'W=0' in 'window'
--strategies none:W=2 f           |'W=2' in 'none'
--each 0s f                       |--each '0s'
--each 5x f                       |--each '5x'
--each 10K f                      |--each '10K'
--repeat 0 f                      |--repeat;'0'
--repeat 20 --schedulers a,b,c,d --strategies idle,none,window,fdatasync,direct,dontcache,adaptive,window:W=2 f |--repeat '20';640 runs in all, at most 512
--target-latency 0 f              |--target-latency;'0'
--target-latency 61s f            |--target-latency '61s';at most
--stall 0 f                       |--stall '0'
--sqlite-journal bogus f          |--sqlite-journal 'bogus';expected delete or wal
--probe bogus f                   |--probe 'bogus';unknown probe
--headroom 51 f                   |--headroom '51';between 0 and 50
--headroom x f                    |--headroom 'x'
--schedulers bfq --dirty-bytes 64M f |--schedulers and --dirty-bytes
--dirty-bytes 1K f                |--dirty-bytes '1K'
--dirty-bytes , f                 |--dirty-bytes ',';empty
--dirty-bytes 1M,2M,3M,4M,5M,6M,7M,8M,9M f |--dirty-bytes;at most 8
--schedulers , f                  |--schedulers ',';empty
--schedulers a,b,c,d,e,f,g,h,i f  |--schedulers;at most 8
--bogus f                         |'--bogus'
f g                               |unexpected argument 'g'
TABLE
assert_ge "$rows" 24 "rows of the table checked"

ws matrix
assert_usage_error 'writestress: matrix: ' "$HINT" "missing FILE" "writestress matrix"

ws matrix --help
assert_status 0
assert_file_match "$OUT" '^Usage: writestress matrix ' "usage line"
assert_file_match "$OUT" 'idle .the probes alone: the baseline.' "the strategies explained"
assert_file_match "$OUT" 'Pareto front' "the front explained"

small_tmpfs 32M
ws matrix --strategies window,adaptive --each 1s --file-size 8M --headroom 8 --json "$TESTDIR/m.json" "$TMPFS/f"
assert_status 0
python3 - "$TESTDIR/m.json" <<'PY' || fail "--headroom did not reach the adaptive row alone"
import json, sys
d = json.load(open(sys.argv[1]))
got = {r["strategy"]: r["result"]["config"]["headroom_pct"] for r in d["runs"]}
print(f"  headroom_pct: the matrix's {d['headroom_pct']}, its runs' {got}")
assert d["headroom_pct"] == 8 and got == {"window": 0, "adaptive": 8}
PY

if ! have_root; then
	skip_part root "--dirty-bytes refused to a user: needs root to become one"
elif ! have_cmd setpriv; then
	skip_part cmd "--dirty-bytes refused to a user: needs setpriv, which is not installed"
else
	# not root: --dirty-bytes changes the whole machine
	ws_as_nobody matrix --dirty-bytes 64M f
	assert_status 2
	assert_file_match "$ERR" 'dirty_bytes for the whole machine: root only' "refusal to a user"
	assert_missing "$WORK/f"
fi
