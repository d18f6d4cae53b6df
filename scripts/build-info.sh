#!/bin/sh
# build-info.sh OUT: write OUT (a C header: the git commit writestress is
# built from and the versions of the libraries it is built against) only
# when it would change, so make rebuilds version.o only then.
# build-info.sh --commit: print the commit alone (make deb hands it to a
# copy of the tree that has no .git, as WS_BUILD_COMMIT).
set -eu
commit=${WS_BUILD_COMMIT:-}
if [ -z "$commit" ]; then
	commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
	if [ -z "$commit" ]; then
		commit="unknown (not built from a git checkout)"
	elif [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		commit="$commit-dirty"
	fi
fi
if [ "$1" = --commit ]; then
	echo "$commit"
	exit 0
fi
out=$1
ver() { pkg-config --modversion "$1" 2>/dev/null || echo unknown; }
tmp=$out.tmp
mkdir -p "$(dirname "$out")"
cat >"$tmp" <<EOH
/* written by scripts/build-info.sh: do not edit */
#define WS_BUILD_COMMIT "$commit"
#define WS_BUILD_URING "$(ver liburing)"
#define WS_BUILD_TRACEFS "$(ver libtracefs)"
#define WS_BUILD_TRACEEVENT "$(ver libtraceevent)"
EOH
if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
