#!/usr/bin/env python3
"""lean.py - the weight rules of the source tree, checked.

    lean.py arrays BINARY...   no struct member of the binaries (their DWARF,
                               read by pahole) is a fixed array over 64 KiB:
                               what grows with a run lives on the heap,
                               bounded, and what does not is small
    lean.py lines ROOT         no .c or .h under ROOT/src and ROOT/include
                               is over 600 lines
    lean.py comments ROOT      comments are at most 15% of the bytes of those
                               files, and none trails a line of code only to
                               restate it (see restates())

Each prints one line per violation (where, what, the rule) and exits 1 if
there is one, 0 if none, 2 if it cannot judge (no pahole, no debug info).
The limits are the issue's (#39) and are written here once.
"""
import os
import re
import subprocess
import sys

MAX_ARRAY = 64 * 1024
MAX_LINES = 600
MAX_COMMENT_PCT = 15.0

MEMBER = re.compile(r'^\s+(?P<decl>[^/]*\[[^/]*\];)\s*/\*\s*(?P<off>\d+)\s+(?P<size>\d+)\s*\*/')
STRUCT = re.compile(r'^struct (?P<name>\w+) \{')


def arrays(binaries):
    bad = []
    seen = 0
    for b in binaries:
        try:
            out = subprocess.run(['pahole', b], capture_output=True, text=True,
                                 check=False).stdout
        except FileNotFoundError:
            print('lean: pahole not found (Debian: dwarves)', file=sys.stderr)
            return 2
        name = None
        for line in out.splitlines():
            m = STRUCT.match(line)
            if m:
                name = m.group('name')
                seen += 1
                continue
            m = MEMBER.match(line)
            if m and name and int(m.group('size')) > MAX_ARRAY:
                decl = ' '.join(m.group('decl').split())
                bad.append(f'{b}: struct {name}: {decl} is {int(m.group("size"))} bytes: '
                           f'no fixed array over {MAX_ARRAY // 1024} KiB '
                           '(grow it on the heap, bounded)')
    if not seen:
        print('lean: pahole found no structs: no debug info?', file=sys.stderr)
        return 2
    for line in sorted(set(bad)):
        print(line)
    return 1 if bad else 0


def sources(root):
    for top in ('src', 'include'):
        for dp, dirs, fn in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(fn):
                if f.endswith(('.c', '.h')):
                    yield os.path.join(dp, f)


def lines(root):
    bad = 0
    for p in sources(root):
        with open(p, encoding='utf-8', errors='replace') as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            print(f'{os.path.relpath(p, root)}: {n} lines: no file over {MAX_LINES}')
            bad += 1
    return 1 if bad else 0


def comment_spans(text):
    """(start, end) of every comment outside string and character literals."""
    i, n, quote = 0, len(text), None
    while i < n:
        c = text[i]
        if quote:
            if c == '\\':
                i += 2
                continue
            if c == quote or c == '\n':
                quote = None
            i += 1
        elif c in '"\'':
            quote = c
            i += 1
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            yield i, j
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            yield i, j
            i = j
        else:
            i += 1


WORD = re.compile(r'[a-z][a-z0-9]+')
# words that carry no meaning of their own: a comment made of the line's
# names and these says nothing the line does not
GLUE = {'the', 'and', 'for', 'its', 'this', 'that', 'with', 'from', 'into',
        'one', 'all', 'are', 'was', 'has', 'have', 'our', 'each'}


def restates(code, comment):
    """A trailing comment restates its line when every word of it longer
    than two letters is a word of the code: '/* free the buffer */' after
    'free(buffer);' tells the reader nothing the line does not."""
    words = [w for w in WORD.findall(comment.lower()) if len(w) > 2 and w not in GLUE]
    if not words:
        return False
    have = set(WORD.findall(code.lower().replace('_', ' ')))
    return all(w in have or w.rstrip('s') in have for w in words)


def comments(root):
    total = inside = 0
    bad = 0
    for p in sources(root):
        with open(p, encoding='utf-8', errors='replace') as f:
            text = f.read()
        total += len(text)
        for s, e in comment_spans(text):
            inside += e - s
            start = text.rfind('\n', 0, s) + 1
            code = text[start:s]
            if code.strip() and '\n' not in text[s:e] and restates(code, text[s:e]):
                line = text.count('\n', 0, s) + 1
                print(f'{os.path.relpath(p, root)}:{line}: "{text[s:e]}" restates its line')
                bad += 1
    pct = 100.0 * inside / total if total else 0.0
    print(f'comments: {inside} of {total} bytes, {pct:.1f}% (at most {MAX_COMMENT_PCT:.0f}%)')
    if pct > MAX_COMMENT_PCT:
        print(f'comments are {pct:.1f}% of the source: at most {MAX_COMMENT_PCT:.0f}%')
        bad += 1
    return 1 if bad else 0


def main(argv):
    if len(argv) < 3 or argv[1] not in ('arrays', 'lines', 'comments'):
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    if argv[1] == 'arrays':
        return arrays(argv[2:])
    return (lines if argv[1] == 'lines' else comments)(argv[2])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
