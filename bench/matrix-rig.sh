#!/bin/sh
# matrix-rig.sh WRITESTRESS - the README's strategy table, kept: as root,
# a loop device throttled to 20 MiB/s (tests/rig/rig.sh, its image in
# memory, ext4), one `writestress matrix` of every strategy on it under the
# fsync probe, its table in bench/results/matrix-rig.txt beside the
# command and the commit that made it, and its plot in doc/matrix-rig.svg.
# The rig is taken down however the run ends.
set -eu
WS=${1:?usage: matrix-rig.sh /abs/path/to/writestress}
HERE=$(cd "$(dirname "$0")" && pwd)
RIG=$HERE/../tests/rig/rig.sh
OUT=$HERE/results/matrix-rig.txt
DIR=$(mktemp -d /var/tmp/ws-matrix-rig.XXXXXX)
trap 'bash "$RIG" down "$DIR/rig" >/dev/null 2>&1; rm -rf "$DIR"' EXIT INT TERM
[ "$(id -u)" -eq 0 ] || { echo "matrix-rig.sh: needs root (a loop device and a throttle)" >&2; exit 2; }

bash "$RIG" up "$DIR/rig" --size 2G --backing memory --rate 20M >/dev/null
MNT=$(sed -n 's/^MNT=//p' "$DIR/rig/rig.env")
COMMIT=$(git -C "$HERE/.." rev-parse --short HEAD)
git -C "$HERE/.." status --porcelain -- src include | grep -q . && COMMIT="$COMMIT + uncommitted changes"
ARGS="--each 400M --file-size 400M --target-latency 200ms"
{
	echo "# command: sh bench/matrix-rig.sh (writestress matrix $ARGS --svg doc/matrix-rig.svg FILE, on a loop device throttled to 20 MiB/s, ext4, its image in memory)"
	echo "# commit: $COMMIT"
	echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(uname -r)"
	# shellcheck disable=SC2086 # the arguments are words
	"$WS" matrix $ARGS --svg "$DIR/matrix.svg" "$MNT/f.dat"
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
cp "$DIR/matrix.svg" "$HERE/../doc/matrix-rig.svg"
cat "$OUT"
