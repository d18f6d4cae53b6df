# --help exits 0 and documents the exit statuses and the units; -V and
# --version print "writestress VERSION".
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

for opt in -V --version; do
	ws "$opt"
	assert_status 0
	assert_lines "$OUT" 1 "output of $opt"
	assert_file_match "$OUT" '^writestress [0-9]+\.[0-9]+(\.[0-9]+)?([-+~][0-9A-Za-z.+~-]*)?$' "output of $opt"
	assert_eq "" "$(cat "$ERR")" "stderr of $opt"
done
