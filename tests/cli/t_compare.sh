# writestress compare A.json B.json, on results recorded by the tool
# (tests/fixtures/compare/README.md says how each was made):
#  - a result compared with itself flags nothing and exits 0;
#  - a planted regression (throughput cut to 45/248 of A's, fsync p99 ten
#    times A's, nothing else) is flagged exactly there and exits 1, and
#    the whole report matches the golden file; the other way round both
#    are "improved" and it exits 0; --threshold moves the line;
#  - --pace window vs none is listed as a configuration difference;
#  - fingerprint fields are compared leaf by leaf; an older, partial file
#    shows "-" where it lacks a field;
#  - bad command lines exit 2 with the --help pointer, unreadable and
#    foreign files exit 2 with one line naming the file and the reason;
#  - compare writes nothing and leaves its inputs alone.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

FIX=$CLI_DIR/../fixtures/compare
FIXTURES="window.json none.json regressed.json partial.json fingerprint-a.json fingerprint-b.json"
for f in $FIXTURES; do
	cp "$FIX/$f" "$WORK/" || fail "cannot copy fixture $f"
done
HINT="Try 'writestress compare --help' for more information."

# The metrics of the last report's table flagged $1, one per line.
flagged()
{
	awk -F' *[|] *' -v flag="$1" '$5 == flag { print $1 }' "$OUT"
}

# The lines of section $1 ("configuration differences", ...).
section()
{
	sed -n "/^$1:\$/,/^\$/p" "$OUT" | sed '1d;/^$/d'
}

# A clean report: exit status $1, nothing on stderr, a table whose every
# row has five cells, a verdict last.
assert_report()
{
	assert_status "$1"
	assert_eq "" "$(cat "$ERR")" "stderr of: $LAST_CMD"
	assert_file_match "$OUT" '^metric +\| +A \| +B \| +change \| flag$' "table header"
	_rows=$(grep -c ' | ' "$OUT")
	_good=$(grep -Ec '^[^|]+( \| [^|]+){3} \|( (flag|REGRESSION|improved))?$' "$OUT")
	assert_eq "$_rows" "$_good" "rows with five cells"
	assert_match '^verdict: ' "$(tail -n 1 "$OUT")" "last line"
}

# ---- a result compared with itself --------------------------------------
for f in $FIXTURES; do
	ws compare "$f" "$f"
	assert_report 0
	assert_eq "" "$(flagged REGRESSION)$(flagged improved)" "flags comparing $f with itself"
	assert_eq "  (none)" "$(section 'configuration differences')" "configuration differences of $f with itself"
	assert_eq "  (none)" "$(section 'system differences')" "system differences of $f with itself"
	assert_eq "verdict: no regression beyond 10%" "$(tail -n 1 "$OUT")" "verdict on $f with itself"
done

# ---- the planted regression ---------------------------------------------
ws compare window.json regressed.json
assert_report 1
assert_eq "throughput MiB/s
fsync raw p99 ms" "$(flagged REGRESSION)" "metrics flagged REGRESSION"
assert_eq "" "$(flagged improved)" "metrics flagged improved"
assert_file_match "$OUT" '^throughput MiB/s +\| +39\.6 \| +7\.2 \| +-81\.9% \| REGRESSION$' "throughput row"
assert_file_match "$OUT" '^fsync raw p99 ms +\| +30\.067 \| +300\.672 \| +\+900\.0% \| REGRESSION$' "fsync p99 row"
assert_eq "verdict: 2 regressions beyond 10% (B vs A)" "$(tail -n 1 "$OUT")" "verdict"
diff -u "$FIX/window-vs-regressed.out" "$OUT" ||
	fail "the report differs from tests/fixtures/compare/window-vs-regressed.out"

ws compare regressed.json window.json
assert_report 0
assert_eq "" "$(flagged REGRESSION)" "regressions, the other way round"
assert_eq "throughput MiB/s
fsync raw p99 ms" "$(flagged improved)" "improvements, the other way round"
assert_eq "verdict: no regression beyond 10%" "$(tail -n 1 "$OUT")" "verdict, the other way round"

# --threshold: -81.9% and +900.0% are beyond 81.8% but not beyond 900%
for args in "--threshold 81.8 window.json regressed.json" \
	"--threshold=81.8% window.json regressed.json" \
	"window.json regressed.json --threshold 81.8"; do
	# shellcheck disable=SC2086 # meant to split
	ws compare $args
	assert_report 1
	assert_eq "verdict: 2 regressions beyond 81.8% (B vs A)" "$(tail -n 1 "$OUT")" "verdict of: $LAST_CMD"
done
ws compare --threshold 90 window.json regressed.json
assert_report 1
assert_eq "fsync raw p99 ms" "$(flagged REGRESSION)" "flagged with --threshold 90"
assert_eq "verdict: 1 regression beyond 90% (B vs A)" "$(tail -n 1 "$OUT")" "verdict with --threshold 90"
ws compare --threshold 900 window.json regressed.json
assert_report 0
assert_eq "" "$(flagged REGRESSION)" "flagged with --threshold 900"
assert_eq "verdict: no regression beyond 900%" "$(tail -n 1 "$OUT")" "verdict with --threshold 900"

# ---- two real runs: --pace window, then --pace none ----------------------
ws compare window.json none.json
assert_report 1
assert_eq "  config.pace = window vs none" "$(section 'configuration differences')" "configuration differences"
assert_eq "  (none)" "$(section 'system differences')" "system differences"
assert_eq "fsync raw p99 ms
fsync raw p99.9 ms
fsync max ms
fsync corrected p99 ms" "$(flagged REGRESSION)" "latency flagged with --pace none"

# ---- fingerprint leaves, an older partial file ---------------------------
ws compare fingerprint-a.json fingerprint-b.json
assert_report 1
assert_eq "  system.release = 6.1.0 vs 6.2.0
  fingerprint.disk.scheduler = mq-deadline vs none
  fingerprint.disk.discard = - vs true
  fingerprint.mounts[0].opts = rw,relatime vs rw,noatime" "$(section 'system differences')" "system differences"
assert_file_match "$OUT" '^throughput MiB/s +\| +248\.0 \| +45\.0 \| +-81\.9% \| REGRESSION$' "throughput row"

ws compare partial.json window.json
assert_report 0
assert_file_match "$OUT" '^steady rate MiB/s +\| +- \| +not reached \| +- \|$' "a missing steady state"
assert_file_match "$OUT" '^fsync corrected p99 ms +\| +- \| +30\.067 \| +- \|$' "a missing percentile"
assert_file_match "$OUT" '^  config\.pace = - vs window$' "a missing configuration"
assert_file_match "$OUT" '^  tool\.version = 0\.0\.9 vs 0\.1\.0$' "another version"
ws compare window.json partial.json
assert_report 0

# ---- --help ---------------------------------------------------------------
for opt in --help -h; do
	ws compare "$opt"
	assert_status 0
	assert_eq "" "$(cat "$ERR")" "stderr of compare $opt"
	assert_file_match "$OUT" '^Usage: writestress compare ' "usage line of compare $opt"
	assert_file_match "$OUT" '^ +--threshold PCT ' "--threshold in compare $opt"
	assert_file_match "$OUT" '^Exit status' "exit status section of compare $opt"
	for code in 0 1 2; do
		assert_file_match "$OUT" "^ +$code +[a-z]" "exit status $code in compare $opt"
	done
done

# ---- bad command lines: exit 2, one message and the pointer to --help ----
# arguments (split on blanks) | fixed strings the message must contain (';' between)
while IFS='|' read -r args needles; do
	case $args in '' | '#'*) continue ;; esac
	set -f
	# shellcheck disable=SC2086 # the table's arguments are meant to split
	ws compare $args
	set +f
	assert_usage_error 'writestress: compare: ' "$HINT" "$needles" "writestress compare $args"
done <<'TABLE'
                                                |missing operands
window.json                                     |missing operand B.json;'window.json'
window.json none.json partial.json              |unexpected argument 'partial.json'
--threshold abc window.json none.json           |--threshold;'abc'
--threshold -5 window.json none.json            |--threshold;'-5'
--threshold= window.json none.json              |--threshold;''
--threshold 1e3 window.json none.json           |--threshold;'1e3'
--threshold 0x10 window.json none.json          |--threshold;'0x10'
--threshold 10%% window.json none.json          |--threshold;'10%%'
--threshold inf window.json none.json           |--threshold;'inf'
window.json none.json --threshold               |option '--threshold' needs a value
--bogus window.json none.json                   |unknown option '--bogus'
-x window.json none.json                        |unknown option '-x'
TABLE

# ---- unreadable and foreign files: exit 2, one line -----------------------
mkdir "$WORK/adir"
: >"$WORK/empty.json"
head -c 100 "$WORK/window.json" >"$WORK/cut.json"
{ cat "$WORK/window.json"; printf 'x'; } >"$WORK/trailing.json"
sed 's/"writestress-result\/1"/"writestress-result\/2"/' "$WORK/window.json" >"$WORK/v2.json"
printf '{"name": "something else"}\n' >"$WORK/other.json"
printf '[]\n' >"$WORK/array.json"
size=$(stat -c %s "$WORK/window.json")

# file | the whole message
while IFS='|' read -r file msg; do
	[ -n "$file" ] || continue
	for order in AB BA; do
		if [ "$order" = AB ]; then ws compare "$file" window.json; else ws compare window.json "$file"; fi
		assert_status 2
		assert_eq "" "$(cat "$OUT")" "stdout of: $LAST_CMD"
		assert_eq "writestress: compare: $msg" "$(cat "$ERR")" "stderr of: $LAST_CMD"
	done
done <<TABLE
missing.json|cannot read 'missing.json': No such file or directory
adir|cannot read 'adir': Is a directory
empty.json|cannot read 'empty.json': empty file
cut.json|cannot read 'cut.json': invalid JSON at byte 100: unexpected end of data
trailing.json|cannot read 'trailing.json': invalid JSON at byte $size: data after the document
v2.json|'v2.json' has unsupported schema 'writestress-result/2': this writestress reads 'writestress-result/1'
other.json|'other.json' is not a writestress result: no "schema" field
array.json|'array.json' is not a writestress result: not a JSON object
TABLE

# ---- nothing written, inputs untouched ------------------------------------
for f in $FIXTURES; do
	cmp -s "$FIX/$f" "$WORK/$f" || fail "compare changed $f"
done
# shellcheck disable=SC2086 # plain names
assert_dir_only "$WORK" $FIXTURES adir empty.json cut.json trailing.json v2.json other.json array.json
