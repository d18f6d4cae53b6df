#!/bin/sh
# bench/run.sh - check the performance claims of issue 2 against peers
# measured in the same run, print a table, save it with a fingerprint of the
# machine into bench/results/latest.txt, exit 1 if a claim fails.
#
# usage: sh bench/run.sh /abs/path/to/writestress      (what `make bench` does)
#
# Knobs (environment):
#   TMPFS_ROUNDS=15    timed rounds of the tmpfs section (cheap, noisy)
#   PACED_ROUNDS=7     timed rounds of the paced section
#   FIO_ROUNDS=3       of which fio (informative, slow) takes part in the first
#   WARMUP=1           untimed rounds before each section's timed ones
#   TMPFS_BUFFERS=128  8 MiB buffers per tmpfs run (1 GiB)
#   PACED_BUFFERS=256  8 MiB buffers per paced run on the root fs (2 GiB)
#   PACED_DIR=/var/tmp where the paced runs write (a real filesystem)
#   RUN_LIMIT=120      seconds before one run counts as hung (it fails)
#   RESULTS=bench/results/latest.txt
#
# Every time is wall-clock time around the whole process, taken by this
# script, so every contender is timed by the same clock from exec to exit.
# Contenders alternate their order from round to round; a section's figure
# is the median of its rounds; a claim is a ratio of medians within one run.
# Exit status: 0 every claim held, 1 a claim failed, 2 could not measure.
# shellcheck disable=SC2317 # contenders and cleanup are called indirectly
set -u

WS=${1:-}
TMPFS_ROUNDS=${TMPFS_ROUNDS:-15}
PACED_ROUNDS=${PACED_ROUNDS:-7}
FIO_ROUNDS=${FIO_ROUNDS:-3}
WARMUP=${WARMUP:-1}
TMPFS_BUFFERS=${TMPFS_BUFFERS:-128}
PACED_BUFFERS=${PACED_BUFFERS:-256}
PACED_DIR=${PACED_DIR:-/var/tmp}
RUN_LIMIT=${RUN_LIMIT:-120}
HERE=$(cd "$(dirname "$0")" && pwd)
RESULTS=${RESULTS:-$HERE/results/latest.txt}
MIB=1048576
BUF=$((8 * MIB))

die() {
	echo "bench: $*" >&2
	exit 2
}

[ -n "$WS" ] || die "usage: sh bench/run.sh /abs/path/to/writestress"
[ -x "$WS" ] || die "not an executable: '$WS'"
[ "$(id -u)" = 0 ] || die "needs root (it mounts a private tmpfs)"
case $TMPFS_ROUNDS$PACED_ROUNDS$FIO_ROUNDS$WARMUP$TMPFS_BUFFERS$PACED_BUFFERS$RUN_LIMIT in
*[!0-9]*) die "*_ROUNDS, WARMUP, *_BUFFERS and RUN_LIMIT must be whole numbers" ;;
esac
if [ "$TMPFS_ROUNDS" -lt 1 ] || [ "$PACED_ROUNDS" -lt 1 ]; then
	die "TMPFS_ROUNDS and PACED_ROUNDS must be at least 1"
fi
if [ ! -x /usr/bin/time ]; then
	echo "bench: installing GNU time for peak RSS figures" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null ||
		die "/usr/bin/time is missing: apt-get install time"
fi

WORK=$(mktemp -d /tmp/wsbench.XXXXXX) || die "mktemp failed"
TMPFS=$WORK/tmpfs
PACED=""
mkdir "$TMPFS" || die "mkdir $TMPFS failed"
cleanup() {
	mountpoint -q "$TMPFS" && umount "$TMPFS"
	[ -n "$PACED" ] && rm -rf "$PACED"
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

mount -t tmpfs -o size=3G,mode=0700 wsbench "$TMPFS" ||
	die "cannot mount a tmpfs on $TMPFS"
PACED=$(mktemp -d "$PACED_DIR/wsbench.XXXX") || die "mktemp in $PACED_DIR failed"
need_kib=$(((PACED_BUFFERS * BUF + 2 * 1024 * MIB) / 1024))
free_kib=$(df -Pk "$PACED" | awk 'NR == 2 { print $4 }')
[ "$free_kib" -ge "$need_kib" ] ||
	die "$PACED_DIR has ${free_kib} KiB free, the paced runs need ${need_kib} KiB"

# Others may rebuild the binary while this runs: measure a private copy.
WS_ORIG=$WS
WS=$WORK/writestress
cp "$WS_ORIG" "$WS" || die "cannot copy $WS_ORIG"
WS_SUM=$(sha256sum "$WS" | cut -c1-12)
TREE=$(git -C "$HERE/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$HERE/.." status --porcelain -- src include 2>/dev/null | grep -q . &&
	TREE="$TREE + uncommitted changes in src/ include/"

CC=${CC:-cc}
"$CC" -O2 -Wall -Wextra -o "$WORK/overwrite" "$HERE/overwrite.c" ||
	die "cannot build bench/overwrite.c"

SAMPLES=$WORK/samples	# lines: section contender round seconds
LOG=$WORK/log		# everything the contenders printed
ROWS=$WORK/rows		# the table, one line per row
FAILED=0
: >"$SAMPLES"
: >"$LOG"
: >"$ROWS"

now_ns() { date +%s%N; }

# limited CMD...: run CMD, killed after RUN_LIMIT seconds (a hung run fails
# the bench instead of stalling it).
limited() { timeout -k 5 "$RUN_LIMIT" "$@"; }

# run_timed SECTION ROUND ID CMD...: run CMD once, append its wall time to
# the samples unless SECTION is "warmup".
run_timed() {
	tag=$1 rnd=$2 id=$3
	shift 3
	echo "== $tag $rnd $id: $*" >>"$LOG"
	t0=$(now_ns)
	"$@" >>"$LOG" 2>&1 || {
		st=$?
		tail -n 20 "$LOG" >&2
		[ "$st" = 124 ] && die "contender '$id' hung: killed after ${RUN_LIMIT}s"
		die "contender '$id' failed with status $st"
	}
	t1=$(now_ns)
	[ "$tag" = warmup ] ||
		echo "$tag $id $rnd $(((t1 - t0) / 1000))" |
		awk '{ printf "%s %s %s %.6f\n", $1, $2, $3, $4 / 1e6 }' >>"$SAMPLES"
}

# order ROUND ID...: print the IDs rotated by ROUND, reversed on odd rounds,
# so each contender runs first, last and after each peer in turn.
order() {
	r=$1
	shift
	n=$#
	k=$((r % n))
	while [ "$k" -gt 0 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k - 1))
	done
	if [ $((r % 2)) = 1 ]; then
		out=""
		for id; do out="$id $out"; done
		echo "$out"
	else
		echo "$*"
	fi
}

# ---- the contenders: each writes to the file named by $1 -----------------

tmpfs_dd() { limited dd if=/dev/zero bs=8M count="$TMPFS_BUFFERS" of="$1" status=none; }
tmpfs_fixed() { limited "$WS" -q --pace none --data fixed -b "$TMPFS_BUFFERS" "$1"; }
tmpfs_random() { limited "$WS" -q --pace none --data random -b "$TMPFS_BUFFERS" "$1"; }
tmpfs_fixednp() { limited "$WS" -q --pace none --data fixed --no-probe -b "$TMPFS_BUFFERS" "$1"; }
tmpfs_randomnp() { limited "$WS" -q --pace none --data random --no-probe -b "$TMPFS_BUFFERS" "$1"; }
paced_ow() { limited "$WORK/overwrite" -b "$PACED_BUFFERS" -f "$1"; }
paced_ws() { limited "$WS" -q -b "$PACED_BUFFERS" -f "$1"; }
paced_noprobe() { limited "$WS" -q -b "$PACED_BUFFERS" -f --no-probe "$1"; }
paced_alike() { limited "$WS" -q -b "$PACED_BUFFERS" -f --data fixed --no-probe "$1"; }
paced_fio() {
	limited fio --name=paced --filename="$1" --rw=write --bs=8M \
		--size=$((PACED_BUFFERS * 8))M --ioengine=psync \
		--sync_file_range=write:1 --fadvise_hint=0 --fallocate=none \
		--end_fsync=1 --output=/dev/null
}

# section NAME DIR SYNC ROUNDS ID...: WARMUP untimed rounds, then ROUNDS
# timed rounds of every contender in alternating order (fio only in the
# first FIO_ROUNDS timed ones).  Each run starts on an empty directory;
# with SYNC=1 the removal is pushed to the disk (the root fs is mounted
# with discard) before the next clock starts.
section() {
	name=$1 dir=$2 sync=$3 rounds=$4
	shift 4
	r=0
	while [ "$r" -lt $((WARMUP + rounds)) ]; do
		stag=$name
		[ "$r" -lt "$WARMUP" ] && stag=warmup
		for cid in $(order "$r" "$@"); do
			if [ "$cid" = fio ] && { [ "$r" -lt "$WARMUP" ] ||
				[ "$r" -ge $((WARMUP + FIO_ROUNDS)) ]; }; then
				continue
			fi
			rm -f "$dir/f"
			[ "$sync" = 1 ] && sync -f "$dir"
			run_timed "$stag" "$r" "$cid" "${name}_$cid" "$dir/f"
		done
		rm -f "$dir/f"
		r=$((r + 1))
	done
	[ "$sync" = 1 ] && sync -f "$dir"
}

# median: the median of the numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 }
		END {
			if (!NR) exit 1
			printf "%.6f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# paired SECTION ID PEER: the median over rounds of the peer's time over
# the contender's in the same round (drift between rounds cancels out).
paired() {
	awk -v s="$1" -v c="$2" -v p="$3" '$1 == s && $2 == c { t[$3] = $4 }
		$1 == s && $2 == p { q[$3] = $4 }
		END { for (r in t) if (r in q) print q[r] / t[r] }' "$SAMPLES" | median
}

# summary SECTION ID: "median min max" seconds of a contender's rounds.
summary() {
	awk -v s="$1" -v c="$2" '$1 == s && $2 == c { print $4 }' "$SAMPLES" |
		sort -g | awk '{ v[NR] = $1 }
		END {
			if (!NR) exit 1
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.6f %.6f %.6f\n", m, v[1], v[NR]
		}'
}

# row SECTION ID LABEL BYTES PEER MIN: a table row.  The ratio is the peer's
# median time over this contender's (so > 1 means faster than the peer);
# MIN is the claimed lower bound, "-" for an informative row, "peer" for
# the peer itself.
row() {
	sec=$1 id=$2 label=$3 bytes=$4 peer=$5 min=$6
	s=$(summary "$sec" "$id") || die "no samples for $sec $id"
	med=${s%% *} hi=${s##* }
	s=${s#* }
	lo=${s%% *}
	s=$(summary "$sec" "$peer") || die "no samples for $sec $peer"
	pmed=${s%% *}
	pr=$(paired "$sec" "$id" "$peer") || die "no paired samples for $sec $id"
	awk -v sec="$sec" -v label="$label" -v med="$med" -v lo="$lo" -v hi="$hi" \
	    -v pmed="$pmed" -v bytes="$bytes" -v min="$min" -v mib="$MIB" \
	    -v pr="$pr" 'BEGIN {
		# the verdict reads the ratio as printed: 0.950 passes >= 0.95
		ratio = sprintf("%.3f", pmed / med) + 0
		spread = (hi - lo) / med * 100
		if (min == "peer") { claim = "peer"; verdict = "-" }
		else if (min == "-") { claim = "info"; verdict = "-" }
		else { claim = ">= " min; verdict = ratio >= min ? "PASS" : "FAIL" }
		printf "%-6s %-48s %8.3f %6.0f%% %7.0f %6.3f %6.3f  %-8s %s\n", sec,
		       label, med, spread, bytes / mib / med, ratio, pr, claim, verdict
	}' >>"$ROWS"
}

# ---- peak RSS: limit buffer x (window + 2) + 16 MiB, flat in run length ---

RSS_ROWS=$WORK/rss
: >"$RSS_ROWS"
# rss LABEL BUFFER_MIB WINDOW ARGS...: peak RSS of one writestress run.
rss() {
	label=$1 bmib=$2 win=$3
	shift 3
	rm -f "$PACED/f"
	echo "== rss $label: $WS $*" >>"$LOG"
	limited /usr/bin/time -v -o "$WORK/time" "$WS" -q -B "${bmib}M" -w "$win" -f "$@" "$PACED/f" >>"$LOG" 2>&1 ||
		die "writestress failed: $*"
	rm -f "$PACED/f"
	kib=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$WORK/time")
	[ -n "$kib" ] || die "no peak RSS in /usr/bin/time's output"
	limit=$((bmib * (win + 2) + 16))
	awk -v label="$label" -v kib="$kib" -v limit="$limit" 'BEGIN {
		mib = kib / 1024
		printf "%-50s %9.1f %9d  %s\n", label, mib, limit, mib < limit ? "PASS" : "FAIL"
	}' >>"$RSS_ROWS"
	echo "$kib"
}

# ---- run ------------------------------------------------------------------

echo "bench: tmpfs section ($((TMPFS_BUFFERS * 8)) MiB per run, $WARMUP warm-up + $TMPFS_ROUNDS rounds)" >&2
section tmpfs "$TMPFS" 0 "$TMPFS_ROUNDS" dd fixed random fixednp randomnp

echo "bench: paced section ($((PACED_BUFFERS * 8)) MiB per run on $PACED, $WARMUP warm-up + $PACED_ROUNDS rounds)" >&2
paced_ids="ow ws noprobe alike"
[ "$FIO_ROUNDS" -gt 0 ] && command -v fio >/dev/null 2>&1 && paced_ids="$paced_ids fio"
# shellcheck disable=SC2086 # a list of words
section paced "$PACED" 1 "$PACED_ROUNDS" $paced_ids

echo "bench: peak RSS" >&2
short=$(rss "window 1, 8M x 16 (128 MiB)" 8 1 -b 16) || exit 2
long=$(rss "window 1, 8M, 6 GiB wrapping at 512 MiB" 8 1 --size 6G --file-size 512M) || exit 2
rss "window 4, 32M, 2 GiB wrapping at 512 MiB" 32 4 --size 2G --file-size 512M >/dev/null || exit 2
growth=$(((long - short) / 1024))
grow_verdict=PASS
[ "$growth" -le 2 ] || grow_verdict=FAIL
printf "%-50s %9d %9d  %s\n" "growth from the short to the 6 GiB run (MiB)" \
	"$growth" 2 "$grow_verdict" >>"$RSS_ROWS"

tb=$((TMPFS_BUFFERS * BUF))
pb=$((PACED_BUFFERS * BUF))
row tmpfs dd "dd if=/dev/zero bs=8M" "$tb" dd peer
row tmpfs fixed "writestress --pace none --data fixed" "$tb" dd 0.95
row tmpfs random "writestress --pace none --data random" "$tb" dd 0.80
row tmpfs fixednp "writestress --pace none --data fixed --no-probe" "$tb" dd -
row tmpfs randomnp "writestress --pace none --data random --no-probe" "$tb" dd -
row paced ow "overwrite.c loop -f (fixed data)" "$pb" ow peer
row paced ws "writestress -f (default: window 1, random)" "$pb" ow 0.95
row paced noprobe "writestress -f --no-probe" "$pb" ow -
row paced alike "writestress -f --data fixed --no-probe" "$pb" ow -
case $paced_ids in
*fio*) row paced fio "fio bs=8M sync_file_range=write:1 (${FIO_ROUNDS}x)" "$pb" ow - ;;
esac
grep -q 'FAIL$' "$ROWS" "$RSS_ROWS" && FAILED=1

# ---- report ---------------------------------------------------------------

fs_of() { df -PT "$1" | awk 'NR == 2 { print $2 " (" $1 ")" }'; }
report() {
	echo "writestress bench: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "binary:     $WS_ORIG ($("$WS" --version 2>&1 | head -n 1), sha256 $WS_SUM...)"
	echo "tree:       $TREE"
	echo "kernel:     $(uname -r) $(uname -m)"
	echo "cpu:        $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) online"
	echo "memory:     $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "tmpfs:      private, size=3G"
	echo "paced fs:   $(fs_of "$PACED") at $PACED_DIR, mount options $(findmnt -no OPTIONS -T "$PACED_DIR" 2>/dev/null || echo '?')"
	dev=$(findmnt -no SOURCE -T "$PACED_DIR" 2>/dev/null)
	echo "device:     $(lsblk -dno NAME,SIZE,ROTA,SCHED "$dev" 2>/dev/null |
		awk '{ printf "%s, %s, rotational=%s, scheduler %s", $1, $2, $3, $4 }')"
	echo "peers:      $(dd --version | head -n 1); overwrite.c by $("$CC" --version | head -n 1)$(command -v fio >/dev/null 2>&1 && echo "; $(fio --version)")"
	echo "method:     per section $WARMUP warm-up + $TMPFS_ROUNDS (tmpfs) / $PACED_ROUNDS (paced) timed rounds, order"
	echo "            alternating, fio in $FIO_ROUNDS of them; wall time around each process, exec to exit"
	echo
	echo "Throughput: ratio = peer median time / contender median time (same bytes; > 1 is faster);"
	echo "paired = median over rounds of the same ratio within one round (a cross-check, no verdict)"
	printf "%-6s %-48s %8s %7s %7s %6s %6s  %-8s %s\n" section contender "median s" spread MiB/s ratio paired claim result
	cat "$ROWS"
	echo
	echo "Peak RSS (limit: buffer size x (window + 2) + 16 MiB; growth allowed: 2 MiB)"
	printf "%-50s %9s %9s  %s\n" run "peak MiB" "limit MiB" result
	cat "$RSS_ROWS"
	echo
	if [ "$FAILED" = 0 ]; then
		echo "verdict: every claim held"
	else
		echo "verdict: a claim FAILED"
	fi
	echo
	echo "Raw samples (section contender round seconds, in the order run):"
	cat "$SAMPLES"
}

mkdir -p "$(dirname "$RESULTS")"
report >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS"
sed '/^Raw samples/,$d' "$RESULTS"
echo "bench: saved in $RESULTS" >&2
exit "$FAILED"
