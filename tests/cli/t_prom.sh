# --prom: while the run goes, the file parses (prometheus_client's parser)
# with every metric of the running state, its counters rise from one look
# to the next, and node_exporter's textfile collector (our own instance on
# 127.0.0.1, as the caller) serves them without a scrape error and never
# a temporary; at the end the file says the run finished and how (SIGINT,
# then a run to its --size); '-' is refused as a usage error.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd curl prometheus-node-exporter
python_with prometheus_client python3-prometheus-client
check="$PY $CLI_DIR/py/check_prom.py"

# stdout makes no sense for a file renamed over every interval
ws --prom - --size 1M data
assert_usage_error "writestress: invalid --prom '-': " \
	"Try 'writestress --help' for more information." "cannot be stdout" "--prom -"
assert_dir_only "$WORK"

TEXTFILE=$WORK/textfile
mkdir "$TEXTFILE" || fail "cannot create $TEXTFILE"
# what tells our node_exporter from another one on the same port
SENTINEL="ws_test_sentinel{pid=\"$$\"} 1"
printf '%s\n' "$SENTINEL" >"$TEXTFILE/sentinel.prom"

# node_exporter on a free port: one that is taken makes it exit at once,
# and one that answers must serve our sentinel
PORT=""
_base=$((20000 + $$ % 20000))
for _i in $(seq 0 19); do
	_port=$((_base + _i * 7))
	prometheus-node-exporter --web.listen-address="127.0.0.1:$_port" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$TEXTFILE" \
		>"$TESTDIR/node_exporter.log" 2>&1 &
	_pid=$!
	at_exit "kill $_pid 2>/dev/null; wait $_pid 2>/dev/null"
	_n=0
	while alive "$_pid" && [ "$_n" -lt "$(scaled 100)" ]; do
		if curl -sf "http://127.0.0.1:$_port/metrics" 2>/dev/null |
		   grep -qxF "$SENTINEL"; then
			PORT=$_port
			break 2
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
	kill "$_pid" 2>/dev/null
	wait "$_pid" 2>/dev/null
done
[ -n "$PORT" ] || fail "node_exporter did not start on any of 20 ports: $(tail -n 3 "$TESTDIR/node_exporter.log")"
URL=http://127.0.0.1:$PORT/metrics
scrape() { curl -sf "$URL" >"$TESTDIR/scraped" || fail "cannot scrape $URL"; }

# appeared FILE: FILE is there; failing at once if writestress ended first
appeared()
{
	[ -e "$1" ] && return 0
	alive "$WS_PID" || fail "writestress ended before $1 appeared"
	return 1
}

# a long run, looked at while it goes, then ended by SIGINT
ws_bg --size 1G -B 1M --rate 8M/s -i 200ms --probe-interval 50ms \
	--prom textfile/ws.prom data
wait_for 10 "$TEXTFILE/ws.prom" appeared "$TEXTFILE/ws.prom"
b1=$($check "$TEXTFILE/ws.prom" --finished 0) || fail "running state: $b1"
scrape
b2=$($check - --finished 0 --exporter <"$TESTDIR/scraped") ||
	fail "served by node_exporter: $b2"
assert_no_match 'ws\.prom\.tmp' "$(grep '^node_textfile_mtime_seconds' "$TESTDIR/scraped")" \
	"node_exporter read a temporary"
_n=0
while :; do	# the next states, until the bytes rise
	b3=$($check "$TEXTFILE/ws.prom" --finished 0) || fail "running state, later: $b3"
	[ "$b3" -gt "$b1" ] && break
	[ "$_n" -ge "$(scaled 50)" ] && fail "bytes written did not rise: $b1 then $b3"
	sleep 0.1
	_n=$((_n + 1))
done
assert_le "$b1" "$b2" "bytes written, file then node_exporter"
alive "$WS_PID" || fail "writestress ended too soon (1 GiB at 8 MiB/s)"
kill -INT "$WS_PID"
ws_wait "$(scaled 10)"
assert_status 130
b4=$($check "$TEXTFILE/ws.prom" --finished 1 --reason signal) ||
	fail "final state after SIGINT: $b4"
assert_file_match "$TEXTFILE/ws.prom" '^writestress_ending_info\{target="data",reason="signal",signal="SIGINT",error=""\} 1$' "ending"
[ "$b4" -ge "$b3" ] || fail "bytes written went down at the end: $b3 then $b4"
assert_dir_only "$TEXTFILE" ws.prom sentinel.prom
scrape
$check - --finished 1 --reason signal --exporter <"$TESTDIR/scraped" >/dev/null ||
	fail "final state served: $(tail -n 1 "$TESTDIR/scraped")"

# a run to its bound replaces it; its last state is the whole run's
ws --size 4M -B 1M --rate 16M/s -i 100ms --probe-interval 20ms \
	--prom textfile/ws.prom data
assert_status 0
b5=$($check "$TEXTFILE/ws.prom" --finished 1 --reason bound --min-bytes 4194304) ||
	fail "final state of a bound run: $b5"
assert_eq 4194304 "$b5" "bytes written by the bound run"
assert_file_match "$OUT" '^  results  textfile/ws\.prom   \(-v: details\)$' "results line"
assert_dir_only "$TEXTFILE" ws.prom sentinel.prom
scrape
$check - --finished 1 --reason bound --exporter <"$TESTDIR/scraped" >/dev/null ||
	fail "bound run's final state served"
