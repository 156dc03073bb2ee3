/* ground_join.h: private to ground_join.c and ground_exclude.c: the state
 * of one rule's join (gr_instantiate), and the calls between the join and
 * its exclusions.  Not part of the interface. */
#ifndef DATALOG_GROUND_GROUND_JOIN_H
#define DATALOG_GROUND_GROUND_JOIN_H

#include "datalog/ground/ground_impl.h"

/* One atom of the join, as a relation over its variables: the instances of
 * the atom's pattern among the kept ones, column c giving variable vars[c]. */
typedef struct step {
  ix_relation *rel;       /* owned */
  uint32_t *vars, nv;
  uint64_t mask;          /* columns bound when the step runs */
  uint32_t n_bound;
  int index;
  int lit;                /* the body literal, -1: the head's demand */
  int kept;               /* rel is not owned: one of g's kept steps, or src itself (make_step) */
} step;

/* A component of a rule's body that shares no variable outside the head
 * with the rest: aux(iface) :- component, and the rule uses aux(iface). */
typedef struct factor {
  dl_sym sym;
  uint32_t *iface, n_iface;  /* the head variables it has */
} factor;

/* The answers of a literal (or the head) for recent values of its
 * variables: a direct-mapped cache of MEMO_MIN to MEMO_MAX slots, as many
 * as the join's estimated candidates (one when it has no variable).
 * Within a join the answer depends on those values only, and an inner loop
 * repeats them: breakthrough's frame rule meets each of its 192
 * true(cellHolds(..)) atoms once per does atom, and each of its 616 does
 * atoms once per cell (1,024 slots kept three quarters of them). */
enum { MEMO_MIN = 64, MEMO_MAX = 4096 };

/* A memo that answers under a MEMO_HITS_MIN-th of its first MEMO_TRIAL
 * look-ups is given up: its literal's values rarely repeat (othello's
 * piececount(?x, ?y++, ?b, ?r), a new atom for each of 40,936 bindings),
 * and looking up and storing cost more than deciding. */
enum { MEMO_TRIAL = 2048, MEMO_HITS_MIN = 16 };

typedef struct memo {
  uint32_t *vars, nv;
  uint32_t mask;          /* slots - 1 */
  dl_tid *vals;           /* per slot, the nv values */
  uint8_t *state;         /* per slot: 0 empty, else 1 + holds */
  int32_t *lit;           /* per slot */
  uint32_t asked, hits;   /* look-ups in the trial, and their answers */
  int off;                /* given up */
} memo;

/* What the first enumeration of the block factor (see plan_block) made for
 * one value of its head variables. */
typedef struct block_rec {
  int32_t atom;           /* its auxiliary atom; 0: no instance; -1: an instance of no literal */
  uint64_t candidates;    /* its bindings */
  uint64_t made;          /* its instances */
  /* An exclusion's (see gr_plan_exclusion): atom holds when some element does */
  int32_t two;            /* holds when two elements do; 0: fewer than two */
  uint32_t off, n;        /* its elements, pool_key[off..off+n) ascending */
} block_rec;

/* An exclusion's disequality has at most this many variables a side (one
 * 64-bit key holds the values of a side). */
enum { EXCL_MAX = 2 };

typedef struct join {
  dl_ground *g;
  const gr_rule *gr;
  gr_pieces *pc;          /* the pieces of a split rule, or NULL */
  const dl_rule *r;
  double estimate;        /* candidates, as the plan estimates them */
  step *steps;
  uint32_t n_steps;
  dl_tid *bind;
  uint32_t *trail, n_trail;
  int32_t *body;
  dl_tid *args;           /* scratch for a literal's arguments */
  uint64_t candidates, instances;
  int empty;              /* a ground atom of the body is not kept: no instances */
  int32_t *lits;          /* per body literal: its ground literal, 0 when it disappears */
  uint8_t *in_join;       /* per body literal: a positive static one, decided in the join */
  int32_t *comp;          /* per body literal: its factored component, -1: none */
  int32_t *cbody;
  factor *factors;
  uint32_t n_factors;
  int distinct;           /* two bindings never make the same ground rule */
  memo *memos;            /* per body literal: its recent decisions */
  memo head_memo;         /* recent head atoms */
  /* The block factor: its steps come last (from block_from on), and it is
     enumerated once per value of its head variables (see enter_block). */
  int32_t block_comp;     /* -1: none */
  uint32_t block_from;
  int block_distinct;     /* its first enumerations never make a rule twice */
  int in_block;           /* descend is in a first enumeration, */
  dl_tid block_term;      /*   for the factor's atom that is this term */
  block_rec cur;          /* what that enumeration made so far */
  Pvoid_t block_seen;     /* JudyL: the factor's atom term -> 1 + index in recs */
  block_rec *recs;
  uint32_t n_recs, cap_recs;
  uint32_t polls;         /* calls of go_on since the stop was last read */
  /* The exclusion (gr_plan_exclusion): factor 0 is the block factor X, the
     disequality U != C (literal excl_lit) is left out of the join. */
  int excl;
  uint32_t excl_lit, excl_m;
  uint32_t excl_c[EXCL_MAX], excl_u[EXCL_MAX]; /* the variables C (the head's) and U */
  ix_relation *excl_cs, *excl_us; /* a static disequality's C and U tuples (owned); NULL: distinct */
  dl_sym excl_sym[3];     /* the element, prefix and "two" atoms' predicates */
  Pvoid_t excl_elems;     /* JudyL in a first enumeration: U's key -> its element atom */
  Word_t *pool_key;       /* per element of every value of K: U's key, */
  int32_t *pool_atom;     /*   and its atom */
  uint32_t n_pool, cap_pool;
} join;

/* The auxiliary atom that is term t, with its rule aux :- body[0..n),
 * added unless it was (once) or added (!once: it cannot have been); the
 * atom's id, 0 when out of memory. */
int32_t gr_add_factor_rule(join *j, dl_tid t, int32_t *body, uint32_t n, int once);

/* Makes the instance of the decided literals (its factors' rules, then its
 * rule), which stands for count instances.  When the rule has a block
 * factor, the literals block[0..n_block) stand for it.  0 on failure
 * (reported). */
int gr_make_instance(join *j, const int32_t *block, uint32_t n_block, uint64_t count);

/* ground_exclude.c: exclusions ("some binding of a part other than the
 * head's", see there). */

/* Plans the rule as an exclusion: 1 planned (factor 0 is its part, j->excl
 * set), 0 not, -1 out of memory.  j->comp and j->factors are allocated. */
int gr_plan_exclusion(join *j);

/* A binding of the part with body cbody[0..m) in a first enumeration: a
 * rule of its element atom.  0 when out of memory (reported). */
int gr_add_element(join *j, uint32_t m);

/* Ends a first enumeration of the part for one value of K: rec gets its
 * elements, "some" and "two".  0 when out of memory. */
int gr_close_exclusion(join *j, block_rec *rec);

/* The instances of one binding of the rest with the part's record rec.
 * 0 on failure (reported). */
int gr_make_exclusion(join *j, const block_rec *rec);

/* Frees what the exclusion of j holds. */
void gr_free_exclusion(join *j);

#endif
