#!/usr/bin/env python3
"""layers.py [--draw] [ROOT] - hold every #include in ROOT's src/ and
include/ to the rule the folders' READMEs state.

A layer is a folder of src/ holding sources (src/engine, src/cmd/compare);
its public headers are in include/LAYER/, its internal ones beside its
sources.  Each layer's README.md says, on one line,

    May include: lib, config, record

(or "May include: nothing") - the other layers its files may include.
That line is the rule, written once; this script reads it and fails on:

  - an include of a layer the including one may not include;
  - an include of another layer's internal header (src/LAYER/x.h);
  - a header that is neither in the layer's folder nor in include/;
  - "../" in an include, or a layer without a README or its rule;
  - a circle in the rules themselves (the layers must stack into floors);
  - a coupling the includes cannot show (COUPLINGS: lib naming a run's
    concepts, the recorder reading the engine's tables or a snapshot's
    fields).

--draw prints the floors (each layer above everything it includes), how
many files each has and the arrows between layers, so the house can be
drawn again.  --objects DIR (a build's obj/ tree) adds the rooms: one
per object file, an arrow where one calls a function or reads a table
another defines (nm(1)), and fails on a circle among them (two files that
call each other, however far round).
Exit status 0 (clean), 1 (a violation), 2 (usage).
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
RULE = re.compile(r'^May include:\s*(.*?)\s*$', re.M)


def layers_of(root):
    """{layer: set of .c/.h files of src/LAYER (not of sub-layers)}."""
    out = {}
    src = os.path.join(root, 'src')
    for dp, _, fn in os.walk(src):
        files = [f for f in fn if f.endswith(('.c', '.h'))]
        if files:
            out[os.path.relpath(dp, src)] = set(files)
    return out


def rules_of(root, layers, errors):
    rules = {}
    for layer in sorted(layers):
        readme = os.path.join(root, 'src', layer, 'README.md')
        try:
            text = open(readme, encoding='utf-8').read()
        except OSError:
            errors.append(f'src/{layer}: no README.md stating what it may include')
            continue
        m = RULE.search(text)
        if not m:
            errors.append(f'src/{layer}/README.md: no "May include:" line')
            continue
        words = [w.strip() for w in m.group(1).rstrip('.').split(',')]
        allowed = set() if words == ['nothing'] else set(words)
        for w in sorted(allowed - set(layers)):
            errors.append(f'src/{layer}/README.md: "{w}" is no layer')
        rules[layer] = allowed & set(layers)
    return rules


def floors(rules, errors):
    """Each layer's floor: 0 for one that includes nothing, else one above
    the highest it may include.  A circle is an error."""
    floor, busy = {}, set()

    def visit(layer, path):
        if layer in floor:
            return floor[layer]
        if layer in busy:
            i = path.index(layer)
            errors.append('circle in the rules: ' + ' -> '.join(path[i:] + [layer]))
            return 0
        busy.add(layer)
        f = 1 + max((visit(d, path + [layer]) for d in rules.get(layer, ())), default=-1)
        busy.discard(layer)
        floor[layer] = f
        return f

    for layer in sorted(rules):
        visit(layer, [])
    return floor


def rooms(root, layer, layers):
    pub = os.path.join(root, 'include', layer)
    return len(layers[layer]) + (len([f for f in os.listdir(pub) if f.endswith('.h')])
                                 if os.path.isdir(pub) else 0)


def header_layer(root, layers, inc):
    """The layer whose public header INC ("engine/writer.h") is, or None."""
    d = os.path.dirname(inc)
    if d in layers and os.path.isfile(os.path.join(root, 'include', inc)):
        return d
    return None


# Couplings the include rules cannot see: a layer that names what it must
# not know of, though the header it would come from is allowed.
COUPLINGS = [
    ('lib', re.compile(r'\b(ws_timer|ws_stop_reason|ws_block_state|WS_T_[A-Z]+|WS_STOP_[A-Z_]+)\b'),
     "lib knows nothing of a run: the writer's timers, how a run stops and "
     "what a block read back is are record/kinds.h's"),
    ('recorder', re.compile(r'\bpace_modes\[|\bsnap->|\bprobe_kinds\['),
     "the recorder builds the record from facts handed to it: the engine's "
     "tables are the job's to read at setup, the snapshot is read through "
     "its accessors (engine/snapshot.h)"),
]


def couplings(layer, rel, text, errors):
    for who, pattern, why in COUPLINGS:
        if layer != who:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            m = pattern.search(line)
            if m:
                errors.append(f'{rel}:{n}: "{m.group(0)}": {why}')


def check(root, draw):
    errors = []
    layers = layers_of(root)
    rules = rules_of(root, layers, errors)
    floor = floors(rules, errors)
    arrows = {}
    files = []
    for layer in layers:
        files += [(layer, os.path.join('src', layer, f)) for f in layers[layer]]
    for dp, _, fn in os.walk(os.path.join(root, 'include')):
        layer = os.path.relpath(dp, os.path.join(root, 'include'))
        for f in fn:
            if not f.endswith('.h'):
                continue
            if layer not in layers:
                errors.append(f'include/{layer}/{f}: include/{layer} is no layer of src/')
                continue
            files.append((layer, os.path.join('include', layer, f)))
    for layer, rel in sorted(files):
        text = open(os.path.join(root, rel), encoding='utf-8').read()
        couplings(layer, rel, text, errors)
        for n, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc, where = m.group(1), f'{rel}:{n}'
            if '..' in inc.split('/'):
                errors.append(f'{where}: "{inc}": no ../ in includes')
                continue
            if '/' not in inc:
                # an internal header, beside the including file
                if not os.path.isfile(os.path.join(root, os.path.dirname(rel), inc)):
                    errors.append(f'{where}: "{inc}" is not beside {rel}; '
                                  f'another layer\'s header is included as "LAYER/{inc}"')
                continue
            target = header_layer(root, layers, inc)
            if target is None:
                if os.path.isfile(os.path.join(root, 'src', inc)):
                    errors.append(f'{where}: "{inc}" is internal to src/{os.path.dirname(inc)}; '
                                  f'only its include/ headers are for other layers')
                else:
                    errors.append(f'{where}: "{inc}" is no public header (include/LAYER/NAME.h)')
                continue
            if target == layer:
                continue
            arrows.setdefault((layer, target), []).append(where)
            if target not in rules.get(layer, set()):
                errors.append(f'{where}: {layer} may not include {target} '
                              f'("{inc}"; src/{layer}/README.md: May include: '
                              f'{", ".join(sorted(rules.get(layer, []))) or "nothing"})')
    if draw:
        for f in sorted(set(floor.values()), reverse=True):
            row = sorted(l for l in floor if floor[l] == f)
            print(f'floor {f}: ' + ', '.join(f'{l} ({rooms(root, l, layers)} files)' for l in row))
        up = [(a, b) for (a, b) in arrows if floor.get(b, 0) >= floor.get(a, 0)]
        print(f'{len(layers)} layers on {len(set(floor.values()))} floors, '
              f'{len(arrows)} arrows between them '
              f'({sum(len(v) for v in arrows.values())} includes), '
              f'{len(up)} running up or sideways')
        for a, b in sorted(arrows):
            print(f'  {a} -> {b} ({len(arrows[(a, b)])})')
    for e in errors:
        print(f'layers: {e}', file=sys.stderr)
    return 1 if errors else 0


def room_arrows(objdir):
    """{room: set of rooms it uses}, a room being an object file under
    OBJDIR named by its path ("engine/writer")."""
    objs = sorted(os.path.join(dp, f) for dp, _, fn in os.walk(objdir)
                  for f in fn if f.endswith('.o'))
    defined, used = {}, {}
    if not objs:
        return {}
    # one nm for them all: "FILE:VALUE TYPE NAME" or "FILE:  U NAME"
    out = subprocess.run(['nm', '-A'] + objs, capture_output=True, text=True,
                         check=True).stdout
    for o in objs:
        used[os.path.relpath(o, objdir)[:-2]] = set()
    for line in out.splitlines():
        path, _, rest = line.partition('.o:')
        path += '.o'
        room = os.path.relpath(path, objdir)[:-2]
        p = rest.split()
        if len(p) == 3 and p[1] in 'TDRB':
            defined[p[2]] = room
        elif len(p) == 2 and p[0] == 'U':
            used[room].add(p[1])
    return {r: {defined[s] for s in syms if s in defined and defined[s] != r}
            for r, syms in used.items()}


def circles(arrows):
    """The strongly connected groups of more than one room (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(arrows.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(arrows):
        if v not in index:
            visit(v)
    return out


def check_rooms(objdir):
    arrows = room_arrows(objdir)
    found = circles(arrows)
    print(f'{len(arrows)} rooms, {sum(len(a) for a in arrows.values())} arrows '
          f'between them, {len(found)} circles')
    for c in found:
        print('layers: circle of calls: ' + ' <-> '.join(c), file=sys.stderr)
    return 1 if found else 0


def main(argv):
    args, draw, objdir = list(argv), False, None
    if '--draw' in args:
        args.remove('--draw')
        draw = True
    if '--objects' in args:
        i = args.index('--objects')
        if i + 1 >= len(args):
            args.append('-')
        else:
            objdir = args.pop(i + 1)
        args.pop(i)
    if len(args) > 1 or any(a.startswith('-') for a in args) or (objdir and not os.path.isdir(objdir)):
        print('usage: layers.py [--draw] [--objects DIR] [ROOT]', file=sys.stderr)
        return 2
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    status = check(root, draw)
    if objdir:
        status = max(status, check_rooms(objdir))
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
