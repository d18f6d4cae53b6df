"""Check writestress matrix --svg output as a reader sees it.

    matrix_svg.py FILE.svg

Fails (exit 1, saying what) unless: no two texts' boxes meet (point
labels, tick labels, the target's, the legend's; a box is the font size
times 0.6 per character wide, 0.75 of it above the baseline and 0.21
below, as a sans-serif renders); a legend says what the two dot sizes
mean, beside dots of those two sizes; and the rotated y-axis title's box
clears every tick label's.  Prints what it measured.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
EM_PER_CHAR = 0.6
SIZES = {"l": 11, "tick": 11, "t": 14}	# px, the plot's CSS; else 12


def box(x, y, size, text, anchor):
    w = len(text) * size * EM_PER_CHAR
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (x0, y - 0.75 * size, x0 + w, y + 0.21 * size)


def meet(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def main():
    root = ET.parse(sys.argv[1]).getroot()
    texts, title, bad = [], None, []
    for t in root.iter(NS + "text"):
        cls = t.get("class", "")
        size = SIZES.get(cls, 12)
        s = "".join(t.itertext())
        x, y = float(t.get("x")), float(t.get("y"))
        rot = re.match(r"rotate\(-90 ", t.get("transform", ""))
        if rot:	# its width runs up the page, centred on y
            w = len(s) * size * EM_PER_CHAR
            title = (s, (x - 0.75 * size, y - w / 2, x + 0.21 * size, y + w / 2))
            continue
        texts.append((cls, s, box(x, y, size, s, t.get("text-anchor", "start"))))
    for i, (ci, si, bi) in enumerate(texts):
        for cj, sj, bj in texts[i + 1:]:
            if meet(bi, bj):
                bad.append(f"'{si}' ({ci}) meets '{sj}' ({cj})")
    radii = {float(c.get("r")) for c in root.iter(NS + "circle")}
    words = [s for _, s, _ in texts]
    legend = "on the Pareto front" in words and "off it" in words and len(radii) >= 2
    if not legend:
        bad.append(f"no legend for the dots' sizes (radii {sorted(radii)})")
    ticks = [b for c, _, b in texts if c == "tick"]
    if title is None:
        bad.append("no y-axis title")
    else:
        for b in ticks:
            if meet(title[1], b):
                bad.append(f"the y-axis title '{title[0]}' meets a tick label at y {b[1]:.0f}")
    print(f"  svg: {len(texts)} texts, {len(ticks)} tick labels, dot radii {sorted(radii)}, "
          f"legend {legend}, y title {title and title[0]!r}")
    for b in bad:
        print("  BAD:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
