#!/usr/bin/env python3
"""folders.py: the include graph between the source folders has no cycle,
no folder holds more than MAX_LINES lines of C, and the clients of the
state machine (the command line and the public API) reach it only through
datalog/machine/machine.h and pipeline.h: they include no backend's header
(nor the circuit compiler's, datalog/compile/) and call no backend
(dl_circuit_*, dl_sm_*) themselves.

A folder is one of lexer/, strata/, index/ or a subfolder of datalog/
(datalog/gdlog.h and datalog/api.c count as the folder `api`).  An edge
A -> B is an #include "B/..." in a file of A.  Prints each cycle found and
each folder over the limit, then `N passed, N failed`; exits 1 on any.
Usage: folders.py [SOURCE_DIR]"""
import os
import re
import sys

MAX_LINES = 4000  # "about 4,000"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
BACKEND_HEADER = re.compile(r'^\s*#\s*include\s+"datalog/(circuit/|compile/|machine/sm\.h|machine/backend_)', re.M)
BACKEND_CALL = re.compile(r'\b(dl_circuit_[a-z_]+|dl_sm_[a-z_]+)\s*\(')


def folder_of(path):
    """The folder a source path (relative to the root) belongs to."""
    parts = path.split('/')
    if parts[0] == 'datalog':
        return parts[1] if len(parts) > 2 else 'api'
    return parts[0]


def sources(root):
    for top in ('lexer', 'strata', 'index', 'datalog'):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(('.c', '.h', '.re')):
                    full = os.path.join(dirpath, n)
                    yield os.path.relpath(full, root), full


def graph(root):
    edges, lines = {}, {}
    for rel, full in sources(root):
        a = folder_of(rel)
        text = open(full, encoding='utf-8', errors='replace').read()
        lines[a] = lines.get(a, 0) + text.count('\n')
        for inc in INCLUDE.findall(text):
            if '/' not in inc:
                continue  # lexer.h and the like, found by the include path
            b = folder_of(inc)
            if b != a:
                edges.setdefault(a, {}).setdefault(b, rel)
    return edges, lines


def cycles(edges):
    """One cycle per strongly connected component with more than one folder."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def backend_uses(root):
    """(file, what) for each client file that reaches a backend directly."""
    clients = [os.path.join('datalog', 'api.c')]
    cli = os.path.join(root, 'datalog', 'cli')
    clients += [os.path.join('datalog', 'cli', n) for n in sorted(os.listdir(cli)) if n.endswith(('.c', '.h'))]
    for rel in clients:
        text = open(os.path.join(root, rel), encoding='utf-8', errors='replace').read()
        for m in BACKEND_HEADER.finditer(text):
            yield rel, 'includes a backend header: ' + m.group(0).strip()
        for m in BACKEND_CALL.finditer(text):
            yield rel, 'calls a backend: ' + m.group(1)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
    edges, lines = graph(root)
    failed = 0
    for comp in cycles(edges):
        failed += 1
        print('FAIL cycle between folders: ' + ', '.join(comp))
        for a in comp:
            for b, where in sorted(edges.get(a, {}).items()):
                if b in comp:
                    print(f'  {a} -> {b} ({where})')
    for f, n in sorted(lines.items()):
        if n > MAX_LINES:
            failed += 1
            print(f'FAIL folder {f} holds {n} lines (at most {MAX_LINES})')
    for rel, what in backend_uses(root):
        failed += 1
        print(f'FAIL {rel} {what}')
    print(f'{0 if failed else 1} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
