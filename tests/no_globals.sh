#!/bin/bash
# no_globals.sh OBJDUMP OBJECTS: fails when the library's objects define
# writable data, global or static: a file's variable or a function's
# `static` local, in .data, .bss, common or thread-local storage.  The
# library keeps no mutable state outside the objects its callers create, so
# two threads can use it at once.  Constant tables are fine: a table of
# pointers goes to .data.rel.ro, which nm would list as data ('d') like a
# variable, hence objdump's section names.  So are the DW.ref entries g++
# makes for catching exceptions (datalog/structure/bliss.cc): addresses
# written once, by the loader.  OBJECTS are object files or
# archives, also as one ;-separated argument (as CMake's $<TARGET_OBJECTS>
# gives them), built without link-time optimisation: an LTO object lists no
# local symbols.
set -u
objdump_tool=$1; shift
objects=()
for arg in "$@"; do
  IFS=';' read -r -a parts <<<"$arg"
  objects+=("${parts[@]}")
done
if [ ${#objects[@]} -eq 0 ]; then echo "no_globals: no objects given" >&2; exit 2; fi
out=$("$objdump_tool" -t "${objects[@]}") || { echo "no_globals: $objdump_tool failed" >&2; exit 2; }
if ! printf '%s\n' "$out" | grep -q ' \.text'; then
  echo "no_globals: $objdump_tool listed no code symbols (LTO objects?)" >&2; exit 2
fi
# objdump -t: "file.o:     file format ...", then per symbol
# "address flags section size name" with 7 flag characters ('O': an object).
bad=$(printf '%s\n' "$out" | awk '
  /:[ \t]+file format / { f = $1; sub(/:$/, "", f); sub(/.*\//, "", f); next }
  /^[0-9a-fA-F]+ / {
    flags = substr($0, index($0, " ") + 1, 7)
    if (flags !~ /O/) next
    rest = substr($0, index($0, " ") + 9); split(rest, w, /[ \t]+/)
    sec = w[1]; name = w[3]
    if (sec ~ /^\.data\.rel\.ro/) next
    if (sec ~ /^\.data\.rel\.local\.DW\.ref\./) next  # C++ exception handling: the personality routine"s address
    if (sec ~ /^\.(data|bss|tdata|tbss)(\.|$)/ || sec == "*COM*")
      print "  " f ": " name " (" sec ")"
  }')
if [ -n "$bad" ]; then
  echo "no_globals: the library has writable global data:"
  printf '%s\n' "$bad"
  echo "make it const, or keep it in the object its functions take (sort with dl_sort, not a global for qsort)"
  exit 1
fi
echo "no_globals: ${#objects[@]} objects, no writable global data"
