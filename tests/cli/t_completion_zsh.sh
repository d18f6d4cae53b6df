# Tab completion, as zsh does it: the script the build wrote
# (build/completion/_writestress, what make install and the package
# install) is what `writestress completion zsh` prints, and zsh -n takes
# it.  Then zsh completes for real: an interactive zsh in a
# pseudo-terminal (zsh/zpty), its completion system loaded by compinit
# with the script in fpath, completes a line as Tab would, and every
# match any compadd added is read back (tests/cli/zsh/complete.zsh).  It
# offers the options by prefix with their descriptions, their words (one
# and a LIST's after its commas), files and directories where they are
# expected, the subcommands at the first word and their options and
# words; every option of every --help is offered; sourced after
# compinit, the script registers itself.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd zsh

script=$(dirname "$WS")/completion/_writestress
assert_exists "$script"
ws completion zsh
assert_status 0
cmp -s "$OUT" "$script" || fail "$script is not what writestress completion zsh prints"
zsh -n "$script" || fail "$script: not valid zsh"
assert_eq "#compdef writestress" "$(sed -n 1p "$script")" "the first line, which compinit reads"

mkdir -p "$WORK/results/sub" "$TESTDIR/fpath"
: >"$WORK/results/run1.json"
: >"$WORK/results/run2.json"
not_a_result "$WORK/results/run1.json" "$WORK/results/run2.json"	# names to complete
# an fpath directory of its own: the build's holds the bash script too
cp "$script" "$TESTDIR/fpath/_writestress"

# offered FPATH WORD...: what zsh offers for the last word, "MATCH<TAB>
# DESCRIPTION" a line, into $TESTDIR/offered; the shell printing
# anything else (an error of a completion function) fails the test
offered()
{
	_fp=$1
	shift
	rc=0
	timeout 60 zsh -f "$CLI_DIR/zsh/complete.zsh" "$_fp" "$WORK" "writestress $*" \
		>"$TESTDIR/offered" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$TESTDIR/offered"; fail "complete.zsh failed (exit $rc) on 'writestress $*'"; }
	if grep -q '^!' "$TESTDIR/offered"; then
		cat "$TESTDIR/offered"
		fail "zsh printed more than matches for 'writestress $*'"
	fi
}

# complete_words WORD...: the matches, sorted, one a line
complete_words()
{
	offered "$TESTDIR/fpath" "$@"
	cut -f1 "$TESTDIR/offered" | sort -u
}

# expect "WANTED WORDS" WORD...: zsh offers exactly these
expect()
{
	# shellcheck disable=SC2086 # the wanted words, one a line
	want=$(printf '%s\n' $1 | sort)
	shift
	got=$(complete_words "$@")
	echo "  writestress $* <TAB>: $(echo "$got" | tr '\n' ' ')"
	assert_eq "$want" "$got" "completion of 'writestress $*'"
}

# described OPTION TEXT WORD...: zsh lists OPTION with TEXT in its
# description
described()
{
	_o=$1 _text=$2
	shift 2
	offered "$TESTDIR/fpath" "$@"
	grep -F -- "$_text" "$TESTDIR/offered" | cut -f1 | grep -qx -- "$_o" ||
		{ cat "$TESTDIR/offered"; fail "$_o is not described as '$_text'"; }
	echo "  $_o: $(grep -- "^$_o	" "$TESTDIR/offered" | cut -f2 | sed 's/^.*-- //')"
}

# options, long and by prefix, with their help's first phrase (a quote
# and a '%' shown as they are)
expect "--pace" --pac
expect "--probe --probe-cmd --probe-dir --probe-interval --probe-ioprio --probe-size --probe-sync --probe-timeout --probe-user" --probe
described --pace "how the writer paces writeback" --pa
described --sqlite-journal "the sqlite probe's journal_mode" --sqlite-j
described --headroom "keep the writer under (100 - PCT)% of" --headr
# an option's words: after a space, after '=', short form
expect "window none fdatasync direct dontcache adaptive" --pace ""
expect "adaptive" --pace ad
expect "window" -p wi
expect "--pace=adaptive" --pace=ad
expect "direct dontcache" --pace d
expect "auto always never" --color ""
expect "be idle rt" --ioprio ""
expect "fdatasync fsync" --probe-sync f
# a word a value follows, its ':' unescaped
expect "compressible=" --data c
expect "snia bw-slope: bw-dev:" --steady-criterion ""
# a LIST: its words after the commas, the ones given left out
expect "fsync,save fsync,sqlite" --probe fsync,s
expect "sqlite" --steer-by sq
# files and directories
expect "results/run1.json results/run2.json" --json results/run
expect "results/sub" --probe-dir results/s
expect "results/run1.json results/run2.json results/sub" -t 5 results/
# nothing to guess for a size or a duration
expect "" --size ""
# subcommands at the first word (beside files), not later
expect "compare completion" comp
expect "report results" re
expect "" -q comp
# a subcommand's options and words
expect "--by" report --b
expect "kernel" report --by k
expect "window,window+fadvise" matrix --strategies window,wi
expect "mq-deadline" matrix --schedulers mq
expect "--run" verify --r
expect "bash zsh" completion ""
expect "results/run1.json results/run2.json" compare results/run
described --by "group by model" report --b

# sourced after compinit rather than found in fpath: it registers itself
offered "$script" report --b
assert_eq "--by" "$(cut -f1 "$TESTDIR/offered" | sort -u)" "completion of 'writestress report --b', the script sourced"

# every option --help lists is offered, for the run and each subcommand
for cmd in "" compare report matrix verify completion; do
	# shellcheck disable=SC2086 # "" is no word: the run's own --help
	ws $cmd --help
	assert_status 0
	# shellcheck disable=SC2086
	got=$(complete_words $cmd --)
	opts=$(grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' "$OUT" | sed 's/.*--/--/' | sort -u)
	[ -n "$opts" ] || fail "no option in writestress $cmd --help"
	for o in $opts; do
		printf '%s\n' "$got" | grep -qx -- "$o" ||
			fail "writestress $cmd $o is in --help but not offered by zsh"
	done
	echo "  writestress $cmd: the $(echo "$opts" | wc -l) options of --help are offered"
done
assert_dir_only "$WORK" results
