#!/bin/sh
# Install what writestress needs to build and test, or say how.
# Root installs with apt-get; anyone else gets the exact command to run.
# `deps.sh bench` adds what make bench measures against (fio).
set -u

missing=""
need() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $1"; }

command -v cc >/dev/null 2>&1 || need gcc
command -v make >/dev/null 2>&1 || need make
need pkg-config
need libcap-dev
need check
need libjson-c-dev
need liburing-dev	# --iodepth: queued O_DIRECT writes with io_uring
need libsqlite3-dev	# the sqlite probe commits to a real SQLite database
need libtracefs-dev	# the device's requests, from the kernel's tracepoints
need libtraceevent-dev
# Used by the tests: fault injection, loop devices and filesystems, page-cache
# residency (fincore), extended attributes, JSON checks, syscall traces.
need fiu-utils	# fiu-run: EIO injected into writestress by libfiu in the tests
need util-linux
need e2fsprogs
need xfsprogs	# mkfs.xfs: xfs's log traced (t_e2e_trace_xfs)
need attr
need strace
need libcap2-bin	# capsh: the privilege tests drop capabilities with it
need zsh	# t_completion_zsh: zsh itself completes with the generated script
need python3
need python3-yaml	# t_k8s_manifest parses contrib/kubernetes's Job
need ansible-core	# t_ansible runs contrib/ansible's playbook on localhost
need librsvg2-bin	# rsvg-convert renders --svg plots in the tests
need gzip
need zstd	# random data must not compress (t_data_incompressible)
need time	# /usr/bin/time: the kernel's CPU figures beside the tool's (t_cpu)
need dwarves	# pahole: t_lean reads the build's structs for fixed arrays
# --prom (t_prom): the file read back by the Prometheus project's own
# parser, and served by a node_exporter the test starts on 127.0.0.1 and
# scrapes with curl.  (promtool's package, prometheus, is 96 MB: not needed.)
need python3-prometheus-client
need prometheus-node-exporter
need curl
if [ "${1:-}" = bench ]; then
	need fio	# the bench's peer for direct and queued writes
fi
# The Debian package (make deb, t_deb): dh builds it, lintian judges it,
# the test reads the installed man page with man.
need debhelper
need dpkg-dev
need lintian
need man-db
# every JSON the tests write is validated against doc/schema (draft
# 2020-12) by Debian's jsonschema
need python3-jsonschema
if [ "${1:-}" = coverage ]; then
	need gcovr	# make coverage: gcov's counts per file of src/
fi

[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "writestress: installing build dependencies:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || true
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null && exit 0
	echo "writestress: apt-get install failed for:$missing" >&2
	exit 1
fi
echo "writestress: missing build dependencies:$missing" >&2
echo "  run: sudo apt-get install -y$missing" >&2
exit 1
