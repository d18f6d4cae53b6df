"""Hold every figure the docs state about writestress's behaviour to what
a named test asserts, or to what bench/results/ measured.

usage: claims.py ROOT   (the source tree; reads ROOT/tests/claims.tsv)

Each row of claims.tsv (tab-separated, '#' comments) is one figure:

  id  DOC  DOC_RE  SOURCE  SOURCE_RE

DOC is README.md, man/writestress.1, tests/README.md or bench/README.md;
DOC_RE a Python regular expression that must match the doc exactly once
(after roff's escapes and line breaks are undone, and white space runs
made one space), its groups the figures.  SOURCE is a test (a path under
tests/) or a kept measurement (under bench/results/); SOURCE_RE must match
it exactly once, its groups the same figures, equal as numbers.  A test
must be named within 600 characters of the figure in the doc (its file
name without .sh or .c, or with it), a measurement by its path.  A kept
measurement must say the command and the commit that made it (a line
"# command: ..." and one "# commit: HASH", a tree with no change beside
it).  Prints one line a problem and
"claims: N figures held ..."; exits 1 on any problem.
"""
import os
import re
import sys


def plain_roff(text):
    """man page text as a reader sees it, near enough to match phrases"""
    out = []
    for line in text.splitlines():
        if line.startswith('.\\"'):
            continue
        m = re.match(r"^\.(B|I|BR|RB|BI|IB|IR|RI)\s+(.*)", line)
        if m:
            # alternating fonts join their words; one font keeps its spaces
            words = [a or b for a, b in re.findall(r'"([^"]*)"|(\S+)', m.group(2))]
            line = ("" if len(m.group(1)) == 2 else " ").join(words)
        elif line.startswith("."):
            line = re.sub(r"^\.\S+\s*", "", line)
        line = line.replace("\\-", "-").replace("\\~", " ").replace("\\(mu", "×")
        line = line.replace("\\(em", "—").replace("\\(en", "–").replace("\\&", "")
        line = re.sub(r"\\f[BIRP]", "", line)
        line = line.replace('"', "")
        out.append(line)
    return " ".join(out)


def normal(text):
    return re.sub(r"\s+", " ", text)


def load(root, path, cache={}):
    if path not in cache:
        text = open(os.path.join(root, path), encoding="utf-8").read()
        if path.endswith(".1"):
            text = plain_roff(text)
        cache[path] = normal(text)
    return cache[path]


def numbers(m):
    """the figures a match holds: a group named frac... is a fraction the
    doc gives as a percentage (0.1: 10), one named over... a factor it
    gives as the percentage over (1.1: 10)"""
    names = {i: n for n, i in m.re.groupindex.items()}
    out = []
    for i, g in enumerate(m.groups(), 1):
        v = float(g.replace(",", ""))
        if names.get(i, "").startswith("frac"):
            v *= 100
        elif names.get(i, "").startswith("over"):
            v = (v - 1) * 100
        out.append(round(v, 9))
    return out


# Example blocks that are lines of a kept measurement: (doc, the heading
# above the block, the measurement); every line of the block must be a
# line of it.
VERBATIM = [("bench/README.md", "## How to read the table", "bench/results/latest.txt"),
            ("README.md", "`sh bench/matrix-rig.sh`", "bench/results/matrix-rig.txt")]


def verbatim(root, bad):
    held = 0
    for doc, heading, src in VERBATIM:
        text = open(os.path.join(root, doc), encoding="utf-8").read()
        at = text.find(heading)
        block = re.search(r"```\n(.*?)```", text[at:], re.S) if at >= 0 else None
        if not block:
            bad.append(f"{doc}: no example block under {heading!r}")
            continue
        try:
            lines = set(open(os.path.join(root, src), encoding="utf-8").read().splitlines())
        except OSError as e:
            bad.append(f"{doc}: {src}: {e}")
            continue
        for line in block.group(1).splitlines():
            if line.strip() and line not in lines:
                bad.append(f"{doc}: the example line {line[:60]!r}... is not a line of {src}")
            else:
                held += 1
    return held


def main(root):
    bad, held, sources = [], 0, set()
    rows = open(os.path.join(root, "tests", "claims.tsv"), encoding="utf-8")
    for n, line in enumerate(rows, 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 5:
            bad.append(f"claims.tsv:{n}: {len(f)} fields, not 5")
            continue
        cid, doc, doc_re, src, src_re = f
        try:
            text = load(root, doc)
        except OSError as e:
            bad.append(f"{cid}: {doc}: {e}")
            continue
        found = list(re.finditer(doc_re, text))
        if len(found) != 1:
            bad.append(f"{cid}: {doc} states /{doc_re}/ {len(found)} times, not once")
            continue
        m = found[0]
        try:
            stext = load(root, src)
        except OSError as e:
            bad.append(f"{cid}: {src}: {e}")
            continue
        sfound = list(re.finditer(src_re, stext))
        if len(sfound) != 1:
            bad.append(f"{cid}: {src} holds /{src_re}/ {len(sfound)} times, not once")
            continue
        a, b = numbers(m), numbers(sfound[0])
        if len(a) != len(b) or any(abs(x - y) > 1e-9 * max(1, abs(y)) for x, y in zip(a, b)):
            bad.append(f"{cid}: {doc} says {m.group(0)!r} ({a}), {src} holds {sfound[0].group(0)!r} ({b})")
            continue
        name = os.path.basename(src)
        names = {name, os.path.splitext(name)[0]} if src.startswith("tests/") else {src}
        near = text[max(0, m.start() - 600):m.end() + 600]
        if not any(x in near for x in names):
            bad.append(f"{cid}: {doc}: the figure {m.group(0)!r} does not name {src} beside it")
            continue
        if src.startswith("bench/results/"):
            raw = open(os.path.join(root, src), encoding="utf-8").read()
            if not re.search(r"^# command: \S", raw, re.M) or not re.search(r"^# commit: [0-9a-f]{7,}$", raw, re.M):
                bad.append(f"{cid}: {src} does not say its command and commit")
                continue
        held += 1
        sources.add(src)
    held += verbatim(root, bad)
    for b in bad:
        print("claims:", b)
    print(f"claims: {held} figures held to {len(sources)} tests and measurements, {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
