#!/usr/bin/env python3
"""drive.py: a Python player of `gdlog serve`, as a test.

    drive.py GDLOG TICTACTOE.KIF [GAMES]

Starts `gdlog serve` on tic-tac-toe as a subprocess, once per backend
(rules, circuit), and plays GAMES random games (default 30) to the end over
the pipe, checking every reply: the roles; that each legal list is a list
of (mark M N) or noop, exactly the empty cells for the role in control;
that next marks the cell it was told to; that terminal and the goals agree
with a line or a full board found here from the state's fluents; that a
move not in the legal list, a dropped state and a malformed request are
error replies after which the session goes on.  Every state is dropped, so
the server ends with none.  Then end of input: exit status 0, no stderr.
Prints the figures and `ok`; exits 1 at the first wrong reply.
"""
import random
import subprocess
import sys
import time


def fields(text):
    """The fields of a reply: blank-separated, a parenthesised term is one."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in " \t" and depth == 0:
            if cur:
                out.append(cur)
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            raise ValueError("unbalanced reply: " + text)
        cur += ch
    if depth:
        raise ValueError("unbalanced reply: " + text)
    if cur:
        out.append(cur)
    return out


def parse_term(text):
    """A KIF term as a tuple of its words ("(cell 1 2 x)" -> ("cell", "1", "2", "x"))."""
    return tuple(text.strip("()").split()) if text.startswith("(") else (text,)


class Server:
    """One `gdlog serve` process and its pipes."""

    def __init__(self, gdlog, game, *options):
        self.p = subprocess.Popen([gdlog, "serve", *options, game], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.requests = 0
        self.last_id = 0  # the greatest state id handed out

    def ask(self, line):
        """Sends a request; returns (ok, fields after ok / the error message)."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        reply = self.p.stdout.readline()
        self.requests += 1
        if not reply.endswith("\n"):
            fail(f"no reply to {line!r} (the server ended: {self.p.poll()})")
        reply = reply[:-1]
        if reply == "ok" or reply.startswith("ok "):
            return True, fields(reply[3:])
        if reply.startswith("error "):
            return False, reply[6:]
        fail(f"reply to {line!r} is neither ok nor error: {reply!r}")

    def ok(self, line):
        good, value = self.ask(line)
        if not good:
            fail(f"{line!r}: error {value}")
        return value

    def error(self, line, part):
        """The request must be an error reply whose message holds part."""
        good, value = self.ask(line)
        if good or part not in value:
            fail(f"{line!r}: expected an error with {part!r}, got {'ok' if good else 'error'} {value}")

    def close(self):
        self.p.stdin.close()
        status = self.p.wait(timeout=60)
        rest, err = self.p.stdout.read(), self.p.stderr.read()
        if status != 0 or rest or err:
            fail(f"end of input: status {status}, more output {rest!r}, stderr {err!r}")


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


LINES = [[(r, c) for c in (1, 2, 3)] for r in (1, 2, 3)] + [[(r, c) for r in (1, 2, 3)] for c in (1, 2, 3)] + \
        [[(1, 1), (2, 2), (3, 3)], [(1, 3), (2, 2), (3, 1)]]


def board_of(server, sid):
    """The cells and the role in control of state sid, from its fluents."""
    board, control = {}, None
    for f in server.ok(f"state {sid}"):
        t = parse_term(f)
        if t[0] == "cell":
            board[(int(t[1]), int(t[2]))] = t[3]
        elif t[0] == "control":
            control = t[1]
        else:
            fail(f"state {sid}: unknown fluent {f}")
    if len(board) != 9 or control is None:
        fail(f"state {sid}: not a board: {board} {control}")
    return board, control


def expected_end(board):
    """(terminal, goals of xplayer and oplayer or None) of a board."""
    for mark, goals in (("x", [100, 0]), ("o", [0, 100])):
        if any(all(board[c] == mark for c in line) for line in LINES):
            return True, goals
    if all(v != "b" for v in board.values()):
        return True, [50, 50]
    return False, None


def play(server, rng, roles, checks):
    """One random game to the end; returns its depth."""
    sid = int(server.ok("init")[0])
    server.last_id = max(server.last_id, sid)
    made = [sid]
    depth = 0
    while True:
        board, control = board_of(server, sid)
        terminal, goals = expected_end(board)
        if server.ok(f"terminal {sid}") != ["true" if terminal else "false"]:
            fail(f"terminal {sid} disagrees with the board {board}")
        if terminal:
            if [int(v) for v in server.ok(f"goals {sid}")] != goals:
                fail(f"goals {sid} are not {goals} on {board}")
            if [int(server.ok(f"goal {sid} {r}")[0]) for r in roles] != goals:
                fail(f"goal {sid} ROLE are not {goals}")
            break
        joint = []
        for r in roles:
            legal = server.ok(f"legal {sid} {r}")
            if r == control:
                want = sorted(f"(mark {m} {n})" for (m, n), v in board.items() if v == "b")
            else:
                want = ["noop"]
            if sorted(legal) != want:
                fail(f"legal {sid} {r}: {legal}, expected {want}")
            joint.append(rng.choice(legal))
        if checks and depth == 1:
            # a move that is not legal (a taken cell, or noop for the role in
            # control) is an error naming it; the state goes on
            taken = next(f"(mark {m} {n})" for (m, n), v in board.items() if v != "b")
            bad = [taken if r == control else "noop" for r in roles]
            server.error(f"next {sid} {' '.join(bad)}", f"'{taken}' is not a legal move of role '{control}'")
            server.error(f"next {sid} {joint[0]}", "one per role")
        new = int(server.ok(f"next {sid} {' '.join(joint)}")[0])
        if new in made:
            fail(f"next gave the id {new} again")
        mover = roles.index(control)
        m, n = parse_term(joint[mover])[1:3]
        after, _ = board_of(server, new)
        if after[(int(m), int(n))] != ("x" if control == "xplayer" else "o"):
            fail(f"next {sid} {joint}: cell {m} {n} not marked in {after}")
        made.append(new)
        server.last_id = max(server.last_id, new)
        sid, depth = new, depth + 1
    server.ok("drop " + " ".join(map(str, made)))
    if checks:
        server.error(f"terminal {made[0]}", f"no state {made[0]}")
        server.error("next (", "without its ')'")
        server.error("what", "unknown request")
    return depth


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        return 2
    gdlog, game = sys.argv[1], sys.argv[2]
    games = int(sys.argv[3]) if len(sys.argv) == 4 else 30
    for backend in ("rules", "circuit"):
        rng = random.Random(13)
        server = Server(gdlog, game, "--backend", backend)
        roles = server.ok("roles")
        if roles != ["xplayer", "oplayer"]:
            fail(f"roles: {roles}")
        t0 = time.perf_counter()
        depths = [play(server, rng, roles, checks=i < 3) for i in range(games)]
        seconds = time.perf_counter() - t0
        # ids are never reused: after the games' states were dropped, the next is new
        sid = int(server.ok("init")[0])
        if sid != server.last_id + 1:
            fail(f"init gave {sid} after {server.last_id}")
        # random playouts from the initial state: xplayer moves first and
        # wins more often; the means add up to 100 (a draw is 50/50)
        means = [float(x) for x in server.ok(f"playouts {sid} 2000")]
        if len(means) != 2 or not 55 < means[0] < 75 or abs(sum(means) - 100) > 0.01:
            fail(f"playouts {sid} 2000: {means}")
        server.error(f"playouts {sid} 0", "not a number of playouts")
        server.ok(f"drop {sid}")
        server.close()
        print(f"{backend}: {games} games to the end, depth {min(depths)}..{max(depths)}, "
              f"{server.requests} requests in {seconds:.2f} s ({server.requests / seconds:.0f} requests/s)")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
