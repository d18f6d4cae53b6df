#!/bin/bash
# rig.sh - a real slow disk on demand: a throttled loop device with a
# filesystem on it, for the end-to-end tests and for people.
#
# USAGE (as root)
#   rig.sh up DIR [--size 2G] [--fs ext4|xfs|btrfs] [--rate BYTES_PER_SEC]
#                 [--mount-opts OPTS] [--backing disk|memory] [--cached]
#       Create DIR/img (sparse), attach it to a free loop device with direct
#       I/O to the backing file (so the image is not cached twice), make the
#       filesystem (ext4 with lazy inode-table and journal init off, so no
#       background initialisation writes disturb a measurement), mount it at
#       DIR/mnt (with mount -o OPTS if given, e.g. discard), throttle the
#       device's writes to the rate (none by default)
#       and write DIR/rig.env, which is printed.
#       --backing memory puts the image on a tmpfs of its own at
#       DIR/backing (as large as the image; the loop device still does
#       direct I/O to it): the throttle is then the only limit the device
#       has, whatever else the machine's disk is doing - rigs side by side
#       (the tests run several at once) do not share the disk under /tmp.
#       The default, disk, keeps the image in DIR.
#       --cached attaches the image without direct I/O: the backing file's
#       page cache is then the disk's volatile write cache, a write lands
#       in it at memory speed and a cache flush (the loop device's fsync
#       of the image) costs what writing the cached image out takes - on a
#       rig whose own device is throttled, a disk whose flushes cost what
#       the rate says, whatever the machine's disk does with its own.
#           LOOP=/dev/loop3  MAJMIN=7:3  MNT=DIR/mnt  FS=ext4  IMG=DIR/img
#           CGROUP=v1|v2     CG=<v2: the rig's own cgroup directory>
#           BACKING=<memory: DIR/backing, the tmpfs the image is on>
#           SECTORS0=<the device's sectors-written counter when up finished>
#       (one KEY=value a line, safe to source: DIR may not hold blanks or
#       shell quoting characters).
#       Every later command reads the rig back from DIR/rig.env and touches
#       nothing else.  If up fails or is interrupted, it undoes what it did.
#   rig.sh rate DIR BYTES_PER_SEC
#       Change the throttle now (0 removes it).
#   rig.sh step DIR FILE BYTES RATE [--then BYTES2 RATE2]... [--by device|file]
#       In the background: poll every 20 ms and set the throttle to RATE once
#       BYTES have been written, then to RATE2 at BYTES2, and so on (offsets
#       counted from when step is started, ascending): a disk that slows down
#       after N bytes.  Prints the poller's pid; it exits after the last step
#       or when the rig goes down, and logs each step to DIR/step.log
#       ("<unix time> <bytes> <rate>").
#       --by device (the default): bytes written to the device, from the
#         sectors-written counter of /sys/block/loopN/stat (x 512).  This is
#         what a real SSD reacts to: it counts whatever reaches the disk -
#         the file's pages once written back, the journal and metadata, and
#         the writes of a probe on the same filesystem.  FILE is not read.
#       --by file: FILE's size (st_size).  Cheaper to reason about, but it
#         runs ahead of the disk by the dirty backlog: with unpaced writes
#         the throttle would change long before the disk saw the bytes.
#       With a paced writer both agree to within the pacing window plus a
#         little journal traffic (about 1%).
#   rig.sh written DIR      bytes written to the device since up finished
#                           (the loop device's counters outlive attachments;
#                           mkfs and mount are not counted)
#   rig.sh discarded DIR    bytes the device was asked to discard (TRIM)
#                           since up finished
#   rig.sh show DIR         the rig.env and the throttle in force
#   rig.sh run DIR CMD...   run CMD under the throttle (v2: inside the rig's
#                           cgroup; v1 throttles the whole device: plain exec)
#   rig.sh down DIR         stop a step poller, remove the throttle, unmount,
#                           detach, remove the image and rig.env.  Safe to
#                           call on a half-built or already removed rig.
#
#   Sizes and rates are integers with an optional binary suffix: K, M, G, T
#   (or KiB, MiB, GiB, TiB; 2^10 ...), and rates may end in /s: 20M = 20 MiB/s.
#
# THROTTLING
#   cgroup v1 (/sys/fs/cgroup/blkio): the root group's
#   blkio.throttle.write_bps_device caps every write bio to the loop device,
#   direct and buffered writeback alike (the flusher runs in the root group).
#   cgroup v2 (where v1 blkio is absent): io.max cannot be set on the root
#   group, so the rig makes its own group, wsrig-loopN under the cgroup2
#   hierarchy (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid
#   machine, where io must not be bound to v1), turns on the io and memory
#   controllers for the root's children if they are off (cgroup writeback
#   needs both; they are left on), sets "wbps=" there, and only processes in
#   that group are throttled: start them with `rig.sh run`.  Writeback of
#   their dirty pages is charged to the group by the kernel.  (What has
#   run: every step of the v2 path - detection, enabling the controllers,
#   the group, io.max written and read back, run, down - against a fake
#   hierarchy in tests/cli/t_rig_cgroup_v2.sh, on the project's v1
#   machines.  What has not: a real cgroup2 kernel throttling a rig; the
#   e2e tests will run through rig.sh run there, as e2e.sh's rig_up sets
#   WS_PREFIX.)
#   RIG_CGROUP=v1|v2 forces a choice (e.g. to test the v2 path on a hybrid
#   machine); RIG_CGROUP_ROOT=DIR names the cgroup2 hierarchy.  With
#   RIG_FAKE_CGROUPFS=1 too, DIR may be a plain directory laid out like one
#   (cgroup.controllers, cgroup.subtree_control, cgroup.procs): the script
#   then does to it what the kernel does to cgroupfs in reply to its writes
#   (the fake_* functions below), so the v2 path runs on machines without
#   v2 (tests/cli/t_rig_cgroup_v2.sh); the throttle is then not real.  The throttle is removed by down, and also explicitly reset
#   when up attaches a loop device, because a loop device's throttle
#   outlives the loop's attachment.
#
# WHAT THE RIG'S DISK DOES (measure with this in mind)
#   blk-throttle hands out its budget in slices of 100 ms (as measured
#   here; kernels before about 6.18 used 20 ms on non-rotational devices):
#   the first slice's bytes go at once, then a burst every slice.  Over any 100 ms multiple the rate is exact; over 250 ms it
#   alternates (at 40 MiB/s: 12 and 8 MiB, "48 and 32 MiB/s").  A step
#   lands within rate x 20 ms (the poll) plus one bio of the requested
#   offset; the slice restarts there, so the interval of the step may dip.
#
# EXAMPLE (a person's session)
#   rig.sh up /tmp/slow --size 4G --rate 80M
#   rig.sh step /tmp/slow /tmp/slow/mnt/data 1G 32M --then 2G 23M
#   writestress --size 3G --json r.json /tmp/slow/mnt/data
#   rig.sh down /tmp/slow
#
# FOR TESTS
#   up ... && trap 'rig.sh down DIR' EXIT; . DIR/rig.env gives $LOOP etc.
#   tests/cli/t_e2e_*.sh use it through tests/rig/e2e.sh (rig_up registers
#   the down with tests/cli/lib.sh's at_exit) and check results with
#   tests/rig/e2e_check.py.  Run them as root:
#     make && WS=$PWD/build/writestress HELPERS=$PWD/build/helpers \
#       bash tests/cli/run.sh t_e2e_rate t_e2e_step ...
#
# Needs: bash, losetup (util-linux), mkfs.<fs>, mount, root.

set -u
PROG=rig.sh
SECTOR=512

die()
{
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 1
}

warn()
{
	printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

usage()
{
	sed -n '/^# USAGE/,/^# THROTTLING/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

# to_bytes STR: print STR (size or rate, see USAGE) in bytes, or fail.
to_bytes()
{
	local s=${1%/s} n unit mul
	[[ $s =~ ^([0-9]+)([A-Za-z]*)$ ]] || return 1
	n=$((10#${BASH_REMATCH[1]}))
	unit=${BASH_REMATCH[2]}
	case $unit in
	'' | B) mul=1 ;;
	K | k | KiB) mul=$((1 << 10)) ;;
	M | MiB) mul=$((1 << 20)) ;;
	G | GiB) mul=$((1 << 30)) ;;
	T | TiB) mul=$((1 << 40)) ;;
	*) return 1 ;;
	esac
	# refuse what would overflow a signed 64-bit integer
	[ "${#BASH_REMATCH[1]}" -le 18 ] || return 1
	[ "$n" -le $(((1 << 62) / mul)) ] || return 1
	echo $((n * mul))
}

bytes_arg()
{
	to_bytes "$2" || die "invalid $1 '$2': expected an integer with an optional K, M, G or T suffix"
}

need_root()
{
	[ "$(id -u)" -eq 0 ] || die "must be run as root"
}

# ---- the rig's state ------------------------------------------------------

# load DIR: read DIR/rig.env into the globals LOOP MAJMIN MNT FS IMG CGROUP CG.
# Only keys the rig writes are taken; the file is not sourced.
load()
{
	local k v
	RIGDIR=$(cd "$1" 2>/dev/null && pwd) || die "no rig directory '$1'"
	ENV=$RIGDIR/rig.env
	LOOP="" MAJMIN="" MNT="" FS="" IMG="" CGROUP="" CG="" BACKING="" SECTORS0=0 DSECTORS0=0
	[ -f "$ENV" ] || return 1
	while IFS='=' read -r k v; do
		case $k in
		LOOP) LOOP=$v ;;
		MAJMIN) MAJMIN=$v ;;
		MNT) MNT=$v ;;
		FS) FS=$v ;;
		IMG) IMG=$v ;;
		CGROUP) CGROUP=$v ;;
		CG) CG=$v ;;
		BACKING) BACKING=$v ;;
		SECTORS0) SECTORS0=$v ;;
		DSECTORS0) DSECTORS0=$v ;;
		esac
	done <"$ENV"
	# sanity: nothing else may end up in a losetup -d or umount
	case $LOOP in '' | /dev/loop[0-9]*) ;; *) die "$ENV: bad LOOP '$LOOP'" ;; esac
	case $MNT in '' | "$RIGDIR"/mnt) ;; *) die "$ENV: bad MNT '$MNT'" ;; esac
	case $IMG in '' | "$RIGDIR"/img | "$RIGDIR"/backing/img) ;; *) die "$ENV: bad IMG '$IMG'" ;; esac
	case $BACKING in '' | "$RIGDIR"/backing) ;; *) die "$ENV: bad BACKING '$BACKING'" ;; esac
	case $CG in
	'' | /sys/fs/cgroup/wsrig-loop[0-9]* | /sys/fs/cgroup/unified/wsrig-loop[0-9]*) ;;
	"${RIG_CGROUP_ROOT:-/sys/fs/cgroup}"/wsrig-loop[0-9]*) ;;
	*) die "$ENV: bad CG '$CG'" ;;
	esac
	return 0
}

# save: write the globals to rig.env (atomically), so a half-built rig can
# still be taken down.
save()
{
	{
		echo "LOOP=$LOOP"
		echo "MAJMIN=$MAJMIN"
		echo "MNT=$MNT"
		echo "FS=$FS"
		echo "IMG=$IMG"
		echo "CGROUP=$CGROUP"
		echo "CG=$CG"
		echo "BACKING=$BACKING"
		echo "SECTORS0=${SECTORS0:-0}"
		echo "DSECTORS0=${DSECTORS0:-0}"
	} >"$ENV.tmp" && mv -f "$ENV.tmp" "$ENV"
}

# how up attaches the image (--cached: through the backing file's cache)
DIRECT_IO=on DIO=1

V1_FILE=/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device

fstype()
{
	stat -f -c %T "$1" 2>/dev/null
}

FAKE_CG=${RIG_FAKE_CGROUPFS:-}

# is_cgroup2 DIR: a cgroup2 directory (or, with RIG_FAKE_CGROUPFS=1, one
# of the fake hierarchy at RIG_CGROUP_ROOT).
is_cgroup2()
{
	[ "$(fstype "$1")" = cgroup2fs ] && return 0
	[ "$FAKE_CG" = 1 ] && [ -n "${RIG_CGROUP_ROOT:-}" ] && [ -d "$1" ] &&
		case $1 in "$RIG_CGROUP_ROOT" | "$RIG_CGROUP_ROOT"/*) true ;; *) false ;; esac
}

# v2_root: the cgroup v2 hierarchy: RIG_CGROUP_ROOT, /sys/fs/cgroup
# (unified) or /sys/fs/cgroup/unified (hybrid); a plain directory is never
# taken for one unless it is the fake hierarchy.
v2_root()
{
	local d
	for d in ${RIG_CGROUP_ROOT:-/sys/fs/cgroup /sys/fs/cgroup/unified}; do
		is_cgroup2 "$d" && [ -f "$d/cgroup.controllers" ] && { echo "$d"; return 0; }
	done
	return 1
}

# ---- the kernel's side of a fake hierarchy (RIG_FAKE_CGROUPFS=1) ---------

# fake_io_max FILE "MAJ:MIN wbps=V": the kernel keeps one line a device
# with all four limits, and drops it when all are max again.
fake_io_max()
{
	local dev=${2%% *} val=${2#*wbps=} line
	line=$(awk -v d="$dev" '$1 == d' "$1")
	[ -n "$line" ] || line="$dev rbps=max wbps=max riops=max wiops=max"
	line=$(echo "$line" | sed "s/wbps=[^ ]*/wbps=$val/")
	{
		awk -v d="$dev" '$1 != d' "$1"
		case $line in *=[0-9]*) echo "$line" ;; esac
	} >"$1.new" && mv -f "$1.new" "$1"
}

# fake_write FILE VALUE: a write as cgroupfs takes it.
fake_write()
{
	local f
	case ${1##*/} in
	cgroup.subtree_control)
		case $2 in
		+*) { tr ' ' '\n' <"$1"; echo "${2#+}"; } | grep . | sort -u | tr '\n' ' ' | sed 's/ $//' >"$1.new" ;;
		-*) tr ' ' '\n' <"$1" | grep -vx -- "${2#-}" | grep . | tr '\n' ' ' | sed 's/ $//' >"$1.new" ;;
		esac
		echo >>"$1.new"
		mv -f "$1.new" "$1" ;;
	io.max) fake_io_max "$1" "$2" ;;
	cgroup.procs)
		# a process is in one group: it leaves the others
		find "$RIG_CGROUP_ROOT" -name cgroup.procs | while read -r f; do
			grep -vx -- "$2" "$f" >"$f.new"; mv -f "$f.new" "$f"
		done
		echo "$2" >>"$1" ;;
	*) echo "$2" >"$1" ;;
	esac
}

# cg_mkdir DIR / cg_rmdir DIR: a child group, which the kernel fills with
# its interface files and refuses to remove while it has members.
cg_mkdir()
{
	mkdir "$1" || return 1
	if [ "$FAKE_CG" = 1 ] && ! [ "$(fstype "$1")" = cgroup2fs ]; then
		: >"$1/cgroup.procs"
		: >"$1/io.max"
		: >"$1/cgroup.subtree_control"
		cp "${1%/*}/cgroup.subtree_control" "$1/cgroup.controllers"
	fi
}

cg_rmdir()
{
	if [ "$FAKE_CG" = 1 ] && ! [ "$(fstype "$1")" = cgroup2fs ]; then
		[ -s "$1/cgroup.procs" ] && { warn "$1 still has members"; return 1; }
		rm -f "$1/cgroup.procs" "$1/io.max" "$1/cgroup.subtree_control" "$1/cgroup.controllers"
	fi
	rmdir "$1"
}

have_v1()
{
	[ "$(fstype "${V1_FILE%/*}")" = cgroupfs ] && [ -w "$V1_FILE" ]
}

have_v2_io()
{
	local r
	r=$(v2_root) && grep -qw io "$r/cgroup.controllers"
}

detect_cgroup()
{
	case ${RIG_CGROUP:-} in
	v1) have_v1 || die "no cgroup v1 blkio throttle here ($V1_FILE)"; echo v1 ;;
	v2) have_v2_io || die "no cgroup v2 io controller here (a cgroup2 hierarchy listing io in cgroup.controllers)"; echo v2 ;;
	'')
		if have_v1; then
			echo v1
		elif have_v2_io; then
			echo v2
		else
			die "no blkio throttling here: neither $V1_FILE nor a cgroup v2 io controller"
		fi ;;
	*) die "RIG_CGROUP must be v1 or v2, not '$RIG_CGROUP'" ;;
	esac
}

# cg_write FILE VALUE: write to a cgroup file that exists (never create one).
cg_write()
{
	[ -f "$1" ] || { warn "$1 does not exist"; return 1; }
	if [ "$FAKE_CG" = 1 ] && ! [ "$(fstype "$1")" = cgroup2fs ]; then
		fake_write "$1" "$2"
	else
		echo "$2" >"$1"
	fi
}

# v2_setup: make the rig's cgroup (CG) with the io controller available.
v2_setup()
{
	local c root cg
	root=$(v2_root) || die "no cgroup v2 hierarchy"
	for c in memory io; do
		grep -qw "$c" "$root/cgroup.subtree_control" && continue
		cg_write "$root/cgroup.subtree_control" "+$c" ||
			die "cannot enable the $c controller in $root"
	done
	cg=$root/wsrig-${LOOP#/dev/}
	cg_mkdir "$cg" || die "cannot create the cgroup $cg"
	CG=$cg
	save
	[ -f "$CG/io.max" ] || die "no io.max in $CG"
}

# set_rate BYTES_PER_SEC: 0 removes the throttle.
set_rate()
{
	local bps=$1
	[ -n "$MAJMIN" ] || { warn "rig has no device"; return 1; }
	case $CGROUP in
	v1)
		cg_write "$V1_FILE" "$MAJMIN $bps" ||
			{ warn "cannot set the throttle of $MAJMIN in $V1_FILE"; return 1; }
		;;
	v2)
		[ "$bps" -eq 0 ] && bps=max
		cg_write "$CG/io.max" "$MAJMIN wbps=$bps" ||
			{ warn "cannot set wbps of $MAJMIN in $CG/io.max"; return 1; }
		;;
	*) warn "rig has no cgroup kind"; return 1 ;;
	esac
}

get_rate()
{
	local r=""
	case $CGROUP in
	v1) r=$(awk -v d="$MAJMIN" '$1 == d { print $2 }' "$V1_FILE") ;;
	v2) r=$(awk -v d="$MAJMIN" '$1 == d { for (i = 2; i <= NF; i++) if ($i ~ /^wbps=/) print substr($i, 6) }' "$CG/io.max" 2>/dev/null) ;;
	esac
	case $r in '' | max) r=0 ;; esac
	echo "$r"
}

# read_sectors: set SECTORS to the loop device's sectors-written counter
# and DSECTORS to its sectors-discarded one (0 on a kernel without
# discard statistics); no fork: the step poller calls this 50 times a
# second.
read_sectors()
{
	local -a f
	read -r -a f <"/sys/block/${LOOP#/dev/}/stat" || return 1
	SECTORS=${f[6]}
	DSECTORS=${f[13]:-0}
}

# attach: IMG on a free loop device (LOOP, saved).  With rigs coming and
# going side by side, a device another one has just let go can come back
# half set up (no size yet, direct I/O off): wait a moment for it to be
# whole, else let it go and take another.
attach()
{
	local try n size
	for try in 1 2 3 4 5; do
		LOOP=$(losetup -f --show --direct-io="$DIRECT_IO" "$IMG") || return 1
		save
		for n in $(seq 40); do
			size=$(cat "/sys/block/${LOOP#/dev/}/size" 2>/dev/null || echo 0)
			if [ "$size" -gt 0 ] && [ "$(backing "$LOOP")" = "$IMG" ] &&
				[ "$(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null)" = "$DIO" ]; then
				return 0
			fi
			sleep 0.05
		done
		warn "$LOOP came up without a size or its direct I/O setting (try $try): taking another"
		losetup -d "$LOOP" 2>/dev/null
		LOOP=""
		save
	done
	# the last try's device, whatever it is: the checks below say what is wrong
	LOOP=$(losetup -f --show --direct-io="$DIRECT_IO" "$IMG") || return 1
	save
}

# ---- commands -----------------------------------------------------------

cmd_up()
{
	local dir="" size=2G fs=ext4 rate=0 bytes mopts="" backing=disk
	while [ $# -gt 0 ]; do
		case $1 in
		--size) [ $# -ge 2 ] || usage; size=$2; shift 2 ;;
		--mount-opts) [ $# -ge 2 ] || usage; mopts=$2; shift 2 ;;
		--fs) [ $# -ge 2 ] || usage; fs=$2; shift 2 ;;
		--rate) [ $# -ge 2 ] || usage; rate=$2; shift 2 ;;
		--backing) [ $# -ge 2 ] || usage; backing=$2; shift 2 ;;
		--cached) DIRECT_IO=off DIO=0; shift ;;
		-*) die "up: unknown option '$1'" ;;
		*) [ -z "$dir" ] || usage; dir=$1; shift ;;
		esac
	done
	[ -n "$dir" ] || usage
	need_root
	bytes=$(bytes_arg --size "$size") || exit 1
	rate=$(bytes_arg --rate "$rate") || exit 1
	[ "$bytes" -ge $((64 << 20)) ] || die "--size $size is too small (64M at least)"
	[ "$fs" != xfs ] || [ "$bytes" -ge $((300 << 20)) ] || die "--size $size is too small for xfs (300M at least)"
	[ "$fs" != btrfs ] || [ "$bytes" -ge $((128 << 20)) ] || die "--size $size is too small for btrfs (128M at least)"
	case $backing in
	disk | memory) ;;
	*) die "--backing must be disk or memory, not '$backing'" ;;
	esac
	case $fs in
	ext4 | xfs | btrfs) command -v "mkfs.$fs" >/dev/null || die "mkfs.$fs is not installed" ;;
	*) die "--fs must be ext4, xfs or btrfs, not '$fs'" ;;
	esac
	case $dir in
	*[[:space:]\'\"\$\`\\]*) die "DIR may not hold blanks or quoting characters: '$dir'" ;;
	esac
	mkdir -p "$dir" || die "cannot create $dir"
	load "$dir" && die "$ENV exists: the rig is up (rig.sh down $dir first)"
	[ -e "$RIGDIR/img" ] && die "$RIGDIR/img exists: not mine to overwrite"
	[ -e "$RIGDIR/backing" ] && die "$RIGDIR/backing exists: not mine to overwrite"
	if mountpoint -q "$RIGDIR/mnt" 2>/dev/null; then
		die "$RIGDIR/mnt is a mount point already"
	fi

	FS=$fs
	CGROUP=$(detect_cgroup) || exit 1
	# From here on, whatever fails or interrupts us undoes the rig.
	trap 'trap - EXIT; teardown; exit 1' EXIT
	trap 'exit 1' INT TERM HUP
	save || die "cannot write $ENV"

	IMG=$RIGDIR/img
	if [ "$backing" = memory ]; then
		BACKING=$RIGDIR/backing
		mkdir "$BACKING" || die "cannot create $BACKING"
		save
		mount -t tmpfs -o "size=$bytes,mode=0700" wsrig "$BACKING" ||
			die "cannot mount a tmpfs on $BACKING"
		IMG=$BACKING/img
	fi
	save
	truncate -s "$bytes" "$IMG" || die "cannot create $IMG"
	attach || die "cannot attach $IMG to a loop device"
	MAJMIN=$(cat "/sys/block/${LOOP#/dev/}/dev") || die "no sysfs entry for $LOOP"
	save
	if [ "$DIO" = 1 ] && [ "$(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null)" != 1 ]; then
		warn "$LOOP: direct I/O to the backing file is off (its filesystem refused it): the image is cached twice"
	fi
	# a loop device takes its class from its backing store: over memory
	# it would be a non-rotational one, and the kernel treats those
	# otherwise (blk-throttle's slices, writeback throttling): a rig is a
	# slow rotational disk whatever it is backed by
	if [ -n "$BACKING" ]; then
		echo 1 >"/sys/block/${LOOP#/dev/}/queue/rotational" ||
			warn "$LOOP: cannot mark it rotational"
	fi
	[ "$CGROUP" = v2 ] && v2_setup
	# a loop device's throttle outlives its attachment: start from none
	set_rate 0 || exit 1

	case $fs in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" ;;
	xfs) mkfs.xfs -q -f "$LOOP" ;;
	btrfs) mkfs.btrfs -q -f "$LOOP" >/dev/null ;;
	esac || die "mkfs.$fs on $LOOP failed"
	MNT=$RIGDIR/mnt
	mkdir -p "$MNT" || die "cannot create $MNT"
	save
	mount -t "$fs" ${mopts:+-o "$mopts"} "$LOOP" "$MNT" || die "cannot mount $LOOP on $MNT"
	# the mkfs's and mount's writes reach the device before the clock starts
	sync -f "$MNT" 2>/dev/null || sync
	if [ "$rate" -gt 0 ]; then
		set_rate "$rate" || exit 1
	fi
	read_sectors || die "cannot read /sys/block/${LOOP#/dev/}/stat"
	SECTORS0=$SECTORS
	DSECTORS0=$DSECTORS
	save
	trap - EXIT INT TERM HUP
	cat "$ENV"
}

# A pid written by step, and still that poller (not a recycled pid).
stepper_pid()
{
	local pid
	[ -f "$RIGDIR/step.pid" ] || return 1
	read -r pid <"$RIGDIR/step.pid" || return 1
	[ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "rig.sh _poll $RIGDIR " || return 1
	echo "$pid"
}

# backing LOOP: the file behind the loop device ("" if detached).
backing()
{
	losetup -n -O BACK-FILE "$1" 2>/dev/null | sed 's/ *(deleted)$//; s/ *$//'
}

# teardown: undo whatever of the rig exists, from the globals (which up
# keeps current, so an interrupted up is undone too).
teardown()
{
	local pid n l mine=0
	trap '' INT TERM HUP	# finish the cleanup once begun
	if pid=$(stepper_pid); then
		kill -TERM "$pid" 2>/dev/null
		for n in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.05
		done
	fi
	rm -f "$RIGDIR/step.pid"
	# Is LOOP still ours?  Backed by our image, or detached and so
	# nobody's (its throttle, which outlives the attachment, is ours).
	if [ -n "$LOOP" ]; then
		case $(backing "$LOOP") in
		"$IMG" | '') mine=1 ;;
		*) warn "$LOOP is no longer backed by $IMG: leaving it and its throttle alone" ;;
		esac
	fi
	# throttle off first: unmounting flushes what is still dirty
	if [ "$mine" = 1 ] && [ -n "$MAJMIN" ] && [ -n "$CGROUP" ]; then
		set_rate 0 || warn "the throttle of $MAJMIN may still be in force"
	fi
	if [ -n "$MNT" ] && mountpoint -q "$MNT"; then
		for n in 1 2 3 4 5 6 7 8 9 10; do
			umount "$MNT" 2>/dev/null && break
			sleep 0.2
		done
		if mountpoint -q "$MNT"; then
			warn "$MNT is busy: detached lazily"
			umount -l "$MNT"
		fi
	fi
	[ -n "$MNT" ] && rmdir "$MNT" 2>/dev/null
	# every loop device over our image (up may have been interrupted
	# between attaching one and learning its name)
	if [ -n "$IMG" ] && [ -e "$IMG" ]; then
		for l in $(losetup -n -O NAME -j "$IMG" 2>/dev/null); do
			[ "$(backing "$l")" = "$IMG" ] && { losetup -d "$l" || warn "cannot detach $l"; }
		done
	fi
	if [ "$mine" = 1 ] && [ -n "$(backing "$LOOP")" ]; then
		losetup -d "$LOOP" || warn "cannot detach $LOOP"
	fi
	if [ -n "$CG" ] && is_cgroup2 "$CG"; then
		# anything left in the rig's group goes back to the root group
		for pid in $(cat "$CG/cgroup.procs"); do
			cg_write "${CG%/*}/cgroup.procs" "$pid" 2>/dev/null
		done
		cg_rmdir "$CG" || warn "cannot remove $CG"
	fi
	[ -n "$IMG" ] && rm -f "$IMG"
	if [ -n "$BACKING" ]; then
		if mountpoint -q "$BACKING"; then
			umount "$BACKING" || { warn "$BACKING is busy: detached lazily"; umount -l "$BACKING"; }
		fi
		rmdir "$BACKING" 2>/dev/null
	fi
	rm -f "$ENV" "$ENV.tmp" "$RIGDIR/step.log"
}

cmd_down()
{
	[ $# -eq 1 ] || usage
	need_root
	load "$1" || { echo "$PROG: no rig in $1 (nothing to do)"; return 0; }
	teardown
	echo "$PROG: $RIGDIR is down"
}

cmd_rate()
{
	[ $# -eq 2 ] || usage
	need_root
	load "$1" || die "no rig in $1"
	local bps
	bps=$(bytes_arg rate "$2") || exit 1
	set_rate "$bps" || exit 1
}

# step_poll FILE BY OFFSET RATE...: the background poller (see USAGE).
step_poll()
{
	local file=$1 by=$2 base now at rate tick
	shift 2
	trap 'exit 0' TERM INT HUP
	# sleep 20 ms without forking a sleep 50 times a second
	exec {tick}<> <(:)
	if [ "$by" = device ]; then
		read_sectors || exit 1
		base=$SECTORS
	else
		base=0
	fi
	echo "$BASHPID" >"$RIGDIR/step.pid"
	while [ $# -ge 2 ]; do
		at=$1 rate=$2
		while :; do
			[ -f "$ENV" ] || exit 0	# the rig went down
			if [ "$by" = device ]; then
				read_sectors || exit 1
				now=$(( (SECTORS - base) * SECTOR ))
			else
				now=$(stat -c %s -- "$file" 2>/dev/null || echo 0)
			fi
			[ "$now" -ge "$at" ] && break
			read -r -t 0.02 -u "$tick" _ 2>/dev/null
		done
		set_rate "$rate" || exit 1
		echo "$(date +%s.%N) $now $rate" >>"$RIGDIR/step.log"
		shift 2
	done
	rm -f "$RIGDIR/step.pid"
}

cmd_step()
{
	local dir file by=device prev=-1 args=() a b
	[ $# -ge 4 ] || usage
	dir=$1 file=$2
	shift 2
	need_root
	load "$dir" || die "no rig in $dir"
	stepper_pid >/dev/null && die "a step poller runs already for $RIGDIR"
	a=$(bytes_arg BYTES "$1") || exit 1
	b=$(bytes_arg RATE "$2") || exit 1
	args+=("$a" "$b")
	prev=$a
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--by)
			[ $# -ge 2 ] || usage
			case $2 in device | file) by=$2 ;; *) die "--by must be device or file" ;; esac
			shift 2 ;;
		--then)
			[ $# -ge 3 ] || usage
			a=$(bytes_arg BYTES "$2") || exit 1
			b=$(bytes_arg RATE "$3") || exit 1
			[ "$a" -gt "$prev" ] || die "step offsets must ascend ($2 after $prev bytes)"
			args+=("$a" "$b")
			prev=$a
			shift 3 ;;
		*) die "step: unexpected '$1'" ;;
		esac
	done
	rm -f "$RIGDIR/step.log"
	# The poller is this script again (its command line names the rig, so
	# down can tell it from a recycled pid); setsid keeps it out of the
	# caller's job control, its errors go to step.log.
	setsid "$0" _poll "$RIGDIR" "$file" "$by" "${args[@]}" </dev/null >/dev/null 2>>"$RIGDIR/step.log" &
	# wait until it is counting (its baseline taken)
	for _ in $(seq 200); do
		a=$(stepper_pid) && { echo "$a"; return 0; }
		sleep 0.01
	done
	die "the step poller did not start"
}

cmd_show()
{
	[ $# -eq 1 ] || usage
	load "$1" || die "no rig in $1"
	cat "$ENV"
	echo "RATE=$(get_rate)"
	read_sectors && echo "WRITTEN=$(((SECTORS - SECTORS0) * SECTOR))"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
up) cmd_up "$@" ;;
down) cmd_down "$@" ;;
rate) cmd_rate "$@" ;;
step) cmd_step "$@" ;;
_poll)
	load "$1" || exit 1
	shift
	step_poll "$@" ;;
written)
	[ $# -eq 1 ] || usage
	load "$1" || die "no rig in $1"
	read_sectors || exit 1
	echo $(((SECTORS - SECTORS0) * SECTOR)) ;;
discarded)
	[ $# -eq 1 ] || usage
	load "$1" || die "no rig in $1"
	read_sectors || exit 1
	echo $(((DSECTORS - DSECTORS0) * SECTOR)) ;;
show) cmd_show "$@" ;;
run)
	[ $# -ge 2 ] || usage
	load "$1" || die "no rig in $1"
	shift
	if [ "$CGROUP" = v2 ]; then
		cg_write "$CG/cgroup.procs" "$$" || die "cannot join $CG"
	fi
	exec "$@" ;;
-h | --help | help) usage ;;
*) usage ;;
esac
