#!/bin/sh
# demo.sh WRITESTRESS - what `make demo` runs: the problem writestress is
# about, in under a minute, on any machine.
#
# As root: a small slow disk of its own (a loop device throttled to
# 20 MiB/s, tests/rig/rig.sh, in ./writestress-demo.rig), and on it the
# same file written three ways under the same fsync probe (a mail client
# storing a message), after the probe alone on the idle disk, whose p99
# times ten is the target: the way dd does (--pace none), the way
# overwrite.c does (window + fadvise) and writestress's own adaptive
# pacing - one `writestress matrix` table with its recommendation,
# writestress-demo.json and a plot,
# writestress-demo.svg (throughput against the probe's p99).  The disk is
# taken down afterwards, also on Ctrl-C or a failure.
#
# Anyone else: a short paced run in the current directory (at most 20 s
# and 1 GiB, the file removed at the end) - on a fast disk it shows
# little; the rig needs root, and the script says so.
set -u

WS=${1:?usage: demo.sh WRITESTRESS}
HERE=$(cd "$(dirname "$0")/.." && pwd)
RIG=$HERE/tests/rig/rig.sh
DIR=$(pwd)/writestress-demo.rig

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; then
	why="not root"
	[ "$(id -u)" = 0 ] && why="no losetup (util-linux)"
	echo "demo: $why: a short paced run here (as root with losetup it would bring up a slow disk of its own and write dd's way beside overwrite.c's, to show the stalls)"
	exec "$WS" --time 20s --size 1G --fadvise --remove --interval 250ms \
		--json writestress-demo.json --svg writestress-demo.svg ./writestress-demo.dat
fi

if [ -e "$DIR" ]; then
	echo "demo: $DIR is in the way: a demo still running, or one killed (then: bash $RIG down $DIR; rmdir $DIR)" >&2
	exit 1
fi
mkdir "$DIR" || exit 1

# from here on the disk is ours to take down
cleanup()
{
	bash "$RIG" down "$DIR" >/dev/null 2>&1
	rmdir "$DIR" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
echo "demo: a slow disk of its own: a loop device throttled to 20 MiB/s, in $DIR"
bash "$RIG" up "$DIR" --size 512M --rate 20M >/dev/null || { echo "demo: the slow disk could not be set up" >&2; exit 1; }
MNT=$(sed -n 's/^MNT=//p' "$DIR/rig.env")
# the probe every 3 ms and each strategy for 8 s: over a thousand probes
# where they stay quick, enough for a p99 verdict (hist.h's rule); the
# target is what the probe takes on the idle disk, times IDLE_X; adaptive
# leaves half the disk's rate to the probe
IDLE_X=10
echo "demo: the same 64 MiB file rewritten for 8 s each, three ways, under an fsync probe every 3 ms; the target: ${IDLE_X}x what the probe takes on the idle disk"
# cgroup v2 throttles only the rig's own group: run inside it
set --
[ "$(sed -n 's/^CGROUP=//p' "$DIR/rig.env")" = v2 ] && set -- bash "$RIG" run "$DIR"
"$@" "$WS" matrix --strategies idle,none,window+fadvise,adaptive --each 8s --file-size 64M \
	--probe-interval 3ms --idle-x "$IDLE_X" --headroom 50 \
	--json writestress-demo.json --svg writestress-demo.svg "$MNT/demo.dat"
st=$?
[ "$st" = 0 ] && echo "demo: results: writestress-demo.json, writestress-demo.svg (the plot: throughput against the probe's p99)"
exit "$st"
