"""Validate writestress's JSON files against their JSON Schemas
(doc/schema/*.schema.json, draft 2020-12) with Debian's python3-jsonschema.

usage: validate_json.py [--strict] [--quiet] [--not-results LIST] PATH...
A PATH is a file or a directory (searched for *.json).  Every file found
is judged: it must parse, be a JSON object whose "tool" is writestress
and whose "schema" names a schema there is a file for (writestress-
result/1, -matrix/1, -report/1), and be valid against that schema.  A
file that does not parse, names no known schema or lacks "tool" is a
problem too, unless LIST (a file of paths, one a line, relative to its
own directory; a missing LIST is empty) names it: the files a test made
on purpose that are not writestress's (a hand-made fixture, a half-
written file, a result of a version with no schema file).  Those are
counted apart, by name.
--strict also refuses a field the schema does not name: the suite holds
the tool to writing only what is documented, while the published schemas
let new fields through (doc/result-json.md: fields may be added within a
version).  Prints each problem, then "validate_json: N files judged ...";
exits 1 if any problem, else 0.
"""
import copy
import json
import os
import sys

from jsonschema import Draft202012Validator, RefResolver

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "doc", "schema")


def closed(node):
    """node with every object that names its properties closed to others"""
    if isinstance(node, dict):
        node = {k: closed(v) for k, v in node.items()}
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        return node
    if isinstance(node, list):
        return [closed(v) for v in node]
    return node


def load_schemas(strict):
    by_name, store = {}, {}
    for f in sorted(os.listdir(SCHEMA_DIR)):
        if not f.endswith(".schema.json"):
            continue
        s = json.load(open(os.path.join(SCHEMA_DIR, f)))
        Draft202012Validator.check_schema(s)
        if strict:
            s = closed(copy.deepcopy(s))
        by_name[s["title"]] = s
        store[s["$id"]] = s
    return {name: Draft202012Validator(s, resolver=RefResolver(s["$id"], s, store=store))
            for name, s in by_name.items()}


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.endswith(".json"):
                        yield os.path.join(root, n)
        else:
            yield p


def not_results(path):
    """the absolute paths a --not-results LIST names"""
    if not path or not os.path.exists(path):
        return set()
    base = os.path.dirname(os.path.abspath(path))
    with open(path) as fh:
        return {os.path.normpath(os.path.join(base, line.strip()))
                for line in fh if line.strip()}


def why_not_ours(f, validators):
    """(the document, None), or (None, why f is not a file of writestress's)"""
    try:
        with open(f) as fh:
            d = json.load(fh)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        return None, f"does not parse: {str(e)[:120]}"
    if not isinstance(d, dict):
        return None, "is not a JSON object"
    tool = d.get("tool")
    if not isinstance(tool, dict) or tool.get("name") != "writestress":
        return None, "has no \"tool\" naming writestress"
    if d.get("schema") not in validators:
        return None, f"names no known schema ({d.get('schema')!r}; known: {', '.join(sorted(validators))})"
    return d, None


def main(argv):
    strict = "--strict" in argv
    quiet = "--quiet" in argv
    listed = set()
    if "--not-results" in argv:
        i = argv.index("--not-results")
        listed = not_results(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    paths = [a for a in argv if not a.startswith("--")]
    validators = load_schemas(strict)
    judged, others, bad = 0, 0, 0
    for f in files_of(paths):
        if os.path.normpath(os.path.abspath(f)) in listed:
            others += 1
            continue
        d, why = why_not_ours(f, validators)
        if why:
            print(f"{f}: {why}")
            bad += 1
            continue
        v = validators[d["schema"]]
        judged += 1
        errors = sorted(v.iter_errors(d), key=lambda e: list(e.absolute_path))
        for e in errors[:5]:
            path = "/".join(str(x) for x in e.absolute_path)
            print(f"{f}: {d['schema']}: at /{path}: {e.message[:300]}")
        bad += bool(errors)
    if not quiet or bad:
        print(f"validate_json: {judged} files judged against their schema, {bad} not valid"
              f"{', strict' if strict else ''}; {others} named not results")
    if quiet:
        print(f"validate_json: judged {judged}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
