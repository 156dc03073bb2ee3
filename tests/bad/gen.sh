#!/usr/bin/env bash
# gen.sh DIR: writes the bad-input cases too big or too binary to commit
# into DIR.  Their expected stderr is committed here as NAME.err.
set -eu
D=$1
mkdir -p "$D"
# 100,000-deep nesting of terms, literals and parentheses
python3 - "$D" <<'PY'
import sys
d = sys.argv[1]
n = 100000
open(d + '/deep_terms.kif', 'w').write('(p ' + '(f ' * n + 'a' + ')' * (n + 1) + '\n')
open(d + '/deep_parens.kif', 'w').write('(' * n + 'p' + ')' * n + '\n')
open(d + '/deep_not.kif', 'w').write('(p a)\n(<= q ' + '(not ' * n + '(p a)' + ')' * (n + 1) + '\n')
open(d + '/deep_terms.dl', 'w').write('p(' + 'f(' * n + 'a' + ')' * (n + 1) + '.\n')
# a 1 MiB symbol: fine as a fact, and shown cut short in a message
big = 'x' * (1 << 20)
open(d + '/big_symbol.kif', 'w').write('(p ' + big + ')\n')
open(d + '/big_symbol_error.kif', 'w').write('(<= (p ?y) (q ' + big + '))\n')
open(d + '/huge_integer.dl', 'w').write('n(' + '9' * 100000 + ').\n')
# rules past the parser's limits of 1000 literals and 10,000 variables
open(d + '/many_literals.kif', 'w').write('(q a)\n(<= p\n' + '\n'.join('  (q ?v%d)' % i for i in range(1001)) + ')\n')
open(d + '/many_variables.dl', 'w').write('q(f(' + ','.join('a' for i in range(10001)) + ')).\n' +
    'p :- q(f(' + ','.join('V%d' % i for i in range(10001)) + ')).\n')
# bytes that are not text
open(d + '/nul_byte.kif', 'wb').write(b'(role white)\n(init (cell 1\x001 b))\n')
open(d + '/invalid_utf8.kif', 'wb').write(b'(role white)\n(init (cell \xff\xfe b))\n')
open(d + '/binary.kif', 'wb').write(b'\x7fELF\x02\x01\x01\x00' + bytes(range(256)) * 4)
open(d + '/nul_only.dl', 'wb').write(b'\x00' * 16)
PY
