# shellcheck shell=sh
# lib.sh - helpers for the black-box CLI tests (sourced by tests/cli/t_*.sh).
#
# run.sh starts each test in a fresh, empty directory ($TESTDIR) with
#   WS        the writestress binary under test (absolute path)
#   HELPERS   a directory of compiled test helpers (may not exist)
#   SANITIZE  '', asan or tsan
#   WS_SLOW   a factor for every timeout (sanitizer builds are slower)
# A test exits 0 to pass, 77 to skip (after printing "skip[CLASS]: why"),
# anything else to fail.  The classes say what was missing: root, cmd (a
# tool), e2e (a rig: loop devices, a throttle), fiu (libfiu), sanitizer (a
# test that cannot run in a sanitizer build) and kernel (a feature this
# kernel lacks); run.sh fails a skip whose class WS_REQUIRE lists.  Everything a test creates lives under $TESTDIR; anything it
# mounts or starts in the background is registered here and undone on exit,
# whether the test passed, failed or was killed by the runner's timeout.

: "${WS:?WS must name the writestress binary}"
TESTDIR=${TESTDIR:-$(pwd)}
WS_SLOW=${WS_SLOW:-1}
SANITIZE=${SANITIZE:-}
HELPERS=${HELPERS:-}
export LC_ALL=C

# Target files go in $WORK; the captured output of the last run in $OUT/$ERR.
WORK=$TESTDIR/work
OUT=$TESTDIR/stdout
ERR=$TESTDIR/stderr
mkdir -p "$WORK" || exit 1
LAST_CMD=""
rc=0

# ---- cleanup ------------------------------------------------------------

_cleanups=""
_bg_pids=""

# at_exit CMD: run CMD (a shell string) when the test ends, last in first out.
at_exit()
{
	_cleanups="$1
$_cleanups"
}

_run_cleanups()
{
	_status=$?
	set +e
	# background processes first: they keep mounts busy
	for _p in $_bg_pids; do
		kill -KILL "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	_bg_pids=""
	while IFS= read -r _c; do
		[ -n "$_c" ] && eval "$_c"
	done <<_EOF_
$_cleanups
_EOF_
	_cleanups=""
	exit "$_status"
}

trap _run_cleanups EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- outcomes -----------------------------------------------------------

# Show the last writestress run, so a failure explains itself.
_show_last()
{
	[ -n "$LAST_CMD" ] || return 0
	printf -- '--- last run (exit %s): %s\n' "$rc" "$LAST_CMD"
	if [ -s "$OUT" ]; then
		printf -- '--- its stdout:\n'
		head -n 15 "$OUT"
	fi
	if [ -s "$ERR" ]; then
		printf -- '--- its stderr:\n'
		head -n 15 "$ERR"
	fi
}

# fail MSG...: the test failed; MSG says what differed.
fail()
{
	_show_last
	printf 'FAIL: %s\n' "$*"
	exit 1
}

# skip_as CLASS REASON...: the test cannot run here, for want of CLASS.
skip_as()
{
	_class=$1
	shift
	printf 'skip[%s]: %s\n' "$_class" "$*"
	exit 77
}

# skip_kernel VERSION REASON...: the kernel lacks what the test needs;
# VERSION is the first Linux release that has it ("6.14").
skip_kernel()
{
	_v=$1
	shift
	skip_as kernel "$* (runs on Linux $_v or later; this is $(uname -r))"
}

# skip_part CLASS REASON...: a section of the test cannot run here, for
# want of CLASS; the test goes on with the rest.  The line is the same as
# a whole test's skip, and run.sh counts it as a partial skip (through
# WS_SKIPS_FILE), failing the test when WS_REQUIRE lists CLASS.  A section
# skipped silently, or with a "note:", is a check nobody knows is missing.
skip_part()
{
	_class=$1
	shift
	printf 'skip[%s]: %s\n' "$_class" "$*"
	[ -z "${WS_SKIPS_FILE:-}" ] || printf '%s %s\n' "$_class" "$*" >>"$WS_SKIPS_FILE"
}

# skip_part_kernel VERSION REASON...: a section the kernel cannot run.
skip_part_kernel()
{
	_v=$1
	shift
	skip_part kernel "$* (runs on Linux $_v or later; this is $(uname -r))"
}

# have_root / have_cmd CMD...: may a section that needs it run here?
have_root()
{
	[ "$(id -u)" -eq 0 ]
}

have_cmd()
{
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 || return 1
	done
}

# ---- preconditions ------------------------------------------------------

need_root()
{
	[ "$(id -u)" -eq 0 ] || skip_as root "needs root (mounts or device nodes)"
}

# need_cmd CMD...: skip unless every CMD is installed.
need_cmd()
{
	need_cmd_as cmd "$@"
}

# need_cmd_as CLASS CMD...: the same, for want of CLASS.
need_cmd_as()
{
	_class=$1
	shift
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 ||
			skip_as "$_class" "needs $_c, which is not installed"
	done
}

# not_under_sanitizer WHY: skip in a sanitizer build, saying why.
not_under_sanitizer()
{
	[ -z "$SANITIZE" ] || skip_as sanitizer "not under SANITIZE=$SANITIZE: $*"
}

# scaled SECONDS: a timeout, stretched for sanitizer builds.
scaled()
{
	echo $(( $1 * WS_SLOW ))
}

# python_with MODULE PACKAGE: set $PY to a python3 that imports MODULE:
# the one on PATH, else Debian's /usr/bin/python3 (where apt-get puts
# PACKAGE when PATH's is another python); skip if neither has it.
# python_with_part MODULE DEBIAN-PACKAGE WHAT: as python_with, but a
# missing module skips only the section (skip_part cmd): returns 1 then.
python_with_part()
{
	PY=
	for _py in python3 /usr/bin/python3; do
		if [ -z "$PY" ] && command -v "$_py" >/dev/null 2>&1 &&
			"$_py" -c "import $1" 2>/dev/null; then
			PY=$_py
		fi
	done
	[ -n "$PY" ] && return 0
	skip_part cmd "$3: needs python3's $1 (Debian's $2)"
	return 1
}

python_with()
{
	PY=
	for _py in python3 /usr/bin/python3; do
		if command -v "$_py" >/dev/null 2>&1 && "$_py" -c "import $1" 2>/dev/null; then
			PY=$_py
			return 0
		fi
	done
	skip_as cmd "needs python3's $1 (Debian's $2)"
}

# not_a_result FILE...: FILE (a .json the test made on purpose that is
# not writestress's: a hand-made fixture, a half-written or mutated
# result) is left out of run.sh's schema check, which fails on any other
# JSON file that does not parse, names no known schema or lacks "tool".
not_a_result()
{
	for _f in "$@"; do
		case $_f in /*) ;; *) _f=$(pwd)/$_f ;; esac
		printf '%s\n' "$_f" >>"$TESTDIR/.not-results"
	done
}

# ---- running writestress ------------------------------------------------

# WS_PREFIX: a command writestress runs under, e.g. "rig.sh run DIR" to
# join a rig's cgroup (v2 throttles only its members); set by rig_up.
WS_PREFIX=${WS_PREFIX:-}

# ws ARGS...: run writestress in $WORK with stdin from /dev/null; stdout
# goes to $OUT, stderr to $ERR, the exit status to $rc.
ws()
{
	LAST_CMD="writestress $*"
	printf '+ %s\n' "$LAST_CMD"
	rc=0
	# shellcheck disable=SC2086 # the prefix is words without blanks
	(cd "$WORK" && exec $WS_PREFIX "$WS" "$@") >"$OUT" 2>"$ERR" </dev/null || rc=$?
}

# ws_as_nobody ARGS...: run writestress as the user nobody (root only, with
# setpriv) in $WORK, made writable to all, like ws().  nobody runs a copy
# of the binary from $TESTDIR, which it may cross (0711) but not list: the
# build may lie where nobody may not go.  A coverage build's counters go
# under $TESTDIR/gcov, lost with it: nobody may not write the build's, and
# gcov would say so on stderr, which the tests count.  A minute at most.
ws_as_nobody()
{
	LAST_CMD="writestress $* (as nobody)"
	printf '+ %s\n' "$LAST_CMD"
	chmod 0711 "$TESTDIR" && chmod 0777 "$WORK" || fail "cannot open $WORK to nobody"
	if [ ! -x "$TESTDIR/ws-copy" ]; then
		cp "$WS" "$TESTDIR/ws-copy" && chmod 0755 "$TESTDIR/ws-copy" || fail "cannot copy $WS"
		mkdir -p "$TESTDIR/gcov" && chmod 0777 "$TESTDIR/gcov" || fail "cannot make $TESTDIR/gcov"
	fi
	rc=0
	(cd "$WORK" && GCOV_PREFIX=$TESTDIR/gcov exec timeout "$(scaled 60)" setpriv --reuid "$(id -u nobody)" \
		--regid "$(id -g nobody)" --clear-groups "$TESTDIR/ws-copy" "$@") \
		>"$OUT" 2>"$ERR" </dev/null || rc=$?
}

# ws_bg ARGS...: start writestress in the background (stdout to $OUT,
# stderr to $ERR) and set $WS_PID; it is killed at exit if still running.
ws_bg()
{
	LAST_CMD="writestress $*"
	printf '+ %s &\n' "$LAST_CMD"
	rc=0
	# emptied here, not only by the background job's redirection: that
	# one runs when the child gets to it, and a wait_for on $OUT right
	# after this would meet the previous run's lines
	: >"$OUT"
	: >"$ERR"
	# shellcheck disable=SC2086 # the prefix is words without blanks
	(cd "$WORK" && exec $WS_PREFIX "$WS" "$@") >"$OUT" 2>"$ERR" </dev/null &
	WS_PID=$!
	_bg_pids="$_bg_pids $WS_PID"
}

# alive PID: is PID running (not gone, not a zombie waiting to be reaped)?
alive()
{
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$_st" ] && [ "$_st" != Z ]
}

# ws_wait SECONDS: wait at most SECONDS for the background run to end and
# set $rc to its exit status; fail (the run is killed at exit) if it hangs.
ws_wait()
{
	_limit=$(( $1 * 10 ))
	_n=0
	while alive "$WS_PID"; do
		[ "$_n" -ge "$_limit" ] && fail "writestress still running after $1 s"
		sleep 0.1
		_n=$((_n + 1))
	done
	rc=0
	wait "$WS_PID" || rc=$?
	_left=""
	for _p in $_bg_pids; do
		[ "$_p" = "$WS_PID" ] || _left="$_left $_p"
	done
	_bg_pids=$_left
}

# wait_for SECONDS WHAT CMD...: run CMD every 0.1 s until it succeeds; fail
# saying WHAT never came after SECONDS (stretched for sanitizer builds).
# A test waits for the state it needs, never for a time it guessed: under
# load, or in a sanitizer build, a run takes longer to get going.
wait_for()
{
	_secs=$(scaled "$1")
	_what=$2
	shift 2
	_n=0
	until "$@"; do
		[ "$_n" -ge $((_secs * 10)) ] && fail "$_what: not there after $_secs s"
		sleep 0.1
		_n=$((_n + 1))
	done
}

# size_at_least FILE BYTES: FILE exists and holds at least BYTES.
size_at_least()
{
	[ "$(stat -c %s "$1" 2>/dev/null || echo -1)" -ge "$2" ]
}

# intervals_at_least N: the background run printed N interval lines.
intervals_at_least()
{
	[ "$(grep -c '^t=' "$OUT" 2>/dev/null)" -ge "$1" ]
}

# ---- assertions (each prints what differed) ------------------------------

# assert_eq EXPECTED ACTUAL WHAT
assert_eq()
{
	[ "$1" = "$2" ] || fail "$3: expected '$1', got '$2'"
}

# assert_status EXPECTED: the exit status of the last run.
assert_status()
{
	[ "$rc" = "$1" ] || fail "exit status: expected $1, got $rc"
}

# assert_match ERE TEXT WHAT: some line of TEXT matches ERE.
assert_match()
{
	printf '%s\n' "$2" | grep -Eq -- "$1" ||
		fail "$3: no line matches /$1/ in:
$2"
}

# assert_no_match ERE TEXT WHAT: no line of TEXT matches ERE.
assert_no_match()
{
	if printf '%s\n' "$2" | grep -Eq -- "$1"; then
		fail "$3: unexpected line matching /$1/: $(printf '%s\n' "$2" | grep -E -- "$1" | head -n 1)"
	fi
}

# assert_file_match FILE ERE WHAT / assert_file_no_match FILE ERE WHAT
assert_file_match()
{
	grep -Eq -- "$2" "$1" || fail "$3: no line of $(basename "$1") matches /$2/"
}

assert_file_no_match()
{
	if grep -Eq -- "$2" "$1"; then
		fail "$3: $(basename "$1") has a line matching /$2/: $(grep -E -- "$2" "$1" | head -n 1)"
	fi
}

# assert_lines FILE N WHAT: FILE has exactly N lines.
# assert_usage_error PREFIX HINT NEEDLES WHAT: the last run was refused as
# a usage error: exit 2, nothing on stdout, exactly two lines on stderr: a
# message starting with PREFIX and containing each of NEEDLES (fixed
# strings separated by ';'), then HINT.
assert_usage_error()
{
	assert_status 2
	assert_eq "" "$(cat "$OUT")" "stdout of: $4"
	assert_lines "$ERR" 2 "stderr of: $4"
	_line1=$(sed -n 1p "$ERR")
	assert_match "^$1[^ ]" "$_line1" "message of: $4"
	assert_eq "$2" "$(sed -n 2p "$ERR")" "second line of: $4"
	_old_ifs=$IFS
	IFS=';'
	for _needle in $3; do
		case $_line1 in
		*"$_needle"*) ;;
		*) fail "message of: $4: expected it to contain \"$_needle\", got: $_line1" ;;
		esac
	done
	IFS=$_old_ifs
}

assert_lines()
{
	_n=$(wc -l <"$1")
	[ "$_n" -eq "$2" ] || fail "$3: expected $2 line(s) in $(basename "$1"), got $_n:
$(head -n 10 "$1")"
}

# assert_size FILE BYTES
assert_size()
{
	[ -e "$1" ] || fail "expected $1 to exist"
	_s=$(stat -c %s "$1")
	[ "$_s" = "$2" ] || fail "size of $(basename "$1"): expected $2, got $_s"
}

assert_exists()
{
	[ -e "$1" ] || [ -L "$1" ] || fail "expected $1 to exist"
}

assert_missing()
{
	if [ -e "$1" ] || [ -L "$1" ]; then
		fail "expected $1 not to exist, but it does ($(stat -c %F "$1"))"
	fi
}

# assert_le A B WHAT / assert_ge A B WHAT: integer comparisons.
assert_le()
{
	[ "$1" -le "$2" ] || fail "$3: expected $1 <= $2"
}

assert_ge()
{
	[ "$1" -ge "$2" ] || fail "$3: expected $1 >= $2"
}

# assert_dir_only DIR NAME...: DIR holds exactly the entries NAME...
# (none at all when no NAME is given).
assert_dir_only()
{
	_d=$1
	shift
	_want=$(for _x in "$@"; do echo "$_x"; done | LC_ALL=C sort | tr '\n' ' ')
	# shellcheck disable=SC2012 # names here are the tests' own, plain ones
	_have=$(ls -A "$_d" | LC_ALL=C sort | tr '\n' ' ')
	[ "$_want" = "$_have" ] ||
		fail "contents of $(basename "$_d"): expected [ $_want], got [ $_have]"
}

# The usual shape of writestress's last words (used by the tests).
# shellcheck disable=SC2034
SUMMARY_RE='^[0-9.]+ [MG]iB written in [0-9.]+ s \([0-9.]+ MiB/s\)(: [a-z-].+)?$'

# ---- inspecting files ---------------------------------------------------

# fingerprint PATH: a line that changes if PATH's type, content, size,
# mode, mtime, inode or device numbers change (never follows a symlink).
fingerprint()
{
	_fp=$(stat -c '%F %s %a %i %h %t:%T %y' -- "$1") || return 1
	if [ -f "$1" ] && [ ! -L "$1" ]; then
		_fp="$_fp $(sha256sum <"$1" | cut -d' ' -f1)"
	elif [ -L "$1" ]; then
		_fp="$_fp -> $(readlink -- "$1")"
	fi
	printf '%s\n' "$_fp"
}

# ---- filesystems --------------------------------------------------------

# small_tmpfs SIZE [NAME]: mount a tmpfs of SIZE at $TESTDIR/NAME (default
# tmpfs), set $TMPFS to it, and unmount it when the test ends.
small_tmpfs()
{
	need_root
	TMPFS=$TESTDIR/${2:-tmpfs}
	mkdir -p "$TMPFS" || fail "cannot create $TMPFS"
	mount -t tmpfs -o "size=$1,mode=0755" ws-cli-test "$TMPFS" ||
		skip_as root "cannot mount a tmpfs here"
	at_exit "umount '$TMPFS' 2>/dev/null || umount -l '$TMPFS'"
}

# free_bytes DIR: bytes available to an unprivileged writer on DIR's filesystem.
free_bytes()
{
	stat -f -c '%a %S' "$1" | awk '{ printf "%.0f\n", $1 * $2 }'
}
