#!/usr/bin/env python3
"""agree.py: checks the circuit of a game (gdlog play) against the game.

usage: agree.py GDLOG GAME [--playouts N] [--seed S] [--max-depth D] [--circuit M]

Runs `gdlog play GAME --trace`: N random playouts on the circuit, each
state printed with its true, legal, goal and terminal atoms and the joint
move chosen.  For every state it runs `gdlog model GAME --state S --does D`
on the original rules and compares: the legal atoms, the goal values per
role (exactly one, or how many), terminal, and the next atoms against the
next state of the trace.  Exit 0 when all agree, 1 otherwise (with the
first differences), 2 on a usage or tool error."""
import os
import re
import subprocess
import sys
import tempfile


# A playout that meets a state breaking the game's contract (Hanoi_benderng
# gives its role 5 goal values) ends the trace there, exit status 1: the
# states traced up to it are still compared.
GAME_FAULT = re.compile(r"^gdlog: error: playout \d+: role '.*' has (no legal move|no goal value|several goal values|"
                        r"a goal value that is not)", re.M)


def run(cmd, game_fault_ok=False):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 1 and game_fault_ok and GAME_FAULT.search(p.stderr):
        return p.stdout
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[:2000]))
    return p.stdout


def parse_trace(text):
    """A list of playouts, each a list of states {true, legal, goal, terminal, does}."""
    playouts = []
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("; playout "):
            playouts.append([])
        elif line.startswith("; state "):
            playouts[-1].append({"true": set(), "legal": set(), "goal": {}, "terminal": False, "does": []})
        else:
            s = playouts[-1][-1]
            if line == "terminal":
                s["terminal"] = True
            elif line.startswith("; goal values of "):
                role, n = line[len("; goal values of "):].rsplit(": ", 1)
                s["goal"][role] = "count " + n
            elif line.startswith("(goal "):
                role, v = line[6:-1].rsplit(" ", 1)
                s["goal"][role] = v
            elif line.startswith("(true "):
                s["true"].add(line[6:-1])
            elif line.startswith("(legal "):
                s["legal"].add(line)
            elif line.startswith("(does "):
                s["does"].append(line)
            else:
                raise RuntimeError("unexpected trace line: " + line)
    return playouts


def goal_of_model(atoms, roles):
    vals = {r: [] for r in roles}
    for a in atoms:
        if a.startswith("(goal "):
            role, v = a[6:-1].rsplit(" ", 1)
            if role in vals:  # goal(b, 100) of a non-role (biddingTicTacToe) is no role's goal
                vals[role].append(v)
    return {r: (v[0] if len(v) == 1 else "count %d" % len(v)) for r, v in vals.items()}


def check_state(gdlog, game, tmp, s, nxt, where, problems):
    st = os.path.join(tmp, "state.kif")
    with open(st, "w") as f:
        f.write("".join("(true %s)\n" % t for t in sorted(s["true"])))
    cmd = [gdlog, "model", game, "--format", "kif", "--state", st]
    if s["does"]:
        dz = os.path.join(tmp, "does.kif")
        with open(dz, "w") as f:
            f.write("\n".join(s["does"]) + "\n")
        cmd += ["--does", dz]
    atoms = [a for a in run(cmd).split("\n") if a]
    roles = s["goal"].keys()
    # legal(hole, noop) of a non-role (knightwar) is no role's move
    legal = {a for a in atoms if a.startswith("(legal ") and a[7:].split(" ", 1)[0] in roles}
    if legal != s["legal"]:
        problems.append("%s: legal: model only %s, circuit only %s" %
                        (where, sorted(legal - s["legal"])[:5], sorted(s["legal"] - legal)[:5]))
    goals = goal_of_model(atoms, roles)
    if goals != s["goal"]:
        problems.append("%s: goals: model %s, circuit %s" % (where, goals, s["goal"]))
    terminal = "terminal" in atoms
    if terminal != s["terminal"]:
        problems.append("%s: terminal: model %s, circuit %s" % (where, terminal, s["terminal"]))
    if nxt is not None:
        model_next = {a[6:-1] for a in atoms if a.startswith("(next ")}
        if model_next != nxt["true"]:
            problems.append("%s: next: model only %s, circuit only %s" %
                            (where, sorted(model_next - nxt["true"])[:5], sorted(nxt["true"] - model_next)[:5]))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    gdlog, game = argv[1], argv[2]
    opts = {"--playouts": "2", "--seed": "1", "--max-depth": "1000", "--circuit": "auto"}
    rest = argv[3:]
    for i in range(0, len(rest) - 1, 2):
        if rest[i] not in opts:
            print("agree.py: unknown option " + rest[i], file=sys.stderr)
            return 2
        opts[rest[i]] = rest[i + 1]
    try:
        trace = run([gdlog, "play", game, "--trace", "--random", opts["--playouts"], "--seed", opts["--seed"],
                     "--max-depth", opts["--max-depth"], "--circuit", opts["--circuit"]], game_fault_ok=True)
        playouts = parse_trace(trace)
        problems, states = [], 0
        with tempfile.TemporaryDirectory() as tmp:
            for p, states_of in enumerate(playouts):
                for k, s in enumerate(states_of):
                    nxt = states_of[k + 1] if k + 1 < len(states_of) else None
                    if nxt is None and s["does"]:
                        continue  # cut by --max-depth: no next state to compare
                    check_state(gdlog, game, tmp, s, nxt, "playout %d state %d" % (p, k), problems)
                    states += 1
                    if len(problems) >= 10:
                        break
    except (RuntimeError, OSError) as e:
        print("agree.py: " + str(e), file=sys.stderr)
        return 2
    name = os.path.basename(game)
    if problems:
        print("%s: %d problems in %d states checked" % (name, len(problems), states))
        print("\n".join(problems))
        return 1
    print("%s: %d playouts, %d states agree" % (name, len(playouts), states))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
