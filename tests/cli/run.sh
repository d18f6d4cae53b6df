#!/bin/bash
# shellcheck shell=bash # (the t_*.sh it runs are sh: .shellcheckrc)
# run.sh - the black-box CLI test runner: several tests at once.
#
#   WS=/abs/writestress HELPERS=/abs/dir SANITIZE=<''|asan|tsan> \
#       WS_REQUIRE=<classes> WS_JOBS=<N> bash tests/cli/run.sh [NAME...]
#
# Runs every tests/cli/t_*.sh (or only those named), each in a fresh
# directory from mktemp -d under /tmp with a timeout, up to WS_JOBS at a
# time, and prints as each ends: PASS, FAIL (with the end of its output)
# or SKIP (class and reason), with its time; then the slowest tests, the
# skips, "N passed, N failed, N skipped" and the wall time.  Exits 1 if
# any failed.
#
# A test exits 0 to pass, 77 to skip (after printing "skip[CLASS]: why",
# see lib.sh), anything else fails.  A section of a test that cannot run
# here prints the same line through lib.sh's skip_part and is counted as a
# partial skip.  A skip or partial skip whose class WS_REQUIRE lists
# (comma-separated, or "all": every class but kernel and sanitizer) is a
# failure: CI's machine must run everything its kernel can.  WS_SHOW=1 prints a passing test's output too (the
# figures an end-to-end test measured).
#
# What a test needs from the machine, in a header line of its own:
#   # needs: alone   nothing else may run beside it (it changes the whole
#                    machine: a vm sysctl, drop_caches)
#   # needs: cpu     it keeps a core busy: it counts as two jobs
#   # needs: named   it runs only when named (make check-deb names it):
#                    it installs a package on the machine, not a thing
#                    for every make check
#   # timeout: SECS  its own limit, when 120 s is too short for what it
#                    does (stretched for sanitizers like the default)
# End-to-end tests need nothing more: each makes its own rig (image, loop
# device, filesystem, throttle), and the throttle is per device, so rigs
# running side by side share no budget.  Tests start longest first (the
# times in tests/cli/durations, measured on the plain build, or in
# durations.asan and durations.tsan under a sanitizer; a test not listed
# there is taken as long); "alone" tests run first, one by one.
# WS_TIMES=FILE writes this run's times there, in durations' format.

CLI_DIR=$(cd "$(dirname "$0")" && pwd)
WS=${WS:-$CLI_DIR/../../build/writestress}
HELPERS=${HELPERS:-}
SANITIZE=${SANITIZE:-}

case $WS in
/*) ;;
*) WS=$(pwd)/$WS ;;
esac
if [ ! -x "$WS" ]; then
	echo "run.sh: WS='$WS' is not an executable; build it with make" >&2
	exit 2
fi

# Sanitizer builds run several times slower: every timeout stretches and
# fewer tests share the two cores.
ncpu=$(nproc 2>/dev/null || echo 2)
# shellcheck source=../slowdown.sh
. "$CLI_DIR/../slowdown.sh"
# shellcheck source=../longest_first.sh
. "$CLI_DIR/../longest_first.sh"
jobs_per_cpu=4
[ "$WS_SLOW" -eq 1 ] || jobs_per_cpu=3
JOBS=${WS_JOBS:-$((ncpu * jobs_per_cpu))}
case $JOBS in
'' | *[!0-9]* | 0) echo "run.sh: WS_JOBS='$JOBS' is not a number of jobs" >&2; exit 2 ;;
esac
TIMEOUT=$((120 * WS_SLOW))
export WS HELPERS SANITIZE WS_SLOW CLI_DIR

WS_REQUIRE=${WS_REQUIRE:-}

# listed CLASS: is CLASS in WS_REQUIRE?  "all" is every class but kernel
# (the kernel lacks a feature) and sanitizer (the build cannot run it):
# what a machine set up for the tests must have.
listed()
{
	case ",$WS_REQUIRE," in
	*",$1,"*) return 0 ;;
	*",all,"*) [ "$1" != kernel ] && [ "$1" != sanitizer ] ;;
	*) return 1 ;;
	esac
}

# Leftovers of a test, in its own directory only: mounts (deepest first)
# and loop devices backed by files there.  Printed, so a test that forgot
# its cleanup is caught.
leftover_mounts()
{
	awk -v d="$1" 'index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo |
		sort -r
}

leftover_loops()
{
	command -v losetup >/dev/null 2>&1 || return 0
	losetup -l -n -O NAME,BACK-FILE 2>/dev/null |
		awk -v d="$1" 'index($2, d "/") == 1 { print $1 }'
}

clean_dir()
{
	local dirty=0 m l
	for m in $(leftover_mounts "$1"); do
		echo "    left mounted: $m"
		umount "$m" 2>/dev/null || umount -l "$m"
		dirty=1
	done
	for l in $(leftover_loops "$1"); do
		echo "    left attached: $l"
		losetup -d "$l"
		dirty=1
	done
	rm -rf --one-file-system "$1"
	return $dirty
}

# timeout_of NAME: test NAME's time limit in seconds, its "# timeout:"
# header's or TIMEOUT, stretched by WS_SLOW either way.
timeout_of()
{
	local t
	t=$(sed -n '1,/^[^#]/s/^# timeout: *\([0-9][0-9]*\) *$/\1/p' "$CLI_DIR/$1.sh")
	if [ -n "$t" ]; then echo $((t * WS_SLOW)); else echo "$TIMEOUT"; fi
}

# needs NAME WORD: does test NAME's header say "# needs: ... WORD ..."?
needs()
{
	sed -n '1,/^[^#]/s/^# needs: //p' "$CLI_DIR/$1.sh" | grep -qw -- "$2"
}

weight()
{
	if needs "$1" cpu; then echo 2; else echo 1; fi
}

# The tests in the order they start: alone ones first, then longest first,
# by the times of this build (a sanitizer's own, where the slowest are
# others: t_e2e_matrix takes 100 s under TSan, 54 on the plain build).
DURATIONS=$CLI_DIR/durations
[ -z "$SANITIZE" ] || [ ! -f "$DURATIONS.$SANITIZE" ] || DURATIONS=$DURATIONS.$SANITIZE
order()
{
	local n alone='' rest=''
	for n in "$@"; do
		if needs "$n" alone; then
			alone+="$n"$'\n'
		else
			rest+="$n"$'\n'
		fi
	done
	printf '%s' "$alone" | longest_first "$DURATIONS"
	printf '%s' "$rest" | longest_first "$DURATIONS"
}

# A python3 with Debian's jsonschema (deps.sh), or none.
JSON_PY=
for py in /usr/bin/python3 python3; do
	if "$py" -c 'import jsonschema' 2>/dev/null; then
		JSON_PY=$py
		break
	fi
done

# validate_json NAME DIR: every JSON file test NAME left in DIR is
# writestress's and valid against its schema (doc/schema), strictly: no
# field the schema does not name.  A file that does not parse, names no
# known schema or lacks "tool" fails too, unless the test named it as not
# a result (lib.sh's not_a_result: DIR/.not-results).  The count judged
# goes to RES/NAME.judged.  1 (and why, in the log) if any is not valid.
validate_json()
{
	local out st=0
	if [ -z "$JSON_PY" ]; then
		echo "cmd its JSON files not validated against doc/schema: needs python3-jsonschema" >>"$RES/$1.parts"
		return 0
	fi
	# no JSON file, nothing to judge: a python start (0.4 s of CPU) saved
	# for most tests, three times in CI
	[ -n "$(find "$2" -name '*.json' -print -quit 2>/dev/null)" ] || return 0
	out=$("$JSON_PY" "$CLI_DIR/py/validate_json.py" --strict --quiet \
		--not-results "$2/.not-results" "$2" 2>&1) || st=$?
	printf '%s\n' "$out" | grep -v '^validate_json: judged ' >>"$RES/$1.log"
	printf '%s\n' "$out" | sed -n 's/^validate_json: judged //p' >"$RES/$1.judged"
	[ "$st" -eq 0 ] && return 0
	echo "FAIL: a JSON file the test left is not writestress's or not valid against its schema (doc/schema; above)" >>"$RES/$1.log"
	return 1
}

# run_one NAME: one test in a directory of its own; leaves RES/NAME.st
# (exit status), .log (output), .secs (its time) and .parts (its partial
# skips, "CLASS why" lines).  Runs in the background.
run_one()
{
	local name=$1 dir st=0 t0 leftovers child=
	dir=$(mktemp -d /tmp/ws-cli.XXXXXX) || { echo 2 >"$RES/$name.st"; return; }
	: >"$RES/$name.parts"
	trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; wait; clean_dir "$dir" >/dev/null; echo 130 >"$RES/$name.st"; exit 130' TERM
	t0=$(date +%s.%N)
	(cd "$dir" && TESTDIR=$dir WS_SKIPS_FILE=$RES/$name.parts \
		exec timeout -k 10 "$(timeout_of "$name")" sh "$CLI_DIR/$name.sh") \
		>"$RES/$name.log" 2>&1 </dev/null &
	child=$!
	wait "$child" || st=$?
	child=
	# the CPU the test used (user, system): this shell's children so far
	# are the test and a mktemp
	times >"$RES/$name.cpu"
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' >"$RES/$name.secs"
	if [ "$st" -eq 0 ] && ! validate_json "$name" "$dir"; then
		st=1
	fi
	leftovers=$(clean_dir "$dir")
	if [ -n "$leftovers" ]; then
		{
			echo "the test left mounts or loop devices behind:"
			echo "$leftovers"
		} >>"$RES/$name.log"
		[ "$st" -eq 0 ] && st=99
	fi
	echo "$st" >"$RES/$name.st"
}

# cpu_secs NAME: the CPU seconds (user and system) test NAME used, from
# the second line of bash's times ("0m1.234s 0m0.567s"), or 0.
cpu_secs()
{
	awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] }
		printf "%.1f\n", s } END { if (NR < 2) print 0 }' "$RES/$1.cpu" 2>/dev/null || echo 0
}

passed=0
failed=0
skipped=0
parts=0
skips=
fails=
# report NAME: the line for a test that ended, and its count.
report()
{
	local name=$1 st secs cpu line class reason c why bad=
	st=$(cat "$RES/$name.st" 2>/dev/null || echo 2)
	secs=$(cat "$RES/$name.secs" 2>/dev/null || echo 0)
	judged=$((judged + $(cat "$RES/$name.judged" 2>/dev/null || echo 0)))
	cpu=$(cpu_secs "$name")
	cpus="$cpus$cpu $name
"
	[ -z "${WS_TIMES:-}" ] || echo "$name $secs" >>"$WS_TIMES"
	times="$times$secs $name
"
	# partial skips: counted; a required class fails the test
	while read -r c why; do
		[ -n "$c" ] || continue
		if listed "$c"; then
			bad="$bad; a $c skip of a section, and WS_REQUIRE=$WS_REQUIRE requires $c: $why"
		else
			skips="$skips
  $name (part) [$c]: $why"
			parts=$((parts + 1))
		fi
	done <"$RES/$name.parts"
	if [ "$st" -eq 0 ] && [ -n "$bad" ]; then
		echo "FAIL $name (${secs} s)${bad#;}"
		fails="$fails
  $name:${bad#;}"
		failed=$((failed + 1))
		return
	fi
	case $st in
	0)
		echo "PASS $name (${secs} s)"
		[ -z "${WS_SHOW:-}" ] || sed 's/^/    | /' "$RES/$name.log"
		passed=$((passed + 1)) ;;
	77)
		line=$(grep -v '^[[:space:]]*$' "$RES/$name.log" | tail -n 1)
		class=$(printf '%s\n' "$line" | sed -n 's/^skip\[\([a-z0-9]*\)\]: .*/\1/p')
		reason=${line#skip*: }
		[ -n "$class" ] || class=unknown
		if listed "$class"; then
			echo "FAIL $name (a $class skip, and WS_REQUIRE=$WS_REQUIRE requires $class): $reason"
			fails="$fails
  $name (a $class skip, required): $reason"
			failed=$((failed + 1))
		else
			echo "SKIP $name [$class]: $reason"
			skips="$skips
  $name [$class]: $reason"
			skipped=$((skipped + 1))
		fi ;;
	*)
		case $st in
		124 | 137) why="timed out after $(timeout_of "$name") s" ;;
		*) why="exit $st" ;;
		esac
		# the test's own words for what went wrong (its last "FAIL: "
		# line), on the FAIL line and again in the closing list, which
		# a CI log's tail keeps when its middle is cut
		reason=$(sed -n 's/^FAIL: //p' "$RES/$name.log" | tail -n 1)
		echo "FAIL $name ($why, ${secs} s)${reason:+: $reason}"
		tail -n 40 "$RES/$name.log" | sed 's/^/    | /'
		fails="$fails
  $name ($why): ${reason:-no FAIL line; see its output above}"
		failed=$((failed + 1)) ;;
	esac
}

if [ $# -gt 0 ]; then
	names=()
	for n in "$@"; do
		n=${n%.sh}
		n=${n##*/}
		[ -f "$CLI_DIR/$n.sh" ] || { echo "run.sh: no test $n" >&2; exit 2; }
		names+=("$n")
	done
else
	# every test but those that run only when named ("# needs: named")
	names=()
	for f in "$CLI_DIR"/t_*.sh; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .sh)
		needs "$n" named || names+=("$n")
	done
fi
[ "${#names[@]}" -gt 0 ] || { echo "run.sh: no tests in $CLI_DIR" >&2; exit 2; }

RES=$(mktemp -d /tmp/ws-cli-run.XXXXXX) || exit 2
declare -A running_name running_weight
busy=0
judged=0
times=
cpus=

# reap: wait for one running test to end and report it.
reap()
{
	local pid
	wait -n -p pid
	[ -n "$pid" ] || return 1
	report "${running_name[$pid]}"
	busy=$((busy - running_weight[$pid]))
	unset "running_name[$pid]" "running_weight[$pid]"
}

on_interrupt()
{
	local pid
	trap '' INT TERM HUP
	for pid in "${!running_name[@]}"; do
		kill -TERM "$pid" 2>/dev/null
	done
	wait
	rm -rf "$RES"
	echo "run.sh: interrupted" >&2
	exit 130
}
trap on_interrupt INT TERM HUP

start=$(date +%s)
echo "# ${#names[@]} tests, up to $JOBS at a time (WS_JOBS)"
for name in $(order "${names[@]}"); do
	w=$(weight "$name")
	[ "$w" -le "$JOBS" ] || w=$JOBS
	if needs "$name" alone; then
		w=$JOBS
	fi
	while [ "$busy" -gt 0 ] && [ $((busy + w)) -gt "$JOBS" ]; do
		reap || break
	done
	run_one "$name" &
	running_name[$!]=$name
	running_weight[$!]=$w
	busy=$((busy + w))
done
while [ "${#running_name[@]}" -gt 0 ]; do
	reap || break
done
rm -rf "$RES"

echo "# slowest: $(printf '%s' "$times" | sort -rn | head -n 5 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }')"
echo "# most CPU: $(printf '%s' "$cpus" | sort -rn | head -n 8 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }'); $(printf '%s' "$cpus" | awk '{ s += $1 } END { printf "%.0f", s }') s in all"
[ -z "$skips" ] || echo "skipped:$skips"
[ -z "$fails" ] || echo "failed:$fails"
echo "$passed passed, $failed failed, $skipped skipped, $parts partial skips"
# Every JSON file the tests left was judged against doc/schema; the whole
# suite leaves at least JUDGED_FLOOR of them (2329 in the plain build, 2200
# of them t_report's fleets), so a check that stopped judging - a schema
# name changed, a validator that skips everything - fails here.
JUDGED_FLOOR=2000
echo "# schema: $judged JSON files judged against doc/schema"
if [ $# -eq 0 ] && [ -n "$JSON_PY" ] && [ "$judged" -lt "$JUDGED_FLOOR" ]; then
	echo "FAIL: the suite judged $judged JSON files against doc/schema, under the $JUDGED_FLOOR the whole suite leaves"
	failed=$((failed + 1))
fi
echo "# the CLI tests took $(($(date +%s) - start)) s with up to $JOBS at a time"
[ "$failed" -eq 0 ]
