#!/usr/bin/env python3
"""gengame.py SEED [--break]: a random GDL game in KIF on standard output.

Deterministic for a seed.  A game has 1-3 roles that move in turns (the
others play noop) or all at once; a step counter over a chain of successor
facts ends it after at most a bound of joint moves; every role has a move
that is always legal (pass); every role has exactly one goal value in
0..100 in every state.  Around that, a random choice of modules: a board
of cells (cell (pos X Y) M), scores (score R (pts N)), items held
(has R (item K (lvl L))), links of a graph and paths over them, lights to
flip, bits counted along a chain.  They bring function terms of depth 2-3 in fluents and moves,
constants inside terms, distinct, or, negation of static and dynamic
predicates, recursion through auxiliary predicates (stratified, within
GDL's recursion restriction), rules joining several literals.

With --break, the game breaks one restriction of GDL on purpose (an unsafe
variable, recursion through negation, init depending on true, a predicate
with two arities, true or does in a head, legal/goal/terminal depending on
does, role given by a rule, GDL's recursion restriction) and its first
line says so (--break=KIND: that one):
    ; break KIND lines N[,M]
where N (or M) is the line that gdlog must report as FILE:LINE:COL: error.
Exit status: 0, or 2 on a usage error.
"""
import random
import sys

ROLE_NAMES = ["white", "black", "red", "blue", "green", "xplayer", "oplayer", "robot", "p1", "p2", "p3"]
OBJ_NAMES = ["a", "b", "c", "d", "e"]


class Game:
    """The parts of a game being generated: facts, init, rules (KIF lines)."""

    def __init__(self, rng):
        self.rng = rng
        self.roles = []
        self.statics = []
        self.inits = []
        self.rules = []
        self.wins = []      # unary view predicates on roles that a role may win by
        self.terminals = []  # bodies that end the game
        self.turns = False
        self.modules = []

    def ctl(self, var="?r"):
        """The literal that lets var move now ("" when all move at once)."""
        return " (true (control %s))" % var if self.turns else ""

    def rule(self, head, *body):
        body = [b for b in body if b]
        if not body:
            self.rules.append(head)
        else:
            self.rules.append("(<= %s %s)" % (head, " ".join(body)))


def pick(rng, xs, lo, hi):
    """lo..hi distinct elements of xs, in their order."""
    k = rng.randint(min(lo, len(xs)), min(hi, len(xs)))
    chosen = set(rng.sample(range(len(xs)), k))
    return [x for i, x in enumerate(xs) if i in chosen]


def base(g, n_steps, n_nums):
    """Roles, turns, the step counter, the numbers, pass and noop."""
    rng = g.rng
    g.roles = rng.sample(ROLE_NAMES, rng.randint(1, 3))
    g.turns = len(g.roles) > 1 and rng.random() < 0.5
    for r in g.roles:
        g.statics.append("(role %s)" % r)
    boxed = rng.random() < 0.4  # steps as (t N): a constant inside a term
    step = (lambda i: "(t %d)" % i) if boxed else (lambda i: "%d" % i)
    g.statics += ["(succ %s %s)" % (step(i), step(i + 1)) for i in range(n_steps)]
    g.inits.append("(init (step %s))" % step(0))
    g.rule("(next (step ?y))", "(true (step ?x))", "(succ ?x ?y)")
    g.terminals.append("(true (step %s))" % step(n_steps))
    g.statics += ["(nsucc %d %d)" % (i, i + 1) for i in range(n_nums)]
    g.statics += ["(num %d)" % i for i in range(n_nums + 1)]
    g.rule("(gt ?x ?y)", "(nsucc ?y ?x)")
    g.rule("(gt ?x ?z)", "(nsucc ?y ?x)", "(gt ?y ?z)")
    if g.turns:
        order = g.roles[:]
        rng.shuffle(order)
        g.inits.append("(init (control %s))" % order[0])
        for i, r in enumerate(order):
            g.statics.append("(nextturn %s %s)" % (r, order[(i + 1) % len(order)]))
        g.rule("(next (control ?s))", "(true (control ?r))", "(nextturn ?r ?s)")
        g.rule("(legal ?r noop)", "(role ?r)", "(not (true (control ?r)))")
        g.rule("(legal ?r pass)", "(true (control ?r))")
    elif rng.random() < 0.5:
        g.rule("(legal ?r pass)", "(role ?r)")
    else:
        for r in g.roles:
            g.statics.append("(legal %s pass)" % r)
    marks = rng.sample(["x", "o", "z", "w"], len(g.roles))
    for r, m in zip(g.roles, marks):
        g.statics.append("(markof %s %s)" % (r, m))


def board(g, objs, n_nums):
    """Cells (cell (pos X Y) M): marking empty cells, maybe erasing own."""
    rng = g.rng
    xs = pick(rng, objs, 2, 3)
    ys = list(range(1, rng.randint(2, min(3, n_nums) if n_nums >= 2 else 2) + 1))
    g.statics += ["(bx %s)" % x for x in xs] + ["(by %d)" % y for y in ys]
    if rng.random() < 0.5:
        r = rng.choice(g.roles)
        mark = [s for s in g.statics if s.startswith("(markof %s " % r)][0].split()[2][:-1]
        g.inits.append("(init (cell (pos %s %d) %s))" % (rng.choice(xs), rng.choice(ys), mark))
    g.rule("(occupied ?x ?y)", "(true (cell (pos ?x ?y) ?m))")
    boxed = rng.random() < 0.5
    move = "(put (pos ?x ?y))" if boxed else "(mark ?x ?y)"
    g.rule("(legal ?r %s)" % move, "(role ?r)" + g.ctl(), "(bx ?x)", "(by ?y)", "(not (occupied ?x ?y))")
    g.rule("(next (cell (pos ?x ?y) ?m))", "(does ?r %s)" % move, "(markof ?r ?m)")
    if rng.random() < 0.5:
        keep = "(distinct (pos ?x ?y) (pos %s %d))" % (rng.choice(xs), rng.choice(ys)) if rng.random() < 0.5 else ""
        g.rule("(legal ?r (erase ?x ?y))", "(role ?r)" + g.ctl(), "(markof ?r ?m)", "(true (cell (pos ?x ?y) ?m))",
               keep)
        g.rule("(erased ?x ?y)", "(does ?r (erase ?x ?y))")
        g.rule("(next (cell (pos ?x ?y) ?m))", "(true (cell (pos ?x ?y) ?m))", "(not (erased ?x ?y))")
    else:
        g.rule("(next (cell ?p ?m))", "(true (cell ?p ?m))")
    # two marks of a role one above the other: several joined literals
    g.rule("(column ?r)", "(markof ?r ?m)", "(true (cell (pos ?x ?y1) ?m))", "(nsucc ?y1 ?y2)",
           "(true (cell (pos ?x ?y2) ?m))")
    g.wins.append("column")
    if rng.random() < 0.6:
        # a full row with constants inside the terms
        y = rng.choice(ys)
        cells = " ".join("(true (cell (pos %s %d) ?m))" % (x, y) for x in xs)
        g.rule("(row ?r)", "(markof ?r ?m)", cells)
        g.wins.append("row")
    if rng.random() < 0.5:
        g.rule("open", "(bx ?x)", "(by ?y)", "(not (occupied ?x ?y))")
        g.terminals.append("(not open)")


def scores(g, n_nums):
    """Scores (score R (pts N)) that a role raises with inc."""
    rng = g.rng
    for r in g.roles:
        g.inits.append("(init (score %s (pts 0)))" % r)
    g.rule("(legal ?r inc)", "(role ?r)" + g.ctl(), "(true (score ?r (pts ?n)))", "(nsucc ?n ?m)")
    g.rule("(next (score ?r (pts ?m)))", "(does ?r inc)", "(true (score ?r (pts ?n)))", "(nsucc ?n ?m)")
    g.rule("(next (score ?r (pts ?n)))", "(true (score ?r (pts ?n)))", "(not (does ?r inc))")
    if len(g.roles) > 1 and rng.random() < 0.6:
        g.rule("(ahead ?r)", "(true (score ?r (pts ?n)))", "(true (score ?s (pts ?m)))", "(distinct ?r ?s)",
               "(gt ?n ?m)")
    else:
        g.rule("(ahead ?r)", "(true (score ?r (pts ?n)))", "(gt ?n %d)" % rng.randint(0, max(0, n_nums - 1)))
    g.wins.append("ahead")
    if rng.random() < 0.4:
        g.terminals.append("(true (score ?r (pts %d)))" % n_nums)


def items(g, n_nums):
    """Items held (has R (item K (lvl L))): take, drop, level up."""
    rng = g.rng
    kinds = rng.sample(["gem", "key", "coin", "map"], rng.randint(2, 3))
    g.statics += ["(kind %s)" % k for k in kinds]
    if rng.random() < 0.5:
        g.statics.append("(cursed %s)" % rng.choice(kinds))
        cursed = "(not (cursed ?k))"
    else:
        cursed = ""
    g.rule("(hasany ?r ?k)", "(true (has ?r (item ?k ?l)))")
    g.rule("(legal ?r (take ?k))", "(role ?r)" + g.ctl(), "(kind ?k)", cursed, "(not (hasany ?r ?k))")
    g.rule("(next (has ?r (item ?k (lvl 1))))", "(does ?r (take ?k))")
    g.rule("(legal ?r (drop ?k))", "(role ?r)" + g.ctl(), "(hasany ?r ?k)")
    g.rule("(changed ?r ?k)", "(does ?r (drop ?k))")
    if n_nums >= 2 and rng.random() < 0.6:
        g.rule("(legal ?r (up ?k))", "(true (has ?r (item ?k (lvl ?l))))" + g.ctl(), "(nsucc ?l ?l2)")
        g.rule("(changed ?r ?k)", "(does ?r (up ?k))")
        g.rule("(next (has ?r (item ?k (lvl ?l2))))", "(does ?r (up ?k))", "(true (has ?r (item ?k (lvl ?l))))",
               "(nsucc ?l ?l2)")
    g.rule("(next (has ?r (item ?k ?l)))", "(true (has ?r (item ?k ?l)))", "(not (changed ?r ?k))")
    g.rule("(missing ?r)", "(role ?r)", "(kind ?k)", cursed, "(not (hasany ?r ?k))")
    g.rule("(collector ?r)", "(role ?r)", "(not (missing ?r))")
    if rng.random() < 0.5:
        g.rule("(fresh ?r)", "(role ?r)", "(not (true (has ?r (item %s (lvl 1)))))" % kinds[-1])
        g.wins.append("fresh")
    a, b = kinds[0], kinds[1]
    body = rng.choice(["(or (hasany ?r %s) (hasany ?r %s))", "(or (hasany ?r %s) (not (hasany ?r %s)))",
                       "(or (hasany ?r %s) (and (hasany ?r %s) (true (step ?s))))"]) % (a, b)
    g.rule("(lucky ?r)", "(role ?r)", body)
    g.wins += ["collector", "lucky"]


def graph(g, objs):
    """Links (conn X Y) over static adjacency, and paths through them."""
    rng = g.rng
    nodes = pick(rng, objs, 3, 5)
    edges = [(x, y) for x in nodes for y in nodes if x != y and rng.random() < 0.5]
    if not edges:
        edges = [(nodes[0], nodes[1])]
    g.statics += ["(adj %s %s)" % e for e in edges]
    if rng.random() < 0.5:
        g.statics.append("(blocked %s %s)" % rng.choice(edges))
        blocked = "(not (blocked ?x ?y))"
    else:
        blocked = ""
    g.rule("(legal ?r (link ?x ?y))", "(role ?r)" + g.ctl(), "(adj ?x ?y)", blocked, "(not (true (conn ?x ?y)))")
    g.rule("(next (conn ?x ?y))", "(does ?r (link ?x ?y))")
    g.rule("(next (conn ?x ?y))", "(true (conn ?x ?y))")
    g.rule("(path ?x ?y)", "(true (conn ?x ?y))")
    if rng.random() < 0.5:
        g.rule("(path ?x ?z)", "(true (conn ?x ?y))", "(path ?y ?z)")
    else:  # mutual recursion through two views
        g.rule("(path ?x ?z)", "(true (conn ?x ?y))", "(hop ?y ?z)")
        g.rule("(hop ?x ?y)", "(path ?x ?y)", "(distinct ?x ?y)")
    for r in g.roles:
        g.statics.append("(target %s %s %s)" % (r, rng.choice(nodes), rng.choice(nodes)))
    g.rule("(joined ?r)", "(target ?r ?x ?y)", "(path ?x ?y)")
    g.wins.append("joined")
    if rng.random() < 0.3:
        g.terminals.append("(joined ?r)")


def toggles(g, fluent, move, domain, moved):
    """(fluent X) for X of the static domain, which (move X) switches on
    or off; (moved X) says it was."""
    g.rule("(legal ?r (%s ?x))" % move, "(role ?r)" + g.ctl(), "(%s ?x)" % domain)
    g.rule("(%s ?x)" % moved, "(does ?r (%s ?x))" % move)
    g.rule("(next (%s ?x))" % fluent, "(%s ?x)" % moved, "(not (true (%s ?x)))" % fluent)
    g.rule("(next (%s ?x))" % fluent, "(true (%s ?x))" % fluent, "(not (%s ?x))" % moved)


def lights(g, objs):
    """Lights (on X) that moves flip."""
    rng = g.rng
    ls = pick(rng, objs, 1, 3)
    g.statics += ["(light %s)" % x for x in ls]
    if rng.random() < 0.3:
        g.statics.append("(broken %s)" % rng.choice(ls))
        g.rule("(init (on ?x))", "(light ?x)", "(not (broken ?x))")
    elif rng.random() < 0.5:
        g.inits.append("(init (on %s))" % rng.choice(ls))
    toggles(g, "on", "flip", "light", "flipped")
    g.rule("dark", "(light ?x)", "(not (true (on ?x)))")
    if rng.random() < 0.5:  # a fluent that is a constant
        g.rule("(next touched)", "(flipped ?x)")
        g.rule("(next touched)", "(true touched)")
        g.rule("dark", "(not (true touched))")
    g.rule("(bright ?r)", "(role ?r)", "(not dark)")
    g.wins.append("bright")
    if rng.random() < 0.3:
        g.terminals.append("(not dark)")


def tally(g, objs):
    """Bits (bit X) that moves toggle, counted along a static chain of the
    objects (a recursion along a static argument, which the writer for
    players unfolds), and views that only rename others (which it
    collapses into their readers)."""
    rng = g.rng
    chain = pick(rng, objs, 2, 5)
    g.statics += ["(obj %s)" % x for x in chain]
    g.statics += ["(nextobj %s %s)" % (a, b) for a, b in zip(chain, chain[1:])]
    g.statics += ["(firstobj %s)" % chain[0], "(lastobj %s)" % chain[-1]]
    if rng.random() < 0.5:
        g.inits.append("(init (bit %s))" % rng.choice(chain))
    toggles(g, "bit", "toggle", "obj", "toggled")
    g.rule("(cnt ?x 1)", "(firstobj ?x)", "(true (bit ?x))")
    g.rule("(cnt ?x 0)", "(firstobj ?x)", "(not (true (bit ?x)))")
    g.rule("(cnt ?y ?m)", "(nextobj ?x ?y)", "(cnt ?x ?n)", "(true (bit ?y))", "(nsucc ?n ?m)")
    g.rule("(cnt ?y ?n)", "(nextobj ?x ?y)", "(cnt ?x ?n)", "(not (true (bit ?y)))")
    g.rule("(total ?n)", "(lastobj ?x)", "(cnt ?x ?n)")
    g.rule("(tallyhigh ?r)", "(role ?r)", "(total ?n)", "(gt ?n %d)" % rng.randint(0, 2))
    if rng.random() < 0.5:
        g.rule("(tallylow ?r)", "(role ?r)", "(total 0)")
        g.rule("(tallyany ?r)", "(tallyhigh ?r)")
        g.rule("(tallyany ?r)", "(tallylow ?r)")
        g.rule("(tallywin ?r)", "(tallyany ?r)")
    else:
        g.rule("(tallymid ?r)", "(tallyhigh ?r)")
        g.rule("(tallywin ?r)", "(tallymid ?r)")
    g.wins.append("tallywin")
    if rng.random() < 0.3:
        g.terminals.append("(total %d)" % len(chain))


def mixed(g, n_steps, n_nums):
    """Odd corners: or binding variables inside its disjuncts, a function
    symbol with two arities, a variable twice in one atom, distinct of two
    constants, a long join."""
    rng = g.rng
    step = g.inits[0][len("(init (step "):-2]
    boxed = step.startswith("(")
    k = rng.randint(0, n_steps)
    g.rule("(early ?s)", "(or (true (step ?s)) (and (succ ?s ?t) (true (step ?t))))")
    g.rule("sane", "(distinct 0 %d)" % rng.randint(0, 1))
    g.rule("(phase ?r)", "(role ?r)", "(early %s)" % ("(t %d)" % k if boxed else str(k)), "sane")
    g.wins.append("phase")
    g.inits += ["(init (tag (f a)))", "(init (tag (f %d %d)))" % (n_nums, n_nums)]
    g.rule("(next (tag ?x))", "(true (tag ?x))", "(not (true (step %s)))" % step)
    g.rule("(twin ?r)", "(role ?r)", "(true (tag (f ?x ?x)))", "(num ?x)")
    g.rule("(single ?r)", "(role ?r)", "(true (tag (f ?x)))", "(not (true (tag (f ?x ?x))))")
    g.rule("(far ?r)", "(markof ?r ?m)", "(nsucc ?a ?b)", "(gt ?b ?a)", "(num ?b)", "(true (step ?s))",
           "(twin ?r)")
    g.wins += ["twin", "single", "far"]


def goals(g):
    """win per role, then exactly one goal value per role in every state."""
    rng = g.rng
    wins = g.wins[:] or ["nowin"]
    if not g.wins:
        g.rule("(nowin ?r)", "(role ?r)", "(true (step 9999))")
    style = rng.randrange(3)
    chosen = pick(rng, wins, 1, 3)
    if style == 0:  # one rule per condition: an implicit or
        for w in chosen:
            g.rule("(win ?r)", "(%s ?r)" % w)
    elif style == 1:
        g.rule("(win ?r)", "(role ?r)", "(or %s)" % " ".join("(%s ?r)" % w for w in chosen))
    else:  # one condition and not another
        a, b = rng.sample(wins, 2) if len(wins) > 1 else (wins[0], None)
        g.rule("(win ?r)", "(%s ?r)" % a, "(not (%s ?r))" % b if b else "")
    hi, lo = rng.choice([(100, 0), (100, 25), (90, 10), (75, 50)])
    scheme = rng.randrange(3)
    if scheme == 0:
        g.rule("(goal ?r %d)" % hi, "(win ?r)")
        g.rule("(goal ?r %d)" % lo, "(role ?r)", "(not (win ?r))")
    elif scheme == 1:  # three values: win, draw, lose
        g.rule("anywin", "(win ?r)")
        g.rule("(goal ?r %d)" % hi, "(win ?r)")
        g.rule("(goal ?r 50)", "(role ?r)", "(not (win ?r))", "(not anywin)")
        g.rule("(goal ?r %d)" % lo, "(role ?r)", "(not (win ?r))", "anywin")
    else:  # the value of the step reached, a constant for the last role
        g.rule("(goal ?r ?v)", "(role ?r)", "(distinct ?r %s)" % g.roles[-1], "(true (step ?s))",
               "(stepvalue ?s ?v)")
        values = set()
        for line in g.statics:
            if line.startswith("(succ "):
                a, b = split_pair(line[len("(succ "):-1])
                values.add(a)
                values.add(b)
        for s in sorted(values):
            g.statics.append("(stepvalue %s %d)" % (s, rng.randint(0, 100)))
        g.rule("(goal %s %d)" % (g.roles[-1], rng.randint(0, 100)))


def split_pair(text):
    """The two terms of 'A B' where each is a symbol or (t N)."""
    if text.startswith("("):
        end = text.index(")") + 1
        return text[:end], text[end + 1:]
    a, b = text.split(" ", 1)
    return a, b


def terminal(g):
    rng = g.rng
    extra = pick(rng, g.terminals[1:], 0, 2)
    for body in [g.terminals[0]] + extra:
        g.rule("terminal", body)


def make(seed):
    rng = random.Random(seed)
    g = Game(rng)
    n_steps = rng.randint(2, 12)
    n_nums = rng.randint(1, 4)
    base(g, n_steps, n_nums)
    objs = OBJ_NAMES[:rng.randint(2, 5)]
    mods = [("board", lambda: board(g, objs, n_nums)), ("scores", lambda: scores(g, n_nums)),
            ("items", lambda: items(g, n_nums)), ("graph", lambda: graph(g, objs)), ("lights", lambda: lights(g, objs)),
            ("tally", lambda: tally(g, objs))]
    for name, fn in pick(rng, mods, 1, 3):
        g.modules.append(name)
        fn()
    if rng.random() < 0.5:
        g.modules.append("mixed")
        mixed(g, n_steps, n_nums)
    goals(g)
    terminal(g)
    return g


# ---- breaking one restriction ----------------------------------------------

def breaks(g):
    """(kind, lines, which) per way to break g: lines to add, and the index
    among them of the lines gdlog may report at (after the game's own)."""
    r = g.roles[0]
    return [
        ("unsafe_head", ["(<= (legal ?r (mark ?q)) (role ?r))"], [0]),
        ("unsafe_negation", ["(<= (legal ?r pass) (role ?r) (not (succ ?q ?r)))"], [0]),
        ("unsafe_distinct", ["(<= (legal ?r pass) (role ?r) (distinct ?r ?q))"], [0]),
        ("negation_cycle", ["(<= (bad1 ?x) (num ?x) (not (bad2 ?x)))", "(<= (bad2 ?x) (num ?x) (not (bad1 ?x)))",
                            "(<= terminal (bad1 0))"], [0, 1]),
        ("init_true", ["(<= (init (extra ?x)) (true (step ?x)))"], [0]),
        ("init_does", ["(<= (init (extra ?x)) (does %s ?x))" % r], [0]),
        ("arity", ["(num 1 2)"], [0]),
        ("true_head", ["(<= (true (extra 1)) (num 1))"], [0]),
        ("does_head", ["(<= (does %s pass) (role %s))" % (r, r)], [0]),
        ("legal_does", ["(<= (legal ?r again) (does ?r pass))"], [0]),
        ("legal_does_view", ["(<= (moved ?r) (does ?r pass))", "(<= (legal ?r again) (moved ?r))"], [1]),
        ("goal_does", ["(<= (goal ?r 7) (does ?r pass))"], [0]),
        ("terminal_does", ["(<= terminal (does %s pass))" % r], [0]),
        ("terminal_does_view", ["(<= (moved ?r) (does ?r pass))", "(<= terminal (moved %s))" % r], [1]),
        ("role_rule", ["(<= (role extra) (num 0))"], [0]),
        ("role_true", ["(<= (role ?x) (true (step ?x)))"], [0]),
        ("recursion_restriction", ["(<= (reach ?x ?z) (reach ?y ?z) (num ?x) (num ?z))", "(<= (reach 0 1) (num 0))",
                                   "(<= terminal (reach 1 1))"], [0]),
    ]


def main(argv):
    usage = "usage: gengame.py SEED [--break | --break=KIND]\n"
    if len(argv) < 2 or len(argv) > 3 or (len(argv) == 3 and not argv[2].startswith("--break")):
        sys.stderr.write(usage)
        return 2
    try:
        seed = int(argv[1])
    except ValueError:
        sys.stderr.write(usage)
        return 2
    g = make(seed)
    head = []
    extra = []
    if len(argv) == 3:
        kinds = breaks(g)
        if argv[2] == "--break":
            kind, lines, which = kinds[random.Random(seed * 7 + 1).randrange(len(kinds))]
        else:
            named = [k for k in kinds if k[0] == argv[2][len("--break="):]]
            if not named:
                sys.stderr.write(usage + "kinds: %s\n" % " ".join(k[0] for k in kinds))
                return 2
            kind, lines, which = named[0]
        extra = lines
        head.append(None)  # the break line, filled below
    head.append("; gengame.py %d%s: %d role(s), %s, modules %s" % (
        seed, " --break" if extra else "", len(g.roles), "turns" if g.turns else "simultaneous",
        " ".join(g.modules)))
    body = g.statics + g.inits + g.rules
    lines = head + body + extra
    if extra:
        first = len(head) + len(body) + 1
        lines[0] = "; break %s lines %s" % (kind, ",".join(str(first + i) for i in which))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
