# Privileged options: as root they work and the header says so; every
# thread runs its main loop with no capability left (CapEff 0); each thread
# has the I/O priority asked for it; without CAP_SYS_ADMIN the options fail
# before a byte is written, naming the missing capability.
# needs: alone (--drop-caches empties every test's page cache)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_root
need_cmd capsh ionice

ws_bg --size 1G -B 1M --rate 16M/s --ioprio idle --probe-ioprio be:0 --drop-caches data
wait_for 10 "an interval line" intervals_at_least 1
alive "$WS_PID" || fail "writestress ended early"
tasks=0
for t in /proc/"$WS_PID"/task/*; do
	name=$(cat "$t/comm")
	# a sanitizer runtime starts a thread of its own before main()
	if [ -n "${SANITIZE:-}" ] && [ "$(basename "$t")" != "$WS_PID" ] &&
		case $name in ws-*) false ;; *) true ;; esac; then
		echo "task $(basename "$t") $name: the $SANITIZE runtime's, not writestress's"
		continue
	fi
	capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' "$t/status")
	echo "task $(basename "$t") $name CapEff $capeff ioprio: $(ionice -p "$(basename "$t")")"
	assert_eq 0000000000000000 "$capeff" "CapEff of $name"
	case $name in
	ws-writer) assert_match '^idle' "$(ionice -p "$(basename "$t")")" "writer ioprio" ;;
	ws-probe-fsync) assert_match '^best-effort: prio 0' "$(ionice -p "$(basename "$t")")" "probe ioprio" ;;
	esac
	tasks=$((tasks + 1))
done
assert_ge "$tasks" 5 "threads seen"
kill -INT "$WS_PID"
ws_wait "$(scaled 10)"
assert_status 130
assert_file_match "$OUT" '^  system   page cache dropped · writer ioprio idle · probes ioprio be:0 · capabilities dropped after setup$' "system header line"

# without CAP_SYS_ADMIN: refused, nothing written, the capability named
# and how to get it
for opts in "--drop-caches" "--ioprio rt" "--probe-ioprio rt:3"; do
	rm -f "$WORK/data"
	# shellcheck disable=SC2086 # opts is a list of words on purpose
	(cd "$WORK" && capsh --drop=cap_sys_admin -- -c "exec '$WS' --size 4M $opts data") \
		>"$OUT" 2>"$ERR" </dev/null
	rc=$?
	assert_status 1
	assert_file_match "$ERR" "^writestress: .*needs CAP_SYS_ADMIN" "message for $opts"
	assert_file_match "$ERR" "^hint: run it as root \(sudo writestress \.\.\.\), or leave the option out" "hint for $opts"
	[ ! -e "$WORK/data" ] || fail "$opts without CAP_SYS_ADMIN left a file behind"
done

# a user without the right to the file or directory: the errno, and what
# to do about it.  locked/ is root's alone.
need_cmd setpriv
mkdir -p "$TESTDIR/locked" && chmod 0700 "$TESTDIR/locked"
dd if=/dev/zero of="$TESTDIR/locked/cold" bs=4k count=4 2>/dev/null
ws_as_nobody --size 4M "$TESTDIR/locked/data"
assert_status 1
assert_file_match "$ERR" "^writestress: cannot open '.*/locked/data': Permission denied$" "message for a locked directory"
assert_file_match "$ERR" "^hint: .*pick a directory you can write to" "hint for a locked directory"
ws_as_nobody --size 4M --probe read --read-probe "$TESTDIR/locked/cold" data
assert_status 1
assert_file_match "$ERR" "^writestress: read probe: .*Permission denied$" "message for an unreadable --read-probe"
assert_file_match "$ERR" "^hint: give --read-probe a file you can read" "hint for an unreadable --read-probe"
assert_dir_only "$WORK"
