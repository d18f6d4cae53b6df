# End to end: what the probes' own work at the device cost the writer,
# on a disk whose cache flushes hold its writes back: no throttle, the
# image on the machine's own disk (the loop device's flush is an fsync of
# the image), the writer rewriting 1 GiB in place at disk speed.  The
# probe's commits and flushes are in flight much of the time and the
# writer is about half as fast with them.  The estimate, a fit over
# 128 ms slots of the writer's completed bytes against the share of each
# slot the work was in flight, says so (more than 1.3x) and is within 50%
# of the device's rate without the probe over its rate with it (the
# device's own counters; runs at this disk's full speed differ by 10-30%
# among themselves, and so do the estimates: without the probe 2.6 to
# 4.5 GiB/s on this VM, in two modes).  Three runs of each, alternating;
# the medians (of two, a pair of runs in the slower mode put the device
# at 1.55x against an estimate of 2.6x).  A disk whose flushes are nearly free
# (without the probe under 1.3x as fast) is a skip: nothing to hold the
# estimate against.
# needs: alone (at disk speed the writer needs the CPUs: beside other
# tests the runs without the probe went 1.5 to 4 GiB/s)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
# shellcheck source=../rig/observer.sh
. "$CLI_DIR/../rig/observer.sh"

# a sanitizer build's writer is held back by its own CPU at disk speed,
# not by the disk
not_under_sanitizer "a disk at full speed: the $SANITIZE build's writer is held back by its own CPU there, so the cost it would measure is not the disk's (the estimate's code runs under $SANITIZE in t_e2e_observer)"
case $(stat -f -c %T "$TESTDIR") in
tmpfs | ramfs) skip_as blockdev "the test directory is in memory ($(stat -f -c %T "$TESTDIR")): no disk whose flushes cost to put the image on" ;;
esac
RIG_BACKING=disk rig_up fast --size 2G
ws -q --size 1G -B 8M --no-probe "$RIG_MNT/data"	# the file, once
assert_status 0
for i in 1 2 3; do
	run flush-probe$i --size 10G --file-size 1G -B 8M
	run flush-none$i --size 10G --file-size 1G -B 8M --no-probe
done
# a disk whose flushes are nearly free (a write-through cache, power-loss
# protection, a VM disk with cache=unsafe) gives this test nothing to
# hold the estimate against
ratio=$(faster flush 3) || fail "the runs' rates could not be read"
if python3 -c "import sys; sys.exit(float(sys.argv[1]) >= 1.3)" "$ratio"; then
	skip_as e2e "this machine's disk flushes almost for free: without the probe the writer went only ${ratio}x as fast"
fi
judge flush 1.3 100 50 3
assert_file_match "$TESTDIR/flush-probe3.out" "^           the probes' work at the device .* was in flight [0-9]+% of the time; the writer's data went at [0-9.]+ MiB/s without it, [0-9.]+ MiB/s while it was: without it the writer would have been about [0-9.]+x faster$" "the estimate in words"
