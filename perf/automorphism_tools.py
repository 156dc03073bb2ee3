#!/usr/bin/env python3
"""perf/automorphism_tools.py [GDLOG [DIR]] -- bliss against nauty on the
rule graphs gdlog symmetry searches, the measurement behind gdlog's choice
of bliss.

For every game of DIR (default ../shared/games/kif beside the repository):
`gdlog rulegraph --typed --format dimacs`, then the command-line tools of
both libraries on that directed coloured graph, each run as its own
process:
  bliss -directed FILE                 (Debian package bliss)
  dreadnaut, digraph mode, the colours as the initial partition, the
  vertex invariant `adjacencies` (as nauty's manual advises for
  digraphs; without it the search on tic-tac-toe's graph ran over 100 s),
  nauty                                (Debian package nauty)
It prints a markdown row per game: vertices, edges, each tool's own
figure for the search time (processor seconds, to 0.01 s) and its group
order, and whether the orders agree; a tool gets 10 s per graph.  With EVERY=N (default 1), only every N-th
game, in name order.  Then the
totals.  Needs both tools on PATH.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GDLOG = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', 'build', 'gdlog')
DIR = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, '..', '..', 'shared', 'games', 'kif')


def dreadnaut_input(dimacs):
    """The dreadnaut script of a DIMACS digraph: graph, partition, run."""
    n, colour, out = 0, {}, collections.defaultdict(list)
    for line in dimacs.splitlines():
        f = line.split()
        if f[0] == 'p':
            n = int(f[2])
        elif f[0] == 'n':
            colour[int(f[1]) - 1] = int(f[2])
        elif f[0] == 'e':
            out[int(f[1]) - 1].append(int(f[2]) - 1)
    lines = ['n=%d $=0 d -a -m g' % n]
    lines += ['%d: %s;' % (v, ' '.join(map(str, out[v]))) for v in range(n) if out[v]]
    lines.append('.')
    cells = collections.defaultdict(list)
    for v in range(n):
        cells[colour.get(v, 0)].append(v)
    lines.append('f=[' + ' | '.join(' '.join(map(str, cells[c])) for c in sorted(cells)) + ']')
    lines.append('*=13 k=0 10')  # the adjacencies invariant: without it, nauty takes minutes on digraphs
    lines.append('x')
    lines.append('q')
    return '\n'.join(lines) + '\n'


LIMIT = 10  # seconds per tool and graph


def run_bliss(path):
    try:
        r = subprocess.run(['bliss', '-directed', path], capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        return None, 'over %d s' % LIMIT
    t = re.search(r'Total time:\s*([0-9.]+)', r.stdout)
    o = re.search(r'\|Aut\|:\s*(\S+)', r.stdout)
    return (float(t.group(1)) if t else None), (o.group(1) if o else '?')


def run_nauty(script):
    try:
        r = subprocess.run(['dreadnaut'], input=script, capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        return None, 'over %d s' % LIMIT
    t = re.search(r'cpu time = ([0-9.]+)', r.stdout)
    o = re.search(r'grpsize=([0-9.e+]+)', r.stdout)
    return (float(t.group(1)) if t else None), (o.group(1) if o else '?')


def same_order(a, b):
    try:
        return abs(float(a) - float(b)) <= 1e-6 * max(1.0, float(a))
    except ValueError:
        return False


def main():
    for tool in ('bliss', 'dreadnaut'):
        if not shutil.which(tool):
            sys.exit('automorphism_tools.py: %s is not on PATH (apt-get install %s)' %
                     (tool, 'nauty' if tool == 'dreadnaut' else tool))
    print('| game | vertices | edges | bliss s | bliss order | nauty s | nauty order | agree |')
    print('|---|---|---|---|---|---|---|---|')
    totals = [0.0, 0.0]
    slow = [0, 0]
    count = disagree = 0
    with tempfile.TemporaryDirectory() as tmp:
        every = int(os.environ.get('EVERY', '1'))
        for name in sorted(n for n in os.listdir(DIR) if n.endswith('.kif'))[::every]:
            r = subprocess.run([GDLOG, 'rulegraph', '--typed', '--format', 'dimacs', '--no-warnings',
                                os.path.join(DIR, name)], capture_output=True, text=True, timeout=120)
            if r.returncode != 0:
                continue
            path = os.path.join(tmp, 'g.dimacs')
            with open(path, 'w') as f:
                f.write(r.stdout)
            head = r.stdout.split('\n', 1)[0].split()
            bt, bo = run_bliss(path)
            nt, no = run_nauty(dreadnaut_input(r.stdout))
            timed_out = bt is None or nt is None
            agree = '-' if timed_out else 'yes' if same_order(bo, no) else 'NO'
            count += 1
            disagree += agree == 'NO'
            slow[0] += bt is None
            slow[1] += nt is None
            totals[0] += bt or 0
            totals[1] += nt or 0
            print('| %s | %s | %s | %s | %s | %s | %s | %s |' % (name[:-4], head[2], head[3], bt, bo, nt, no, agree))
    print()
    print('%d graphs: bliss %.2f s in all (%d over %d s), nauty %.2f s in all (%d over %d s); orders differ on %d' %
          (count, totals[0], slow[0], LIMIT, totals[1], slow[1], LIMIT, disagree))


if __name__ == '__main__':
    main()
