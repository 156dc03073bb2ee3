% perf/peer/playout.pl: random playouts in SWI-Prolog over a game translated
% by perf/peer/kif2pl.py, the peer of `gdlog play` (perf/play.sh).
%
%   swipl -O perf/peer/playout.pl -- GAME.pl [--time SEC] [--random N] [--seed S]
%         [--max-depth D] [--goal-default V]
%
% Runs random playouts from the initial state, for SEC seconds (checked
% before each playout) or N playouts (default 1000, at most N with --time):
% in each state, unless terminal, every role in order picks one of its legal
% moves (duplicates removed) uniformly at random; the joint move is asserted
% as g_does/2, the next state is the set of g_next/1 answers, and it replaces
% g_true/1.  At the end of a playout each role must have exactly one goal
% (with --goal-default V, as gdlog play's: a role with none scores V, and
% goal_defaulted counts those playouts).
% Prints one JSON line with the fields of `gdlog play --format json` that
% mean the same: playouts, states (each playout counts its states, the
% initial one included), seconds, cpu_seconds, playouts_per_second,
% playouts_per_cpu_second, states_per_second, mean_depth, min_depth,
% max_depth, goals (mean per role), and load_seconds (consulting GAME.pl).

:- initialization(main, main).

:- dynamic(g_true/1).
:- dynamic(g_does/2).

main :-
    current_prolog_flag(argv, Argv),
    (   Argv = [Game|Opts], options(Opts, o(0, none, 1, 10000, none), o(T, N0, Seed, MaxDepth, GD))
    ->  nb_setval(goal_default, GD), nb_setval(goal_defaulted, 0)
    ;   format(user_error, "usage: swipl -O playout.pl -- GAME.pl [--time SEC] [--random N] [--seed S] [--max-depth D] [--goal-default V]~n", []),
        halt(2)
    ),
    (   N0 == none -> ( T > 0 -> N = inf ; N = 1000 ) ; N = N0 ),
    get_time(L0),
    load_files(user:Game, [silent(true)]),
    get_time(L1),
    LoadS is L1 - L0,
    set_random(seed(Seed)),
    findall(R, user:peer_role(R), Roles),
    findall(X, user:g_init(X), Init0),
    sort(Init0, Init),
    length(Roles, NR),
    length(Sums0, NR), maplist(=(0), Sums0),
    statistics(cputime, C0),
    get_time(W0),
    run(0, N, T, W0, MaxDepth, Roles, Init, s(0, 0, inf, 0, Sums0), s(P, S, Min, Max, Sums)),
    get_time(W1),
    statistics(cputime, C1),
    Secs is W1 - W0, Cpu is C1 - C0,
    report(Game, Seed, P, S, Min, Max, Secs, Cpu, LoadS, Roles, Sums).

options([], O, O).
options(['--time', V|R], o(_, N, S, D, G), O) :- !, atom_number(V, T), T > 0, options(R, o(T, N, S, D, G), O).
options(['--random', V|R], o(T, _, S, D, G), O) :- !, atom_number(V, N), integer(N), N >= 0, options(R, o(T, N, S, D, G), O).
options(['--seed', V|R], o(T, N, _, D, G), O) :- !, atom_number(V, S), integer(S), options(R, o(T, N, S, D, G), O).
options(['--max-depth', V|R], o(T, N, S, _, G), O) :- !, atom_number(V, D), integer(D), options(R, o(T, N, S, D, G), O).
options(['--goal-default', V|R], o(T, N, S, D, _), O) :- !, atom_number(V, G), integer(G), options(R, o(T, N, S, D, G), O).

run(I, N, T, W0, MaxDepth, Roles, Init, Acc0, Acc) :-
    (   ( N \== inf, I >= N )
    ->  Acc = Acc0
    ;   T > 0, get_time(W), W - W0 >= T
    ->  Acc = Acc0
    ;   playout(I, Roles, Init, MaxDepth, Depth, Goals),
        Acc0 = s(P0, S0, Min0, Max0, Sums0),
        P1 is P0 + 1, S1 is S0 + Depth + 1,
        Min1 is min(Min0, Depth), Max1 is max(Max0, Depth),
        maplist(add, Goals, Sums0, Sums1),
        I1 is I + 1,
        run(I1, N, T, W0, MaxDepth, Roles, Init, s(P1, S1, Min1, Max1, Sums1), Acc)
    ).

playout(I, Roles, Init, MaxDepth, Depth, Goals) :-
    set_state(Init),
    walk(I, 0, MaxDepth, Roles, Depth),
    nb_setval(defaulted_now, false),
    maplist(goal_of(I), Roles, Goals),
    (   nb_getval(defaulted_now, true)
    ->  nb_getval(goal_defaulted, K0), K1 is K0 + 1, nb_setval(goal_defaulted, K1)
    ;   true
    ).

walk(I, D, MaxDepth, Roles, Depth) :-
    (   user:g_terminal
    ->  Depth = D
    ;   D >= MaxDepth
    ->  format(user_error, "playout ~w: no terminal state within ~w joint moves (--max-depth)~n", [I, MaxDepth]),
        halt(1)
    ;   maplist(pick(I, D), Roles, Moves),
        forall(member(R-M, Moves), assertz(user:g_does(R, M))),
        forall(user:peer_move_table(G), abolish_table_subgoals(user:G)),
        findall(X, user:g_next(X), Next0),
        sort(Next0, Next),
        retractall(user:g_does(_, _)),
        set_state(Next),
        D1 is D + 1,
        walk(I, D1, MaxDepth, Roles, Depth)
    ).

pick(I, D, R, R-M) :-
    findall(M0, user:g_legal(R, M0), Ms0),
    sort(Ms0, Ms),
    (   Ms == []
    ->  format(user_error, "playout ~w: role ~q has no legal move after ~w joint moves~n", [I, R, D]),
        halt(1)
    ;   random_member(M, Ms)
    ).

set_state(Facts) :-
    retractall(user:g_true(_)),
    forall(member(X, Facts), assertz(user:g_true(X))),
    forall(user:peer_state_table(G), abolish_table_subgoals(user:G)),
    forall(user:peer_move_table(G), abolish_table_subgoals(user:G)).

goal_of(I, R, V) :-
    findall(V0, user:g_goal(R, V0), Vs0),
    sort(Vs0, Vs),
    (   Vs = [A], atom_number(A, V)
    ->  true
    ;   Vs == [], nb_getval(goal_default, D), D \== none
    ->  V = D, nb_setval(defaulted_now, true)
    ;   format(user_error, "playout ~w: role ~q has no goal value or several: ~q~n", [I, R, Vs]),
        halt(1)
    ).

report(Game, Seed, P, S, Min, Max, Secs, Cpu, LoadS, Roles, Sums) :-
    D is max(P, 1),
    Pps is P / max(Secs, 1.0e-9), Sps is S / max(Secs, 1.0e-9), Ppc is P / max(Cpu, 1.0e-9),
    Mean is (S - P) / D,
    ( P > 0 -> MinD = Min ; MinD = 0 ),
    json_string(Game, File),
    format("{\"engine\": \"swi-prolog\", \"file\": ~w, \"seed\": ~w, \"playouts\": ~w, \"states\": ~w, \"seconds\": ~6f,",
           [File, Seed, P, S, Secs]),
    format(" \"cpu_seconds\": ~6f, \"playouts_per_cpu_second\": ~1f,~n", [Cpu, Ppc]),
    format(" \"playouts_per_second\": ~1f, \"states_per_second\": ~1f, \"mean_depth\": ~3f, \"min_depth\": ~w, \"max_depth\": ~w,~n",
           [Pps, Sps, Mean, MinD, Max]),
    format(" \"load_seconds\": ~6f, \"goals\": {", [LoadS]),
    foldl(goal_json(D), Roles, Sums, "", _),
    format("}"),
    nb_getval(goal_default, GD),
    (   GD == none -> true
    ;   nb_getval(goal_defaulted, K), format(", \"goal_default\": ~w, \"goal_defaulted\": ~w", [GD, K])
    ),
    format("}~n").

goal_json(D, R, Sum, Sep, ", ") :-
    format(atom(Name), "~w", [R]),
    json_string(Name, J),
    M is Sum / D,
    format("~w~w: ~4f", [Sep, J, M]).

add(G, S0, S) :- S is S0 + G.

json_string(A, J) :-
    atom_codes(A, Cs),
    foldl(json_char, Cs, Out, []),
    atom_codes(J0, Out),
    atomic_list_concat(['"', J0, '"'], J).

json_char(C, [0'\\, C|T], T) :- ( C == 0'" ; C == 0'\\ ), !.
json_char(C, [C|T], T).
