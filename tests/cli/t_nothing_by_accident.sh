# Nothing by accident (the command line's refusals are t_bad_input's and
# test_opts.c's rows): a run goes on without a bound only when --forever
# asks for it, and says so in its result; a result never replaces a file
# writestress did not write (run, report and matrix; before anything is
# written), an empty one excepted, unless --force; the filesystem of /
# keeps a tenth free by default, another one 5%; matrix --each reads m
# as mebibytes and echoes what it understood.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

jq_py() # FILE EXPR: print EXPR of the JSON document d in FILE
{
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); v = eval(sys.argv[2]); print(*(v if isinstance(v, tuple) else (v,)))' "$1" "$2"
}

# ---- --forever: until interrupted, and said so ---------------------------
ws_bg --forever --rate 4M/s -B 1M --no-probe --json forever.json data
wait_for 10 "an interval line" intervals_at_least 1
assert_file_match "$OUT" 'buffers until interrupted' "the header's run line"
kill -INT "$WS_PID"
ws_wait "$(scaled 10)"
assert_status 130
assert_eq "True None" "$(jq_py "$WORK/forever.json" 'd["config"]["forever"], d["config"]["total_bytes"]')" \
	"config.forever and total_bytes of a --forever run"
ws -s 1M -q --no-probe --json bounded.json data
assert_status 0
assert_eq "False" "$(jq_py "$WORK/bounded.json" 'd["config"]["forever"]')" "config.forever of a bounded run"

# ---- results replace only what writestress wrote ------------------------
printf 'my notes\n' >"$WORK/notes.json"
for opt in --json --csv --svg --prom; do
	ws -s 1M -q --no-probe "$opt" notes.json data
	assert_status 3
	assert_lines "$ERR" 2 "stderr of a refused $opt"
	assert_file_match "$ERR" "^writestress: refusing to replace $opt: 'notes.json' exists and writestress did not write it$" "$opt over a file not ours"
	assert_file_match "$ERR" "^hint: .*--force" "the way past it"
	assert_eq "my notes" "$(cat "$WORK/notes.json")" "notes.json after $opt"
done
# refused before anything is written: the target was not created
ws -s 1M -q --no-probe --json notes.json fresh
assert_status 3
assert_missing "$WORK/fresh"
# a result of ours, of any kind, may be replaced; so may an empty file
ws -s 1M -q --no-probe --csv r.csv --svg r.svg --prom r.prom data
assert_status 0
for f in r.csv r.svg r.prom bounded.json; do
	ws -s 1M -q --no-probe --json "$f" data
	assert_status 0
	head -c 30 "$WORK/$f" | grep -q '^{"schema":"writestress-result/' || fail "$f was not replaced"
done
: >"$WORK/empty.json"
ws -s 1M -q --no-probe --json empty.json data
assert_status 0
assert_exists "$WORK/empty.json"
[ -s "$WORK/empty.json" ] || fail "the empty file was not replaced"
# --force replaces the foreign file
ws -s 1M -q --no-probe --force --json notes.json data
assert_status 0
head -c 30 "$WORK/notes.json" | grep -q '^{"schema":"writestress-result/' || fail "--force did not replace notes.json"

# matrix: its files are checked before its first run (nothing laid out)
printf 'plot by hand\n' >"$WORK/plot.svg"
ws matrix --each 1s --strategies idle --svg plot.svg mfile
assert_status 3
assert_file_match "$ERR" "^writestress: matrix: refusing to replace --svg: 'plot.svg' exists and writestress did not write it$" "matrix --svg over a file not ours"
assert_missing "$WORK/mfile"
assert_eq "plot by hand" "$(cat "$WORK/plot.svg")" "plot.svg after the refusal"
ws matrix --each 1s --strategies idle --json m.json --svg ./m.json mfile
assert_status 2
assert_file_match "$ERR" "^writestress: matrix: invalid --svg '\./m\.json': the same file as --json" "matrix's two outputs on one path"
ws matrix --each 1s --strategies idle --json mfile mfile
assert_status 2
assert_file_match "$ERR" "^writestress: matrix: invalid --json 'mfile': the same file as FILE" "matrix's output on FILE"
assert_missing "$WORK/mfile"

# ---- matrix --each: m is mebibytes; a bare number is refused ------------
ws matrix --each 400 mfile
assert_status 2
assert_file_match "$ERR" "^writestress: matrix: invalid --each '400': a bare number could be 400s or 400 bytes; write 400s for a time or 400M for a size$" "a bare --each"
ws matrix --each 512k --strategies idle mfile
assert_status 2
assert_file_match "$ERR" "a size must be at least 1 MiB" "--each 512k: a size under 1 MiB"
ws matrix --each 0.5s mfile
assert_status 2
assert_file_match "$ERR" "a time must be at least 1 s" "--each under a second"
# echoed as understood: a file of ours to rewrite, the header, then Ctrl-C
ws -s 4M -q --no-probe mfile
assert_status 0
ws_bg matrix --each 400m --strategies idle mfile
wait_for 10 "the matrix's header" grep -q '^writestress matrix: ' "$OUT"
kill -INT "$WS_PID"
ws_wait "$(scaled 30)"
assert_file_match "$OUT" '^writestress matrix: 1 strategy on mfile, 400 MiB each, ' "--each 400m echoed"

# ---- the reserve: a tenth of the system's filesystem --------------------
root_dev=$(stat -c %d /)
if [ "$(stat -c %d "$WORK")" = "$root_dev" ]; then
	ws -s 1M --no-probe --json res.json data
	assert_status 0
	assert_file_match "$OUT" '^  space    .* kept in reserve \(10%: it holds /\)' "the header's reason for the reserve"
	python3 - "$WORK/res.json" <<'PY' || fail "the reserve is not a tenth of the filesystem of /"
import json, sys
d = json.load(open(sys.argv[1]))
t, reserve = d["target"], d["config"]["reserve"]
want = -(-t["fs_size"] // 10)
print(f"  fs {t['fs_size']} bytes, holds {t['fs_holds']}, reserve {reserve} (a tenth: {want})")
sys.exit(0 if t["fs_holds"] == "/" and reserve == want else 1)
PY
	ws -s 1M --no-probe --reserve 1M --json res.json data
	assert_status 0
	assert_file_no_match "$OUT" 'it holds /' "the reason, with --reserve given"
	assert_eq 1048576 "$(jq_py "$WORK/res.json" 'd["config"]["reserve"]')" "--reserve 1M on the filesystem of /"
else
	skip_part root "the reserve of the filesystem of /: $WORK is not on it"
fi
if have_root; then
	mkdir "$TESTDIR/small"
	mount -t tmpfs -o size=64m ws-small "$TESTDIR/small" || fail "cannot mount a tmpfs"
	at_exit "umount '$TESTDIR/small'"
	ws -s 1M --no-probe --json "$TESTDIR/small.json" "$TESTDIR/small/f"
	assert_status 0
	assert_file_no_match "$OUT" 'it holds' "a reason on a filesystem the system does not use"
	assert_eq "None 3355443" "$(jq_py "$TESTDIR/small.json" 'd["target"]["fs_holds"], d["config"]["reserve"]')" \
		"fs_holds and a 5% reserve on a 64 MiB tmpfs"
else
	skip_part root "a filesystem of its own for the 5% reserve: needs root to mount one"
fi
