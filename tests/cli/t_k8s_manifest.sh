# contrib/kubernetes/writestress-job.yaml is a well-formed Job (never run
# on a cluster here): python3-yaml parses it and py/k8s_manifest.py checks
# its shape (privileged, hostPath target, --json into a mounted volume,
# --prom into node_exporter's textfile directory, mounts and volumes
# matched).  A broken copy is caught, so the check checks.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

not_under_sanitizer "a YAML file's shape and a short run with --json, the same for every build: the run runs under $SANITIZE in t_results"
python_with yaml python3-yaml
M=$(cd "$CLI_DIR/../.." && pwd)/contrib/kubernetes/writestress-job.yaml
CHECK=$CLI_DIR/py/k8s_manifest.py

"$PY" "$CHECK" "$M" >"$OUT" 2>&1 || fail "k8s_manifest.py: $(cat "$OUT")"

# broken copies: each must be caught, saying what is wrong
broken()
{
	sed "$1" "$M" >"$TESTDIR/broken.yaml"
	cmp -s "$M" "$TESTDIR/broken.yaml" && fail "the edit '$1' changed nothing"
	if "$PY" "$CHECK" "$TESTDIR/broken.yaml" >"$OUT" 2>&1; then
		fail "k8s_manifest.py passed a manifest edited with '$1'"
	fi
	assert_file_match "$OUT" "$2" "the complaint about '$1'"
}
broken 's/privileged: true/privileged: false/' 'not privileged'
broken 's/- --prom$/- --no-probe/' 'no --prom'
broken '0,/name: textfile$/s//name: textfiles/' 'names no volume|is not mounted'
# shellcheck disable=SC2016 # $(NODE_NAME) is the manifest's, not ours
broken 's|^\( *\)- /results/\$(NODE_NAME).json|\1- /elsewhere/r.json|' 'on no mounted volume'
broken 's/^kind: Job/kind: Pod/' 'not a Job'
broken 's/^kind: Job/kind: Job\nbad: [/' '^not YAML: '
