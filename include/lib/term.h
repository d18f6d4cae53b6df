/* term.h - what a terminal can take: its width, whether it wants colour,
 * how wide a UTF-8 text is on it, and long lines broken at word
 * boundaries to fit it.  Pure but for term_columns() (an ioctl) and
 * term_wants_colour() (the environment); any thread.
 */
#ifndef WS_TERM_H
#define WS_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* --color: when the live line may paint stalls red */
enum ws_colour {
	WS_COLOUR_AUTO,		/* a terminal that takes it, no NO_COLOR */
	WS_COLOUR_NEVER,
	WS_COLOUR_ALWAYS,
};

/* SGR codes: stalls are red */
#define TERM_RED	"\033[31m"
#define TERM_BOLD_RED	"\033[1;31m"
#define TERM_RESET	"\033[0m"

/* Columns of OUT's terminal, 0 if it has none or does not say. */
unsigned int term_columns(FILE *out);

/* --color: always; never; auto: OUT is a terminal that is not "dumb"
 * and NO_COLOR is unset or empty (https://no-color.org). */
bool term_wants_colour(enum ws_colour mode, FILE *out);

/* Characters a terminal shows for the first N bytes of UTF-8 text S:
 * one per character (every character writestress prints takes one
 * column), none for an escape sequence. */
size_t term_width(const char *s, size_t n);

/* Print TEXT (lines ending in '\n') so that no line is wider than COLS
 * (0: as it is).  A longer line breaks at its last blank that fits and
 * goes on under its own text: after a label ("  device   ...", two or
 * more blanks after the first word) at the label's column, else two
 * columns in.  A number keeps its unit ("77.9 GiB" is never split).  A word wider than the room goes on a line of its own,
 * whole: never is a word or a number cut. */
void term_wrap(FILE *out, const char *text, unsigned int cols);

#endif
