#!/usr/bin/perl
# kif2asp.pl - translate a KIF/GDL game description into a gringo program.
# Developer cross-check tool for the oracle data in tests/oracles/ (not used by
# run_oracles.sh).  Usage:
#   perl kif2asp.pl [--init] [--dom] [--state FILE] [--does FILE] GAME.kif > game.lp
#   gringo --text game.lp | perl kif2asp.pl --decode | LC_ALL=C sort
# --init   adds true(X) :- init(X).
# --state/--does FILE: facts in infix (true(cell(1,1,x)), does(r,m)) or KIF.
# --dom    makes unsafe facts/rules finite: every variable that occurs in no
#          positive body literal gets a dom(V) literal; dom/1 holds for every
#          integer and every other constant of the program.  (Only needed for
#          games with non-range-restricted clauses such as BenderNG axioms1.)
# Symbols are lower-cased.  Symbols that are not ASP identifiers or small
# integers are written x_HEX (hex of the bytes), as in datalog/cli/README.md; --decode
# turns gringo's output back into infix atoms (one per line, no trailing dot).
use strict; use warnings;

my ($init, $dom, $decode, @extra) = (0, 0, 0);
my @files;
while (@ARGV) {
    my $a = shift @ARGV;
    if ($a eq '--init') { $init = 1 }
    elsif ($a eq '--dom') { $dom = 1 }
    elsif ($a eq '--decode') { $decode = 1 }
    elsif ($a eq '--state' || $a eq '--does') { push @extra, shift @ARGV }
    else { push @files, $a }
}

if ($decode) {
    while (my $l = <STDIN>) {
        $l =~ s/\.\s*$//; chomp $l;
        next if $l eq '';
        next if $l =~ /^dom\(/;
        $l =~ s/\bx_((?:[0-9a-f]{2})+)\b/pack('H*', $1)/ge;
        print "$l\n";
    }
    exit 0;
}

sub slurp { my $f = shift; open my $h, '<', $f or die "$f: $!"; local $/; my $s = <$h>; close $h; $s }

sub tokenize {
    my $s = shift;
    $s =~ s/;[^\n]*//g;
    my @t;
    while ($s =~ /\G\s*(\(|\)|[^\s()]+)/gc) { push @t, $1 }
    return @t;
}

sub parse_all {
    my @t = @_;
    my @forms; my @stack;
    for my $t (@t) {
        if ($t eq '(') { push @stack, [] }
        elsif ($t eq ')') {
            next unless @stack;           # lenient: stray ')'
            my $l = pop @stack;
            if (@stack) { push @{$stack[-1]}, $l } else { push @forms, $l }
        } else {
            if (@stack) { push @{$stack[-1]}, $t } else { push @forms, $t }
        }
    }
    while (@stack) { my $l = pop @stack; if (@stack) { push @{$stack[-1]}, $l } else { push @forms, $l } }
    return @forms;
}

my %consts;
sub sym {
    my $s = lc shift;
    if ($s =~ /^\?(.*)$/) { my $v = uc $1; $v =~ s/[^A-Z0-9_]/_/g; return "V_$v" }
    return $s if $s =~ /^(0|[1-9][0-9]{0,8})$/;
    return $s if $s =~ /^[a-z][A-Za-z0-9_]*$/ && $s !~ /^x_/;
    return 'x_' . unpack('H*', $s);
}
sub term {
    my $x = shift;
    if (!ref $x) { my $s = sym($x); $consts{$s} = 1 unless $s =~ /^V_/; return $s }
    my @l = @$x;
    return 'nil_list' unless @l;
    my $f = sym(ref $l[0] ? 'bad' : $l[0]);
    return $f if @l == 1;
    return "$f(" . join(',', map { term($_) } @l[1..$#l]) . ")";
}
sub vars_of { my $s = shift; my %v; $v{$1} = 1 while $s =~ /\b(V_[A-Z0-9_]*)/g; return keys %v }

# body literal -> list of alternatives, each an array of ASP literals
sub lit {
    my $x = shift;
    if (ref $x && @$x && !ref $x->[0]) {
        my $op = lc $x->[0];
        if ($op eq 'not' && @$x == 2) {
            my $y = $x->[1];
            if (ref $y && @$y == 3 && !ref $y->[0] && lc $y->[0] eq 'distinct') {
                return [[term($y->[1]) . ' = ' . term($y->[2])]];
            }
            my $alts = lit($y);
            if (@$alts == 1 && @{$alts->[0]} == 1) { return [['not ' . $alts->[0][0]]] }
            # not (or a b) = not a, not b
            if (ref $y && lc $y->[0] eq 'or') { return [[ map { 'not ' . $_->[0] } @$alts ]] }
            die "unsupported negation of conjunction\n";
        }
        if ($op eq 'distinct' && @$x == 3) { return [[term($x->[1]) . ' != ' . term($x->[2])]] }
        if ($op eq 'and') { return conj(@$x[1..$#$x]) }
        if ($op eq 'or') { return [ map { @{lit($_)} } @$x[1..$#$x] ] }
    }
    return [[term($x)]];
}
sub conj {
    my @alts = ([]);
    for my $l (@_) {
        my $la = lit($l); my @n;
        for my $a (@alts) { for my $b (@$la) { push @n, [@$a, @$b] } }
        @alts = @n;
    }
    return \@alts;
}

my @out;
sub rule {
    my ($head, @body) = @_;
    my $h = term($head);
    for my $alt (@{conj(@body)}) {
        my @b = @$alt;
        if ($dom) {
            my %safe;
            for my $l (@b) { next if $l =~ /^not / || $l =~ / (!=|=) /; $safe{$_} = 1 for vars_of($l) }
            my %need; $need{$_} = 1 for grep { !$safe{$_} } map { vars_of($_) } ($h, @b);
            push @b, map { "dom($_)" } sort keys %need;
        }
        push @out, @b ? "$h :- " . join(', ', @b) . '.' : "$h.";
    }
}

for my $f (@files) {
    for my $form (parse_all(tokenize(slurp($f)))) {
        if (ref $form && @$form && !ref $form->[0] && $form->[0] eq '<=') {
            my ($h, @b) = @$form[1..$#$form];
            if (ref $h && !ref $h->[0] && lc $h->[0] eq 'not') { warn "skipping rule with negated head\n"; next }
            rule($h, @b);
        } else {
            rule($form);
        }
    }
}
for my $f (@extra) {
    my $s = slurp($f);
    if ($s =~ /^\s*[(;]/) {
        for my $form (parse_all(tokenize($s))) { push @out, term($form) . '.' }
    } else {
        for my $l (split /\n/, $s) { $l =~ s/^\s+|\s+$//g; $l =~ s/\.$//; next if $l eq ''; push @out, "$l." }
    }
}
push @out, 'true(V_X) :- init(V_X).' if $init;
if ($dom) { push @out, map { "dom($_)." } sort grep { $_ ne 'nil_list' } keys %consts }
print "$_\n" for @out;
