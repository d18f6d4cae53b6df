# A thread that cannot drop its capabilities fails the run (the README
# promises CapEff 0 for every thread): an LD_PRELOAD shim makes libcap's
# cap_set_proc() fail from its Nth call on, for N = 0, 1, 2, ... until a run
# gets through.  Every failing run exits 1 with one line naming what
# failed, leaves no data file (--remove) and either no result file or a
# complete one whose ending is the error; the run that gets through has
# made every thread drop (its CapEff is checked by t_privileges).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_root
need_cmd python3
# a sanitizer runtime wants to be first in the link order; the shim only
# wraps one libcap call, so let it come first
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

shim=$HELPERS/fail_capset.so
[ -f "$shim" ] || skip_as cmd "the LD_PRELOAD shim $shim was not built"

seen_probes=0 seen_writer=0 n=0
while :; do
	[ "$n" -le 20 ] || fail "still failing after 20 capability drops"
	rm -f "$WORK/r.json"
	(cd "$WORK" && WS_FAIL_CAPSET_AFTER=$n LD_PRELOAD=$shim \
		exec "$WS" --size 4M -B 1M --remove --json r.json data) \
		>"$OUT" 2>"$ERR" </dev/null
	rc=$?
	echo "N=$n: exit $rc: $(head -n 1 "$ERR")"
	[ ! -e "$WORK/data" ] || fail "N=$n: the data file was left behind"
	[ "$rc" = 0 ] && break
	assert_status 1
	assert_lines "$ERR" 1 "N=$n: the error"
	assert_file_match "$ERR" '^writestress: .*dropping capabilities.*: Operation not permitted' "N=$n: what failed"
	if [ -e "$WORK/r.json" ]; then
		python3 - "$WORK/r.json" <<'PY' || fail "N=$n: the result file is not a complete one ending in the error"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is True
assert d["summary"]["exit_reason"] == "error", d["summary"]["exit_reason"]
assert "dropping capabilities" in json.dumps(d["summary"]["error"]), d["summary"]["error"]
PY
		assert_file_match "$OUT" '^  failed   dropping capabilities' "N=$n: the summary's ending"
		seen_writer=1
	fi
	grep -q '^writestress: probes: dropping capabilities' "$ERR" && seen_probes=1
	n=$((n + 1))
done
assert_file_match "$OUT" '[MG]iB written in' "the run that got through"
# every kind of thread was made to fail once: a probe, and the writer
# after the recorder had started
assert_eq 1 "$seen_probes" "a failing probe thread seen"
assert_eq 1 "$seen_writer" "a failing writer thread seen"
