#!/bin/bash
# run.sh - the unit tests, one runner process per suite, several at once.
#
#   SANITIZE=<''|asan|tsan> WS_JOBS=<N> [WS_TIMES=FILE] bash tests/unit/run.sh /abs/path/unit-tests
#
# Asks the runner for its suites (`unit-tests --list`), runs each with
# CK_RUN_SUITE in fork mode (a process per test case), up to WS_JOBS at a
# time (default: twice the CPUs; a suite in fork mode waits on its
# children as much as it computes), then prints each failing suite's
# output whole, the SKIP lines of the machine's unmet needs once, the
# slowest suites and one total line.  A suite that ran no check fails
# too: its name is not the one suites.h gives it.  Exits 1 if any failed.
# Suites start longest first (tests/unit/durations); WS_TIMES=FILE
# writes this run's times there, in durations' format.
#
# ASan: LeakSanitizer would scan the whole process at the exit of every
# forked test case (a quarter of a second each, minutes in all; with
# coverage each exit also writes every object's counts), so each suite
# runs in a single process (CK_FORK=no): one scan at its end covers every
# test case.  The suites suites.h marks fork-only run forked, with
# detect_leaks=0 (their leaks show in the CLI tests' runs of the tool).
# (Each suite used to run forked first too: the same test cases twice,
# 85 s of the CI's ASan phase.)
# TSan: a fork copies the runtime's shadow mappings, so a process per test
# case cost more than the tests (84 s against 50 s, 94 s of it the
# kernel's); each suite runs in one process there too, the fork-only ones
# forked.  Isolation between test cases is the plain build's to check.
set -u

BIN=${1:?usage: run.sh /abs/path/unit-tests}
[ -x "$BIN" ] || { echo "run.sh: '$BIN' is not an executable; build it with make" >&2; exit 2; }
SANITIZE=${SANITIZE:-}
# A sanitizer build runs several times slower: Check's time limits per
# test stretch as the CLI tests' do, by the same factor (a TSan CI run
# beside a loaded machine timed out six suites at Check's 4 s default)
# shellcheck source=../slowdown.sh
. "$(dirname "$0")/../slowdown.sh"
# shellcheck source=../longest_first.sh
. "$(dirname "$0")/../longest_first.sh"
export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-$WS_SLOW}
JOBS=${WS_JOBS:-$(($(nproc 2>/dev/null || echo 2) * 2))}
RES=$(mktemp -d /tmp/ws-unit.XXXXXX) || exit 2
trap 'rm -rf "$RES"' EXIT
trap 'exit 130' INT TERM HUP

start=$(date +%s.%N)
"$BIN" --list >"$RES/list" || { echo "run.sh: $BIN --list failed" >&2; exit 2; }
cut -d' ' -f1 "$RES/list" >"$RES/suites"

# one PASS SUITE [ENV=VALUE...]: a suite's output, exit status and time,
# in RES/PASS.SUITE.*
one()
{
	local pass=$1 s=$2 t0 st=0
	shift 2
	t0=$(date +%s.%N)
	env CK_RUN_SUITE="$s" "$@" "$BIN" >"$RES/$pass.$s.out" 2>&1 </dev/null || st=$?
	echo "$st" >"$RES/$pass.$s.st"
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' >"$RES/$pass.$s.secs"
}
export -f one
export BIN RES

# each suite with the environment it runs in: "SUITE ENV=VALUE"
# (a sanitizer build: one process a suite, the fork-only ones forked)
case $SANITIZE in
asan) forked="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
tsan) forked=CK_FORK=yes ;;
*) forked= ;;
esac
if [ -n "$forked" ]; then
	awk -v forked="$forked" '{ print $1, ($2 == "fork-only" ? forked : "CK_FORK=no") }' "$RES/list" >"$RES/runs"
else
	awk '{ print $1, "CK_FORK=yes" }' "$RES/list" >"$RES/runs"
fi
# by the times in durations, measured under TSan, where they count
longest_first "$(dirname "$0")/durations" <"$RES/runs" >"$RES/order"
# shellcheck disable=SC2016 # expanded by the inner bash
xargs -P "$JOBS" -L 1 bash -c 'one tests "$1" "$2"' _ <"$RES/order"

checks=0
failed=0
suites=0
slow=
# verdict PASS SUITE: count and show a suite's run in one pass
verdict()
{
	local pass=$1 s=$2 st n secs what=
	st=$(cat "$RES/$pass.$s.st" 2>/dev/null || echo 2)
	n=$(sed -n 's/.*Checks: \([0-9]*\),.*/\1/p' "$RES/$pass.$s.out" | tail -n 1)
	[ "$SANITIZE" = asan ] && ! grep -q "^$s fork-only\$" "$RES/list" &&
		what=" (all in one process, looking for leaks)"
	if [ "$st" -ne 0 ] || [ "${n:-0}" -eq 0 ]; then
		failed=$((failed + 1))
		echo "FAIL suite $s$what (exit $st, ${n:-0} checks):"
		grep -av '^SKIP unit tests tagged' "$RES/$pass.$s.out" | sed 's/^/    | /'
	fi
	suites=$((suites + 1))
	checks=$((checks + ${n:-0}))
	secs=$(cat "$RES/$pass.$s.secs" 2>/dev/null || echo 0)
	slow="$slow$secs $s
"
	[ -z "${WS_TIMES:-}" ] || echo "$s $secs" >>"$WS_TIMES"
}
while read -r s; do
	verdict tests "$s"
done <"$RES/suites"
cat "$RES"/tests.*.out | grep -a '^SKIP unit tests tagged' | sort -u >"$RES/skips"
cat "$RES/skips"
# the tags skipped: a skip is in the closing line, not only in a line
# above it that a log's tail cuts
skipped=$(sed -n "s/^SKIP unit tests tagged '\([^']*\)'.*/\1/p" "$RES/skips" | paste -sd, -)
skiptext="nothing skipped"
[ -z "$skipped" ] || skiptext="the tests tagged $skipped skipped"
echo "# slowest suites: $(printf '%s' "$slow" | sort -rn | head -n 5 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }')"
echo "unit${SANITIZE:+ ($SANITIZE)}: $suites suites, $checks checks, $failed failed, $skiptext, in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s with up to $JOBS at a time"
[ "$failed" -eq 0 ]
