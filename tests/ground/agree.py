#!/usr/bin/env python3
"""agree.py: checks that a ground game (gdlog ground) behaves as the game.

usage: agree.py GDLOG GAME [--format kif|infix|numeric] [--steps N] [--seed S] [--walks W]

Grounds GAME in the format given, then plays W random walks of at most N
steps from the initial state.  In every state it compares the legal, goal
and terminal atoms of `gdlog model --state` on the game and on the ground
game, and after the joint move the next atoms of `gdlog model --state
--does`.  The numeric format is read back by turning it into KIF (the atom
table gives each atom's text).  Exit 0 when all agree, 1 otherwise."""
import os
import random
import subprocess
import sys
import tempfile

KEYS = ("legal(", "goal(", "terminal")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[:2000]))
    return p.stdout


def numeric_to_kif(text):
    lines = text.split("\n")
    assert lines[0] == "gdlog-ground 1", lines[0]
    n = int(lines[1].split()[1])
    atom = {}
    for i in range(n):
        ident, _role, kif = lines[2 + i].split(" ", 2)
        atom[int(ident)] = kif
    m = int(lines[2 + n].split()[1])
    out = []
    for line in lines[3 + n:3 + n + m]:
        x = [int(v) for v in line.split()]
        head, body = x[0], x[2:]
        assert len(body) == x[1]
        lits = [atom[l] if l > 0 else "(not %s)" % atom[-l] for l in body]
        out.append("(<= %s %s)" % (atom[head], " ".join(lits)) if lits else atom[head])
    return "\n".join(out) + "\n"


def args_of(atom):
    """legal(white,mark(1,1)) -> ['white', 'mark(1,1)'] (top-level split)."""
    inner = atom[atom.index("(") + 1:-1]
    parts, depth, cur = [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c == "("
        depth -= c == ")"
        cur += c
    parts.append(cur)
    return parts


class Game:
    def __init__(self, gdlog, path, tmp):
        self.gdlog, self.path, self.tmp = gdlog, path, tmp

    def model(self, state, does=None):
        sf = os.path.join(self.tmp, "state.txt")
        with open(sf, "w") as f:
            f.write("".join("true(%s)\n" % t for t in state))
        cmd = [self.gdlog, "model", "--format", "infix", "--state", sf]
        if does is not None:
            df = os.path.join(self.tmp, "does.txt")
            with open(df, "w") as f:
                f.write("".join("does(%s,%s)\n" % rm for rm in does))
            cmd += ["--does", df]
        return set(run(cmd + [self.path]).split())

    def init(self):
        m = set(run([self.gdlog, "model", "--format", "infix", "--init", self.path]).split())
        return sorted(a[5:-1] for a in m if a.startswith("init("))


def keyed(model, keys):
    return sorted(a for a in model if a.startswith(keys))


def main():
    argv = sys.argv[1:]
    gdlog, game = argv[0], argv[1]
    fmt, steps, seed, walks = "kif", 10, 1, 2
    i = 2
    while i < len(argv):
        if argv[i] == "--format": fmt = argv[i + 1]
        elif argv[i] == "--steps": steps = int(argv[i + 1])
        elif argv[i] == "--seed": seed = int(argv[i + 1])
        elif argv[i] == "--walks": walks = int(argv[i + 1])
        else: sys.exit("unknown option " + argv[i])
        i += 2
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        text = run([gdlog, "ground", "--format", fmt, game])
        if fmt == "numeric":
            text = numeric_to_kif(text)
        ext = ".dl" if fmt == "infix" else ".kif"
        ground = os.path.join(tmp, "ground" + ext)
        with open(ground, "w") as f:
            f.write(text)
        a, b = Game(gdlog, game, tmp), Game(gdlog, ground, tmp)
        checked = 0
        for _ in range(walks):
            state = a.init()
            if b.init() != state:
                print("init differs"); return 1
            for _step in range(steps):
                ma, mb = a.model(state), b.model(state)
                ka, kb = keyed(ma, KEYS), keyed(mb, KEYS)
                checked += 1
                if ka != kb:
                    print("state", state, "\n game only:", sorted(set(ka) - set(kb))[:20],
                          "\n ground only:", sorted(set(kb) - set(ka))[:20])
                    return 1
                if "terminal" in ma:
                    break
                legal = {}
                for x in ka:
                    if x.startswith("legal("):
                        r, m = args_of(x)
                        legal.setdefault(r, []).append(m)
                if not legal:
                    break
                does = [(r, rng.choice(sorted(ms))) for r, ms in sorted(legal.items())]
                na = keyed(a.model(state, does), ("next(",))
                nb = keyed(b.model(state, does), ("next(",))
                if na != nb:
                    print("next differs after", does, "\n game only:", sorted(set(na) - set(nb))[:20],
                          "\n ground only:", sorted(set(nb) - set(na))[:20])
                    return 1
                state = sorted(set(x[5:-1] for x in na))
        print("agree: %d states" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
