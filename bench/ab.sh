#!/bin/sh
# ab.sh - did a change cost the writer CPU?  Two builds, same machine, same
# minutes: alternating rounds of the tmpfs section's two --no-probe rows
# (random and fixed data, 1 GiB to a fresh file on a private tmpfs), medians
# of each build's CPU seconds, and random data's cost beyond fixed data.
#
# usage (root): sh bench/ab.sh OLD_WRITESTRESS NEW_WRITESTRESS [ROUNDS]
#
# Why: the tmpfs claims are close to this VM's noise (one run of run.sh can
# land 0.02 s/GiB either side), so "unchanged" is judged against the old
# build measured beside the new one, not against an old results file.
set -eu
[ $# -ge 2 ] || { echo "usage: sh bench/ab.sh OLD_WRITESTRESS NEW_WRITESTRESS [ROUNDS]" >&2; exit 2; }
OLD=$1 NEW=$2 ROUNDS=${3:-21}
[ "$(id -u)" = 0 ] || { echo "ab.sh: needs root (it mounts a private tmpfs)" >&2; exit 2; }
for b in "$OLD" "$NEW"; do
	[ -x "$b" ] || { echo "ab.sh: $b: not an executable" >&2; exit 2; }
done
dir=$(mktemp -d)
trap 'umount "$dir/mnt" 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
cc -O2 -o "$dir/runcost" "$(dirname "$0")/runcost.c"
mkdir "$dir/mnt"
mount -t tmpfs -o size=3G tmpfs "$dir/mnt"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	for build in old new; do
		[ $build = old ] && ws=$OLD || ws=$NEW
		for data in random fixed; do
			rm -f "$dir/mnt/f"
			"$dir/runcost" -l 120 -o "$dir/cost.$build.$data" "$ws" -q \
				--pace none --data $data --no-probe -b 128 "$dir/mnt/f" >/dev/null
		done
	done
	r=$((r + 1))
done
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf 'ab.sh: %s rounds, 1 GiB each; medians of CPU s (user + sys) per GiB\n' "$ROUNDS"
printf '%-5s %8s %8s %8s %8s %8s\n' build random fixed extra r.sys f.sys
for build in old new; do
	rc=$(awk '{ print $2 + $3 }' "$dir/cost.$build.random" | med)
	fc=$(awk '{ print $2 + $3 }' "$dir/cost.$build.fixed" | med)
	rs=$(awk '{ print $3 }' "$dir/cost.$build.random" | med)
	fs=$(awk '{ print $3 }' "$dir/cost.$build.fixed" | med)
	awk -v b=$build -v r="$rc" -v f="$fc" -v rs="$rs" -v fs="$fs" 'BEGIN {
		printf "%-5s %8.4f %8.4f %8.4f %8.4f %8.4f\n", b, r, f, r - f, rs, fs }'
done
