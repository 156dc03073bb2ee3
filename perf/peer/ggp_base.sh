# shellcheck shell=bash disable=SC2034  # GGP_ERROR and GGP_BASE_DIR are for the scripts that source this
# perf/peer/ggp_base.sh: sourced by opnf.sh, reducer.sh and validate.sh,
# which build a Java program against ggp-base's sources.  Guava 31 (Debian's)
# has no MapMaker.softValues(), which ggp-base's GdlPool calls: the copy of
# the sources gets a ConcurrentHashMap there (the pool's memory policy only,
# not what it holds).  On failure the functions return 1 with the reason in
# GGP_ERROR.
GGP_COMMIT=44db132b5f1aa8467b1b990914e2e3c64ecbd87b

# ggp_base_sources DIR: GGP_BASE_DIR is GGP_BASE (a checkout), else a clone
# at GGP_COMMIT into DIR/ggp-base.
ggp_base_sources() {
    GGP_BASE_DIR=${GGP_BASE:-}
    if [ -z "$GGP_BASE_DIR" ]; then
        GGP_BASE_DIR=$1/ggp-base
        { git clone -q https://github.com/ggp-org/ggp-base "$GGP_BASE_DIR" \
              && git -C "$GGP_BASE_DIR" checkout -q "$GGP_COMMIT"; } 2> /dev/null \
            || { GGP_ERROR="no GGP_BASE and could not clone ggp-org/ggp-base (set GGP_BASE to a checkout)"; return 1; }
    fi
    [ -d "$GGP_BASE_DIR/src/main/java/org/ggp/base" ] \
        || { GGP_ERROR="no ggp-base sources in $GGP_BASE_DIR/src/main/java (GGP_BASE=DIR, a checkout)"; return 1; }
}

# ggp_base_compile DIR JAVA_FILE CLASSPATH: the sources of GGP_BASE_DIR,
# patched, into DIR/src; JAVA_FILE and what it uses compiled into
# DIR/classes.
ggp_base_compile() {
    mkdir -p "$1/src" "$1/classes"
    cp -r "$GGP_BASE_DIR/src/main/java/." "$1/src/"
    sed -i 's/new MapMaker().softValues().makeMap()/new java.util.concurrent.ConcurrentHashMap<>()/' \
        "$1/src/org/ggp/base/util/gdl/grammar/GdlPool.java"
    javac -nowarn -d "$1/classes" -cp "$3" -sourcepath "$1/src" "$2" 2> "$1/javac.err" \
        || { GGP_ERROR="javac failed: $(grep -m3 error "$1/javac.err")"; return 1; }
}
