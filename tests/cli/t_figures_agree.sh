# Every figure a run prints or writes agrees across its outputs - the
# summary line, phases, curve, plain interval lines, JSON, CSV, Prometheus
# and SVG - within the precision each is printed at (py/figures_agree.py
# says what is compared), over a table of runs that have contradicted
# themselves: short ones (at most three intervals), rate-limited ones
# (big buffers: the progress known a buffer late), unpaced and paced,
# O_DIRECT, and one of several targets.  A percentile is shown only where
# its count supports it.  Each run's check compares at least 35 figures
# (39 for a run of one interval, more with each interval and probe): a
# checker that stopped finding what it compares fails here, not passes.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

# name | options (split on blanks)
while IFS='|' read -r name opts; do
	case $name in '' | '#'*) continue ;; esac
	name=$(echo "$name" | tr -d ' ')
	rm -f "$WORK"/d*.dat
	set -f
	# shellcheck disable=SC2086 # the table's options are meant to split
	ws -v $opts --json "$TESTDIR/$name.json" --csv "$TESTDIR/$name.csv" \
		--svg "$TESTDIR/$name.svg" --prom "$TESTDIR/$name.prom" d.dat
	set +f
	assert_status 0
	cp "$OUT" "$TESTDIR/$name.out"
	python3 "$CLI_DIR/py/figures_agree.py" "$TESTDIR" "$name" >"$TESTDIR/agree" ||
		{ cat "$TESTDIR/agree"; fail "the outputs of '$name' ($opts) disagree (see above)"; }
	cat "$TESTDIR/agree"
	n=$(sed -n 's/.*all agree (\([0-9]*\) checks)$/\1/p' "$TESTDIR/agree")
	assert_ge "${n:-0}" 35 "figures compared for '$name'"
done <<'TABLE'
short      | -s 16M -B 8M
short3     | -s 24M -B 8M -i 100ms -r 100M/s
rate10     | -r 10M/s -t 2s
rate50     | -r 50M/s -t 3s -B 16M
unpaced    | --pace none -s 64M -B 1M -i 250ms
paced      | --pace window -f -s 96M -B 1M -i 250ms
direct     | --pace direct -s 32M -B 4M -i 250ms
manyprobes | -r 20M/s -t 3s --probe-interval 10ms -i 500ms
TABLE

