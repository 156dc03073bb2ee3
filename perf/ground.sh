#!/usr/bin/env bash
# perf/ground.sh [-r RUNS] [-t SECONDS] [GDLOG] -- grounding with
# gdlog and with gringo two-stage, side by side in one run.
#
# For each game:
#   gdlog:  gdlog ground GAME > /dev/null
#   gringo, two stages (the ASP texts are made by gdlog beforehand, not timed):
#     1. gringo --text GPLUS.lp, GPLUS.lp = gdlog reduce --program asp GAME:
#        the G+ least fixpoint; its true/does atoms become gp_true/gp_does facts;
#     2. gringo --text FULL.lp, FULL.lp = gdlog print --format asp GAME, the
#        facts of stage 1, and {true(X)} :- gp_true(X). {does(R,A)} :- gp_does(R,A).
#     gringo's time is stage 1 + stage 2.
# The three commands run in turn, once untimed, then RUNS rounds (default
# 3), gdlog first in one round and last in the next, each run a process of
# its own (perf/paired_time.py): both sides meet the machine in the same
# state.  The best wall time of each command is kept.  Prints a markdown
# table with, per game, the ratio gringo/gdlog of the best times and the
# median over the rounds of the ratio within a round, then the median of
# each over the games both finished; gdlog's ground size (rules, atoms,
# propnet components) comes from `gdlog ground --stats`.
# A run that passes SECONDS (default 600) counts as unfinished.
# Games: GAMES (names in ../shared/games/kif; chess is tests/games/chess.kif).
set -u
RUNS=3
T=600
while getopts "r:t:" o; do
    case $o in
        r) RUNS=$OPTARG ;;
        t) T=$OPTARG ;;
        *) echo "usage: $0 [-r RUNS] [-t SECONDS] [GDLOG]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GDLOG=${1:-$HERE/../build/gdlog}
KIF=${KIF:-$HERE/../../shared/games/kif}
DEFAULT_GAMES="ticTacToe connectFour breakthrough speedChess hex othello-comp2007 skirmish checkers amazons chess"
command -v gringo > /dev/null || { echo "gringo not found (apt-get install gringo)"; exit 2; }
[ -x "$GDLOG" ] || { echo "no gdlog binary at $GDLOG"; exit 2; }
[ -d "$KIF" ] || { echo "skip: $KIF not found"; exit 77; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

game_file() {
    if [ "$1" = chess ] && [ -f "$HERE/../tests/games/chess.kif" ]; then echo "$HERE/../tests/games/chess.kif"
    else echo "$KIF/$1.kif"; fi
}

# paired GAME: "gdlog-best gringo-best ratio pair-ratio" over RUNS rounds of
# gdlog and gringo's two stages, or "unfinished" when a run fails or passes
# T seconds.  Each run is the command's own process, started by
# perf/paired_time.py: timeout(1) and a shell in between added about 4 ms to
# every run (a third of a small game's grounding, twice that to gringo's two
# stages).
paired() {
    python3 "$HERE/paired_time.py" "$RUNS" "$T" "$GDLOG" ground "$1" -- \
        gringo --text "$W/gp.lp" -- gringo --text "$W/full.lp"
}

# gringo_stages GAME: writes $W/gp.lp and $W/full.lp for the two stages.
gringo_stages() {
    "$GDLOG" reduce --program asp "$1" > "$W/gp.lp" || return 1
    timeout "$T" gringo --text "$W/gp.lp" > "$W/gp.out" 2>/dev/null || return 1
    { "$GDLOG" print --format asp "$1" || return 1
      grep -E '^(true|does)\(' "$W/gp.out" | sed 's/^true(/gp_true(/; s/^does(/gp_does(/'
      echo '{true(X)} :- gp_true(X).'
      echo '{does(R,A)} :- gp_does(R,A).'
    } > "$W/full.lp"
}

# size_of GAME: "rules atoms components" from gdlog ground --stats-format json.
size_of() {
    "$GDLOG" ground --stats --stats-format json "$1" 2>&1 > /dev/null |
        python3 -c 'import json,sys
d=json.loads(sys.stdin.read()); s=d["ground"]
print(s.get("rules","?"), s.get("atoms","?"), s.get("components","?"))' 2>/dev/null || echo "? ? ?"
}

echo "gdlog: $("$GDLOG" --version 2>&1 | head -1); gringo: $(gringo --version | head -1); $(nproc) cores; runs: $RUNS"
printf '| game | gdlog s | gringo two-stage s | ratio | pair ratio | rules | atoms | components |\n'
printf '|---|---|---|---|---|---|---|---|\n'
ratios=()
pairs=()
for g in ${GAMES:-$DEFAULT_GAMES}; do
    f=$(game_file "$g")
    [ -f "$f" ] || { echo "| $g | no file | | | | | | |"; continue; }
    gd=unfinished gr=unfinished ratio=- pair=-
    if gringo_stages "$f"; then
        read -r gd gr ratio pair <<< "$(paired "$f")"
        if [ "$gd" = unfinished ]; then
            gr=unfinished ratio=- pair=-
        else
            ratio=$(printf '%.1f' "$ratio") pair=$(printf '%.1f' "$pair")
            ratios+=("$ratio")
            pairs+=("$pair")
        fi
    fi
    read -r rules atoms comps <<< "$(size_of "$f")"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$g" "$gd" "$gr" "${ratio}x" "${pair}x" \
        "$rules" "$atoms" "$comps"
done

# median_of X...: the median of the numbers given.
median_of() {
    printf '%s\n' "$@" | sort -g |
        awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
if [ ${#ratios[@]} -gt 0 ]; then
    slowest=$(printf '%s\n' "${ratios[@]}" "${pairs[@]}" | sort -g | head -1)
    echo
    echo "median ratio gringo/gdlog over ${#ratios[@]} games: $(median_of "${ratios[@]}")x of the best times," \
        "$(median_of "${pairs[@]}")x pair by pair; lowest ${slowest}x (target: median >= 10x, none below 1x)"
fi
