/* model.h: what the program harnesses do with a program that loaded:
 * evaluate it under a small atom limit and a wall-clock alarm, and print
 * the model and the program to /dev/null, as `gdlog model` would. */
#ifndef GDLOG_FUZZ_MODEL_H
#define GDLOG_FUZZ_MODEL_H

#include "datalog/base/diag.h"
#include "datalog/program/load.h"

/* Evaluates l's program (l->prog is not NULL), its input relations seeded
 * from l->facts, which gives their rows up, and prints its model and the
 * program; errors go to diag. */
void fuzz_model(dl_loaded *l, dl_diag *diag);

#endif
