# All three probes run side by side and report; their files live in
# --probe-dir (not beside FILE) while the run goes, and are gone after.
# The read probe only reads: its file is unchanged.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

mkdir "$TESTDIR/home"
head -c 16777216 /dev/urandom >"$TESTDIR/cold.bin"
sum_before=$(cksum <"$TESTDIR/cold.bin")
ws_bg -v --size 64M -B 1M --rate 24M/s --probe fsync,save,read --read-probe "$TESTDIR/cold.bin" \
	--probe-dir "$TESTDIR/home" --probe-interval 50ms --probe-sync fdatasync \
	--json "$TESTDIR/r.json" data
probe_files() { [ -f "$(echo "$TESTDIR"/home/writestress-probe.*.fsync)" ] && [ -f "$(echo "$TESTDIR"/home/writestress-probe.*.save)" ]; }
wait_for 10 "the fsync and save probes' files" probe_files
for kind in fsync save; do
	set -- "$TESTDIR"/home/writestress-probe.*."$kind"
	[ -f "$1" ] || fail "no $kind probe file in --probe-dir: $(ls "$TESTDIR/home")"
done
assert_dir_only "$WORK" data
ws_wait "$(scaled 20)"
assert_status 0
for p in fsync save read; do
	assert_file_match "$OUT" "^  $p +[1-9][0-9]* probes, p50 " "summary of the $p probe"
done
assert_file_match "$OUT" "^  probes   fsync, save, read: every 50.0 ms in $TESTDIR/home," "probes header"
assert_dir_only "$TESTDIR/home"
assert_eq "$sum_before" "$(cksum <"$TESTDIR/cold.bin")" "the read probe's file"
python3 - "$TESTDIR/r.json" <<'PY' || fail "probes in the result"
import json, sys
d = json.load(open(sys.argv[1]))
names = [p["name"] for p in d["probes"]]
assert names == ["fsync", "save", "read"], names
for p in d["probes"]:
    assert p["count"] > 10, (p["name"], p["count"])
    assert p["errors"] == 0, (p["name"], p["errors"])
    assert sum(b[2] for b in p["histogram_ns"]) == p["count"]
assert d["config"]["probe_fdatasync"] is True
PY
