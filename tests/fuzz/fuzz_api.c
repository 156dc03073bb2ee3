/* fuzz_api.c: the public API (datalog/gdlog.h) driven by bytes read as a
 * program of calls.  Two game slots, each opened on an embedded game
 * (games.h) or on text of the input, with any backend and output syntax;
 * a pool of states (of either game) and of move ids.  Each call takes its
 * arguments from the input: move ids of another role or game, and (only
 * in a build without assertions: the contract lets a build with them stop
 * there) states of the other game, ids never handed out, roles out of
 * range,
 * texts of arbitrary bytes.  Only what the contract allows: a game that
 * failed to open gets gdlog_error and gdlog_close alone, states are freed
 * before their game is closed, gdlog_state_equal compares states of one
 * game.  Checked: a state's text reads back to an equal state.  A 2 s
 * wall-clock timer sets the games' cancel flag, as a player's clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datalog/gdlog.h"
#include "tests/fuzz/alarm.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/games.h"

enum { N_SLOTS = 2, N_STATES = 16, N_MOVES = 32, MAX_ROLES = 8, MAX_CALLS = 200 };

/* ---- the program's state ---- */

typedef struct slot {
  gdlog_game *g;
  int ok;          /* opened: every call allowed (else gdlog_error and gdlog_close only) */
} slot;

typedef struct state_ref {
  gdlog_state *s;
  int slot;        /* the game that made it */
} state_ref;

typedef struct vm {
  const uint8_t *p, *end;
  slot slots[N_SLOTS];
  state_ref states[N_STATES];
  gdlog_move moves[N_MOVES];
  uint32_t n_moves;
} vm;

static uint8_t byte(vm *v)
{
  return v->p < v->end ? *v->p++ : 0;
}

#ifdef NDEBUG  /* out-of-range ids only where the API's asserts are off */
static uint32_t word(vm *v)
{
  uint32_t w = byte(v);
  w = w << 8 | byte(v);
  w = w << 8 | byte(v);
  return w << 8 | byte(v);
}
#endif

/* Text of the input: a length byte, then as many bytes (fewer at its end),
 * NUL-ended into buf (at least 257 bytes); its length into *len. */
static const char *text(vm *v, char *buf, size_t *len)
{
  size_t n = byte(v), left = (size_t)(v->end - v->p);
  if (n > left) n = left;
  memcpy(buf, v->p, n);
  buf[n] = 0;
  v->p += n;
  *len = n;
  return buf;
}

/* A slot whose game is open, or NULL. */
static slot *game_arg(vm *v)
{
  slot *s = &v->slots[byte(v) % N_SLOTS];
  return s->g && s->ok ? s : NULL;
}

/* A state of the pool (of either game, or NULL: the calls that need a
 * state are skipped then, NULL being no state). */
static state_ref *state_arg(vm *v)
{
  return &v->states[byte(v) % N_STATES];
}

/* A role: in range, or (without assertions) anything. */
static int role_arg(vm *v, const slot *s)
{
  uint8_t b = byte(v);
  int n = gdlog_role_count(s->g);
#ifdef NDEBUG
  if (b & 0x80) return (int)(int8_t)b;
#endif
  return n > 0 ? b % n : 0;
}

/* A move id: one of the pool, or any 32-bit value. */
static gdlog_move move_arg(vm *v)
{
  uint8_t b = byte(v);
#ifdef NDEBUG
  if (b == 0xff) return word(v);
#endif
  return v->n_moves ? v->moves[b % v->n_moves] : 0;
}

/* Stores a new state of slot k in the pool (freeing the one it replaces). */
static void keep_state(vm *v, gdlog_state *s, int k)
{
  if (!s) return;
  state_ref *r = &v->states[byte(v) % N_STATES];
  gdlog_state_free(r->s);
  r->s = s, r->slot = k;
}

static void keep_moves(vm *v, const gdlog_move *m, int n)
{
  for (int i = 0; i < n && i < 4; i++) v->moves[v->n_moves++ % N_MOVES] = m[i];
  if (v->n_moves > N_MOVES) v->n_moves = N_MOVES;
}

/* Frees the states of slot k, then its game. */
static void close_slot(vm *v, int k)
{
  for (int i = 0; i < N_STATES; i++)
    if (v->states[i].s && v->states[i].slot == k) {
      gdlog_state_free(v->states[i].s);
      v->states[i].s = NULL;
    }
  gdlog_close(v->slots[k].g);
  v->slots[k].g = NULL;
  v->slots[k].ok = 0;
}

static void op_open(vm *v)
{
  int k = byte(v) % N_SLOTS;
  uint8_t how = byte(v);
  char buf[300];
  size_t len;
  close_slot(v, k);
  gdlog_options o;
  gdlog_options_init(&o);
  o.backend = (gdlog_backend)(how % 3);
  o.output = (gdlog_syntax)((how >> 2) % 3);
  o.demand = (gdlog_demand)((how >> 4) % 3);
  o.max_atoms = 20000;
  o.max_instances = 20000;
  o.auto_seconds = 1;
  o.cancel = &fuzz_cancel;
  gdlog_status st;
  if (how & 0x40) {
    text(v, buf, &len);
    st = gdlog_open_buffer(NULL, buf, len, &o, &v->slots[k].g);
  } else {
    const fuzz_embedded *e = &fuzz_games[(how >> 7 | (byte(v) & 2)) % FUZZ_N_GAMES];
    st = gdlog_open_buffer(e->name, e->text, e->len, &o, &v->slots[k].g);
  }
  v->slots[k].ok = st == GDLOG_OK;
  if (v->slots[k].g) (void)gdlog_error(v->slots[k].g);
}

/* Index of a slot (the one s points at). */
static int slot_index(const vm *v, const slot *s)
{
  return (int)(s - v->slots);
}

/* Whether r holds a state that a call on slot s may take: any state (of
 * the other game too) in a build without assertions; there the API
 * answers INPUT, while a build with them stops at its assertion, as the
 * contract allows. */
static int usable(const vm *v, const state_ref *r, const slot *s)
{
#ifdef NDEBUG
  (void)v, (void)s;
  return r->s != NULL;
#else
  return r->s != NULL && r->slot == slot_index(v, s);
#endif
}

static void op_initial(vm *v, slot *s)
{
  gdlog_state *st = NULL;
  if (gdlog_initial(s->g, &st) == GDLOG_OK) keep_state(v, st, slot_index(v, s));
}

static void op_legal(vm *v, slot *s)
{
  state_ref *r = state_arg(v);
  if (!usable(v, r, s)) return;
  int role = role_arg(v, s), n = 0;
  const gdlog_move *m = NULL;
  if (gdlog_legal(s->g, r->s, role, &m, &n) == GDLOG_OK) keep_moves(v, m, n);
}

static void op_next(vm *v, slot *s)
{
  state_ref *r = state_arg(v);
  if (!usable(v, r, s)) return;
  gdlog_move joint[MAX_ROLES];
  int roles = gdlog_role_count(s->g);
  if (roles > MAX_ROLES) return;
  for (int i = 0; i < roles; i++) joint[i] = move_arg(v);
  gdlog_state *next = NULL;
  if (gdlog_next(s->g, r->s, joint, &next) == GDLOG_OK) keep_state(v, next, slot_index(v, s));
}

static void op_terminal_goal(vm *v, slot *s)
{
  state_ref *r = state_arg(v);
  if (!usable(v, r, s)) return;
  int t, value;
  gdlog_is_terminal(s->g, r->s, &t);
  gdlog_goal(s->g, r->s, role_arg(v, s), &value);
}

static void op_playouts(vm *v, slot *s)
{
  state_ref *r = state_arg(v);
  if (!usable(v, r, s)) return;
  double mean[MAX_ROLES], depth;
  uint64_t n = byte(v) % 8 + 1, seed = byte(v);
  if (gdlog_role_count(s->g) <= MAX_ROLES) gdlog_playouts(s->g, r->s, n, seed, mean, byte(v) & 1 ? &depth : NULL);
}

static void op_move_text(vm *v, slot *s)
{
  const char *t = gdlog_move_text(s->g, move_arg(v));
  if (t) (void)strlen(t);
}

static void op_parse_move(vm *v, slot *s)
{
  char buf[300];
  size_t len;
  int role = role_arg(v, s);
  gdlog_move m;
  if (gdlog_parse_move(s->g, role, text(v, buf, &len), &m) == GDLOG_OK) keep_moves(v, &m, 1);
}

static void op_parse_joint(vm *v, slot *s)
{
  char buf[300];
  size_t len;
  state_ref *r = state_arg(v);
  gdlog_move joint[64];
  int roles = gdlog_role_count(s->g);
  text(v, buf, &len);
  if (roles <= 64 && gdlog_parse_joint(s->g, byte(v) & 1 && usable(v, r, s) ? r->s : NULL, NULL, buf, len, joint) == GDLOG_OK)
    keep_moves(v, joint, roles);
}

/* The text of a state must read back to an equal state. */
static void op_state_text(vm *v, slot *s)
{
  state_ref *r = state_arg(v);
  if (!usable(v, r, s)) return;
  char *t = NULL;
  if (gdlog_state_text(s->g, r->s, &t) != GDLOG_OK) return;
  gdlog_state *again = NULL;
  gdlog_status st = gdlog_parse_state(s->g, "<again>", t, strlen(t), &again);
  if (st == GDLOG_OK && r->slot == slot_index(v, s) && !gdlog_state_equal(r->s, again)) {
    fprintf(stderr, "fuzz_api: a state's text reads back to another state:\n%s", t);
    abort();
  }
  if (st == GDLOG_ERR_INPUT && r->slot == slot_index(v, s)) {
    fprintf(stderr, "fuzz_api: a state's text does not read back: %s\n%s", gdlog_error(s->g), t);
    abort();
  }
  gdlog_state_free(again);
  free(t);
}

static void op_parse_state(vm *v, slot *s)
{
  char buf[300];
  size_t len;
  gdlog_state *st = NULL;
  text(v, buf, &len);
  if (gdlog_parse_state(s->g, byte(v) & 1 ? "<s>" : NULL, buf, len, &st) == GDLOG_OK) keep_state(v, st, slot_index(v, s));
}

static void op_roles(vm *v, slot *s)
{
  char buf[300];
  size_t len;
  int r;
  const char *name = gdlog_role_name(s->g, role_arg(v, s));
  if (name) gdlog_role_index(s->g, name, &r);
  gdlog_role_index(s->g, text(v, buf, &len), &r);
  (void)gdlog_backend_of(s->g);
  (void)gdlog_uses_demand(s->g);
}

static void op_copy_free(vm *v, slot *s)
{
  (void)s;
  state_ref *a = state_arg(v), *b = state_arg(v);
  uint8_t what = byte(v) % 3;
  if (what == 0 && a->s) {
    gdlog_state *c = NULL;
    if (gdlog_state_copy(a->s, &c) == GDLOG_OK) keep_state(v, c, a->slot);
  } else if (what == 1 && a->s && b->s && a->slot == b->slot) {
    gdlog_state_equal(a->s, b->s);
  } else if (what == 2) {
    gdlog_state_free(a->s);
    a->s = NULL;
  }
}

static void op_interrupt(vm *v, slot *s)
{
  if (byte(v) & 1) gdlog_interrupt(s->g);
  else gdlog_resume(s->g);
  (void)gdlog_status_name((gdlog_status)(byte(v) % 8));
  (void)gdlog_version();
}

typedef void (*op_fn)(vm *v, slot *s);

static const op_fn ops[] = { op_initial, op_legal, op_next, op_terminal_goal, op_playouts, op_move_text,
                             op_parse_move, op_parse_joint, op_state_text, op_parse_state, op_roles,
                             op_copy_free, op_interrupt };
enum { N_OPS = sizeof ops / sizeof ops[0] };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  vm v;
  memset(&v, 0, sizeof v);
  v.p = data, v.end = data + size;
  fuzz_alarm(2000);
  for (int calls = 0; v.p < v.end && calls < MAX_CALLS; calls++) {
    uint8_t op = byte(&v);
    if (op % (N_OPS + 1) == N_OPS) {
      op_open(&v);
      continue;
    }
    slot *s = game_arg(&v);
    if (s) ops[op % (N_OPS + 1)](&v, s);
  }
  fuzz_alarm(0);
  for (int k = 0; k < N_SLOTS; k++) close_slot(&v, k);
  return 0;
}
