# The Debian package: debian/control's Build-Depends are scripts/deps.sh's
# build list; `make deb` builds a package lintian passes with no error
# and no warning, recommending bash-completion; `apt-get install
# ./writestress_*.deb` installs it (the binary, the man page, bash and zsh
# completion, the schemas, the docs and contrib/ as examples, and
# writestress watch's systemd unit, enabled nowhere); the
# installed writestress names its version and commit, runs, writes a
# result its installed schema takes, and `man writestress` reads;
# `apt-get purge` then leaves none of its files.
# needs: cpu named
# (make check-deb runs it, and CI: it installs and purges a system
# package, not a thing for every make check, whose 5 minutes it was half of)
# A whole build by dpkg-buildpackage, lintian, apt and an Ansible play:
# 56 s alone, 124-250 s beside seven other tests on two CPUs.
# timeout: 360
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
not_under_sanitizer "the package is the plain build (dpkg-buildflags' own), built and installed here once"
need_root
need_cmd dpkg-buildpackage lintian apt-get man

REPO=$(cd "$CLI_DIR/../.." && pwd)
VERSION=$(sed -n 's/^VERSION *:= *//p' "$REPO/Makefile")

# the build dependencies, one list: deps.sh's build part (all but check,
# which only the unit tests need) is what the package declares
deps=$(sed -n '1,/^# Used by the tests/s/^need \([a-z0-9.+-]*\).*/\1/p' "$REPO/scripts/deps.sh" |
	grep -vx check | LC_ALL=C sort)
control=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$REPO/debian/control" | sed '$d' |
	sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/^ *//; s/ *$//; s/ *(.*//' |
	grep -v '^$' | grep -vx debhelper-compat | LC_ALL=C sort)
echo "  build dependencies: $(echo "$deps" | tr '\n' ' ')"
assert_eq "$deps" "$control" "debian/control's Build-Depends against scripts/deps.sh's build list"
assert_eq "$VERSION" "$(dpkg-parsechangelog -l "$REPO/debian/changelog" -S Version)" "debian/changelog's version against the Makefile's"

if dpkg-query -W -f='${Status}' writestress 2>/dev/null | grep -q 'install ok installed'; then
	skip_as env "a writestress package is installed on this machine: not replacing it"
fi

# the commit the copy is taken at (a commit made while the build runs is
# not the one built)
commit=$(cd "$REPO" && git rev-parse --short=12 HEAD 2>/dev/null) || commit=
# built from a copy of the tree, into this test's directory, a compile
# per CPU (make deb's own): the suite counts this test as two jobs.  One
# at a time it was the suite's longest test (222-253 s beside the others,
# on two CPUs), and make check waited for it.
make -C "$REPO" --no-print-directory deb BUILD="$TESTDIR/b" >"$TESTDIR/build.log" 2>&1 ||
	{ tail -n 30 "$TESTDIR/build.log"; fail "make deb failed"; }
deb=$(ls "$TESTDIR"/b/deb/writestress_"$VERSION"_*.deb)
echo "  built $(basename "$deb"), $(stat -c %s "$deb") bytes"
# bash loads completion through bash-completion, which a minimal system lacks
dpkg-deb -f "$deb" Recommends | grep -qw bash-completion ||
	fail "the package does not recommend bash-completion: '$(dpkg-deb -f "$deb" Recommends)'"
# lintian (one CPU, 15-20 s) reads the files while apt installs the
# package and the installed tool runs; its verdict is taken after
lintian --fail-on error,warning "$deb" "$TESTDIR"/b/deb/writestress_"$VERSION"_*.changes >"$TESTDIR/lintian" 2>&1 &
lint=$!
at_exit "kill $lint 2>/dev/null || true"
lintian_verdict()
{
	local st=0
	wait "$lint" || st=$?
	if [ "$st" -ne 0 ] || grep -E '^[EW]: ' "$TESTDIR/lintian"; then
		cat "$TESTDIR/lintian"
		fail "lintian: errors or warnings (exit $st)"
	fi
	echo "  lintian: no error, no warning"
}

at_exit 'apt-get purge -y -q writestress >/dev/null 2>&1 || true'
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >"$TESTDIR/apt.log" 2>&1 ||
	{ cat "$TESTDIR/apt.log"; fail "apt-get install $deb failed"; }
files=$(dpkg-query -L writestress)
for f in /usr/bin/writestress /usr/share/man/man1/writestress.1.gz \
	/usr/share/bash-completion/completions/writestress \
	/usr/share/zsh/vendor-completions/_writestress \
	/usr/share/writestress/schema/writestress-result-1.schema.json \
	/usr/share/writestress/schema/writestress-matrix-1.schema.json \
	/usr/share/writestress/schema/writestress-report-1.schema.json \
	/usr/share/doc/writestress/copyright /usr/share/doc/writestress/README.md.gz \
	/usr/share/doc/writestress/CHANGES.gz \
	/usr/share/doc/writestress/examples/ansible/site.yml \
	/usr/share/doc/writestress/examples/kubernetes/writestress-job.yaml \
	/lib/systemd/system/writestress-watch.service; do
	printf '%s\n' "$files" | grep -qx "$f" || fail "the package does not install $f"
	assert_exists "$f"
done

# writestress watch's unit: installed, enabled nowhere, started by nobody
if ls /etc/systemd/system/*.wants/writestress-watch.service 2>/dev/null; then
	fail "the package enabled writestress-watch.service"
fi
assert_file_match /lib/systemd/system/writestress-watch.service \
	'^ExecStart=/usr/bin/writestress watch --forever ' "the installed unit's ExecStart"
if have_cmd systemd-analyze; then
	systemd-analyze verify --man=no /lib/systemd/system/writestress-watch.service ||
		fail "systemd-analyze verify refused the installed unit"
fi

# the installed tool: its version and commit, a run, its result against
# the installed schema, its completion, its man page
/usr/bin/writestress --version >"$TESTDIR/version" || fail "writestress --version failed"
cat "$TESTDIR/version"
assert_eq "writestress $VERSION" "$(sed -n 1p "$TESTDIR/version")" "the installed version"
[ -z "$commit" ] ||
	assert_match "^commit: $commit(-dirty)?\$" "$(sed -n 2p "$TESTDIR/version")" "the commit it was built from"
(cd "$WORK" && /usr/bin/writestress -q --size 16M -B 1M --json "$TESTDIR/r.json" --remove data) ||
	fail "the installed writestress failed a short run"
assert_dir_only "$WORK"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	/usr/bin/python3 - "$TESTDIR/r.json" <<'PY' || fail "the result is not valid against the installed schema"
import json, sys
from jsonschema import Draft202012Validator
s = json.load(open("/usr/share/writestress/schema/writestress-result-1.schema.json"))
Draft202012Validator(s).validate(json.load(open(sys.argv[1])))
print("  the run's result is valid against /usr/share/writestress/schema")
PY
fi
/usr/bin/writestress completion bash | cmp -s - /usr/share/bash-completion/completions/writestress ||
	fail "the installed completion is not what the installed writestress prints"
/usr/bin/writestress completion zsh | cmp -s - /usr/share/zsh/vendor-completions/_writestress ||
	fail "the installed zsh completion is not what the installed writestress prints"
MANWIDTH=80 man -P cat writestress >"$TESTDIR/man" 2>"$TESTDIR/man.err" ||
	{ cat "$TESTDIR/man.err"; fail "man writestress failed"; }
assert_file_match "$TESTDIR/man" '^NAME' "man writestress: NAME"
assert_file_match "$TESTDIR/man" 'writestress completion' "man writestress: the completion subcommand"
echo "  man writestress: $(wc -l <"$TESTDIR/man") lines"

lintian_verdict

# purged: nothing of it left
DEBIAN_FRONTEND=noninteractive apt-get purge -y -q writestress >"$TESTDIR/apt.log" 2>&1 ||
	{ cat "$TESTDIR/apt.log"; fail "apt-get purge writestress failed"; }
if dpkg-query -W -f='${Status}' writestress 2>/dev/null | grep -q installed; then
	fail "still installed after purge: $(dpkg-query -W -f='${Status}' writestress)"
fi
left=
for f in $files; do
	# directories it shares with other packages stay
	[ -e "$f" ] && [ ! -d "$f" ] && left="$left $f"
	case $f in
	/usr/share/doc/writestress | /usr/share/writestress*) [ -e "$f" ] && left="$left $f" ;;
	esac
done
[ -z "$left" ] || fail "left after purge:$left"
echo "  purged: none of its $(printf '%s\n' "$files" | wc -l) paths left"

# contrib/ansible's role installs the same package (writestress_install:
# deb) with apt, runs it and reports; then it is purged again
if have_cmd ansible-playbook; then
	# shellcheck source=lib_ansible.sh
	. "$CLI_DIR/lib_ansible.sh"
	ROOT=$REPO
	ansible_env "$TESTDIR/ansible"
	small_tmpfs 64M
	cat >"$TESTDIR/vars.yml" <<_EOF_
writestress_install: deb
writestress_deb: $deb
writestress_path: $TMPFS/ws.dat
writestress_size: 16M
writestress_time: ""
writestress_extra_args: [-B, 1M, --reserve, "0"]
writestress_remote_dir: $TESTDIR/remote
writestress_results_dir: $TESTDIR/results
writestress_prom_file: ""
writestress_poll: 1
writestress_report: true
writestress_controller_bin: /usr/bin/writestress
_EOF_
	play
	assert_status 0
	assert_eq 0 "$(recap failed)" "failed tasks"
	assert_file_match "$LOG" 'TASK \[writestress : Install the writestress package\]' "the package's install task"
	dpkg-query -W -f='${Status}' writestress | grep -q 'install ok installed' ||
		fail "the role did not install the package"
	assert_exists "$TESTDIR/results/localhost.json"
	assert_exists "$TESTDIR/results/report.txt"
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q writestress >/dev/null 2>&1 ||
		fail "apt-get purge writestress failed"
	echo "  the Ansible role installed the package, ran it and reported; purged"
else
	skip_part cmd "the Ansible role's deb install: needs ansible-playbook (ansible-core)"
fi
