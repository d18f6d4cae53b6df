#!/bin/sh
# run.sh - the black-box CLI test runner.
#
#   WS=/abs/writestress HELPERS=/abs/dir SANITIZE=<''|asan|tsan> \
#       WS_REQUIRE=<classes> sh tests/cli/run.sh [NAME...]
#
# Runs every tests/cli/t_*.sh in sorted order (or only those named), each in
# a fresh directory from mktemp -d under /tmp with a timeout, prints PASS,
# FAIL (with the end of the test's output) or SKIP (with the class and the
# reason) per test, then the skips again and "N passed, N failed, N
# skipped".  Exits 1 if any failed.
# A test exits 0 to pass, 77 to skip (after printing "skip[CLASS]: why",
# see lib.sh), anything else fails.  A skip whose class is listed in
# WS_REQUIRE (comma-separated, or "all") is a failure: CI lists the
# classes its machine must have (root, cmd, e2e, fiu).  WS_SHOW=1 prints a
# passing test's output too (the figures an end-to-end test measured).

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

# Sanitizer builds run several times slower; every timeout stretches.
case $SANITIZE in
'') WS_SLOW=1 ;;
asan) WS_SLOW=3 ;;
tsan) WS_SLOW=5 ;;
*) echo "run.sh: unknown SANITIZE='$SANITIZE'" >&2; exit 2 ;;
esac
TIMEOUT=$((120 * WS_SLOW))
export WS HELPERS SANITIZE WS_SLOW CLI_DIR

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
	_dirty=0
	for _m in $(leftover_mounts "$1"); do
		echo "    left mounted: $_m"
		umount "$_m" 2>/dev/null || umount -l "$_m"
		_dirty=1
	done
	for _l in $(leftover_loops "$1"); do
		echo "    left attached: $_l"
		losetup -d "$_l"
		_dirty=1
	done
	rm -rf --one-file-system "$1"
	return $_dirty
}

# Interrupted: undo the current test's leftovers too, then stop.
dir=""
log=""
on_interrupt()
{
	[ -n "$dir" ] && [ -d "$dir" ] && clean_dir "$dir"
	[ -n "$log" ] && rm -f "$log"
	echo "run.sh: interrupted" >&2
	exit 130
}
trap on_interrupt INT TERM HUP

WS_REQUIRE=${WS_REQUIRE:-}

# listed CLASS: is CLASS in WS_REQUIRE?
listed()
{
	case ",$WS_REQUIRE," in
	*",all,"* | *",$1,"*) return 0 ;;
	esac
	return 1
}

passed=0
failed=0
skipped=0
skips=
start=$(date +%s)

if [ $# -gt 0 ]; then
	tests=""
	for n in "$@"; do
		n=${n%.sh}
		n=${n##*/}
		[ -f "$CLI_DIR/$n.sh" ] || { echo "run.sh: no test $n" >&2; exit 2; }
		tests="$tests $CLI_DIR/$n.sh"
	done
else
	# shellcheck disable=SC2012 # t_NAME.sh: plain names
	tests=$(ls "$CLI_DIR"/t_*.sh 2>/dev/null | LC_ALL=C sort)
fi
[ -n "$tests" ] || { echo "run.sh: no tests in $CLI_DIR" >&2; exit 2; }

for t in $tests; do
	name=$(basename "$t" .sh)
	dir=$(mktemp -d /tmp/ws-cli.XXXXXX) || exit 2
	log=$(mktemp /tmp/ws-cli-log.XXXXXX) || exit 2
	st=0
	(cd "$dir" && TESTDIR=$dir exec timeout -k 10 "$TIMEOUT" sh "$t") \
		>"$log" 2>&1 </dev/null || st=$?
	leftovers=$(clean_dir "$dir")
	if [ -n "$leftovers" ]; then
		echo "the test left mounts or loop devices behind:" >>"$log"
		echo "$leftovers" >>"$log"
		[ "$st" -eq 0 ] && st=99
	fi
	case $st in
	0)
		echo "PASS $name"
		[ -z "${WS_SHOW:-}" ] || sed 's/^/    | /' "$log"
		passed=$((passed + 1)) ;;
	77)
		line=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
		class=$(printf '%s\n' "$line" | sed -n 's/^skip\[\([a-z0-9]*\)\]: .*/\1/p')
		reason=${line#skip*: }
		[ -n "$class" ] || class=unknown
		if listed "$class"; then
			echo "FAIL $name (a $class skip, and WS_REQUIRE=$WS_REQUIRE requires $class): $reason"
			failed=$((failed + 1))
		else
			echo "SKIP $name [$class]: $reason"
			skips="$skips
  $name [$class]: $reason"
			skipped=$((skipped + 1))
		fi ;;
	*)
		case $st in
		124|137) why="timed out after $TIMEOUT s" ;;
		*) why="exit $st" ;;
		esac
		echo "FAIL $name ($why)"
		tail -n 40 "$log" | sed 's/^/    | /'
		failed=$((failed + 1)) ;;
	esac
	rm -f "$log"
	dir=""
	log=""
done

echo "# the suite took $(($(date +%s) - start)) s"
[ -z "$skips" ] || echo "skipped:$skips"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
