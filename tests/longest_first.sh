# shellcheck shell=bash
# longest_first.sh - sourced by both test runners.  longest_first FILE
# prints its input's lines (each a test's or a suite's name, then words
# of the runner's own) in the order they start: longest first by FILE's
# times ("NAME SECONDS" lines, # comments; a name not listed there is
# taken as long), ties by name.  Only the order, so that no long one
# starts last and runs alone at the end.
longest_first()
{
	awk 'NR == FNR { if ($1 !~ /^#/) secs[$1] = $2; next }
		{ print ($1 in secs ? secs[$1] : 999), $0 }' "$1" - |
		LC_ALL=C sort -k1,1gr -k2,2 | cut -d' ' -f2-
}
