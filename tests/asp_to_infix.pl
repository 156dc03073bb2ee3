#!/usr/bin/env perl
# asp_to_infix.pl: turns `gringo --text` output into gdlog's infix atoms.
#
#   gringo --text prog.lp | perl asp_to_infix.pl | LC_ALL=C sort
#
# Reads gringo's output on stdin and prints one atom per line in the form
# `gdlog model` prints (datalog/cli/README.md): `p(a,f(b,c))`, 0-ary atoms bare, no spaces.
# - Lines starting with `#` (gringo's internal atoms and directives) and empty
#   lines are dropped; the trailing `.` of each fact is stripped.
# - Every identifier matching x_[0-9a-f]+ is the hex of the original symbol's
#   bytes (the name mangling of `gdlog print --format asp`) and is decoded,
#   wherever it occurs: predicate name, constant, function name, nested term.
# - Quoted strings (gdlog never emits them) are printed without their quotes,
#   with gringo's escapes \" \\ \n undone.
# - A line that is not a single fact (a rule, a disjunction, a choice: what
#   gringo prints when a program has no unique stratified model) is an error:
#   the script names the line on stderr and exits 3, so callers cannot mistake
#   a partial model for a full one.
#
#   perl asp_to_infix.pl --self-test
# mangles random symbols the way datalog/cli/README.md says, grounds them with gringo,
# decodes gringo's output and compares; exit 0 ok, 1 mismatch, 77 no gringo.
use strict;
use warnings;

binmode STDIN;
binmode STDOUT;

my $zLine;            # the line being parsed, for error messages
my $iLine = 0;        # its number

sub fail {
    my ($zWhy) = @_;
    print STDERR "asp_to_infix: line $iLine: $zWhy: $zLine\n";
    exit 3;
}

# decode_name: the original bytes of an identifier, decoded when mangled,
# then quoted as gdlog's infix output quotes a symbol that is not
# [a-z0-9][A-Za-z0-9_]*: 'east-speed', with \\ and \' inside.
sub decode_name {
    my ($z) = @_;
    if ($z =~ /\Ax_((?:[0-9a-f][0-9a-f])+)\z/) {
        $z = pack('H*', $1);
    }
    return infix_symbol($z);
}

# infix_symbol: a symbol as gdlog's infix output writes it.
sub infix_symbol {
    my ($z) = @_;
    return $z if $z =~ /\A[a-z0-9][A-Za-z0-9_]*\z/;
    $z =~ s/([\\'])/\\$1/g;
    return "'$z'";
}

# term -> NAME [ '(' term { ',' term } ')' ] | NUMBER | STRING | '(' terms ')'
# Parses one term at pos($$pz) of the string and returns its infix form.
sub parse_term {
    my ($pz) = @_;
    if ($$pz =~ /\G\s*([_']*[a-z][A-Za-z0-9_']*)/gc) {
        my $zName = decode_name($1);
        if ($$pz =~ /\G\s*\(/gc) {
            return $zName . '(' . parse_args($pz) . ')';
        }
        return $zName;
    }
    if ($$pz =~ /\G\s*(-?[0-9]+)/gc) {
        return $1;
    }
    if ($$pz =~ /\G\s*"((?:[^"\\]|\\.)*)"/gc) {
        my $z = $1;
        $z =~ s/\\(.)/$1 eq 'n' ? "\n" : $1/ge;
        return infix_symbol($z);
    }
    if ($$pz =~ /\G\s*\(/gc) {          # tuple: never produced by gdlog
        return '(' . parse_args($pz) . ')';
    }
    fail('cannot parse a term at column ' . (pos($$pz) // 0));
}

# args -> term { ',' term } ')'    (the '(' has been read)
sub parse_args {
    my ($pz) = @_;
    my @aArg = (parse_term($pz));
    while ($$pz =~ /\G\s*,/gc) {
        push @aArg, parse_term($pz);
    }
    $$pz =~ /\G\s*\)/gc or fail('expected `)` at column ' . (pos($$pz) // 0));
    return join(',', @aArg);
}

exit self_test() if @ARGV && $ARGV[0] eq '--self-test';

while (defined($zLine = <STDIN>)) {
    $iLine++;
    $zLine =~ s/\r?\n\z//;
    next if $zLine =~ /\A\s*\z/ || $zLine =~ /\A#/;
    my $z = $zLine;
    $z =~ s/\s*\.\s*\z// or fail('no trailing `.`');
    $z =~ /\A\s*[_']*[a-z]/ or fail('not an atom');
    pos($z) = 0;
    my $zAtom = parse_term(\$z);
    $z =~ /\G\s*\z/gc or fail('not a single fact');
    print $zAtom, "\n";
}
exit 0;

# mangle: a symbol as `gdlog print --format asp` writes it (datalog/cli/README.md).
sub mangle {
    my ($z) = @_;
    return $z if $z =~ /\A[a-z][A-Za-z0-9_]*\z/ && $z !~ /\Ax_/;
    return $z if $z =~ /\A(?:0|[1-9][0-9]{0,8})\z/;
    return 'x_' . unpack('H*', $z);
}

# random_symbol: a symbol that is often, but not always, safe for ASP.
sub random_symbol {
    my @aPick = ('a', 'cell', 'pieces-taken', 'x_ab', 'x_', 'X', '_b', '?x',
                 '0', '7', '123456789', '1234567890', '007', '-1', 'b1',
                 "caf\xc3\xa9", 'a.b', "it's", 'ab"c', 'a\\b', '#inf',
                 'x_7069', 'mark', 'Upper', 'with space', 'f(x)', 'a,b');
    my $z = $aPick[int(rand(@aPick))];
    if (rand() < 0.3) {
        $z = join('', map { chr(33 + int(rand(94))) } 1 .. 1 + int(rand(6)));
    }
    return $z;
}

# random_term: a pair (infix form, ASP form) of depth at most $nDepth.
sub random_term {
    my ($nDepth) = @_;
    my $zSym = random_symbol();
    return (infix_symbol($zSym), mangle($zSym)) if $nDepth == 0 || rand() < 0.5;
    # an integer cannot name a function in ASP; datalog/cli/README.md leaves that open
    $zSym = 'f' . $zSym if $zSym =~ /\A[0-9]+\z/;
    my (@aInfix, @aAsp);
    for (1 .. 1 + int(rand(3))) {
        my ($zI, $zA) = random_term($nDepth - 1);
        push @aInfix, $zI;
        push @aAsp, $zA;
    }
    return (infix_symbol($zSym) . '(' . join(',', @aInfix) . ')',
            mangle($zSym) . '(' . join(',', @aAsp) . ')');
}

sub self_test {
    srand($ARGV[1] // 42);
    my $zDir = "/tmp/asp_to_infix.$$";
    mkdir $zDir or die "asp_to_infix: cannot create $zDir: $!\n";
    my (%hExpect, @aAsp);
    for my $i (1 .. 300) {
        my ($zTerm, $zTermAsp) = random_term(3);
        my $zPred = random_symbol();
        $zPred = 'p' . $i if $zPred =~ /\A(?:0|[1-9][0-9]*)\z/;
        if ($i % 10 == 0) {                        # 0-ary atom
            $hExpect{infix_symbol($zPred)} = 1;
            push @aAsp, mangle($zPred) . '.';
        } else {
            $hExpect{infix_symbol($zPred) . "($zTerm)"} = 1;
            push @aAsp, mangle($zPred) . "($zTermAsp).";
        }
        # the same term once more through a rule, as `gdlog model --init` does
        $hExpect{"init($zTerm)"} = 1;
        $hExpect{"true($zTerm)"} = 1;
        push @aAsp, "init($zTermAsp).";
    }
    push @aAsp, 'true(X) :- init(X).', 'str("a\\"b", "c d").',
        'neg(X) :- init(X), not true(X).';     # empty: checks nothing leaks
    $hExpect{"str('a\"b','c d')"} = 1;
    open(my $hOut, '>', "$zDir/t.lp") or die "asp_to_infix: $zDir/t.lp: $!\n";
    binmode $hOut;
    print $hOut "$_\n" for @aAsp;
    close $hOut;
    my $rc = system("gringo --text '$zDir/t.lp' > '$zDir/g.txt' 2> '$zDir/g.err'");
    if ($rc == -1 || $rc >> 8 == 127) {
        print "skip: gringo not found\n";
        system('rm', '-rf', $zDir);
        return 77;
    }
    if ($rc != 0) {
        print "FAIL: gringo exited with status ", $rc >> 8, " (see $zDir)\n";
        return 1;
    }
    my $zGot = `perl '$0' < '$zDir/g.txt'`;
    if ($? != 0) {
        print "FAIL: decoding failed (see $zDir)\n";
        return 1;
    }
    my %hGot = map { $_ => 1 } split(/\n/, $zGot);
    my @aMissing = grep { !$hGot{$_} } sort keys %hExpect;
    my @aExtra = grep { !$hExpect{$_} } sort keys %hGot;
    if (@aMissing || @aExtra) {
        print "FAIL: missing: $_\n" for @aMissing[0 .. ($#aMissing < 4 ? $#aMissing : 4)];
        print "FAIL: extra: $_\n" for @aExtra[0 .. ($#aExtra < 4 ? $#aExtra : 4)];
        print "(files kept in $zDir)\n";
        return 1;
    }
    printf "ok: %d atoms round-tripped through gringo\n", scalar(keys %hExpect);
    system('rm', '-rf', $zDir);
    return 0;
}
