#!/usr/bin/env python3
"""kif2pl.py GAME.kif [-o OUT.pl] [--tabling static|all|none] [-v]

Translates a GDL game in prefix KIF into a Prolog program for SWI-Prolog, the
peer of `gdlog play` (perf/play.sh).  The translation is the
ordinary one, with nothing specific to any game:

- every GDL relation p/n becomes the predicate g_p/n (so `true`, `not`,
  `succ`, `length`, `member` ... never clash with Prolog built-ins); function
  symbols and constants become quoted atoms and compound terms; `?x` becomes a
  Prolog variable; symbols are lower-cased, as gdlog does (KIF is
  case-insensitive);
- `(<= h b1 ... bn)` becomes `h :- b1, ..., bn`; `(not x)` becomes `\\+ x`,
  `(distinct a b)` becomes `a \\== b`, `(or ...)` a disjunction, `(and ...)` a
  conjunction;
- the body is reordered for safety only: positive literals keep the author's
  order, and each negation, distinct or disjunction moves right until the
  variables it shares with the positive literals are bound (Prolog's `\\+`
  and `\\==` are sound only on bound terms);
- g_true/1 and g_does/2 are dynamic: the driver (playout.pl) asserts them;
  every predicate that is used but never defined is declared dynamic, so it
  fails instead of raising an existence error;
- recursive predicates (those in a cycle of the dependency graph) may loop
  under SLD resolution.  --tabling static (the default) tables those that do
  not depend on g_true or g_does: their tables hold for the whole run.  The
  recursive predicates that depend on the state are left to plain SLD
  resolution, as in the usual Prolog GGP players: in the usual games they
  recurse along a board line or a counter, which terminates, and tabling
  them costs more than it saves (othello-comp2007 and amazons play 5 to 7
  times slower with their tables dropped at each step).  --tabling all
  tables them too, for the games where SLD loops on them (a graph search
  over the state); their tables must then be dropped whenever the state or
  the joint move changes: the program lists them in the facts
  peer_state_table/1 and peer_move_table/1 and the driver abolishes them at
  each change.  --tabling none tables nothing.

The program also gets peer_role/1 facts (the roles, in the game's order).
"""
import argparse
import re
import sys


def tokens(text):
    text = re.sub(r";[^\n]*", " ", text)
    return re.findall(r"\(|\)|[^\s()]+", text)


def parse(text):
    """The list of top-level s-expressions: a str or a list of them."""
    stack, out = [[]], None
    for t in tokens(text):
        if t == "(":
            stack.append([])
        elif t == ")":
            if len(stack) == 1:
                raise SystemExit("kif2pl: unbalanced ')'")
            x = stack.pop()
            stack[-1].append(x)
        else:
            stack[-1].append(t.lower())
    if len(stack) != 1:
        raise SystemExit("kif2pl: unbalanced '('")
    out = stack[0]
    return out


def is_var(x):
    return isinstance(x, str) and x.startswith("?")


def quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def variables(x, acc=None):
    """The variables of an s-expression, in order of first occurrence."""
    if acc is None:
        acc = []
    if is_var(x):
        if x not in acc:
            acc.append(x)
    elif isinstance(x, list):
        for y in x:
            variables(y, acc)
    return acc


def pred_key(atom):
    """(name, arity) of a relational atom (a symbol or a list)."""
    if isinstance(atom, str):
        return (atom, 0)
    return (atom[0], len(atom) - 1)


def pred_name(key):
    return quote("g_" + key[0])


class Clause:
    def __init__(self):
        self.vars = {}

    def var(self, v):
        if v not in self.vars:
            self.vars[v] = "V%d" % len(self.vars)
        return self.vars[v]

    def term(self, x):
        if is_var(x):
            return self.var(x)
        if isinstance(x, str):
            return quote(x)
        if not x:
            raise SystemExit("kif2pl: empty term ()")
        if len(x) == 1:
            return self.term(x[0])
        if not isinstance(x[0], str) or is_var(x[0]):
            raise SystemExit("kif2pl: bad function symbol in %r" % (x,))
        return quote(x[0]) + "(" + ",".join(self.term(y) for y in x[1:]) + ")"

    def atom(self, a):
        key = pred_key(a)
        if key[1] == 0:
            return pred_name(key)
        return pred_name(key) + "(" + ",".join(self.term(y) for y in a[1:]) + ")"


def literal_kind(lit):
    if isinstance(lit, list) and lit:
        head = lit[0]
        if head == "not" and len(lit) == 2:
            return "not"
        if head == "distinct" and len(lit) == 3:
            return "distinct"
        if head == "or":
            return "or"
        if head == "and":
            return "and"
    return "pos"


def binds(lit):
    """Variables a literal binds when it succeeds."""
    k = literal_kind(lit)
    if k == "pos":
        return set(variables(lit))
    if k == "and":
        s = set()
        for b in lit[1:]:
            s |= binds(b)
        return s
    if k == "or":
        branches = [binds(b) for b in lit[1:]]
        return set.intersection(*branches) if branches else set()
    return set()


def order(body, bound):
    """Reorders body for safety (see the module comment); bound: the
    variables bound before it.  Returns the new list."""
    pos_binds = []
    for i, lit in enumerate(body):
        pos_binds.append(binds(lit) if literal_kind(lit) in ("pos", "or", "and") else set())
    out, bound, pending = [], set(bound), []

    def needs(i):
        lit = body[i]
        others = set()
        for j, b in enumerate(pos_binds):
            if j != i:
                others |= b
        return set(variables(lit)) & (others | set())

    def flush():
        again = True
        while again:
            again = False
            for i in list(pending):
                if needs(i) <= bound:
                    pending.remove(i)
                    out.append((body[i], set(bound)))
                    bound.update(pos_binds[i])
                    again = True

    for i, lit in enumerate(body):
        if literal_kind(lit) == "pos":
            out.append((lit, set(bound)))
            bound.update(pos_binds[i])
            flush()
        else:
            pending.append(i)
            flush()
    for i in pending:  # variables nobody binds: leave them last
        out.append((body[i], set(bound)))
        bound.update(pos_binds[i])
    return out


def body_text(c, lit, bound):
    k = literal_kind(lit)
    if k == "not":
        return "\\+ " + paren(body_text(c, lit[1], bound))
    if k == "distinct":
        return c.term(lit[1]) + " \\== " + c.term(lit[2])
    if k == "or":
        return "(" + " ; ".join(conj_text(c, [b], bound) for b in lit[1:]) + ")"
    if k == "and":
        return conj_text(c, lit[1:], bound)
    return c.atom(lit)


def conj_text(c, lits, bound):
    parts = [body_text(c, lit, b) for lit, b in order(lits, bound)]
    if not parts:
        return "true"
    return "(" + ", ".join(parts) + ")" if len(parts) > 1 else parts[0]


def paren(s):
    return s if s.startswith("(") and s.endswith(")") else "(" + s + ")"


def body_preds(lit, acc):
    k = literal_kind(lit)
    if k == "distinct":
        return
    if k == "not":
        body_preds(lit[1], acc)
    elif k in ("or", "and"):
        for b in lit[1:]:
            body_preds(b, acc)
    else:
        acc.add(pred_key(lit))


def sccs(graph):
    """Tarjan's strongly connected components (iterative)."""
    index, low, onstack, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        onstack.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    onstack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in onstack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
    return comps


def reaches(graph, start, targets):
    seen, todo = set(), [start]
    while todo:
        v = todo.pop()
        if v in seen:
            continue
        seen.add(v)
        if v in targets and v != start:
            return True
        todo.extend(graph.get(v, ()))
    return False


def translate(sexprs, tabling):
    rules = []  # (head, body)
    for x in sexprs:
        if isinstance(x, list) and x and x[0] == "<=":
            if len(x) < 2:
                raise SystemExit("kif2pl: (<=) without a head")
            rules.append((x[1], x[2:]))
        else:
            rules.append((x, []))
    graph, defined, used = {}, set(), set()
    for head, body in rules:
        h = pred_key(head)
        defined.add(h)
        deps = graph.setdefault(h, set())
        for lit in body:
            body_preds(lit, deps)
        used |= deps
    for k in used:
        graph.setdefault(k, set())
    true_k, does_k = ("true", 1), ("does", 2)
    recursive = set()
    for comp in sccs(graph):
        if len(comp) > 1 or comp[0] in graph.get(comp[0], ()):
            recursive.update(comp)
    on_true = {k for k in graph if k == true_k or reaches(graph, k, {true_k})}
    on_does = {k for k in graph if k == does_k or reaches(graph, k, {does_k})}

    out = [
        "% Translated from KIF by perf/peer/kif2pl.py (gdlog's peer).",
        ":- style_check(-singleton).",
        ":- style_check(-discontiguous).",
        ":- dynamic('g_true'/1).",
        ":- dynamic('g_does'/2).",
    ]
    for k in sorted(used - defined - {true_k, does_k}):
        out.append(":- dynamic(%s/%d)." % (pred_name(k), k[1]))
    tabled = sorted(recursive - {true_k, does_k})
    if tabling == "none":
        tabled = []
    elif tabling == "static":
        tabled = [k for k in tabled if k not in on_true and k not in on_does]
    for k in tabled:
        out.append(":- table(%s/%d)." % (pred_name(k), k[1]))
    for k in tabled:
        generic = pred_name(k) if k[1] == 0 else pred_name(k) + "(" + ",".join("_" for _ in range(k[1])) + ")"
        if k in on_true:
            out.append("peer_state_table(%s)." % generic)
        if k in on_does:
            out.append("peer_move_table(%s)." % generic)
    out.append(":- dynamic(peer_state_table/1).")
    out.append(":- dynamic(peer_move_table/1).")
    for head, body in rules:
        if pred_key(head) == ("role", 1):
            out.append("peer_role(%s)." % Clause().term(head[1]))
    for head, body in rules:
        c = Clause()
        h = c.atom(head)
        if body:
            out.append("%s :- %s." % (h, conj_text(c, body, set())))
        else:
            out.append("%s." % h)
    info = "%d clauses; tabled: %s" % (
        len(rules), ", ".join("%s/%d%s" % (k[0], k[1], " (state)" if k in on_true or k in on_does else "")
                              for k in tabled) or "none")
    return "\n".join(out) + "\n", info


def main():
    ap = argparse.ArgumentParser(description="GDL (KIF) to SWI-Prolog")
    ap.add_argument("game")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--tabling", choices=("static", "all", "none"), default="static",
                    help="which recursive predicates to table (default: static)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print what was tabled on stderr")
    a = ap.parse_args()
    with open(a.game, encoding="utf-8", errors="replace") as f:
        text, info = translate(parse(f.read()), a.tabling)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    if a.verbose:
        print("kif2pl: %s: %s" % (a.game, info), file=sys.stderr)


if __name__ == "__main__":
    main()
