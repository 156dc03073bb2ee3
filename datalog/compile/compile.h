/* compile.h: the circuit compiler, the stage of the pipeline from a ground
 * game (datalog/ground/ground.h, simplified by datalog/simplify/) to a
 * circuit (datalog/circuit/circuit.h, which answers the questions).  The
 * rules are lowered (moves merged into "any of" gates, shared literals
 * hoisted, legal atoms gated by their role's turn), wired into counter
 * gates, laid out in topological order with the cyclic blocks found, the
 * lazy gates set apart (DL_CIRCUIT_LAZY) and the bit-parallel program
 * built for an eager circuit.  datalog/circuit/DESIGN.md gives the reasons
 * and figures. */
#ifndef GDLOG_COMPILE_H
#define GDLOG_COMPILE_H

#include "datalog/base/diag.h"
#include "datalog/circuit/circuit.h"
#include "datalog/ground/ground.h"

/* As dl_circuit_create_mode with DL_CIRCUIT_AUTO. */
dl_circuit *dl_circuit_create(const dl_ground *g, dl_diag *diag);

/* Compiles ground game g.  Returns the circuit, positioned on the initial
 * state with no move, or NULL after reporting to diag (no role, a goal
 * value that is not an integer, recursion through negation, out of
 * memory).  Legal and goal atoms of a term that is no role are left out.  g must outlive the circuit. */
dl_circuit *dl_circuit_create_mode(const dl_ground *g, dl_circuit_mode mode, dl_diag *diag);

#endif
