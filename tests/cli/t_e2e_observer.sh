# End to end: what the probes' own work at the device cost the writer
# (the summary's line under the device time, summary.block.observer),
# held against runs on the same rig without the probe (--no-probe), each
# rate what the device's own counters (sectors written) saw over the run.
# A disk limited in bandwidth (the rig's throttle, 20 MiB/s, its image in
# memory): the fsync probe's commits and flushes take little of the
# disk's time and none of its bandwidth.  The estimate (a bound: the
# work was in flight too little of the time to fit) and the runs without
# the probe against those with it agree within 10%, and the words say
# the bound.  A disk whose flushes cost: t_e2e_observer_flush.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
# shellcheck source=../rig/observer.sh
. "$CLI_DIR/../rig/observer.sh"

rig_up slow --size 1G
ws -v -q --size 160M -B 1M --no-probe "$RIG_MNT/data"	# the file, once, unthrottled
assert_status 0
"$RIG" rate "$RIG_DIR" $((20 * MiB)) || fail "rig.sh rate failed"
for i in 1 2; do
	run bw-probe$i --size 160M -B 1M
	run bw-none$i --size 160M -B 1M --no-probe
done
judge bw 1.0 1.1 10 2
assert_file_match "$TESTDIR/bw-probe2.out" "^           the probes' work at the device \\(with the journal's and the flushes they asked for\\) was in flight [0-9.]+% of the time: it cost the writer at most that \\([0-9.]+x\\)$" "the bound in words"
