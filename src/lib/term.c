/* term.c - what a terminal can take. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/term.h"

unsigned int term_columns(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) || !ws.ws_col)
		return 0;
	return ws.ws_col;
}

bool term_wants_colour(enum ws_colour mode, FILE *out)
{
	const char *no_colour = getenv("NO_COLOR"), *term = getenv("TERM");

	if (mode != WS_COLOUR_AUTO)
		return mode == WS_COLOUR_ALWAYS;
	if (no_colour && *no_colour)
		return false;
	return isatty(fileno(out)) && term && *term && strcmp(term, "dumb");
}

size_t term_width(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] == '\033') {	/* CSI ... final byte in @..~ */
			if (i + 1 < n && s[i + 1] == '[')
				for (i += 2; i < n && s[i] &&
				     !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e); i++)
					;
			continue;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	}
	return w;
}

/* Under the text after a label (blanks, a word, 2+ blanks), else two in. */
static size_t hanging_indent(const char *line, size_t n)
{
	size_t i = strspn(line, " ");

	if (i < n && i <= 4) {
		size_t word = i + strcspn(line + i, " \n");
		size_t gap = strspn(line + word, " ");

		if (gap >= 2 && word + gap < n)
			return term_width(line, word + gap);
	}
	return i + 2;
}

static void wrap_line(FILE *out, const char *line, size_t n, unsigned int cols)
{
	size_t indent = hanging_indent(line, n), room = cols;

	if (indent * 2 > cols)	/* a label wider than half the room */
		indent = 2;
	for (;;) {
		size_t cut = 0, after = 0;

		if (term_width(line, n) <= room) {
			fwrite(line, 1, n, out);
			break;
		}
		/* the last blank that fits, not one between a number and its unit */
		for (size_t i = 1; i < n && term_width(line, i) <= room; i++)
			if (line[i] == ' ' && line[i - 1] != ' ' && !isdigit((unsigned char)line[i - 1]))
				cut = i;
		if (!cut) {	/* one long word: whole, on its own */
			cut = strspn(line, " ");
			cut += strcspn(line + cut, " ");
			if (cut >= n) {
				fwrite(line, 1, n, out);
				break;
			}
		}
		fwrite(line, 1, cut, out);
		after = cut + strspn(line + cut, " ");
		if (after >= n)
			break;
		fprintf(out, "\n%*s", (int)indent, "");
		line += after;
		n -= after;
		room = cols - indent;
	}
	fputc('\n', out);
}

void term_wrap(FILE *out, const char *text, unsigned int cols)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		if (cols)
			wrap_line(out, text, n, cols);
		else
			fprintf(out, "%.*s\n", (int)n, text);
		text += n + (text[n] == '\n');
	}
}
