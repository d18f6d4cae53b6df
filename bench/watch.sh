#!/bin/sh
# bench/watch.sh - what writestress watch's culprits cost, and its memory
# over a long watch (issue 41).  Run by bench/run.sh (section watch), or
# alone as root:
#   sh bench/watch.sh /abs/path/to/writestress [culprits|forks|soak]...
#
# culprits: dd rewriting a 1 GiB file in place (bs=1M, conv=notrunc,
#   fdatasync: its own writeback, on a loop device over memory, no
#   throttle: the most events a second) beside a `writestress watch` that
#   traces the culprits' events, and beside one that does not
#   (WS_NO_CULPRITS=1, the bench's knob), in alternating rounds.  Claims:
#   dd's throughput beside the culprits over its throughput without them,
#   median of the rounds' pairs, >= 0.98; the CPU they add per GiB
#   flooded (dd's user+sys and the watch's over the flood, medians on
#   minus off) <= 0.05 s.
# forks: a shell making FORKS short-lived writers one after the other
#   (dd rewriting 64 KiB of one of 64 files in place, conv=fsync: a
#   build's or a mail spool's many small writers), beside a watch with
#   and without the culprits' events, in alternating rounds.  Each new
#   process costs the tracer a fork event, an exec and a read of its
#   /proc files.  Claims: the shell's throughput (forks a second) with
#   over without, paired median, >= 0.95; the CPU they add per 1000
#   forks (the shell's and its children's, and the watch's; medians on
#   minus off) <= 0.25 s.  WATCH_FORKS=1000 sets their number.
# soak: a watch for SOAK_S seconds (600, at the default interval of 1 s)
#   beside a writer that makes a new process and a new file every 50 ms
#   (short-lived writers: the tables' churn) and a steady one; the
#   watch's VmRSS every 10 s.  Claim: the last sample within 1 MiB of the
#   one at 60 s (what grows, the run's series, is capped at 8192 points).
# Prints its rows (and PASS or FAIL each); exit 0 all held, 1 one failed,
# 2 could not measure.
# shellcheck disable=SC2317 # cleanup is called by trap
WS=${1:?usage: watch.sh WRITESTRESS [culprits|forks|soak]...}
shift
PARTS=${*:-culprits forks soak}
FORKS=${WATCH_FORKS:-1000}
ROUNDS=${WATCH_ROUNDS:-9}
SOAK_S=${SOAK_S:-600}
HERE=$(cd "$(dirname "$0")" && pwd)
RIGSH=$HERE/../tests/rig/rig.sh
[ "$(id -u)" = 0 ] || { echo "watch.sh: needs root (tracing, a loop device)" >&2; exit 2; }
WORK=$(mktemp -d /tmp/wswatch.XXXXXX) || exit 2
RIG=$WORK/rig
FAILED=0
WPID=
cleanup() {
	[ -n "$WPID" ] && kill -INT "$WPID" 2>/dev/null && wait "$WPID" 2>/dev/null
	[ -f "$RIG/rig.env" ] && bash "$RIGSH" down "$RIG" >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
CC=${CC:-cc}
"$CC" -O2 -Wall -Wextra -o "$WORK/runcost" "$HERE/runcost.c" || exit 2
bash "$RIGSH" up "$RIG" --size 3G --backing memory >"$WORK/rig.log" 2>&1 ||
	{ cat "$WORK/rig.log" >&2; exit 2; }
MNT=$(sed -n 's/^MNT=//p' "$RIG/rig.env")

# cpu_ns PID: the CPU time of the process's threads so far, in ns
# (schedstat's; /proc/PID/stat's ticks are 10 ms, too coarse for a flood
# of half a second)
cpu_ns() { cat "/proc/$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }

# watch_start INTERVAL [ENV=VALUE]: a watch of MNT in the background,
# WPID; back once its first interval is out
watch_start() {
	iv=$1
	shift
	rm -f "$WORK/w.prom"
	env "$@" "$WS" watch --forever -q -i "$iv" --probe-dir "$MNT" \
		--prom "$WORK/w.prom" >"$WORK/w.out" 2>&1 &
	WPID=$!
	n=0
	while [ ! -s "$WORK/w.prom" ]; do
		n=$((n + 1))
		[ "$n" -gt 200 ] && { cat "$WORK/w.out" >&2; echo "watch.sh: the watch never started" >&2; exit 2; }
		sleep 0.05
	done
}
watch_stop() {
	kill -INT "$WPID" && wait "$WPID"
	WPID=
}

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# paired_rounds SAMPLES CMD...: CMD under runcost beside a watch with the
# culprits' events (on) and without (off), ROUNDS rounds after a warm-up,
# the order alternating; a line to SAMPLES each: id round wall_s user_s
# sys_s watch_ns
paired_rounds() {
	samples=$1
	shift
	: >"$samples"
	r=0
	while [ "$r" -le "$ROUNDS" ]; do	# round 0: warm-up
		if [ $((r % 2)) = 0 ]; then ids="on off"; else ids="off on"; fi
		for id in $ids; do
			if [ "$id" = on ]; then watch_start 200ms; else watch_start 200ms WS_NO_CULPRITS=1; fi
			t0=$(cpu_ns "$WPID")
			: >"$WORK/cost"	# runcost appends
			"$WORK/runcost" -o "$WORK/cost" "$@" || exit 2
			sleep 0.2	# the tracer's drains of what CMD left
			t1=$(cpu_ns "$WPID")
			watch_stop
			read -r wall usr sys _ <"$WORK/cost"
			[ "$r" = 0 ] || echo "$id $r $wall $usr $sys $((t1 - t0))" >>"$samples"
		done
		r=$((r + 1))
	done
}

# paired_figures SAMPLES PER: the medians (walls, CPU s of CMD and the
# watch times PER, on and off), the paired wall ratio off/on, and the CPU
# the events add, in ratio on_wall off_wall on_cpu off_cpu add
paired_figures() {
	ratio=$(awk '{ w[$2, $1] = $3 } END { for (k in w) { split(k, a, SUBSEP); if (a[2] == "on") print w[a[1], "off"] / w[k] } }' "$1" | median)
	on_cpu=$(awk -v p="$2" '$1 == "on" { print ($4 + $5 + $6 / 1e9) * p }' "$1" | median)
	off_cpu=$(awk -v p="$2" '$1 == "off" { print ($4 + $5 + $6 / 1e9) * p }' "$1" | median)
	on_wall=$(awk '$1 == "on" { print $3 }' "$1" | median)
	off_wall=$(awk '$1 == "off" { print $3 }' "$1" | median)
	add=$(awk -v a="$on_cpu" -v b="$off_cpu" 'BEGIN { printf "%.3f", a - b }')
}

culprits() {
	F=$MNT/flood
	dd if=/dev/zero of="$F" bs=1M count=1024 conv=fdatasync status=none || exit 2
	paired_rounds "$WORK/samples" dd if=/dev/zero of="$F" bs=1M count=1024 \
		conv=notrunc,fdatasync status=none
	paired_figures "$WORK/samples" 1	# the flood is 1 GiB
	r1=$(awk -v x="$ratio" 'BEGIN { print (x >= 0.98) ? "PASS" : "FAIL" }')
	r2=$(awk -v x="$add" 'BEGIN { print (x <= 0.05) ? "PASS" : "FAIL" }')
	[ "$r1" = PASS ] && [ "$r2" = PASS ] || FAILED=1
	echo "watch culprits: dd 1 GiB rewritten in place, conv=fdatasync, loop device over memory; $ROUNDS rounds, order alternating"
	printf '  %-62s %8s  %s\n' "dd beside a watch without the culprits' events: median s" "$off_wall" info
	printf '  %-62s %8s  %s\n' "dd beside a watch with them: median s" "$on_wall" info
	printf '  %-62s %8s  %s\n' "CPU s per GiB (dd + watch) without / with them" "$off_cpu / $on_cpu" info
	printf '  %-62s %8.3f  %s %s\n' "dd's throughput with over without (paired median)" "$ratio" ">= 0.98" "$r1"
	printf '  %-62s %8s  %s %s\n' "CPU s the culprits add per GiB flooded" "$add" "<= 0.05" "$r2"
	echo "  samples (id round wall_s dd_user_s dd_sys_s watch_ns):"
	sed 's/^/    /' "$WORK/samples"
}

forks() {
	i=0
	while [ "$i" -lt 64 ]; do
		dd if=/dev/zero of="$MNT/small.$i" bs=64k count=1 conv=fsync status=none || exit 2
		i=$((i + 1))
	done
	# shellcheck disable=SC2016 # the inner sh expands them
	paired_rounds "$WORK/fsamples" sh -c 'i=0; while [ "$i" -lt "$2" ]; do
		dd if=/dev/zero of="$1/small.$((i % 64))" bs=64k count=1 \
			conv=notrunc,fsync status=none || exit 1
		i=$((i + 1)); done' sh "$MNT" "$FORKS"
	paired_figures "$WORK/fsamples" "$(awk -v n="$FORKS" 'BEGIN { print 1000 / n }')"
	r1=$(awk -v x="$ratio" 'BEGIN { print (x >= 0.95) ? "PASS" : "FAIL" }')
	r2=$(awk -v x="$add" 'BEGIN { print (x <= 0.25) ? "PASS" : "FAIL" }')
	[ "$r1" = PASS ] && [ "$r2" = PASS ] || FAILED=1
	echo "watch forks: $FORKS short-lived dd, 64 KiB each rewritten in place, conv=fsync, loop device over memory; $ROUNDS rounds, order alternating"
	printf '  %-62s %8s  %s\n' "the writers beside a watch without the culprits' events: median s" "$off_wall" info
	printf '  %-62s %8s  %s\n' "the writers beside a watch with them: median s" "$on_wall" info
	printf '  %-62s %8s  %s\n' "CPU s per 1000 forks (writers + watch) without / with them" "$off_cpu / $on_cpu" info
	printf '  %-62s %8.3f  %s %s\n' "forks a second with over without (paired median)" "$ratio" ">= 0.95" "$r1"
	printf '  %-62s %8s  %s %s\n' "CPU s the culprits add per 1000 forks" "$add" "<= 0.25" "$r2"
	echo "  samples (id round wall_s user_s sys_s watch_ns):"
	sed 's/^/    /' "$WORK/fsamples"
}

soak() {
	watch_start 1s	# the default interval
	# churn: a new process and file every 50 ms, and a steady writer
	(i=0; while :; do
		dd if=/dev/zero of="$MNT/churn.$((i % 512))" bs=64k count=1 conv=fsync status=none
		i=$((i + 1)); sleep 0.05
	done) &
	churn=$!
	(while :; do dd if=/dev/zero of="$MNT/steady" bs=1M count=64 conv=notrunc,fdatasync status=none; sleep 1; done) &
	steady=$!
	: >"$WORK/rss"
	s=0
	while [ "$s" -le "$SOAK_S" ]; do
		echo "$s $(awk '/^VmRSS/ { print $2 }' "/proc/$WPID/status")" >>"$WORK/rss"
		sleep 10
		s=$((s + 10))
	done
	kill "$churn" "$steady"
	wait "$churn" "$steady" 2>/dev/null
	watch_stop
	at60=$(awk '$1 == 60 { print $2 }' "$WORK/rss")
	last=$(tail -n 1 "$WORK/rss" | cut -d' ' -f2)
	grow=$((last - at60))
	r=$(awk -v g="$grow" 'BEGIN { print (g <= 1024) ? "PASS" : "FAIL" }')
	[ "$r" = PASS ] || FAILED=1
	echo "watch soak: $SOAK_S s beside a new writer process every 50 ms and a steady one; VmRSS KiB every 10 s"
	printf '  %-62s %8s  %s\n' "VmRSS at 60 s, KiB" "$at60" info
	printf '  %-62s %8s  %s\n' "VmRSS at the end, KiB" "$last" info
	printf '  %-62s %8s  %s %s\n' "growth from 60 s to the end, KiB" "$grow" "<= 1024" "$r"
	echo "  samples (s KiB): $(tr '\n' ' ' <"$WORK/rss")"
}

for p in $PARTS; do
	case $p in
	culprits) culprits ;;
	forks) forks ;;
	soak) soak ;;
	*) echo "watch.sh: unknown part '$p' (culprits, forks, soak)" >&2; exit 2 ;;
	esac
done
exit "$FAILED"
