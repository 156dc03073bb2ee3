#!/usr/bin/env python3
"""perf/paired_time.py RUNS SECONDS OURS... -- PEER... [-- PEER...]

Times a command against a peer's, whose time is the sum of one or more
commands (gringo's two stages), in RUNS rounds after one untimed round.  A
round runs our command and the peer's commands one after the other, ours
first in even rounds and last in odd ones, so that both sides meet the
machine in the same state: on a shared virtual machine a slow spell lasts
seconds, and a best time taken over runs in a row can fall all inside one.
Each run is a whole process started directly (perf/best_time.py says why),
its output thrown away.

Prints one line: our best wall time, the peer's best (the sum of its
commands' bests), the ratio of the two bests, and the median over the
rounds of the ratio peer/ours within a round.  Prints `unfinished` when a
run fails or passes SECONDS."""
import statistics
import sys

from best_time import one_run, resolve


def split_commands(args):
    """The commands between the -- separators."""
    cmds, cur = [], []
    for a in args:
        if a == "--":
            cmds.append(cur)
            cur = []
        else:
            cur.append(a)
    cmds.append(cur)
    return cmds


def one_round(cmds, paths, limit, ours_first):
    """Wall seconds of each command in one round (None: failed)."""
    order = range(len(cmds)) if ours_first else list(range(1, len(cmds))) + [0]
    times = [None] * len(cmds)
    for i in order:
        times[i] = one_run(paths[i], cmds[i], limit)
        if times[i] is None:
            return None
    return times


def main():
    if len(sys.argv) < 6 or "--" not in sys.argv:
        sys.exit(__doc__)
    runs, limit = int(sys.argv[1]), float(sys.argv[2])
    cmds = split_commands(sys.argv[3:])
    if any(not c for c in cmds) or len(cmds) < 2:
        sys.exit(__doc__)
    paths = [resolve(c[0]) for c in cmds]
    best = [None] * len(cmds)
    ratios = []
    for r in range(runs + 1):
        times = one_round(cmds, paths, limit, r % 2 == 0)
        if times is None:
            print("unfinished")
            return
        if r == 0:
            continue
        best = [t if b is None or t < b else b for t, b in zip(times, best)]
        ratios.append(sum(times[1:]) / times[0])
    ours, peer = best[0], sum(best[1:])
    print("%.4f %.4f %.2f %.2f" % (ours, peer, peer / ours, statistics.median(ratios)))


if __name__ == "__main__":
    main()
