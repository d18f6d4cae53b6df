# The JSON Schemas (doc/schema, draft 2020-12) against what writestress
# writes, with Debian's python3-jsonschema: each schema is a valid draft
# 2020-12 schema titled with the name the tool writes in "schema"; a
# fresh result, the golden results of the sinks' suite, a report and a
# matrix file are valid, strictly (no field a schema does not name); a
# result missing a required field, with a field of the wrong type, or
# with a field no schema names (strict only) is refused, and so is a
# file that does not parse, names a schema version with no file, or
# lacks "tool", unless a list names it as not a result.  (run.sh
# validates every JSON file every test leaves the same way.)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

not_under_sanitizer "the schemas and the golden files are the same for every build; run.sh validates every JSON file the $SANITIZE build leaves in every test"
PY=/usr/bin/python3
"$PY" -c 'import jsonschema' 2>/dev/null || skip_as cmd "needs Debian's python3-jsonschema"
V="$CLI_DIR/py/validate_json.py"
SCHEMAS=$CLI_DIR/../../doc/schema

valid()
{
	"$PY" "$V" "$@" || fail "not valid: $*"
}
invalid()
{
	if "$PY" "$V" "$@" >"$TESTDIR/why" 2>&1; then
		cat "$TESTDIR/why"
		fail "taken, but not valid: $*"
	fi
	sed 's/^/  refused: /' "$TESTDIR/why" | head -n 3
}

# the schemas: titles as the tool names its files, ids as they refer
for s in result matrix report; do
	f=$SCHEMAS/writestress-$s-1.schema.json
	assert_exists "$f"
	"$PY" - "$f" "$s" <<'PY' || fail "$f is not the schema of writestress-$s/1"
import json, sys
from jsonschema import Draft202012Validator
s = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(s)
kind = sys.argv[2]
assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema", s["$schema"]
assert s["title"] == f"writestress-{kind}/1", s["title"]
assert s["$id"].endswith(f"/writestress-{kind}-1.schema.json"), s["$id"]
assert s["properties"]["schema"] == {"const": s["title"]}
assert "schema" in s["required"] and "tool" in s["properties"]
PY
done

# a run's result, and the sinks' golden results
ws -q --size 16M -B 1M --probe-interval 20ms --json "$TESTDIR/r.json" data
assert_status 0
valid --strict "$TESTDIR/r.json"
assert_eq '"writestress-result/1"' "$("$PY" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["schema"]))' "$TESTDIR/r.json")" "the result's schema"
valid --strict "$CLI_DIR/../expected"

# a report over it, and its schema named in report's --help
cp "$TESTDIR/r.json" "$TESTDIR/r2.json"
ws report --json "$TESTDIR/report.json" "$TESTDIR/r.json" "$TESTDIR/r2.json"
valid --strict "$TESTDIR/report.json"
ws report --help
assert_file_match "$OUT" 'writestress-report/1' "report's --help names its schema"
ws matrix --help
assert_file_match "$OUT" 'writestress-matrix/1' "matrix's --help names its schema"

# a broken result is refused; a new field only when strict; another
# version left alone
mutate()
{
	"$PY" - "$TESTDIR/r.json" "$TESTDIR/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
mutate no_summary 'del d["summary"]'
invalid "$TESTDIR/no_summary.json"
mutate bad_type 'd["intervals"] = "many"'
invalid "$TESTDIR/bad_type.json"
mutate bad_inner 'd["intervals"][0]["bytes"] = "12"'
invalid "$TESTDIR/bad_inner.json"
mutate bad_probe 'd["intervals"][0]["probes"]["fsync"]["count"] = "two"'
invalid "$TESTDIR/bad_probe.json"
mutate new_field 'd["summary"]["brand_new"] = 1'
valid "$TESTDIR/new_field.json"
invalid --strict "$TESTDIR/new_field.json"
mutate other_version 'd["schema"] = "writestress-result/2"; del d["summary"]'
invalid --strict "$TESTDIR/other_version.json"
assert_file_match "$TESTDIR/why" "names no known schema \('writestress-result/2'" "a version with no schema file"
mutate no_tool 'del d["tool"]'
invalid --strict "$TESTDIR/no_tool.json"
assert_file_match "$TESTDIR/why" 'has no "tool" naming writestress' "a file without tool"
printf '{"schema": "writestress-result/1", ' >"$TESTDIR/half.json"
invalid --strict "$TESTDIR/half.json"
assert_file_match "$TESTDIR/why" 'does not parse' "a file cut short"
# named as not a result, each is left out, and counted apart
printf '%s\n' other_version.json no_tool.json half.json >"$TESTDIR/list"
"$PY" "$V" --strict --not-results "$TESTDIR/list" "$TESTDIR/other_version.json" \
	"$TESTDIR/no_tool.json" "$TESTDIR/half.json" "$TESTDIR/r.json" >"$TESTDIR/why" ||
	fail "files named as not results were judged: $(cat "$TESTDIR/why")"
assert_file_match "$TESTDIR/why" '^validate_json: 1 files judged against their schema, 0 not valid, strict; 3 named not results$' "the count, judged and apart"
rm -f "$TESTDIR"/*.json

# the docs point to the schemas
for d in "$CLI_DIR/../../doc/result-json.md" "$CLI_DIR/../../doc/report-json.md" "$CLI_DIR/../../README.md"; do
	assert_file_match "$d" 'doc/schema/|schema/writestress-' "$(basename "$d") points to the schemas"
done
