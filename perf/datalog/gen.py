#!/usr/bin/env python3
"""perf/datalog/gen.py WORKLOAD SCALE SEED DIR

Writes the data of one workload of perf/datalog.sh:
  DIR/facts.lp       the facts, one `rel(a,b).` a line: valid as gdlog infix
                     and as gringo input alike
  DIR/facts/REL.facts  the same tuples, tab-separated, for Souffle's .input
and prints one line `KEY=VALUE ...` describing the sizes chosen.

SCALE multiplies each workload's size, roughly its number of derived tuples
(1 gives the default sizes of perf/README.md); SEED seeds the random ones.
Workloads: chain tree random reach sg points triangles load loadtext."""
import math
import os
import random
import sys


class Out:
    """Facts to DIR/facts.lp and DIR/facts/REL.facts."""

    def __init__(self, d):
        self.d = d
        os.makedirs(os.path.join(d, "facts"), exist_ok=True)
        self.lp = open(os.path.join(d, "facts.lp"), "w")
        self.tsv = {}

    def add(self, rel, *args):
        f = self.tsv.get(rel)
        if f is None:
            f = self.tsv[rel] = open(os.path.join(self.d, "facts", rel + ".facts"), "w")
        self.lp.write("%s(%s).\n" % (rel, ",".join(map(str, args))))
        f.write("\t".join(map(str, args)) + "\n")

    def empty(self, rel):
        """Makes REL.facts exist even when no tuple has been added."""
        if rel not in self.tsv:
            self.tsv[rel] = open(os.path.join(self.d, "facts", rel + ".facts"), "w")

    def close(self):
        self.lp.close()
        for f in self.tsv.values():
            f.close()


def chain(o, s, rng):
    # n nodes, n-1 edges; tc has n(n-1)/2 tuples, so n grows as sqrt(SCALE)
    n = max(2, round(2000 * math.sqrt(s)))
    for i in range(1, n):
        o.add("e", i, i + 1)
    return "nodes=%d edges=%d" % (n, n - 1)


def tree(o, s, rng):
    # complete binary tree of 2^d - 1 nodes, edges parent -> child;
    # tc has about d * 2^d tuples
    d = max(2, round(17 + math.log2(s)))
    n = 2 ** d - 1
    for i in range(2, n + 1):
        o.add("e", i // 2, i)
    return "depth=%d nodes=%d edges=%d" % (d, n, n - 1)


def random_graph(o, s, rng):
    # `clusters` random graphs of `size` nodes, out-degree 1 or 2 (mean 1.75),
    # edges to any node of the same cluster.  One random graph of n nodes
    # with these degrees has a closure of about 0.7 n^2 tuples (every node
    # reaches the giant strong component, which reaches 70% of the nodes):
    # 284 million for n = 20,000 (seed 1), past what gringo can hold here
    size = 200
    clusters = max(1, round(100 * s))
    n = size * clusters
    m = 0
    for c in range(clusters):
        base = c * size
        for i in range(size):
            for _ in range(rng.choice((1, 2, 2, 2))):
                o.add("e", base + i, base + rng.randrange(size))
                m += 1
    return "nodes=%d edges=%d clusters=%d" % (n, m, clusters)


def reach(o, s, rng):
    # n nodes, 4n random edges; reach from node 0
    n = max(2, round(250000 * s))
    m = 4 * n
    for _ in range(m):
        o.add("e", rng.randrange(n), rng.randrange(n))
    o.add("source", 0)
    return "nodes=%d edges=%d" % (n, m)


def load(o, s, rng):
    # 1,500,000 random edges among 375,000 nodes: reading facts is the work
    # (p, the edges from a node to itself, has a handful of tuples)
    n = max(2, round(375000 * s))
    m = 4 * n
    for _ in range(m):
        o.add("e", rng.randrange(n), rng.randrange(n))
    return "nodes=%d edges=%d" % (n, m)


def sg(o, s, rng):
    # complete binary tree of depth d (2^(d+1) - 1 nodes), par(child,parent);
    # sg holds every pair of nodes on one level below the root: about 4^(d+1)/3
    d = max(1, round(10 + math.log(s, 4)))
    n = 2 ** (d + 1) - 1
    for i in range(2, n + 1):
        o.add("par", i, i // 2)
    return "depth=%d nodes=%d" % (d, n)


def points(o, s, rng):
    # a synthetic program of `methods` methods of 40 variables each; each
    # method allocates 8 objects and has 40 assignments v = w, 10 loads
    # v = *w and 10 stores *v = w, 3% of whose right-hand variables belong to
    # another method (calls).  Not linear in SCALE: past a point (5% at
    # SCALE 1, or 3% at SCALE 2) most variables join one flow and pt grows
    # as variables x objects
    per, allocs = 40, 8
    methods = max(1, round(250 * s))
    nv = per * methods
    counts = {"new": 0, "assign": 0, "load": 0, "store": 0}
    obj = 0

    def var(m):
        # a variable of method m, sometimes of a random other one
        if rng.random() < 0.03:
            m = rng.randrange(methods)
        return m * per + rng.randrange(per)

    for m in range(methods):
        for _ in range(allocs):
            o.add("new", m * per + rng.randrange(per), obj)
            obj += 1
            counts["new"] += 1
        for _ in range(per):
            o.add("assign", m * per + rng.randrange(per), var(m))
            counts["assign"] += 1
        for _ in range(per // 4):
            o.add("load", m * per + rng.randrange(per), var(m))
            counts["load"] += 1
            o.add("store", m * per + rng.randrange(per), var(m))
            counts["store"] += 1
    return "vars=%d objects=%d %s" % (nv, obj, " ".join("%s=%d" % kv for kv in counts.items()))


def triangles(o, s, rng):
    # G(n, m): m distinct undirected edges on n nodes, each once as e(i,j), i < j
    n = max(3, round(2000 * s ** (1 / 3)))
    m = min(n * (n - 1) // 2, round(100000 * s ** (2 / 3)))
    seen = set()
    while len(seen) < m:
        i, j = rng.randrange(n), rng.randrange(n)
        if i != j:
            seen.add((min(i, j), max(i, j)))
    for i, j in sorted(seen):
        o.add("e", i, j)
    return "nodes=%d edges=%d" % (n, m)


WORKLOADS = {"chain": chain, "tree": tree, "random": random_graph, "reach": reach,
             "sg": sg, "points": points, "triangles": triangles, "load": load, "loadtext": load}
RELATIONS = {"chain": ["e"], "tree": ["e"], "random": ["e"], "reach": ["e", "source"],
             "sg": ["par"], "points": ["new", "assign", "load", "store"], "triangles": ["e"],
             "load": ["e"], "loadtext": ["e"]}


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in WORKLOADS:
        sys.exit(__doc__)
    w, s, seed, d = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    if not s > 0:
        sys.exit("gen.py: SCALE must be positive")
    o = Out(d)
    info = WORKLOADS[w](o, s, random.Random(seed))
    for rel in RELATIONS[w]:
        o.empty(rel)
    o.close()
    print(info)


if __name__ == "__main__":
    main()
