#!/usr/bin/env python3
"""perf/structural.py [GDLOG] -- the AAAI-2006 competition games (symbol-
scrambled) grouped into classes of the same game up to renaming, and each
class matched to its original among the corpus games, by the canonical hash
of the rule graph (gdlog canon).  Every pair the hashes call the same game
is confirmed with `gdlog equiv --structural` (the renaming found, then 10
random playouts of the renamed game beside the other).  A class with no
match is compared again without the base and input rules (--no-declarations:
they declare fluents and moves, and versions of a game often differ there
only).

Reads ../shared/games/{kif_comp2006,kif,kif_versions} beside the
repository.  Prints a markdown table: per class, its games, the originals
with the same hash, and whether equiv confirmed each pair.
"""
import collections
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GDLOG = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', 'build', 'gdlog')
GAMES = os.path.join(HERE, '..', '..', 'shared', 'games')


def canon(path, *flags):
    """The canonical hash of a game, or None when gdlog refuses it."""
    r = subprocess.run([GDLOG, 'canon', '--no-warnings', *flags, path], capture_output=True, text=True, timeout=120)
    return r.stdout.split()[0] if r.returncode == 0 and r.stdout else None


def confirmed(a, b, *flags):
    """'yes' when equiv --structural agrees on a and b, else its last line."""
    r = subprocess.run([GDLOG, 'equiv', '--structural', '--no-warnings', *flags, a, b], capture_output=True,
                       text=True, timeout=600)
    if r.returncode == 0:
        return 'yes'
    lines = (r.stdout + r.stderr).strip().splitlines()
    return 'no: ' + (lines[-1] if lines else 'status %d' % r.returncode)


def games(folder):
    root = os.path.join(GAMES, folder)
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if f.endswith('.kif'):
                yield os.path.join(dirpath, f)


def main():
    if not os.access(GDLOG, os.X_OK) or not os.path.isdir(GAMES):
        sys.exit('structural.py: needs %s and %s' % (GDLOG, GAMES))
    classes = collections.defaultdict(list)
    for f in games('kif_comp2006'):
        classes[canon(f)].append(f)
    originals = collections.defaultdict(list)
    bare = collections.defaultdict(list)  # without base and input rules
    for folder in ('kif', 'kif_versions'):
        for f in games(folder):
            originals[canon(f)].append(f)
            bare[canon(f, '--no-declarations')].append(f)
    rel = lambda f: os.path.relpath(f, GAMES)
    print('| class (canonical hash) | competition games | same game in the corpus | equiv --structural |')
    print('|---|---|---|---|')
    matched = matched_bare = 0
    for h, members in sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[1][0])):
        checks = [confirmed(members[0], m) for m in members[1:]]
        found = originals.get(h, []) if h else []
        checks += [confirmed(members[0], o) for o in found]
        shown = ', '.join(rel(o) for o in found)
        if h and not found:
            found = bare.get(canon(members[0], '--no-declarations'), [])
            checks += [confirmed(members[0], o, '--no-declarations') for o in found]
            shown = ', '.join(rel(o) + ' (without base and input)' for o in found)
            matched_bare += bool(found)
        else:
            matched += bool(found)
        names = ', '.join(os.path.basename(m) for m in members)
        print('| %s | %s | %s | %s |' % (h or 'refused', names, shown or '-', '; '.join(checks) or '-'))
    print()
    print('%d competition games in %d classes; %d classes matched to a corpus game, %d more without base and input'
          % (sum(len(m) for m in classes.values()), len(classes), matched, matched_bare))


if __name__ == '__main__':
    main()
