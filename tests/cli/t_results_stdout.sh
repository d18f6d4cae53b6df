# --json - writes the result to stdout, the human output (header, plain
# lines, summary) to stderr, and creates no file named "-"; two results
# on stdout are a usage error, and /dev/stdout points to '-'.  A result file that exists is replaced,
# and the run says so first.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

ws -t 1 --rate 2M/s --json - data
assert_status 0
python3 - "$OUT" <<'PY' || fail "stdout is not the JSON result"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["bytes"] > 0, d["summary"]
PY
assert_file_match "$ERR" "$SUMMARY_RE" "the summary on stderr"
assert_file_match "$ERR" '^  results  JSON on stdout   \(-v: details\)$' "where the result went"
assert_dir_only "$WORK" data

ws -t 1 --rate 2M/s --json - --csv - data
assert_usage_error 'writestress: ' "Try 'writestress --help' for more information." \
	"only one of --json, --csv and --svg can be '-'" "two results on stdout"

# /dev/stdout is a link to a descriptor: refused, with the way that works
ws -t 1 --json /dev/stdout data
assert_usage_error 'writestress: ' "Try 'writestress --help' for more information." \
	"--json '/dev/stdout';not a regular file;'-' is standard output" "--json /dev/stdout"

ws -q -t 1 --rate 2M/s --json "$TESTDIR/r.json" data
assert_status 0
assert_file_no_match "$ERR" . "stderr of a first result"
ws -q -t 1 --rate 2M/s --json "$TESTDIR/r.json" data
assert_status 0
assert_file_match "$ERR" "^writestress: --json '$TESTDIR/r.json' exists: this run's result will replace it$" "the replacement said"
