# The house by floors, checked: every #include in src/ and include/ runs
# the way the folders' READMEs allow (scripts/layers.py), and the check
# fails, naming the file, the line and the rule, on a copy of the tree
# with one violation planted at a time: an include of a higher layer, of
# another layer's internal header, a header outside include/, a "../"
# path, a README without its rule, and a circle in the rules.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

not_under_sanitizer "the source tree's includes and the objects' calls are the same in every build: judged in the plain build"
need_cmd python3
ROOT=$(cd "$CLI_DIR/../.." && pwd)
LAYERS="$ROOT/scripts/layers.py"

# the tree as it is
python3 "$LAYERS" "$ROOT" >"$OUT" 2>"$ERR"
rc=$?
[ "$rc" -eq 0 ] || { cat "$ERR"; fail "the tree breaks its own layer rules (exit $rc)"; }
python3 "$LAYERS" --draw "$ROOT" >"$OUT" 2>"$ERR" || fail "--draw failed"
assert_file_match "$OUT" '^floor 0: lib ' "lib on the ground floor"
assert_file_match "$OUT" ' 0 running up or sideways$' "no arrow running up"

# plant CMD...: on a fresh copy of src/ and include/, run the sed
# expression EXPR on FILE (or the shell command), then expect exit 1 and
# a message matching RE.
plant()
{
	local what=$1 re=$2
	shift 2
	rm -rf "$TESTDIR/tree"
	mkdir -p "$TESTDIR/tree"
	cp -r "$ROOT/src" "$ROOT/include" "$TESTDIR/tree/" || fail "cannot copy the tree"
	(cd "$TESTDIR/tree" && "$@") || fail "$what: could not plant it"
	rc=0
	python3 "$LAYERS" "$TESTDIR/tree" >"$OUT" 2>"$ERR" || rc=$?
	[ "$rc" -eq 1 ] || { cat "$ERR"; fail "$what: exit $rc, expected 1"; }
	grep -Eq -- "$re" "$ERR" || { cat "$ERR"; fail "$what: no message matching '$re'"; }
}

# the engine reaching up to an output
plant "engine includes outputs" \
	'^layers: src/engine/writer\.c:[0-9]+: engine may not include outputs \("outputs/sink\.h"; src/engine/README\.md: May include: config, lib, record, system\)$' \
	sed -i '0,/^#include "/s//#include "outputs\/sink.h"\n#include "/' src/engine/writer.c
# the record, sealed, reaching for the configuration (a public header)
plant "record includes config" \
	'^layers: include/record/record\.h:[0-9]+: record may not include config ' \
	sed -i '0,/^#include "/s//#include "config\/config.h"\n#include "/' include/record/record.h
# the lowest floor reaching anything
plant "lib includes record" \
	'^layers: src/lib/units\.c:[0-9]+: lib may not include record .*May include: nothing\)$' \
	sed -i '0,/^#include "/s//#include "record\/record.h"\n#include "/' src/lib/units.c
# a layer allowed to include outputs, but not its internals
plant "another layer's internal header" \
	'^layers: src/recorder/recorder\.c:[0-9]+: "outputs/live_line\.h" is internal to src/outputs' \
	sed -i '0,/^#include "/s//#include "outputs\/live_line.h"\n#include "/' src/recorder/recorder.c
# a bare name that is not beside the file
plant "a header not beside the file" \
	'^layers: src/analysis/steady\.c:[0-9]+: "sink\.h" is not beside src/analysis/steady\.c' \
	sed -i '0,/^#include "/s//#include "sink.h"\n#include "/' src/analysis/steady.c
plant "a path with .." \
	'^layers: src/probes/probe\.c:[0-9]+: "\.\./lib/c\.h": no \.\./ in includes$' \
	sed -i '0,/^#include "/s//#include "..\/lib\/c.h"\n#include "/' src/probes/probe.c
# a coupling the includes cannot show: lib naming a run's concept
plant "lib names a run's timer" \
	'^layers: src/lib/units\.c:[0-9]+: "WS_T_WRITE": lib knows nothing of a run' \
	sed -i '$a int ws_planted(void) { return WS_T_WRITE; }' src/lib/units.c
# ... and the recorder reading the engine's tables or the snapshot's
# insides instead of the facts and accessors it is given
plant "the recorder reads the pace table" \
	'^layers: src/recorder/recorder\.c:[0-9]+: "pace_modes\[": the recorder builds the record from facts' \
	sed -i '$a int ws_planted(int p) { return pace_modes[p]->marks_accepted; }' src/recorder/recorder.c
plant "the recorder reads a snapshot's field" \
	'^layers: src/recorder/recorder_thread\.c:[0-9]+: "snap->": the recorder builds the record from facts' \
	sed -i '$a uint64_t ws_planted(struct ws_snapshot *snap) { return snap->bytes; }' src/recorder/recorder_thread.c
# a rule lost, and a rule that makes a circle
plant "a README without its rule" \
	'^layers: src/analysis/README\.md: no "May include:" line$' \
	sed -i '/^May include:/d' src/analysis/README.md
plant "a circle in the rules" \
	'^layers: circle in the rules: (lib -> record -> lib|record -> lib -> record)$' \
	sed -i 's/^May include: nothing$/May include: record/' src/lib/README.md
# and a planted include that the rules allow is no violation
rm -rf "$TESTDIR/tree"
mkdir -p "$TESTDIR/tree"
cp -r "$ROOT/src" "$ROOT/include" "$TESTDIR/tree/"
sed -i '0,/^#include "/s//#include "lib\/units.h"\n#include "/' "$TESTDIR/tree/src/engine/writer.c"
python3 "$LAYERS" "$TESTDIR/tree" >"$OUT" 2>"$ERR" || { cat "$ERR"; fail "an allowed include was refused"; }

# The rooms: no two object files of the build under test call each other,
# however far round (nm); and two that do are caught.
OBJ=$(dirname "$WS")/obj
[ -d "$OBJ" ] || fail "no object tree at $OBJ"
python3 "$LAYERS" --objects "$OBJ" "$ROOT" >"$OUT" 2>"$ERR" || { cat "$ERR"; fail "a circle of calls in the build"; }
assert_file_match "$OUT" '^[0-9]+ rooms, [0-9]+ arrows between them, 0 circles$' "rooms drawn"
need_cmd cc nm
mkdir -p "$TESTDIR/objs/x"
printf 'int ping(int n);\nint pong(int n) { return n ? ping(n - 1) : 0; }\n' >"$TESTDIR/pong.c"
printf 'int pong(int n);\nint ping(int n) { return n ? pong(n - 1) : 1; }\n' >"$TESTDIR/ping.c"
printf 'int ping(int n);\nint top(void) { return ping(3); }\n' >"$TESTDIR/top.c"
for f in ping pong top; do
	cc -c -o "$TESTDIR/objs/x/$f.o" "$TESTDIR/$f.c" || fail "cannot compile $f.c"
done
rc=0
python3 "$LAYERS" --objects "$TESTDIR/objs" "$ROOT" >"$OUT" 2>"$ERR" || rc=$?
[ "$rc" -eq 1 ] || fail "a planted circle of calls: exit $rc, expected 1"
assert_file_match "$ERR" '^layers: circle of calls: x/ping <-> x/pong$' "the circle named"
assert_file_match "$OUT" '^3 rooms, 3 arrows between them, 1 circles$' "the planted rooms drawn"
