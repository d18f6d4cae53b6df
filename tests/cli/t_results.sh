# --json and --csv: the result is parsed back by independent parsers
# (python's json and csv) and checked field by field; a SIGINT-ended run
# still leaves a complete, valid result; bad result paths are usage errors
# found before anything is written.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3
check="python3 $CLI_DIR/py/check_result.py"

ws --size 64M -B 1M --rate 32M/s -i 100ms --probe-interval 50ms \
	--json r.json --csv r.csv data
assert_status 0
$check "$WORK/r.json" --csv "$WORK/r.csv" --bytes 67108864 --reason bound \
	--min-intervals 15 || fail "result check failed"
assert_file_match "$OUT" '^  results  r\.json · r\.csv   \(-v: details\)$' "results line"
assert_dir_only "$WORK" data r.json r.csv

# ended by SIGINT: still complete and valid, with the reason
rm -f "$WORK/r.json" "$WORK/r.csv"
ws_bg --size 1G -B 1M --rate 20M/s --json r.json data
wait_for 10 "an interval line" intervals_at_least 1
kill -INT "$WS_PID"
ws_wait "$(scaled 10)"
assert_status 130
$check "$WORK/r.json" --reason signal --signal SIGINT || fail "SIGINT result check failed"
assert_dir_only "$WORK" data r.json

# result paths that cannot be used: exit 2 before a byte is written
rm -f "$WORK/data"
ws --size 1M --json /nonexistent/dir/r.json data
assert_status 2
assert_file_match "$ERR" "^writestress: invalid --json '/nonexistent/dir/r.json': cannot write" "bad directory"
ln -s r.json "$WORK/link.json"
ws --size 1M --csv link.json data
assert_status 2
assert_file_match "$ERR" "^writestress: invalid --csv 'link.json': 'link.json' exists and is not a regular file" "symlink"
assert_dir_only "$WORK" r.json link.json
