/* term.h - a terminal's width and colour, UTF-8 text width, word wrap.
 * Pure but for term_columns (ioctl) and term_wants_colour (environ).
 */
#ifndef WS_TERM_H
#define WS_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* --color */
enum ws_colour {
	WS_COLOUR_AUTO,
	WS_COLOUR_NEVER,
	WS_COLOUR_ALWAYS,
};

#define TERM_RED	"\033[31m"
#define TERM_BOLD_RED	"\033[1;31m"
#define TERM_RESET	"\033[0m"

/* 0 if OUT has no terminal or it does not say. */
unsigned int term_columns(FILE *out);

/* auto: OUT is a terminal, not "dumb", and NO_COLOR is unset or empty. */
bool term_wants_colour(enum ws_colour mode, FILE *out);

/* One column a character (all writestress prints are narrow), none for
 * an escape sequence. */
size_t term_width(const char *s, size_t n);

/* cols 0: as is.  A line goes on under its label's text, else two
 * columns in; no word is cut, no number parted from its unit. */
void term_wrap(FILE *out, const char *text, unsigned int cols);

#endif
