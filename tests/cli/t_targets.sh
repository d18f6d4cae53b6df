# Several targets in one run (FILE1 FILE2, --jobs N): one writer each.
# - every output has each target and the run as a whole: plain lines
#   (target=1, target=2, target=all, and all's bytes are the sum), the
#   summary, the CSV (a target column), the JSON (targets[] with each
#   one's summary and phases, intervals[].targets) and the SVG (a line per
#   target); the device's own counters saw at least what was written;
# - two targets on one device are flagged; --jobs 2 writes FILE.1, FILE.2;
# - probes run once per filesystem (fsync beside target 1, fsync@2 beside
#   target 2 on a tmpfs), and leave nothing behind;
# - safety holds for each: a symlink among the targets is refused before
#   any file is made; the same file under two names is a usage error; two
#   targets that do not fit on one filesystem together are refused.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

ws -s 64M -B 8M --json r.json --csv r.csv --svg r.svg a b
assert_status 0
assert_size "$WORK/a" $((64 << 20))
assert_size "$WORK/b" $((64 << 20))
assert_file_match "$OUT" '^writestress .* — 2 targets, one writer each$' "header"
assert_file_match "$OUT" '^  target 2 b on .* same device as target 1: they compete for it$' "a shared device flagged"
assert_file_match "$OUT" '^128\.0 MiB written in [0-9.]+ s \([0-9.]+ MiB/s\) by 2 targets$' "the run's result"
assert_file_match "$OUT" '^  target 1 a: 64\.0 MiB in [0-9.]+ s \([0-9.]+ MiB/s\)$' "target 1's result"
assert_file_match "$OUT" '^  target 2 b: 64\.0 MiB in [0-9.]+ s \([0-9.]+ MiB/s\)$' "target 2's result"
python3 - "$OUT" "$WORK" <<'PY' || fail "outputs of two targets"
import csv, json, sys
out, work = sys.argv[1], sys.argv[2]
# plain lines: per tick, the run's bytes are its targets' (an ended
# target's last bytes included)
last, ticks = {}, 0
for line in open(out):
    if not line.startswith("target="):
        continue
    kv = dict(f.split("=", 1) for f in line.split())
    if kv["target"] == "all":
        assert int(kv["bytes"]) == sum(last.values()), (line, last)
        assert "fsync_n" in kv, line   # ... and every line of the run has them
        ticks += 1
    else:
        last[kv["target"]] = int(kv["bytes"])
        assert "fsync_n" not in kv, line   # the probes are the run's
assert ticks >= 1 and set(last) == {"1", "2"}, (ticks, last)
r = json.load(open(work + "/r.json"))
s = r["summary"]
ts = r["targets"]
assert [t["number"] for t in ts] == [1, 2]
assert [t["target"]["path"] for t in ts] == ["a", "b"]
assert r["config"]["files"] == ["a", "b"]
assert ts[1]["same_device_as"] == 1 and ts[0]["same_device_as"] is None
assert sum(t["summary"]["bytes"] for t in ts) == s["bytes"] == 128 << 20
for t in ts:
    assert t["summary"]["exit_reason"] == "bound"
    assert t["phases"] and t["by_bytes"]["cells"], t.keys()
assert r["phases"] and s["elapsed_s"] >= max(t["summary"]["elapsed_s"] for t in ts)
for iv in r["intervals"]:
    assert iv["dbytes"] == sum(t["dbytes"] for t in iv["targets"]), iv
devs = [iv["device"]["write_bytes"] for iv in r["intervals"] if iv.get("device")]
if devs:
    print("bytes", s["bytes"], "device", sum(devs))
    assert sum(devs) >= s["bytes"], (sum(devs), s["bytes"])
else:
    open(work + "/../nodev", "w").close()
rows = list(csv.reader(open(work + "/r.csv", newline="")))
assert rows[0][:2] == ["interval", "target"], rows[0][:3]
assert all(len(row) == len(rows[0]) for row in rows)
assert {row[1] for row in rows[1:]} == {"1", "2", "all"}
svg = open(work + "/r.svg").read()
assert "target 1" in svg and "target 2" in svg and "2 targets" in svg
PY
[ ! -e "$TESTDIR/nodev" ] ||
	skip_part blockdev "$WORK is on no block device: the device's counters against the bytes written not checked"
if have_cmd rsvg-convert; then
	rsvg-convert "$WORK/r.svg" -o "$TESTDIR/r.png" || fail "the SVG does not render"
else
	skip_part cmd "the two targets' SVG rendered: needs rsvg-convert (librsvg2-bin)"
fi

# --jobs: FILE.1 ... FILE.N
ws --jobs 2 -s 16M -q data
assert_status 0
assert_size "$WORK/data.1" $((16 << 20))
assert_size "$WORK/data.2" $((16 << 20))
assert_missing "$WORK/data"

# the same file twice, under two names
ws -s 8M -q data.1 ./data.1
assert_usage_error "writestress: invalid FILE './data.1'" "Try 'writestress --help' for more information." "the same file as 'data.1'" "the same file twice"

# a symlink among the targets: refused before any file is made
ln -s data.1 "$WORK/link"
ws -s 8M -q new1 link
assert_status 3
assert_file_match "$ERR" "^writestress: refusing 'link': .*symbolic link" "the link refused"
assert_missing "$WORK/new1"

if ! have_root; then
	skip_part root "the two-filesystem and space parts need root (a tmpfs)"
	exit 0
fi
small_tmpfs 48M
# probes once per filesystem, each beside its first target
ws -s 8M --json p.json one "$TMPFS/two"
assert_status 0
assert_file_match "$OUT" "^  probes   fsync in \\., fsync@2 in $TMPFS: every " "a probe per filesystem"
python3 - "$WORK/p.json" <<'PY' || fail "probes per filesystem"
import json, sys
r = json.load(open(sys.argv[1]))
names = [p["name"] for p in r["probes"]]
assert names == ["fsync", "fsync@2"], names
assert r["targets"][1]["same_device_as"] is None
PY
assert_dir_only "$TMPFS" two
[ -z "$(find "$WORK" -name 'writestress-probe*')" ] || fail "probe files left in $WORK"

# two targets that fit alone but not together (48 MiB tmpfs, 2.4 MiB kept)
rm -f "$TMPFS/two"
ws -s 24M -q "$TMPFS/x" "$TMPFS/y"
assert_status 3
assert_file_match "$ERR" "^writestress: refusing to write 24\\.0 MiB to '$TMPFS/y'" "the second does not fit beside the first"
assert_dir_only "$TMPFS"

# no target is touched before every target's plan stands: --truncate on
# an earlier file of ours, a later one refused for space
ws -s 16M -q "$TMPFS/x"
assert_status 0
before=$(fingerprint "$TMPFS/x")
ws --truncate -s 40M -q "$TMPFS/x" "$TMPFS/y"
assert_status 3
assert_file_match "$ERR" "^writestress: refusing to write 40\\.0 MiB to '$TMPFS/y'" "the second refused"
assert_eq "$before" "$(fingerprint "$TMPFS/x")" "the first file, untouched"
assert_dir_only "$TMPFS" x
