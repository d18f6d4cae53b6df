# The systemd unit of writestress watch (contrib/systemd/, installed
# disabled): systemd-analyze verify takes it; under systemd it starts
# with systemd-run and stops on systemctl stop (SIGINT), where systemd
# is not PID 1 its own ExecStart line runs until a SIGINT; either way the
# Prometheus textfile is there while it runs, rewritten in place (the
# same inode never half written: a new one each interval), and says it
# finished once stopped.  make install puts it where systemd looks.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd_as cmd systemd-analyze
UNIT=$CLI_DIR/../../contrib/systemd/writestress-watch.service

# the unit as installed, its binary this build's
sed "s|/usr/bin/writestress|$WS|" "$UNIT" >"$TESTDIR/writestress-watch.service"
systemd-analyze verify --man=no "$TESTDIR/writestress-watch.service" >"$TESTDIR/verify" 2>&1 ||
	{ cat "$TESTDIR/verify"; fail "systemd-analyze verify refused the unit"; }
assert_eq "" "$(cat "$TESTDIR/verify")" "systemd-analyze verify's complaints"
assert_file_match "$UNIT" '^KillSignal=SIGINT$' "the unit stops the watch with SIGINT"
assert_file_match "$UNIT" '^SuccessExitStatus=130 143$' "a watch a signal ended is a success"
assert_file_no_match "$UNIT" '^ExecStart=.* (--force|-f)( |$)' "the unit replaces no file it did not write"

# its ExecStart, the variables its Environment= lines give set to ours
exec_line=$(sed -n 's/^ExecStart=//p' "$TESTDIR/writestress-watch.service")
exec_line=$(printf '%s' "$exec_line" | sed "s|\${WS_WATCH_DIR}|$WORK|; s|\${WS_PROM}|$TESTDIR/ws.prom|; s| -i 5s| -i 200ms|")
echo "  ExecStart: $exec_line"
if [ -d /run/systemd/system ] && have_root; then
	unit=ws-test-$$
	# shellcheck disable=SC2086 # the unit's words
	systemd-run --unit "$unit" -p KillSignal=SIGINT $exec_line >/dev/null 2>&1 ||
		fail "systemd-run failed"
	at_exit "systemctl stop '$unit' 2>/dev/null || true"
	wait_for 20 "the textfile" test -s "$TESTDIR/ws.prom"
	assert_eq active "$(systemctl is-active "$unit")" "the unit, running"
	systemctl stop "$unit"
else
	echo "  systemd is not PID 1 here: the ExecStart line itself, stopped by SIGINT"
	# shellcheck disable=SC2086 # the unit's words
	(cd "$WORK" && exec $exec_line) >"$OUT" 2>"$ERR" </dev/null &
	WS_PID=$!
	_bg_pids="$_bg_pids $WS_PID"
	wait_for 20 "the textfile" test -s "$TESTDIR/ws.prom"
	ino=$(stat -c %i "$TESTDIR/ws.prom")
	wait_for 10 "the textfile rewritten" sh -c "[ \"\$(stat -c %i '$TESTDIR/ws.prom')\" != $ino ]"
	assert_file_match "$TESTDIR/ws.prom" '^writestress_run_finished\{target="[^"]*"\} 0$' "running, as the textfile says"
	kill -INT "$WS_PID"
	ws_wait "$(scaled 15)"
	assert_status 130
fi
assert_file_match "$TESTDIR/ws.prom" '^writestress_run_finished\{target="[^"]*"\} 1$' "stopped, as the textfile says"
assert_file_match "$TESTDIR/ws.prom" '^writestress_probe_stalls_total\{target="[^"]*",probe="fsync"\} [0-9]+$' "the probe's stalls"
rm -f "$TESTDIR/ws.prom"
assert_dir_only "$WORK"

# make install: the unit where systemd looks, its binary the installed one
make -C "$CLI_DIR/../.." --no-print-directory install DESTDIR="$TESTDIR/root" PREFIX=/usr \
	BUILD="$(dirname "$WS")" >"$TESTDIR/install.log" 2>&1 ||
	{ cat "$TESTDIR/install.log"; fail "make install failed"; }
assert_file_match "$TESTDIR/root/usr/lib/systemd/system/writestress-watch.service" \
	'^ExecStart=/usr/bin/writestress watch --forever ' "the installed unit's ExecStart"
rm -rf "$TESTDIR/root"	# its schemas are no results
