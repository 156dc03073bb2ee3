#!/usr/bin/env bash
# perf/ground.sh [-r RUNS] [-t SECONDS] [GDLOG] -- grounding (issue 12) with
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
# Each command runs once untimed, then RUNS times (default 3), each as a
# process of its own (perf/best_time.py); the best wall time of each is
# kept.  Prints a markdown table with the ratio gringo/gdlog per game and
# the median ratio over the games both finished; gdlog's ground size
# (rules, atoms, propnet components) comes from `gdlog ground --stats`.
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

# best_time CMD...: the best wall time in seconds of RUNS runs (after one
# untimed run), or "unfinished" when a run fails or passes T seconds.  Each
# run is the command's own process, started by perf/best_time.py: timeout(1)
# and a shell in between added about 4 ms to every run (a third of a small
# game's grounding, twice that to gringo's two stages).
best_time() {
    python3 "$HERE/best_time.py" "$RUNS" "$T" "$@"
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
printf '| game | gdlog s | gringo two-stage s | ratio | rules | atoms | components |\n|---|---|---|---|---|---|---|\n'
ratios=()
for g in ${GAMES:-$DEFAULT_GAMES}; do
    f=$(game_file "$g")
    [ -f "$f" ] || { echo "| $g | no file | | | | | |"; continue; }
    gd=$(best_time "$GDLOG" ground "$f")
    if gringo_stages "$f"; then
        s1=$(best_time gringo --text "$W/gp.lp")
        s2=$(best_time gringo --text "$W/full.lp")
        if [ "$s1" = unfinished ] || [ "$s2" = unfinished ]; then gr=unfinished
        else gr=$(printf '%.4f' "$(echo "$s1 + $s2" | bc -l)"); fi
    else
        gr=unfinished
    fi
    ratio="-"
    if [ "$gd" != unfinished ] && [ "$gr" != unfinished ]; then
        ratio=$(printf '%.1f' "$(echo "$gr / $gd" | bc -l)")
        ratios+=("$ratio")
    fi
    read -r rules atoms comps <<< "$(size_of "$f")"
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$g" "$gd" "$gr" "${ratio}x" "$rules" "$atoms" "$comps"
done
if [ ${#ratios[@]} -gt 0 ]; then
    median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
    slowest=$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)
    echo
    echo "median ratio gringo/gdlog: ${median}x over ${#ratios[@]} games; lowest ${slowest}x (target: median >= 10x, none below 1x)"
fi
