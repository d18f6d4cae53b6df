#!/usr/bin/env zsh
# complete.zsh FPATH DIR LINE: what zsh's own completion offers at the
# end of LINE, in DIR, in an interactive zsh (zsh/zpty gives it the
# terminal ZLE needs) whose completion system (compinit) finds its
# functions in the directory FPATH first; or, FPATH a file, with that
# file sourced after compinit (source <(writestress completion zsh)).
#
# Nothing is typed into the terminal: a line typed there races the
# shell's start-up (one run in twenty completed nothing), so the shell's
# own setup (ZDOTDIR's .zshrc, -d: no /etc/zsh/zshrc) puts LINE in the
# editor when it starts (zle-line-init) and completes it, as Tab would.
# compadd, which every completion function ends in, is wrapped: it adds
# its matches as usual and also prints each one that matched, with its
# description, as "MATCH<TAB>DESCRIPTION" (MATCH as it would stand on
# the line: "--pace=adaptive", "fsync,save").  Anything else the shell
# printed meanwhile (an error of a completion function) is printed as
# "!LINE".  The shell exits once the completion is done; exit 2 if it
# never said it was.  (zsh-capture-completion's technique.)
emulate -L zsh
zmodload zsh/zpty || exit 3
(( $# == 3 )) || { print -u2 "usage: complete.zsh FPATH|FILE DIR LINE"; exit 2 }
local fp=$1 dir=$2 line=$3 home
home=$(mktemp -d "${TMPDIR:-/tmp}/ws-zsh.XXXXXX") || exit 3
trap 'rm -rf $home' EXIT

# the interactive shell's setup; \x01 starts every line meant for us
cat >$home/.zshrc <<'RC'
PS1= PS2= RPS1=
unsetopt beep
# wide: a description is not cut to the terminal
stty columns 250
cd "$WS_DIR" || exit 3
[[ -d $WS_FPATH ]] && fpath=("$WS_FPATH" $fpath)
autoload -Uz compinit && compinit -u -D
[[ -f $WS_FPATH ]] && source "$WS_FPATH"
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
_ws_start() { print -rn -- $'\n\x01START\n' }
_ws_end() { print -rn -- $'\n\x01END\n' }
compprefuncs=(_ws_start)
comppostfuncs=(_ws_end exit)
compadd()
{
	# a call that only asks (-O, -A, -D: into an array) is not an offer
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
		builtin compadd "$@"
		return
	fi
	local -a __hits __dscr
	local -A __o
	local __i __d
	if (( $@[(I)-d] )); then
		__d=${@[$@[(i)-d]+1]}
		if [[ $__d == \(* ]]; then eval "__dscr=$__d"; else __dscr=("${(@P)__d}"); fi
	fi
	builtin compadd -A __hits -D __dscr "$@"
	zparseopts -A __o -E P: p: -
	(( $#__hits )) && for __i in {1..$#__hits}; do
		print -r -- $'\x01'"$IPREFIX${__o[-P]}${__o[-p]}$__hits[__i]"$'\t'"$__dscr[__i]"
	done
	builtin compadd "$@"
}
_ws_complete()
{
	BUFFER=$WS_LINE
	CURSOR=$#BUFFER
	zle complete-word
}
zle -N zle-line-init _ws_complete
RC

zpty ws "ZDOTDIR=${(q)home} WS_FPATH=${(q)fp} WS_DIR=${(q)dir} WS_LINE=${(q)line} zsh -d -i" || exit 3
local out chunk
while zpty -r ws chunk; do
	out+=$chunk
	[[ $out == *$'\x01END'* ]] && break
done
zpty -d ws
[[ $out == *$'\x01END'* ]] || { print -r -- "!no end of completion: $out"; exit 2 }

local l in=0
for l in "${(@f)${out//$'\r'/}}"; do
	case $l in
	*$'\x01START') in=1 ;;
	*$'\x01END') in=0 ;;
	*$'\x01'*) (( in )) && print -r -- "${l##*$'\x01'}" ;;
	*)
		# the terminal's escapes and blanks are not output
		l=${l//$'\e'\[[0-9;?]#[a-zA-Z]/}
		l=${l//[[:space:]]/}
		(( in )) && [[ -n $l ]] && print -r -- "!$l"
		;;
	esac
done
exit 0
