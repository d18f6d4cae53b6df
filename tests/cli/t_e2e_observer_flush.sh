# End to end: what the probes' own work at the device cost the writer,
# on a disk whose cache flushes hold its writes back.  The rig is such a
# disk whatever the machine's own disk does: an image attached without
# direct I/O (rig.sh --cached), so its writes land in the backing file's
# page cache at memory speed and each cache flush writes the cached image
# out to a throttled device under it (a rig in memory).  The writer
# rewrites 1 GiB in place; the throttle is set to 0.6 of the rate the
# writer had without the probe on this rig (so the probe's flushes, which
# write out what the writer cached, are in flight about half the time on
# any machine: on this VM 2.7 GiB/s, a throttle of 1 GiB/s put the
# flushes in flight 77% of the time and the estimate 46% over the
# device's ratio, 2 GiB/s 60% and 22%).  The estimate, a fit over 128 ms
# slots of the writer's completed bytes against the share of each slot
# the work was in flight, says the probe cost (more than 1.3x) and is
# within 50% of the device's rate without the probe over its rate with
# it (the device's own counters).  Three runs of each, alternating; the
# medians.
# needs: alone (at memory speed the writer needs the CPUs: beside other
# tests its rate without the probe is not the one the throttle was set
# from)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
# shellcheck source=../rig/observer.sh
. "$CLI_DIR/../rig/observer.sh"

# a sanitizer build's writer is held back by its own CPU at memory speed,
# not by the disk
not_under_sanitizer "a disk at memory speed: the $SANITIZE build's writer is held back by its own CPU there, so the cost it would measure is not the disk's (the estimate's code runs under $SANITIZE in t_e2e_observer)"
flush_rig --size 10G --file-size 1G -B 8M
for i in 1 2 3; do
	run flush-probe$i --size 10G --file-size 1G -B 8M
	run flush-none$i --size 10G --file-size 1G -B 8M --no-probe
done
judge flush 1.3 100 50 3
assert_file_match "$TESTDIR/flush-probe3.out" "^           the probes' work at the device .* was in flight [0-9]+% of the time; the writer's data went at [0-9.]+ MiB/s without it, [0-9.]+ MiB/s while it was: without it the writer would have been about [0-9.]+x faster$" "the estimate in words"
