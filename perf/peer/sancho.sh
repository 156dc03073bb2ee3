# shellcheck shell=bash disable=SC2034  # SANCHO_CP, SANCHO_CMD and SANCHO_ERROR are for the scripts that source this
# perf/peer/sancho.sh: sourced by reducer.sh and play.sh, which run Sancho
# 1.61c's propnet state machine (ForwardDeadReckonPropnetStateMachine) on KIF
# files through perf/peer/SanchoBench.java.  One copy of the set-up:
# - the jars: sancho.jar, log4j-api-2.0-rc1.jar and lucene-core-4.8.1.jar
#   from lib/sancho of AlexLandau/gdl-perf (SANCHO_JARS=DIR, else the
#   repository is cloned from GitHub into the work directory), Guava
#   (GUAVA, Debian libguava-java), JUnit 4 (JUNIT, Debian junit4: Sancho
#   calls org.junit.Assert outside its tests), and Trove (TROVE,
#   libtrove3-java) on the class path when present;
# - Sancho's repackaged GdlPool calls MapMaker.softValues(), which Guava 31
#   lacks: that one class is copied with the call renamed to weakValues()
#   (same descriptor, same name length, so a byte substitution; an interning
#   pool whose entries still go when nothing else holds them) ahead of
#   sancho.jar.
# SanchoBench builds as gdl-perf does (initialize, then
# optimizeStateTransitionMechanism with a budget of SANCHO_OPTIMISE seconds,
# default 5), plays WARMUP seconds (default 1) of untimed random playouts,
# then the timed ones, and prints one line (see SanchoBench.java).  JAVA_OPTS
# defaults to -Xmx8g.  On failure the functions return 1 with the reason in
# SANCHO_ERROR.
SANCHO_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${GUAVA:=/usr/share/java/guava.jar}"
: "${JUNIT:=/usr/share/java/junit4.jar}"
: "${TROVE:=/usr/share/java/trove4j.jar}"
: "${SANCHO_OPTIMISE:=5}"
: "${WARMUP:=1}"
: "${JAVA_OPTS:=-Xmx8g}"
SANCHO_CP=

# setup_sancho DIR: the jars found (or cloned into DIR/gdl-perf), GdlPool
# patched and SanchoBench compiled under DIR/sancho; sets SANCHO_CP.
setup_sancho() {
    local w=$1 d=${SANCHO_JARS:-} j
    SANCHO_DIR=$w/sancho
    if ! command -v java > /dev/null || ! command -v javac > /dev/null; then
        SANCHO_ERROR="java and javac not found (apt-get install default-jdk-headless)"; return 1
    fi
    [ -f "$GUAVA" ] || { SANCHO_ERROR="no Guava at $GUAVA (apt-get install libguava-java, or GUAVA=JAR)"; return 1; }
    if [ -z "$d" ]; then
        d=$w/gdl-perf/lib/sancho
        git clone -q --depth 1 https://github.com/AlexLandau/gdl-perf "$w/gdl-perf" 2> /dev/null \
            || { SANCHO_ERROR="no SANCHO_JARS and could not clone AlexLandau/gdl-perf (set SANCHO_JARS to a directory holding its lib/sancho/*.jar)"; return 1; }
    fi
    for j in sancho.jar log4j-api-2.0-rc1.jar lucene-core-4.8.1.jar; do
        [ -f "$d/$j" ] || { SANCHO_ERROR="no $d/$j (SANCHO_JARS=DIR with lib/sancho/*.jar of AlexLandau/gdl-perf)"; return 1; }
    done
    [ -f "$JUNIT" ] || { SANCHO_ERROR="no JUnit 4 at $JUNIT (apt-get install junit4, or JUNIT=JAR)"; return 1; }
    local pool=org/repackage/sancho_v1_61c/org/ggp/base/util/gdl/grammar/GdlPool.class
    mkdir -p "$SANCHO_DIR/shim" "$SANCHO_DIR/jar" "$SANCHO_DIR/classes" "$SANCHO_DIR/run"
    (cd "$SANCHO_DIR/jar" && unzip -q -o "$d/sancho.jar" "$pool") 2> /dev/null \
        || (cd "$SANCHO_DIR/jar" && jar xf "$d/sancho.jar" "$pool") \
        || { SANCHO_ERROR="could not extract GdlPool.class from $d/sancho.jar"; return 1; }
    mkdir -p "$SANCHO_DIR/shim/$(dirname $pool)"
    LC_ALL=C sed 's/softValues/weakValues/g' "$SANCHO_DIR/jar/$pool" > "$SANCHO_DIR/shim/$pool"
    LC_ALL=C grep -q weakValues "$SANCHO_DIR/shim/$pool" || { SANCHO_ERROR="could not patch Sancho's GdlPool"; return 1; }
    javac -nowarn -d "$SANCHO_DIR/classes" -cp "$d/sancho.jar" "$SANCHO_HERE/SanchoBench.java" 2> "$SANCHO_DIR/javac.err" \
        || { SANCHO_ERROR="javac failed: $(head -3 "$SANCHO_DIR/javac.err")"; return 1; }
    SANCHO_CP=$SANCHO_DIR/classes:$SANCHO_DIR/shim:$d/sancho.jar:$d/log4j-api-2.0-rc1.jar:$d/lucene-core-4.8.1.jar:$GUAVA:$JUNIT
    [ ! -f "$TROVE" ] || SANCHO_CP=$SANCHO_CP:$TROVE
}

# sancho_cmd KIF SECONDS: SANCHO_CMD is the command that builds KIF and
# plays SECONDS of timed playouts (for callers that wrap it, as reducer.sh
# does to measure memory).
sancho_cmd() {
    # shellcheck disable=SC2206  # JAVA_OPTS is split into words
    SANCHO_CMD=(java $JAVA_OPTS -cp "$SANCHO_CP" SanchoBench "$1" "$2" "$SANCHO_OPTIMISE" "$WARMUP")
}

# sancho_run KIF SECONDS LIMIT OUT ERR: one SanchoBench run, its line in OUT
# and its stderr in ERR, killed after LIMIT seconds; returns its exit status
# (124 when killed).  It runs in DIR/sancho/run, where Sancho may write files.
sancho_run() {
    sancho_cmd "$1" "$2"
    (cd "$SANCHO_DIR/run" && timeout -k 10 "$3" "${SANCHO_CMD[@]}" > "$4" 2> "$5")
}

# sancho_why RC ERR LIMIT: why a run that printed no result line failed, in
# one line: `no build in LIMIT s` or `no result in LIMIT s (built in B s)`
# when it was killed (SanchoBench says `built in B s` on stderr once built),
# else `exit RC: ` and the first exception or the last line on stderr.
sancho_why() {
    local rc=$1 err=$2 lim=$3 built why
    built=$(grep -m1 '^built in' "$err" | awk '{ printf "%.1f", $3 }')
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        if [ -n "$built" ]; then echo "no result in $lim s (built in $built s)"; else echo "no build in $lim s"; fi
        return
    fi
    why=$(grep -m1 -E 'Exception|Error' "$err")
    [ -n "$why" ] || why=$(grep -v -E '^built in|StatusLogger' "$err" | tail -1)
    echo "exit $rc: $(echo "${why:-no output}" | tr -d '\r|' | cut -c1-160)"
}
