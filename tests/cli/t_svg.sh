# --svg FILE: one self-contained 1200x700 SVG plot, well-formed XML whose
# texts say what the run was (the path, XML-escaped: here 'a&b<c'), with
# the throughput and latency panels' labels; a 64 MiB run's bytes axis
# reads in MiB, and neither axis has a tick past the end of the run; an
# independent renderer (rsvg-convert) draws it at 1200x700 and not blank.
# A run ended by SIGINT still leaves a complete plot; --no-probe says so
# in the plot.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

need_cmd python3

# check_svg FILE PATH TEXT...: FILE is an svg root of 1200x700 without
# scripts or links, its title names PATH and some text holds each TEXT.
check_svg()
{
	tail -c 7 "$1" | grep -q '</svg>' || fail "$(basename "$1") does not end with </svg>"
	python3 - "$@" <<'EOF' || fail "$(basename "$1") is not the plot expected"
import sys
import xml.etree.ElementTree as ET

name, path, want = sys.argv[1], sys.argv[2], sys.argv[3:]
ns = '{http://www.w3.org/2000/svg}'

def die(msg):
    print(msg)
    sys.exit(1)

try:
    root = ET.parse(name).getroot()
except ET.ParseError as e:
    die('not well-formed XML: %s' % e)
if root.tag != ns + 'svg':
    die('the root is %s, not svg' % root.tag)
for k, v in (('viewBox', '0 0 1200 700'), ('width', '1200'), ('height', '700')):
    if root.get(k) != v:
        die('%s is %r, expected %r' % (k, root.get(k), v))
for el in root.iter():
    if el.tag in (ns + 'script', ns + 'image', ns + 'foreignObject') or \
            any(a.endswith('href') for a in el.attrib):
        die('not self-contained: %s %s' % (el.tag, el.attrib))
texts = [''.join(t.itertext()) for t in root.iter(ns + 'text')]
if not texts or not texts[0].startswith('writestress — ' + path + ' on '):
    die('the title is %r, expected it to name %r' % (texts[:1], path))
every = '\n'.join(texts)
for w in want:
    if w not in every:
        die('no text %r in the plot; its texts:\n%s' % (w, every))
for w in ('nan', 'inf'):
    if w in open(name, encoding='utf-8').read().lower():
        die('%r in the plot' % w)
EOF
}

# check_axes FILE MIB: the x axes of FILE end with its run: the top one,
# titled 'MiB written', has no tick past MIB; the bottom one none past
# the seconds the subtitle says the run took.
check_axes()
{
	python3 - "$@" <<'EOF' || fail "$(basename "$1"): an axis runs past the run"
import re
import sys
import xml.etree.ElementTree as ET

name, mib = sys.argv[1], float(sys.argv[2])
ns = '{http://www.w3.org/2000/svg}'
texts = list(ET.parse(name).getroot().iter(ns + 'text'))
every = [''.join(t.itertext()) for t in texts]
if 'MiB written' not in every or 'GiB written' in every:
    sys.exit('the bytes axis is not in MiB: %r' % every)
secs = float(re.search(r' written in ([0-9.]+) s ', '\n'.join(every)).group(1))
for y, end, what in (('349.0', mib, 'MiB'), ('643.0', secs + 0.005, 's')):
    ticks = [float(''.join(t.itertext())) for t in texts
             if t.get('class') == 'tick' and t.get('y') == y]
    if len(ticks) < 3 or max(ticks) > end:
        sys.exit('%s ticks %r: not within 0 to %g' % (what, ticks, end))
EOF
}

# rendered SVG: rsvg-convert draws it as a 1200x700 PNG with something on it
# (a blank canvas compresses to a few KB; the plot is tens of KB).
rendered()
{
	png=$TESTDIR/$1.png
	rsvg-convert -o "$png" "$WORK/$1" 2>"$TESTDIR/rsvg.err" ||
		fail "rsvg-convert cannot render $1: $(head -n 3 "$TESTDIR/rsvg.err")"
	sig=$(od -An -tu1 -N8 "$png" | tr -s ' ' | sed 's/^ //')
	assert_eq "137 80 78 71 13 10 26 10" "$sig" "PNG signature of $1 rendered"
	dims=$(od -An -tu1 -j16 -N8 "$png" |
		awk '{ printf "%dx%d\n", (($1 * 256 + $2) * 256 + $3) * 256 + $4,
					 (($5 * 256 + $6) * 256 + $7) * 256 + $8 }')
	assert_eq 1200x700 "$dims" "size of $1 rendered"
	assert_ge "$(stat -c %s "$png")" 15000 "bytes of $1 rendered (blank?)"
}

# a short paced run with probes, into a file whose name needs escaping
ws --size 64M -B 1M --rate 32M/s -i 100ms --probe-interval 50ms \
	--svg out.svg 'a&b<c'
assert_status 0
assert_exists "$WORK/out.svg"
check_svg "$WORK/out.svg" 'a&b<c' 'MiB/s' 'MiB written' 'stall ≥ 500 ms' \
	'seconds since start' 'fsync' '64.0 MiB written in '
check_axes "$WORK/out.svg" 64
assert_file_match "$WORK/out.svg" 'a&amp;b&lt;c on ' "the path escaped"
assert_file_no_match "$WORK/out.svg" 'a&b<c' "the path unescaped"
assert_dir_only "$WORK" 'a&b<c' out.svg

# SIGINT: the plot is still complete, and says how the run ended
ws_bg --rate 20M/s --size 1G -B 1M -i 100ms --probe-interval 50ms \
	--svg int.svg data
wait_for 10 "three interval lines" intervals_at_least 3
alive "$WS_PID" || fail "writestress ended before SIGINT was sent"
kill -s INT "$WS_PID"
ws_wait "$(scaled 5)"
assert_status 130
check_svg "$WORK/int.svg" data 'stopped by SIGINT' 'MiB/s' 'fsync'
assert_dir_only "$WORK" 'a&b<c' out.svg data int.svg

# no probes: the latency panel says why it is empty
ws --size 8M -B 1M -i 100ms --no-probe --svg np.svg data
assert_status 0
check_svg "$WORK/np.svg" data 'no probes (--no-probe)'

need_cmd rsvg-convert
rendered out.svg
rendered int.svg
rendered np.svg
