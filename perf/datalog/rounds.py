#!/usr/bin/env python3
"""perf/datalog/rounds.py RUNS SECONDS NAME CMD... [-- NAME CMD...]...

Times each named command RUNS times, in rounds: a round runs every command
once, one after the other, the first command of round r being command
r mod K (K commands), so that no engine always meets the machine first or
last.  Each run is its own process under GNU time (`/usr/bin/time -f %M`,
or $GNU_TIME), its standard output and error thrown away; wall time is
taken around it here.  (Python's posix_spawn would be lighter, but the
child's peak RSS would then start at this interpreter's.)  A run that fails
or passes SECONDS (it is killed) makes its command `unfinished`; the others
go on.

Prints one line per command: NAME BEST MEDIAN PEAK_KIB (wall seconds over
the runs, the largest peak RSS of the runs), or NAME unfinished."""
import os
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from paired_time import split_commands  # noqa: E402  (perf/, one level up)


def one_run(gnu_time, cmd, limit, rss_file):
    """(wall seconds, peak KiB) of one run, or None when it failed."""
    null = os.open(os.devnull, os.O_RDWR)
    argv = [gnu_time, "-f", "%M", "-o", rss_file] + cmd
    actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
               (os.POSIX_SPAWN_DUP2, null, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(gnu_time, argv, os.environ, file_actions=actions, setsid=True)
    os.close(null)
    # on time-out, kill the whole session: GNU time and the engine
    signal.signal(signal.SIGALRM, lambda *_: os.killpg(pid, signal.SIGKILL))
    signal.setitimer(signal.ITIMER_REAL, limit)
    _, status = os.waitpid(pid, 0)
    t1 = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, 0)
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
        return None
    with open(rss_file) as f:
        kib = int(f.read().split()[-1])
    return t1 - t0, kib


def main():
    args = sys.argv[1:]
    if len(args) < 4:
        sys.exit(__doc__)
    runs, limit = int(args[0]), float(args[1])
    cmds = split_commands(args[2:])
    if runs < 1 or any(len(c) < 2 for c in cmds):
        sys.exit(__doc__)
    gnu_time = os.environ.get("GNU_TIME", "/usr/bin/time")
    k = len(cmds)
    times = [[] for _ in cmds]
    peak = [0] * k
    failed = [False] * k
    fd, rss_file = tempfile.mkstemp(prefix="rounds.")
    os.close(fd)
    try:
        for r in range(runs):
            for j in range(k):
                i = (r + j) % k
                if failed[i]:
                    continue
                got = one_run(gnu_time, cmds[i][1:], limit, rss_file)
                if got is None:
                    failed[i] = True
                    continue
                times[i].append(got[0])
                peak[i] = max(peak[i], got[1])
    finally:
        os.unlink(rss_file)
    for i, c in enumerate(cmds):
        if failed[i]:
            print("%s unfinished" % c[0])
        else:
            print("%s %.3f %.3f %d" % (c[0], min(times[i]), statistics.median(times[i]), peak[i]))


if __name__ == "__main__":
    main()
