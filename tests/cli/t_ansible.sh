# contrib/ansible, for real: the playbook installs writestress from a
# `make dist-bin` tarball into a prefix in $TESTDIR, runs it on a tmpfs
# target with --json and --prom, fetches the
# result to results/localhost.json and runs `writestress report` over it
# on the "controller"; the data file is gone.
# Then check mode: installing again would change nothing, and nothing is
# run or written.  ansible-playbook -i localhost, -c local; nothing is read from
# ~/.ansible or the network, nothing left outside $TESTDIR.
# Ansible is CPU-bound Python: the two plays take 35-57 s in CI, and the
# first one alone 70 s once beside two compilers and a second test loop
# (120 s, the default limit, was then too short).
# timeout: 240
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=lib_ansible.sh
. "$CLI_DIR/lib_ansible.sh"

not_under_sanitizer "the play is Ansible's (30 s of CPU under a sanitizer, for nothing of ours); the short window run on tmpfs with --json and --prom it starts runs under $SANITIZE in t_results and t_prom"
need_cmd ansible-playbook python3
small_tmpfs 64M
ROOT=$(cd "$CLI_DIR/../.." && pwd)

ansible_env "$TESTDIR/ansible"

# The build under test, packed as `make dist-bin` packs it.
sh "$ROOT/scripts/dist-bin.sh" "$WS" "$ROOT/man/writestress.1" "$TESTDIR/ws.tar.gz" ||
	fail "dist-bin.sh failed"
PREFIX=$TESTDIR/prefix
RESULTS=$TESTDIR/results
TARGET=$TMPFS/ws.dat

prom=$TESTDIR/textfile/writestress.prom

cat >"$TESTDIR/vars.yml" <<_EOF_
writestress_tarball: $TESTDIR/ws.tar.gz
writestress_prefix: $PREFIX
writestress_path: $TARGET
writestress_size: 32M
writestress_time: ""
writestress_pace: window
writestress_probes: fsync
writestress_extra_args: [--interval, 250ms, --reserve, "0"]
writestress_remote_dir: $TESTDIR/remote
writestress_results_dir: $RESULTS
writestress_prom_file: "$prom"
writestress_poll: 1
writestress_report: true
writestress_controller_bin: $PREFIX/bin/writestress
_EOF_

play
assert_status 0
assert_eq 0 "$(recap failed)" "failed tasks"

# installed from the tarball: the very build under test, and its man page
cmp -s "$WS" "$PREFIX/bin/writestress" || fail "the installed binary is not \$WS"
cmp -s "$ROOT/man/writestress.1" "$PREFIX/share/man/man1/writestress.1" ||
	fail "the man page was not installed"

# the result, fetched flat per host, is the run that was asked for
assert_dir_only "$TESTDIR/remote" localhost.json
assert_exists "$RESULTS/localhost.json"
cmp -s "$TESTDIR/remote/localhost.json" "$RESULTS/localhost.json" ||
	fail "the fetched result differs from the host's"
python3 "$CLI_DIR/py/check_result.py" "$RESULTS/localhost.json" --bytes 33554432 ||
	fail "check_result.py on the fetched result failed"
python3 - "$RESULTS/localhost.json" "$TARGET" <<'_PY_' || fail "the fetched result is not this run"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
assert c["pace"] == "window", c["pace"]
assert [p["name"] for p in d["probes"]] == ["fsync"], d["probes"]
assert sys.argv[2] in json.dumps(d), "target path not in the result"
_PY_
assert_file_match "$LOG" '"msg": ".*32\.0 MiB written in' "the run's summary in the play"

# --remove: the target and the probe's files are gone
assert_dir_only "$TMPFS"

assert_exists "$prom"
# the run's last state, left for node_exporter (doc/metrics.md)
assert_file_match "$prom" '^# TYPE writestress_run_finished gauge$' "the .prom file"
assert_file_match "$prom" "^writestress_run_finished\\{target=\"$TARGET\"\\} 1\$" "the .prom file"
assert_file_match "$prom" '^writestress_written_bytes_total\{[^}]*\} 33554432$' "the .prom file"
assert_file_no_match "$prom" '^[^#w]' "the .prom file (a line neither comment nor metric)"
assert_dir_only "$(dirname "$prom")" writestress.prom

assert_exists "$RESULTS/report.txt"
"$PREFIX/bin/writestress" report "$RESULTS/localhost.json" >"$TESTDIR/report.txt" 2>&1 ||
	fail "writestress report on the fetched result failed"
cmp -s "$TESTDIR/report.txt" "$RESULTS/report.txt" ||
	fail "results/report.txt is not what writestress report prints:
$(diff "$TESTDIR/report.txt" "$RESULTS/report.txt" | head -n 20)"
assert_file_match "$RESULTS/report.txt" "localhost\.json" "the report's row"
assert_file_match "$RESULTS/report.txt" "$(uname -n)" "the report's host"
assert_file_match "$LOG" 'TASK \[writestress : Show the report\]' "the report in the play"

# Check mode, the same hosts and a new target: installing again would
# change nothing (unarchive compares as it does for real), the command it
# would run is shown, and nothing is written, fetched or reported.
before=$(fingerprint "$RESULTS/localhost.json")
play --check -e "writestress_path=$TMPFS/other.dat"
assert_status 0
assert_eq 0 "$(recap failed)" "failed tasks in check mode"
assert_eq 0 "$(recap changed)" "tasks changed in check mode"
assert_file_match "$LOG" 'TASK \[writestress : Unpack the writestress tarball into the prefix\]' "the install task"
assert_file_match "$LOG" "would run: $PREFIX/bin/writestress --size 32M .*--json $TESTDIR/remote/localhost.json .*$TMPFS/other.dat" "check mode's command"
assert_dir_only "$TMPFS"
assert_dir_only "$TESTDIR/remote" localhost.json
assert_eq "$before" "$(fingerprint "$RESULTS/localhost.json")" "the result after check mode"
