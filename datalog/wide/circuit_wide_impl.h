/* circuit_wide_impl.h: the bit-parallel program of an eager circuit,
 * shared by its builder (datalog/wide/compile_wide.c) and its evaluator
 * (circuit_wide.c).  Private to them. */
#ifndef GDLOG_GDL_CIRCUIT_WIDE_IMPL_H
#define GDLOG_GDL_CIRCUIT_WIDE_IMPL_H

#include "datalog/circuit/circuit_impl.h"

/* A gate's value in every lane: LANES playouts, a bit each, in BANKS
 * 64-bit banks (lane l is bit l % 64 of bank l / 64).  The sweep operates
 * on whole words (wide_sweep_body.h); the moves are chosen bank by bank. */
enum { LANES = DL_WIDE_LANES, BANK_LANES = 64, BANKS = LANES / BANK_LANES };

/* Words of lane_files per lane: two per file, and the sentinel's two. */
#define LANE_FILE_WORDS(max_files) (2 * (max_files) + 2)
typedef struct lane_word {
  _Alignas(32) uint64_t bank[BANKS];
} lane_word;

/* Evaluates the runs of code[from..to) on the words v (count: room for the
 * at-least gates' counting, see max_need). */
typedef void cc_sweep_fn(const uint32_t *code, uint32_t from, uint32_t to, lane_word *v, lane_word *count);
cc_sweep_fn cc_wide_sweep_generic, cc_wide_sweep_avx2;

/* The fastest sweep this processor runs. */
cc_sweep_fn *cc_wide_pick_sweep(void);

/* A gate's record: op << 28 | its number (below 2^28, see alloc_gates),
 * then for OP_AND and OP_OR its numbers of positive and of negated inputs
 * and those inputs' gates, the positive ones first; for OP_THR its number
 * of inputs, the true inputs it needs and its inputs (gate << 1 |
 * negated).  The code is a sequence of runs (lay_out, compile_wide.c):
 * - OP_AND or OP_OR << 28 | k, np, nn, then k gates of that shape, each
 *   as its number and its np + nn inputs;
 * - OP_THR << 28 | k, then k OP_THR records;
 * - OP_BLOCK << 28, the length of its members' records, then those. */
enum { OP_AND, OP_OR, OP_THR, OP_BLOCK };

/* A role's draws go through its files (see find_candidates) when it has
 * FILE_MIN_MOVES moves or more, FILE_MOVES a file on average: finding a
 * lane's candidates costs more than it saves where a pass over the role's
 * moves is short (checkers: 640 moves, about 10 a file, 1.75x slower
 * through the files; breakthrough: 155, 1.7x slower) and pays where the
 * pass is long (speedChess: 3,833 moves, about 10 a file, 1.1x faster;
 * amazons: 87,000, 1.15x faster). */
enum { FILE_MIN_MOVES = 1024, FILE_MOVES = 8 };
#define GATE_MASK 0x0fffffffu

struct cc_wide {
  uint32_t n_gates, n_roles, n_fluents;
  lane_word *v;            /* per gate: its value in each lane; v[n_gates] stays 0 (32-byte aligned) */
  uint32_t *code;
  uint32_t seg[3];         /* code offsets where the move part and the goal part start; the end */
  uint32_t max_need;
  lane_word *count;        /* room for max_need + 1 words (at-least counting) */
  cc_sweep_fn *sweep;
  uint32_t *fluent_gate;   /* per fluent: its input gate, or n_gates */
  uint32_t *next_gate;     /* per fluent: the gate of its next atom, or n_gates */
  uint32_t *legal_gate;    /* per move: the gate of its legal atom, or n_gates */
  lane_word *legal;        /* per move: its legal atom's word, copied in move order (see list_role) */
  uint64_t *copied;        /* per role: the step whose words w->legal holds */
  uint64_t steps;          /* steps made, over all runs */
  uint32_t *move_input;    /* per move: its does input gate, or n_gates */
  uint8_t *move_gated;
  uint32_t *role_start;    /* moves of role r: role_start[r] .. role_start[r + 1] */
  uint32_t *role_gate;     /* per role: its gated moves' literal's gate, or NONE */
  uint8_t *role_gate_neg;
  uint32_t *ungated;       /* role r's moves that are not gated: ungated[ungated_start[r] .. */
  uint32_t *ungated_start; /*   ungated_start[r + 1]) */
  uint64_t *draws;         /* per role: draws made and draws that hit a legal move, */
  uint64_t *hits;          /*   in this call (see choose_moves) */
  uint32_t n_terminal, *terminal_gate;
  uint32_t n_goals, *goal_gate, *goal_role;
  int32_t *goal_value;
  lane_word *state;        /* per fluent: its value in each lane */
  uint32_t depth[LANES];
  uint32_t n_legal[BANK_LANES];  /* per lane of the bank whose moves are chosen: moves listed in lane_moves */
  uint32_t *joint;         /* per lane: a move per role */
  int32_t *goals, *goal_n; /* per lane and role: value, number of true goal atoms */
  uint32_t *set_inputs, n_set;  /* the does inputs set now */
  uint32_t *set_move;      /* per set input: a move it is the input of */
  uint32_t n_push;         /* pseudo inputs (gates n_gates + 1 ..), see plan_pushes */
  uint32_t *push_start, *push_to;  /* per move: the pseudo inputs its lanes are ORed into */
  uint32_t *pushed, n_pushed;      /* the pseudo inputs set now */
  /* Each role's moves filed under a fluent their legal atom needs, so that
   * a lane draws among the moves of the fluents that hold there (see
   * find_candidates): role r's files are file_start[r] .. file_start[r + 1];
   * file j holds the moves file_move[file_first[j] .. file_first[j + 1]),
   * which can be legal only where fluent file_fluent[j] holds (NONE: needs
   * none).  Moves that have no legal atom are in no file. */
  uint32_t *file_start, *file_fluent, *file_first, *file_move;
  uint8_t *role_filed;     /* per role: its draws go through its files (see FILE_MIN_MOVES) */
  uint32_t max_files;      /* the most files a role has */
  /* per lane of a bank, LANE_FILE_WORDS(max_files) apart: for each file
   * whose fluent holds there, the index of its first move in file_move and
   * the lane's candidates before it; then a sentinel, UINT32_MAX
   * candidates before it */
  uint32_t *lane_files;
  uint32_t n_files[BANK_LANES], n_cands[BANK_LANES];  /* per lane of the bank: its files, their moves */
  uint32_t max_role_moves; /* the most moves a role has */
  uint32_t *lane_moves;    /* per lane of a bank, max_role_moves apart: a role's moves legal there (n_legal) */
  size_t bytes;
};

/* The length of the gate record r (no block). */
static inline uint32_t record_len(const uint32_t *r) { return 3 + r[1] + ((r[0] >> 28) == OP_THR ? 0 : r[2]); }

#endif
