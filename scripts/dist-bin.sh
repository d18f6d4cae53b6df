#!/bin/sh
# dist-bin.sh BIN MANPAGE OUT.tar.gz - pack a built writestress for hosts
# that do not build it (contrib/ansible): bin/writestress and
# share/man/man1/writestress.1, relative to an install prefix, owned by
# root, no directory entries (unpacking into /usr/local must not touch the
# modes of its bin/ or share/).  `make dist-bin` calls it on the build.
set -eu
[ $# -eq 3 ] || { echo "usage: dist-bin.sh BIN MANPAGE OUT.tar.gz" >&2; exit 2; }
bin=$1 man=$2 out=$3
stage=$(mktemp -d "${TMPDIR:-/tmp}/ws-dist.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/share/man/man1"
# -p: the files' own times, so packing the same build again changes nothing
# a host compares (ansible's unarchive diffs sizes, modes and times)
install -p -m 0755 "$bin" "$stage/bin/writestress"
install -p -m 0644 "$man" "$stage/share/man/man1/writestress.1"
tar -czf "$out.tmp" -C "$stage" --owner=0 --group=0 --numeric-owner \
	bin/writestress share/man/man1/writestress.1
mv "$out.tmp" "$out"
