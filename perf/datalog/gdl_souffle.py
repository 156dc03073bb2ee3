#!/usr/bin/env python3
"""gdl_souffle.py: the ASP text of a GDL program as a Souffle program.

    gdlog print --format asp --init GAME.kif | python3 gdl_souffle.py > P.dl

Reads on stdin the ASP text that `gdlog print --format asp` prints (facts,
rules with `not`, `!=` and `=`) and writes on stdout a Souffle program that
derives the same model (perf/datalog.sh's chess workload).

Souffle has no untyped function terms, so they are flattened: each
predicate is split by the functor shapes of its arguments, found by a
fixpoint over the facts and rule heads (a body atom reads only the shapes
its pattern matches; a variable that can hold several shapes gives one rule
per shape). true(cell(X,Y,P)) becomes true__cell(X,Y,P); a constant
argument stays a column. A relation is named after its predicate, then
`__` and the functors of its compound arguments (`__N` added when two
shapes would share a name), so the predicate is the name up to the first
`__`. Every constant is a symbol (numbers too). `not p(..)` of a shape that
p never takes is dropped (true), a rule with a positive atom of such a shape
too (it never fires); `S != T` of different shapes is true, `S = T` false.
Every relation is declared and written (.output, a NAME.csv file per
relation, "()" for a true nullary one).

Exit status 1, with a message on stderr, when the text cannot be translated:
recursive function terms (shapes nesting without bound), a head or negated
variable bound by no positive atom, a syntax it does not know.
"""

import re
import sys

MAX_DEPTH = 12
# Souffle words that cannot name a relation; such a name gets "__" appended.
RESERVED = {
    "true", "false", "nil", "as", "cat", "contains", "count", "match", "max",
    "mean", "min", "ord", "range", "strlen", "sum", "substr", "to_float",
    "to_number", "to_string", "to_unsigned", "band", "bor", "bxor", "bnot",
    "bshl", "bshr", "bshru", "land", "lor", "lxor", "lnot", "mod", "autoinc",
    "choice", "eqrel", "brie", "btree", "inline", "magic", "symbol", "number",
    "unsigned", "float", "type", "decl", "input", "output", "printsize",
}


class Fail(Exception):
    pass


# --- parsing -------------------------------------------------------------
# A term is ("var", name), ("const", text) or ("fn", name, [terms]).
# A literal is ("pos", pred, [terms]), ("neg", pred, [terms]),
# ("ne", t1, t2) or ("eq", t1, t2).

TOKEN = re.compile(r'\s*(?:(:-)|(!=)|("(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)'
                   r'|(-?[0-9]+)|([(),.=]))')


def tokenize(text):
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        m = re.compile(r'\s*(%[^\n]*)?').match(text, pos)
        pos = m.end()
        if pos >= n:
            break
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Fail("cannot read the text at: %r" % text[pos:pos + 40])
        pos = m.end()
        if m.group(1):
            out.append(("op", ":-"))
        elif m.group(2):
            out.append(("op", "!="))
        elif m.group(3):
            out.append(("str", m.group(3)))
        elif m.group(4):
            out.append(("id", m.group(4)))
        elif m.group(5):
            out.append(("num", m.group(5)))
        else:
            out.append(("op", m.group(6)))
    return out


class Parser:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else ("eof", "")

    def take(self, kind=None, val=None):
        tok = self.peek()
        if (kind and tok[0] != kind) or (val and tok[1] != val):
            raise Fail("expected %s, found %r (token %d)" % (val or kind, tok[1], self.i))
        self.i += 1
        return tok

    def term(self):
        kind, val = self.peek()
        if kind == "num":
            self.i += 1
            return ("const", val)
        if kind == "str":
            self.i += 1
            return ("const", val)
        if kind == "id":
            self.i += 1
            if val[0].isupper() or val[0] == "_":
                if val == "_":
                    raise Fail("anonymous variables are not supported")
                return ("var", val)
            if self.peek() == ("op", "("):
                return ("fn", val, self.args())
            return ("const", val)
        raise Fail("expected a term, found %r" % val)

    def args(self):
        self.take("op", "(")
        out = [self.term()]
        while self.peek() == ("op", ","):
            self.i += 1
            out.append(self.term())
        self.take("op", ")")
        return out

    def atom(self):
        kind, name = self.take("id")
        if name[0].isupper() or name[0] == "_":
            raise Fail("expected an atom, found variable %s" % name)
        args = self.args() if self.peek() == ("op", "(") else []
        return name, args

    def literal(self):
        kind, val = self.peek()
        if kind == "id" and val == "not":
            nxt = self.t[self.i + 1] if self.i + 1 < len(self.t) else ("eof", "")
            if nxt[0] == "id":
                self.i += 1
                p, a = self.atom()
                return ("neg", p, a)
        # an atom, or a comparison of terms
        save = self.i
        if kind == "id" and not (val[0].isupper() or val[0] == "_"):
            p, a = self.atom()
            if self.peek() not in (("op", "!="), ("op", "=")):
                return ("pos", p, a)
            self.i = save
        left = self.term()
        op = self.take("op")[1]
        if op not in ("!=", "="):
            raise Fail("unknown comparison %r" % op)
        right = self.term()
        return ("ne" if op == "!=" else "eq", left, right)

    def program(self):
        rules = []
        while self.peek()[0] != "eof":
            head = self.atom()
            body = []
            if self.peek() == ("op", ":-"):
                self.i += 1
                body.append(self.literal())
                while self.peek() == ("op", ","):
                    self.i += 1
                    body.append(self.literal())
            self.take("op", ".")
            rules.append((head, body))
        return rules


# --- shapes --------------------------------------------------------------
# A shape is "*" (a constant) or (functor, (shapes...)).

def depth(s):
    return 0 if s == "*" else 1 + max((depth(x) for x in s[1]), default=0)


def match(term, shape, env):
    """Extend env (var -> shape) so that term has shape; None when it cannot."""
    if term[0] == "var":
        old = env.get(term[1])
        if old is None:
            env = dict(env)
            env[term[1]] = shape
            return env
        return env if old == shape else None
    if term[0] == "const":
        return env if shape == "*" else None
    if shape == "*" or shape[0] != term[1] or len(shape[1]) != len(term[2]):
        return None
    for t, s in zip(term[2], shape[1]):
        env = match(t, s, env)
        if env is None:
            return None
    return env


def shape_of(term, env):
    if term[0] == "var":
        return env.get(term[1])
    if term[0] == "const":
        return "*"
    subs = []
    for t in term[2]:
        s = shape_of(t, env)
        if s is None:
            return None
        subs.append(s)
    return (term[1], tuple(subs))


def term_vars(term, out):
    if term[0] == "var":
        out.add(term[1])
    elif term[0] == "fn":
        for t in term[2]:
            term_vars(t, out)
    return out


def bindings(body, shapes):
    """Every env (var -> shape) under which the positive atoms and the
    equalities of body can hold, given the shapes known so far."""
    pos = [lit for lit in body if lit[0] == "pos"]
    envs = [{}]
    for _, p, args in pos:
        nxt = []
        for env in envs:
            for tup in shapes.get((p, len(args)), ()):
                e = env
                for t, s in zip(args, tup):
                    e = match(t, s, e)
                    if e is None:
                        break
                if e is not None:
                    nxt.append(e)
        envs = nxt
        if not envs:
            return []
    # equalities bind a side not bound yet (X = t)
    for lit in body:
        if lit[0] != "eq":
            continue
        nxt = []
        for env in envs:
            a, b = shape_of(lit[1], env), shape_of(lit[2], env)
            if a is not None and b is not None:
                if a == b:
                    nxt.append(env)
            elif a is not None:
                e = match(lit[2], a, env)
                if e is not None:
                    nxt.append(e)
            elif b is not None:
                e = match(lit[1], b, env)
                if e is not None:
                    nxt.append(e)
            else:
                raise Fail("an equality with no side bound: %s" % show_lit(lit))
        envs = nxt
    # dedupe
    seen = {}
    for env in envs:
        seen[tuple(sorted(env.items()))] = env
    return list(seen.values())


def infer(rules):
    shapes = {}
    changed = True
    while changed:
        changed = False
        for (hp, hargs), body in rules:
            key = (hp, len(hargs))
            for env in bindings(body, shapes):
                tup = []
                for t in hargs:
                    s = shape_of(t, env)
                    if s is None:
                        bad = sorted(term_vars(t, set()) - set(env))
                        raise Fail("head variable %s of %s bound by no positive atom"
                                   % (", ".join(bad), show_atom(hp, hargs)))
                    if depth(s) > MAX_DEPTH:
                        raise Fail("recursive function terms: %s nests past depth %d"
                                   % (hp, MAX_DEPTH))
                    tup.append(s)
                tup = tuple(tup)
                cur = shapes.setdefault(key, set())
                if tup not in cur:
                    cur.add(tup)
                    changed = True
    return shapes


# --- output --------------------------------------------------------------

def show_term(t):
    if t[0] in ("var", "const"):
        return t[1]
    return "%s(%s)" % (t[1], ",".join(show_term(x) for x in t[2]))


def show_atom(p, args):
    return p + ("(%s)" % ",".join(show_term(t) for t in args) if args else "")


def show_lit(lit):
    if lit[0] == "pos":
        return show_atom(lit[1], lit[2])
    if lit[0] == "neg":
        return "not " + show_atom(lit[1], lit[2])
    return "%s %s %s" % (show_term(lit[1]), "!=" if lit[0] == "ne" else "=", show_term(lit[2]))


def shape_name(s):
    if s == "*":
        return None
    inner = [shape_name(x) for x in s[1]]
    inner = [x for x in inner if x]
    return "_".join([s[0]] + inner)


def quote(c):
    if c.startswith('"'):
        return c
    return '"%s"' % c


def flatten(term, shape, vname):
    """The columns of term under shape: Souffle arguments."""
    if term[0] == "var":
        return var_cols(vname(term[1]), shape)
    if term[0] == "const":
        return [quote(term[1])]
    out = []
    for t, s in zip(term[2], shape[1]):
        out += flatten(t, s, vname)
    return out


def var_cols(name, shape):
    if shape == "*":
        return [name]
    out = []
    for i, s in enumerate(shape[1]):
        out += var_cols("%s_%d" % (name, i + 1), s)
    return out


def arity(shape):
    return 1 if shape == "*" else sum(arity(s) for s in shape[1])


def singletons(clause):
    """clause with each variable that occurs once as `_` (Souffle warns of them)."""
    toks = re.compile(r'"(?:[^"\\]|\\.)*"|\bV[0-9]+(?:_[0-9]+)*\b')
    n = {}
    for m in toks.finditer(clause):
        if not m.group().startswith('"'):
            n[m.group()] = n.get(m.group(), 0) + 1
    return toks.sub(lambda m: "_" if n.get(m.group()) == 1 else m.group(), clause)


def main():
    text = sys.stdin.read()
    try:
        rules = Parser(tokenize(text)).program()
        for (hp, _), body in rules:
            preds = [hp] + [lit[1] for lit in body if lit[0] in ("pos", "neg")]
            for p in preds:
                if "__" in p:
                    raise Fail("predicate name %s has __, which the relation names use" % p)
        shapes = infer(rules)
        arities = {}
        for (p, n) in shapes:
            arities.setdefault(p, set()).add(n)
        # relation names
        rel = {}
        used = set()
        for (p, n) in sorted(shapes):
            for tup in sorted(shapes[(p, n)], key=repr):
                parts = [shape_name(s) for s in tup]
                base = p
                if any(parts):
                    base = "__".join([p] + [x for x in parts if x])
                if len(arities[p]) > 1:
                    base += "__%d" % n
                if base in RESERVED:
                    base += "__"
                name = base
                k = 2
                while name in used:
                    name = "%s__%d" % (base, k)
                    k += 1
                used.add(name)
                rel[(p, tup)] = name
        out = []
        out.append("// Generated by perf/datalog/gdl_souffle.py from gdlog's ASP text.")
        for (p, tup), name in sorted(rel.items(), key=lambda kv: kv[1]):
            cols = ", ".join("c%d:symbol" % i for i in range(sum(arity(s) for s in tup)))
            out.append(".decl %s(%s)" % (name, cols))
            out.append(".output %s" % name)
        out.append("")
        nrules = 0
        for (hp, hargs), body in rules:
            for env in bindings(body, shapes):
                ren = {}

                def vname(v):
                    if v not in ren:
                        ren[v] = "V%d" % len(ren)
                    return ren[v]

                htup = tuple(shape_of(t, env) for t in hargs)
                hcols = []
                for t, s in zip(hargs, htup):
                    hcols += flatten(t, s, vname)
                lits = []
                false = False
                for lit in body:
                    kind = lit[0]
                    if kind in ("pos", "neg"):
                        tup = []
                        for t in lit[2]:
                            s = shape_of(t, env)
                            if s is None:
                                bad = sorted(term_vars(t, set()) - set(env))
                                raise Fail("variable %s of %s bound by no positive atom"
                                           % (", ".join(bad), show_lit(lit)))
                            tup.append(s)
                        tup = tuple(tup)
                        name = rel.get((lit[1], tup))
                        if name is None:
                            if kind == "pos":
                                false = True  # never fires (bindings said it matches)
                                break
                            continue  # not p(..) of a shape p never takes: true
                        cols = []
                        for t, s in zip(lit[2], tup):
                            cols += flatten(t, s, vname)
                        lits.append(("!" if kind == "neg" else "") + "%s(%s)" % (name, ", ".join(cols)))
                    else:
                        a, b = shape_of(lit[1], env), shape_of(lit[2], env)
                        if a is None or b is None:
                            raise Fail("a comparison with an unbound side: %s" % show_lit(lit))
                        if a != b:
                            if kind == "eq":
                                false = True
                                break
                            continue
                        ca, cb = flatten(lit[1], a, vname), flatten(lit[2], b, vname)
                        if kind == "eq":
                            lits += ["%s = %s" % (x, y) for x, y in zip(ca, cb)]
                        else:
                            ne = ["%s != %s" % (x, y) for x, y in zip(ca, cb)]
                            lits.append(ne[0] if len(ne) == 1 else "(%s)" % " ; ".join(ne))
                if false:
                    continue
                head = "%s(%s)" % (rel[(hp, htup)], ", ".join(hcols))
                out.append(singletons(head + (" :- " + ", ".join(lits) if lits else "") + "."))
                nrules += 1
        sys.stdout.write("\n".join(out) + "\n")
        sys.stderr.write("gdl_souffle: %d relations, %d rules and facts\n" % (len(rel), nrules))
    except Fail as e:
        sys.stderr.write("gdl_souffle: error: %s\n" % e)
        sys.exit(1)


if __name__ == "__main__":
    main()
