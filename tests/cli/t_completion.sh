# Tab completion, as bash does it: the script the build wrote
# (build/completion/writestress, what make install and the package
# install) is what `writestress completion bash` prints, and bash's
# complete/compgen, driven word by word, offer the options, their words
# (one and a LIST's last item), files and directories where a file or a
# directory is expected, the subcommands and their options and words;
# every option of every --help is offered.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd bash

script=$(dirname "$WS")/completion/writestress
assert_exists "$script"
ws completion bash
assert_status 0
cmp -s "$OUT" "$script" || fail "$script is not what writestress completion bash prints"
bash -n "$script" || fail "$script: not valid bash"

mkdir -p "$WORK/results/sub"
: >"$WORK/results/run1.json"
: >"$WORK/results/run2.json"
not_a_result "$WORK/results/run1.json" "$WORK/results/run2.json"	# names to complete

# complete WORD...: what bash offers for the last word, sorted, one a line
complete_words()
{
	(cd "$WORK" && bash -c '
		. "$1"; shift
		spec=$(complete -p writestress) || exit 3
		case $spec in *"-F _writestress "*) ;; *) echo "no function: $spec"; exit 3 ;; esac
		COMP_WORDS=(writestress "$@")
		COMP_CWORD=$#
		COMP_LINE="writestress $*"
		COMP_POINT=${#COMP_LINE}
		_writestress
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$script" "$@")
}

# expect "WANTED WORDS" WORD...: bash offers exactly these
expect()
{
	want=$(printf '%s\n' $1 | sort)
	shift
	got=$(complete_words "$@")
	echo "  writestress $* <TAB>: $(echo "$got" | tr '\n' ' ')"
	assert_eq "$want" "$got" "completion of 'writestress $*'"
}

# options, long and by prefix
expect "--pace" --pac
expect "--probe --probe-cmd --probe-dir --probe-interval --probe-ioprio --probe-size --probe-sync --probe-timeout --probe-user" --probe
# an option's words, after a space, after '=' (bash splits there), short form
expect "adaptive" --pace ad
expect "window" -p wi
expect "adaptive" --pace = ad
expect "direct dontcache" --pace d
expect "auto always never" --color ""
expect "be idle rt" --ioprio ""
expect "fdatasync fsync" --probe-sync f
expect "compressible=" --data c
# a LIST: the last item after its commas
expect "fsync,save fsync,sqlite" --probe fsync,s
expect "sqlite" --steer-by sq
# files and directories
expect "results/run1.json results/run2.json" --json results/run
expect "results/sub" --probe-dir results/s
expect "results/run1.json results/run2.json results/sub" -t 5 results/
# nothing to guess for a size or a duration
expect "" --size ""
# subcommands, their options and their words
expect "compare completion" comp
expect "matrix" ma
expect "--by" report --b
expect "kernel" report --by k
expect "window,window window,window+fadvise" matrix --strategies window,wi
expect "mq-deadline" matrix --schedulers mq
expect "--run" verify --r
expect "bash zsh" completion ""
expect "results/run1.json results/run2.json" compare results/run

# every option --help lists is offered, for the run and each subcommand
for cmd in "" compare report matrix verify completion; do
	# shellcheck disable=SC2086 # "" is no word: the run's own --help
	ws $cmd --help
	assert_status 0
	offered=$(complete_words $cmd --)
	opts=$(grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' "$OUT" | sed 's/.*--/--/' | sort -u)
	[ -n "$opts" ] || fail "no option in writestress $cmd --help"
	for o in $opts; do
		printf '%s\n' "$offered" | grep -qx -- "$o" ||
			fail "writestress $cmd $o is in --help but not offered by completion"
	done
	echo "  writestress $cmd: the $(echo "$opts" | wc -l) options of --help are offered"
done

# a shell it does not write for, none, or two: a usage error naming the
# value and the shells (t_completion_zsh.sh tests the zsh script)
ws completion fish
assert_usage_error "writestress: completion: invalid SHELL 'fish'" \
	"Try 'writestress completion --help' for more information." "the shells are bash and zsh" "completion fish"
ws completion
assert_usage_error "writestress: completion: missing SHELL" \
	"Try 'writestress completion --help' for more information." "bash or zsh" "completion"
ws completion bash zsh
assert_usage_error "writestress: completion: unexpected operand 'zsh'" \
	"Try 'writestress completion --help' for more information." "one SHELL, bash or zsh" "completion bash zsh"
assert_dir_only "$WORK" results
