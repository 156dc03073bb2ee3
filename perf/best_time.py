#!/usr/bin/env python3
"""perf/best_time.py RUNS SECONDS COMMAND [ARG ...]

Runs COMMAND once untimed, then RUNS times, each as a whole process started
directly (no shell, no timeout(1): both cost milliseconds, which is most of
a small game's grounding), its output thrown away.  Prints the best wall
time in seconds, or `unfinished` when a run fails or passes SECONDS (it is
then killed).  Its one_run is what perf/paired_time.py runs for gdlog and gringo alike."""
import os
import shutil
import signal
import sys
import time


def one_run(path, cmd, limit):
    """Wall seconds of one run, or None when it failed or was killed."""
    null = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(path, cmd, os.environ, file_actions=actions)
    os.close(null)
    # SIGALRM kills it; waiting blocks (a polling wait would round the time up).
    signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
    signal.setitimer(signal.ITIMER_REAL, limit)
    _, status = os.waitpid(pid, 0)
    t1 = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, 0)
    return t1 - t0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else None


def resolve(name):
    """The path of command name (exits when there is none)."""
    path = shutil.which(name)
    if path is None:
        sys.exit("%s: %s not found" % (os.path.basename(sys.argv[0]), name))
    return path


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    runs, limit, cmd = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
    path = resolve(cmd[0])
    best = None
    for i in range(runs + 1):
        t = one_run(path, cmd, limit)
        if t is None:
            print("unfinished")
            return
        if i > 0 and (best is None or t < best):
            best = t
    print("%.4f" % best)


if __name__ == "__main__":
    main()
