# On a terminal of 60, 80 and 120 columns (a pty from script(1), its
# width set by stty): every redraw of the live line fits in the width
# less one column and is made of whole parts (bytes, elapsed, rate, bar,
# percentage, ETA, probes, device rate, busiest timer: no word cut), at
# 80 columns the worst probe's figure (its p99 so far from 1000 probes on,
# else its max, "(N probes)" after it) and the ETA are there; counts
# agree with their nouns ("1 stall", "2 stalls"); the header and
# the summary are broken at blanks to fit; the summary takes the live
# line's place (none left above it).  Stalls are red on the live line
# unless NO_COLOR, TERM=dumb or --color never say otherwise, or with
# --color always whatever they say.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

need_cmd script
need_cmd python3

# on_tty COLS ENV... -- ARGS...: writestress ARGS on a pty of COLS
# columns, with ENV (NAME=VALUE) in its environment; the bytes the
# terminal got in $OUT
on_tty()
{
	cols=$1
	shift
	envs=
	while [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	LAST_CMD="writestress $* (on a $cols-column terminal)"
	printf '+ %s\n' "$LAST_CMD"
	rc=0
	(cd "$WORK" && script -qec "stty cols $cols rows 50; exec env$envs '$WS' $*" /dev/null) \
		>"$OUT" 2>"$ERR" </dev/null || rc=$?
}

check_fit() # COLS: the rules above on $OUT
{
	python3 - "$OUT" "$1" <<'PYEOF' || fail "the terminal output at $1 columns breaks the rules above"
import re, sys

raw = open(sys.argv[1], encoding='utf-8', newline='').read().replace('\r\n', '\n')
cols = int(sys.argv[2])
sgr = re.compile(r'\x1b\[[0-9;]*m')
dur = r'(?:\d+(?:\.\d+)? (?:ns|µs|ms|s)|\d+m\d\ds|\d+h\d\dm\d\ds)'
# a count and its noun agree: "1 stall", "2 stalls"
probes = r'(?:1 probe|(?:[02-9]|[1-9]\d+) probes)'
stalls = r'(?:1 stall|(?:[02-9]|[1-9]\d+) stalls)'
alt = '|'.join([
    r'\d+(?:\.\d+)? (?:B|KiB|MiB|GiB|TiB)',          # written
    dur,                                            # elapsed
    r'(?:now |avg |dev )?\d+\.\d MiB/s',             # rates
    r'\[[█▏▎▍▌▋▊▉ #.]{20}\]', r'\d+%',               # bar, percentage
    'ETA ' + dur,
    r'[a-z][a-z0-9_]* (?:p99 %s(?:, max %s)?|max %s(?: \(%s\))?|BLOCKED %s(?: \([\w.+]+\))?)(?:, %s)?' % (dur, dur, dur, probes, dur, stalls),
    r'[a-z][a-z0-9_]* ' + stalls,
    r'[a-z ]+ \d+%',                                 # the busiest timer
])
line_re = re.compile(r' (?:%s)(?: {1,2}(?:%s))*' % (alt, alt))
bad = []
lines = raw.split('\n')
summary_at = next(i for i, l in enumerate(lines) if re.search(r' written in [0-9.]+ s ', l))
for i, line in enumerate(lines):
    plain = sgr.sub('', line).replace('\x1b[K', '')
    if '\r' not in line:                 # a header or summary line
        if len(plain) > cols:
            bad.append('%d wide (> %d): %r' % (len(plain), cols, plain))
        continue
    redraws = plain.split('\r')
    if i == summary_at:                  # the live line erased, then the summary
        if not line.rsplit('\r', 1)[-1].startswith('\x1b[K' + redraws[-1]):
            bad.append('summary not on a cleared line: %r' % line)
        redraws = redraws[:-1]
    for r in redraws:
        if not r:
            continue
        if len(r) > cols - 1:
            bad.append('live line %d wide (> %d): %r' % (len(r), cols - 1, r))
        if not line_re.fullmatch(r):
            bad.append('not made of whole parts: %r' % r)
if cols == 80:
    lives = [r for l in lines if '\r' in l for r in sgr.sub('', l).split('\r')]
    # the run so far: its p99 from 1000 probes on, its max before
    if not any(re.search(r' ETA ', r) and re.search(r' (p99|max) ', r) for r in lives):
        bad.append('no live line with the ETA and a probe figure at 80 columns')
print('\n'.join(bad[:10]))
sys.exit(1 if bad else 0)
PYEOF
}

for cols in 60 80 120; do
	on_tty "$cols" TERM=xterm -- -t 2.5 --rate 16M/s --probe fsync,save,sqlite data
	assert_status 0
	check_fit "$cols"
done

# colour: a probe that takes 10 ms is a stall at --stall 1ms, whatever
# the filesystem under the test (a tmpfs /tmp syncs in microseconds)
printf '#!/bin/sh\nexec sleep 0.01\n' >"$TESTDIR/nap"
chmod 0755 "$TESTDIR/nap"
chmod 0711 "$TESTDIR"		# the command runs as nobody when we are root
STALLS="--probe cmd --probe-cmd nap=$TESTDIR/nap --stall 1ms"
# shellcheck disable=SC2086 # STALLS is words
on_tty 120 TERM=xterm NO_COLOR= -- -t 1.2 --rate 16M/s $STALLS data
assert_status 0
grep -Eq '(, |nap )[1-9][0-9]* stalls?' "$OUT" || fail "no stall on the live line: the colour checks below would say nothing"
grep -q "$(printf '\033\\[31m')nap " "$OUT" || fail "no red on a colour terminal"
for case in "TERM=xterm NO_COLOR=1 --" "TERM=dumb --" "TERM=xterm -- --color never"; do
	# shellcheck disable=SC2086 # the case is words
	on_tty 120 $case -t 1.2 --rate 16M/s $STALLS data
	assert_status 0
	grep -Eq '(, |nap )[1-9][0-9]* stalls?' "$OUT" || fail "no stall with $case"
	! grep -q "$(printf '\033\\[3')" "$OUT" || fail "red despite $case"
done
# shellcheck disable=SC2086 # STALLS is words
on_tty 120 TERM=dumb NO_COLOR=1 -- --color always -t 1.2 --rate 16M/s $STALLS data
assert_status 0
grep -q "$(printf '\033\\[31m')nap " "$OUT" || fail "--color always without red"
