# --help exits 0 and documents the exit statuses and the units; -V and
# --version print "writestress VERSION", the commit, the features and
# the libraries.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

for opt in --help -h; do
	ws "$opt"
	assert_status 0
	assert_eq "" "$(cat "$ERR")" "stderr of $opt"
	assert_file_match "$OUT" '^Usage: writestress ' "usage line of $opt"
	assert_file_match "$OUT" '^Exit status' "exit status section of $opt"
	for code in 0 1 2 3; do
		assert_file_match "$OUT" "^ +$code +[a-z]" "exit status $code in $opt"
	done
	# it opens with three examples: a first run, overwrite.c's, an SSD's
	head -n 15 "$OUT" >"$TESTDIR/head"
	assert_file_match "$TESTDIR/head" '^Examples:$' "examples near the top of $opt"
	assert_file_match "$TESTDIR/head" '^  writestress -t 30s .*a first run' "a first run in $opt"
	assert_file_match "$TESTDIR/head" '^  writestress -b 3000 -f .*overwrite\.c' "the overwrite.c run in $opt"
	assert_file_match "$TESTDIR/head" '^  writestress --until-steady ' "the SSD run in $opt"
	assert_file_match "$OUT" 'MiB = 2\^20' "MiB defined in $opt"
	assert_file_match "$OUT" 'kB.*10\^3' "decimal units defined in $opt"
	for o in --buffers --buffer-size --size --time --file-size --reserve \
		--pace --fadvise --window --sync-every --rate --data --interval \
		--quiet --force --remove --version; do
		assert_file_match "$OUT" "^ +(-[a-zA-Z], )?$o( |$)" "$o in $opt"
	done
done
assert_dir_only "$WORK"

# --version: the version, the commit it was built from, the features
# built in and the libraries, each as the build or the library itself
# says
commit=$(cd "$CLI_DIR" && git rev-parse --short=12 HEAD 2>/dev/null) || commit=
for opt in -V --version; do
	ws "$opt"
	assert_status 0
	assert_lines "$OUT" 4 "output of $opt"
	assert_eq "" "$(cat "$ERR")" "stderr of $opt"
	assert_match '^writestress [0-9]+\.[0-9]+(\.[0-9]+)?([-+~][0-9A-Za-z.+~-]*)?$' "$(sed -n 1p "$OUT")" "first line of $opt"
	line=$(sed -n 2p "$OUT")
	if [ -n "$commit" ]; then
		assert_match "^commit: $commit(-dirty)?\$" "$line" "the commit in $opt (git says $commit)"
	else
		assert_match '^commit: ([0-9a-f]{12}(-dirty)?|unknown \(not built from a git checkout\))$' "$line" "the commit in $opt"
	fi
	assert_eq "features: io_uring sqlite tracing" "$(sed -n 3p "$OUT")" "features of $opt"
	line=$(sed -n 4p "$OUT")
	for lib in liburing libtracefs libtraceevent; do
		v=$(pkg-config --modversion "$lib" 2>/dev/null) || continue
		assert_match "(: |, )$lib $v(,|\$)" "$line" "$lib's version in $opt (pkg-config says $v)"
	done
	v=$(python3 -c 'import sqlite3; print(sqlite3.sqlite_version)')
	assert_match "(, )SQLite $v," "$line" "SQLite's version in $opt (the library says $v)"
done
