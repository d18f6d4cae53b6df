# lib_ansible.sh - contrib/ansible's playbook run for real on localhost,
# for the tests that do (t_ansible, t_deb).  Sourced after lib.sh.

# ansible_env DIR: Ansible's own state in DIR, nothing read from ~/.ansible,
# /etc/ansible or the network; the role from contrib/ansible.
ansible_env()
{
	# Ansible's own state stays here; an empty config file stops it from
	# looking for one in $HOME or /etc.
	A=$1
	mkdir -p "$A/home" "$A/local" "$A/remote" "$A/async" || fail "cannot create $A"
	: >"$A/ansible.cfg"
	# Ansible refuses to start in a locale that is not UTF-8 (lib.sh sets C).
	export LC_ALL=C.UTF-8
	export HOME="$A/home" ANSIBLE_CONFIG="$A/ansible.cfg"
	export ANSIBLE_LOCAL_TEMP="$A/local" ANSIBLE_REMOTE_TEMP="$A/remote" ANSIBLE_ASYNC_DIR="$A/async"
	export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_RETRY_FILES_ENABLED=0
	export ANSIBLE_HOST_KEY_CHECKING=0 ANSIBLE_STDOUT_CALLBACK=default
	# one process per task, no copy of each module to a temporary file: faster
	export ANSIBLE_PIPELINING=1
	# the python ansible-core was installed for (Debian's), not PATH's
	ANSIBLE_PYTHON_INTERPRETER=$(sed -n '1s/^#! *//p' "$(command -v ansible-playbook)" | cut -d' ' -f1)
	[ -x "$ANSIBLE_PYTHON_INTERPRETER" ] || ANSIBLE_PYTHON_INTERPRETER=$(command -v python3)
	export ANSIBLE_PYTHON_INTERPRETER
	export ANSIBLE_COLLECTIONS_PATH="$A/collections" ANSIBLE_ROLES_PATH="$ROOT/contrib/ansible/roles"
}

LOG=$TESTDIR/playbook.log
# play ARGS...: run the playbook; its output in $LOG, its exit status in $rc.
play()
{
	LAST_CMD="ansible-playbook $*"
	printf '+ %s\n' "$LAST_CMD"
	rc=0
	_t0=$(date +%s)
	ansible-playbook -i localhost, -c local -e "@$TESTDIR/vars.yml" "$@" \
		"$ROOT/contrib/ansible/site.yml" >"$LOG" 2>&1 </dev/null || rc=$?
	echo "# took $(($(date +%s) - _t0)) s"
	cp "$LOG" "$OUT"
	[ "$rc" -eq 0 ] || tail -n 30 "$LOG"
	: >"$ERR"
}


# recap FIELD: FIELD (ok, changed, failed...) of localhost's play recap.
recap()
{
	sed -n "s/^localhost *:.* $1=\([0-9]*\).*/\1/p" "$LOG"
}
