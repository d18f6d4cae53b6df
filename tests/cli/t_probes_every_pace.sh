# The application probes (sqlite, dsync, a command) with every pace mode:
# each run has all three in its summary, interval lines, CSV columns, JSON
# and SVG legend, none failed, and writestress compare takes two of the
# results probe by probe (not comparable, another --pace, unless
# --force); on a terminal (a pty from script(1)) the live
# line shows each.  Nothing of theirs is left behind.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

for pace in window none fdatasync direct dontcache adaptive; do
	ws -v -t 1.5 -B 1M --pace "$pace" --probe sqlite,dsync,cmd --probe-cmd mail='true' \
		-i 250ms --json "$TESTDIR/$pace.json" --csv "$TESTDIR/$pace.csv" \
		--svg "$TESTDIR/$pace.svg" data
	if [ "$pace" = dontcache ] && [ "$rc" != 0 ] && grep -q 'RWF_DONTCACHE' "$ERR"; then
		skip_part_kernel 6.14 "dontcache: $(head -n 1 "$ERR")"
		continue
	fi
	assert_status 0
	for p in sqlite dsync mail; do
		assert_file_match "$OUT" "^  $p +[1-9][0-9]* probes?, (p50 |max |[0-9])" "the $p probe in the summary (--pace $pace)"
		assert_file_match "$OUT" " ${p}_p50_ms=" "the $p probe in the interval lines (--pace $pace)"
		assert_file_match "$TESTDIR/$pace.csv" "^interval,.*,${p}_p99_ms," "the $p probe in the CSV (--pace $pace)"
		assert_file_match "$TESTDIR/$pace.svg" ">$p<" "the $p probe in the SVG legend (--pace $pace)"
	done
	assert_file_no_match "$OUT" 'failed' "a failed probe (--pace $pace)"
	python3 - "$TESTDIR/$pace.json" <<'PY' || fail "the JSON lacks a probe (--pace $pace)"
import json, sys
d = json.load(open(sys.argv[1]))
names = {p["name"]: p for p in d["probes"]}
sys.exit(0 if all(n in names and names[n]["count"] > 0 and not names[n]["errors"]
                  for n in ("sqlite", "dsync", "mail")) else 1)
PY
	assert_dir_only "$WORK" data
done

# another --pace: shown, not judged (status 3) unless --force
"$WS" compare "$TESTDIR/window.json" "$TESTDIR/direct.json" >"$OUT" 2>"$ERR"
rc=$?
[ "$rc" = 3 ] || fail "compare of two paces: status $rc, expected 3: $(cat "$ERR")"
assert_eq "verdict: not comparable: different --pace (--force judges anyway)" \
	"$(tail -n 1 "$OUT")" "compare's verdict on two paces"
for p in sqlite dsync mail; do
	assert_file_match "$OUT" "^$p raw p99 ms " "the $p probe in compare"
done
"$WS" compare --force "$TESTDIR/window.json" "$TESTDIR/direct.json" >"$OUT" 2>"$ERR"
rc=$?
[ "$rc" -le 1 ] || fail "compare --force failed: $(cat "$ERR")"
for p in sqlite dsync mail; do
	assert_file_match "$OUT" "^$p raw p99 ms " "the $p probe in compare --force"
done

# the live line, on a terminal
need_cmd script
script -qec "'$WS' -t 1.5 --rate 4M/s --probe sqlite,dsync,cmd --probe-cmd mail=true '$WORK/data'" \
	/dev/null >"$OUT" 2>&1 </dev/null
for p in sqlite dsync mail; do
	assert_file_match "$OUT" "  $p (p99 [0-9.]+ (µs|ms|s) )?max [0-9.]+ (µs|ms|s)" "the $p probe on the live line"
done
