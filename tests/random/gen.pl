#!/usr/bin/env perl
# gen.pl SEED: prints a random safe, stratified Datalog program (the infix
# syntax of the top-level README) for tests/random/run.sh.
#
# - Facts of four base predicates e0/1, e1/2, e2/2, e3/3 over the constants
#   1..4, a, b (1..36, a..d in every fifth program, with up to 400 facts
#   each) and the terms f(c), g(c,d).
# - Six derived predicates p0..p5 in three groups of two (arities 0..3):
#   a rule's positive atoms read base predicates and derived ones of its own
#   group or a lower one (recursion, mutual within a group), its negations
#   only base predicates and lower groups, so the program is stratified.
# - Rule bodies of one to four atoms joined on shared variables, constants
#   and f(X) in argument places, `distinct` and `~distinct`; heads take
#   variables of positive atoms or constants, so the rules are safe and the
#   model is finite.
# - Now and then a rule comes again with its variables renamed and its body
#   shuffled: with one more atom, a variable made a constant, or as it was
#   (rules the first one subsumes, datalog/eval/subsume.h, which gdlog leaves
#   out), or with its negation or distinct swapped for another atom (a near
#   miss, which it must keep).
use strict;
use warnings;

my $iSeed = shift // die "usage: $0 SEED\n";
srand($iSeed);

# Mostly six constants; every fifth program 40 and many facts, so that
# relations grow dense and the planner's devices for large joins engage.
my $bBig = $iSeed % 5 == 0;
my @aConst = $bBig ? (1 .. 36, 'a', 'b', 'c', 'd') : (1, 2, 3, 4, 'a', 'b');
my $nFacts = $bBig ? 400 : 12;
my %hArity = (e0 => 1, e1 => 2, e2 => 2, e3 => 3);
my @aBase = sort keys %hArity;
my @aGroup;                         # derived predicate -> its group
for my $i (0 .. 5) {
    $hArity{"p$i"} = int(rand(4));
    $aGroup[$i] = int($i / 2);
}

sub pick { return $_[int(rand(@_))]; }

sub ground_term {
    my $r = rand();
    return pick(@aConst) if $r < 0.8;
    return 'f(' . pick(@aConst) . ')' if $r < 0.9;
    return 'g(' . pick(@aConst) . ',' . pick(@aConst) . ')';
}

sub atom {
    my ($zPred, @aArgs) = @_;
    return @aArgs ? "$zPred(" . join(',', @aArgs) . ')' : $zPred;
}

# The predicates a rule of group G may read positively, and negatively.
sub positive_preds { my $g = shift; return (@aBase, map { "p$_" } grep { $aGroup[$_] <= $g } 0 .. 5); }
sub negative_preds { my $g = shift; return (@aBase, map { "p$_" } grep { $aGroup[$_] < $g } 0 .. 5); }

# A body argument: mostly a variable of the pool, sometimes a constant or f(V).
sub body_arg {
    my ($aBound) = @_;
    my $r = rand();
    my $zVar = pick(qw(X Y Z W));
    push @$aBound, $zVar if $r < 0.9;
    return $zVar if $r < 0.8;
    return "f($zVar)" if $r < 0.9;
    return pick(@aConst);
}

# An argument over variables already bound (or a constant).
sub bound_arg {
    my ($aBound) = @_;
    return @$aBound && rand() < 0.85 ? pick(@$aBound) : pick(@aConst);
}

# One rule for derived predicate number $i: [head, literals...].
sub make_rule {
    my ($i) = @_;
    my $g = $aGroup[$i];
    my (@aBound, @aLits);
    my @aPos = positive_preds($g);
    for (1 .. 1 + int(rand(3))) {
        my $zPred = pick(@aPos);
        push @aLits, atom($zPred, map { body_arg(\@aBound) } 1 .. $hArity{$zPred});
    }
    if (rand() < 0.35) {
        my $zPred = pick(negative_preds($g));
        push @aLits, '~' . atom($zPred, map { bound_arg(\@aBound) } 1 .. $hArity{$zPred});
    }
    if (@aBound && rand() < 0.3) {
        my $zNot = rand() < 0.25 ? '~' : '';
        push @aLits, $zNot . 'distinct(' . bound_arg(\@aBound) . ',' . bound_arg(\@aBound) . ')';
    }
    return [atom("p$i", map { bound_arg(\@aBound) } 1 .. $hArity{"p$i"}), @aLits];
}

# The rule with its variables renamed and its body shuffled.
sub variant {
    my ($aRule) = @_;
    my %hNew = (X => 'V1', Y => 'V2', Z => 'V3', W => 'V4');
    my @aOut = map { (my $z = $_) =~ s/\b([XYZW])\b/$hNew{$1}/g; $z } @$aRule;
    my $zHead = shift @aOut;
    for (my $k = $#aOut; $k > 0; $k--) {
        my $j = int(rand($k + 1));
        @aOut[$k, $j] = @aOut[$j, $k];
    }
    return [$zHead, @aOut];
}

# A renamed, shuffled copy of a rule for derived predicate $i: with one
# more positive atom, or with a variable made a constant (both subsumed by
# the rule), or with its negation or distinct swapped for a positive atom
# (a near miss that must be kept), or as it was.
sub copy_of {
    my ($aRule, $i) = @_;
    my $aCopy = variant($aRule);
    my $zAtom = make_rule($i)->[1];            # a positive atom of fresh variables
    my $r = rand();
    if ($r < 0.4) {
        push @$aCopy, $zAtom;
    } elsif ($r < 0.6) {
        my $zConst = pick(@aConst);
        s/\bV1\b/$zConst/g for @$aCopy;
    } elsif ($r < 0.85) {
        my ($k) = grep { $aCopy->[$_] =~ /^~|^distinct/ } 1 .. $#$aCopy;
        $aCopy->[$k] = $zAtom if defined $k;
    }
    return $aCopy;
}

sub print_rule {
    my ($aRule) = @_;
    my ($zHead, @aBody) = @$aRule;
    print "$zHead :- ", join(' & ', @aBody), ".\n";
}

for my $zPred (@aBase) {
    my %hSeen;
    for (1 .. 4 + int(rand($nFacts))) {
        my $zFact = atom($zPred, map { ground_term() } 1 .. $hArity{$zPred});
        print "$zFact.\n" unless $hSeen{$zFact}++;
    }
}
for my $i (0 .. 5) {
    for (1 .. 1 + int(rand(4))) {
        my $aRule = make_rule($i);
        print_rule($aRule);
        next unless rand() < 0.3;
        print_rule(copy_of($aRule, $i));
    }
}
