/* gdlog.h: the public API of gdlog, a GDL game reasoner.
 *
 * Load a game (KIF or the book's infix syntax, from a file or a buffer),
 * then ask what ggp-base's StateMachine answers: the roles (in the game's
 * order, the order of joint moves), the initial state, the legal moves of a
 * role, the next state for a joint move, whether a state is terminal and
 * the goal value of each role.  States and moves go to text and back.
 *
 * Handles are opaque.  A gdlog_game is used by one thread at a time (it
 * keeps caches); distinct games share nothing, so each thread may have its
 * own.  The one exception is gdlog_interrupt, which any thread may call
 * on a game another thread is using.  A gdlog_state belongs to the game
 * that made it.
 *
 * Every fallible function returns a gdlog_status.  On an error the game
 * keeps its text, `file:line:col: error: message` plus the source line and
 * a caret when it has a place (as the gdlog command prints it): read it
 * with gdlog_error, or get each one through the error callback of
 * gdlog_options.  Errors follow ggp-base's contract: a role without a legal
 * move in a state that is not terminal, or a role with no goal value or
 * several, is GDLOG_ERR_GAME, never a silent default.  An index out of
 * range (a role, a move id) is GDLOG_ERR_INPUT (and an assertion failure
 * in a build with assertions).
 *
 * Moves are gdlog_move ids the game hands out (by gdlog_legal or
 * gdlog_parse_move): a player picks moves by index into the legal list and
 * never needs text in a playout.  A move id stays valid as long as its game
 * and means one action of one role.
 *
 * Link with `pkg-config --cflags --libs gdlog`.  See datalog/API.md. */
#ifndef GDLOG_H
#define GDLOG_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Functions the shared library exports (everything else stays hidden). */
#if defined(__GNUC__)
#define GDLOG_API __attribute__((visibility("default")))
#else
#define GDLOG_API
#endif

/* The version of this header; gdlog_version() gives the library's. */
#define GDLOG_VERSION_MAJOR 0
#define GDLOG_VERSION_MINOR 2
#define GDLOG_VERSION_PATCH 0

typedef struct gdlog_game gdlog_game;
typedef struct gdlog_state gdlog_state;

/* A move of one role, as the game numbers it. */
typedef uint32_t gdlog_move;

typedef enum gdlog_status {
  GDLOG_OK = 0,
  GDLOG_ERR_INPUT,    /* bad text: a game, state or move that does not read, or names nothing of the game */
  GDLOG_ERR_ILLEGAL,  /* a joint move with a move that is not legal in the state */
  GDLOG_ERR_GAME,     /* the game broke the contract: no legal move, no goal value or several */
  GDLOG_ERR_LIMIT,    /* a limit was reached, the cancel flag was set, or gdlog_interrupt was called */
  GDLOG_ERR_NOMEM     /* out of memory */
} gdlog_status;

/* How the game is reasoned about. */
typedef enum gdlog_backend {
  GDLOG_BACKEND_AUTO = 0,  /* gdlog chooses (see gdlog_options) */
  GDLOG_BACKEND_RULES,     /* the evaluator over the rules: any game, one model per question */
  GDLOG_BACKEND_CIRCUIT    /* the ground game compiled into a circuit: fast, needs grounding */
} gdlog_backend;

/* How the rules backend evaluates the rules (see datalog/machine/sm.h). */
typedef enum gdlog_demand {
  GDLOG_DEMAND_AUTO = 0,   /* demand-driven when the full model is infinite or huge */
  GDLOG_DEMAND_OFF,        /* the rules as they are: the whole model of each state */
  GDLOG_DEMAND_ON          /* demand-driven (their magic-set rewriting): only what legal,
                            * next, goal and terminal need */
} gdlog_demand;

/* Syntax of a text. */
typedef enum gdlog_syntax {
  GDLOG_SYNTAX_AUTO = 0,   /* by the file's extension, else by the first token ('(' is KIF) */
  GDLOG_SYNTAX_KIF,        /* (legal xplayer (mark 1 1)) */
  GDLOG_SYNTAX_INFIX       /* legal(xplayer,mark(1,1)) */
} gdlog_syntax;

/* Called once per error with its rendered text (one or more lines, ending
 * in a newline) and ctx. */
typedef void (*gdlog_error_fn)(void *ctx, const char *text);

typedef enum gdlog_severity { GDLOG_SEVERITY_ERROR, GDLOG_SEVERITY_WARNING, GDLOG_SEVERITY_NOTE } gdlog_severity;

/* One message, its parts apart (valid during the callback only). */
typedef struct gdlog_diagnostic {
  gdlog_severity severity;
  const char *file;        /* the text it points into, or NULL when it has no place */
  int line, column;        /* 1-based; 0 without a place */
  const char *message;     /* without place or severity: "unexpected ')'" */
  const char *text;        /* rendered as gdlog_error holds it: place, message, source line, caret */
} gdlog_diagnostic;

/* Called once per message of a call that failed, errors and their notes,
 * and, while a game is opened, every warning and note of loading it. */
typedef void (*gdlog_diagnostic_fn)(void *ctx, const gdlog_diagnostic *d);

/* Options of gdlog_open_*.  Fill it with gdlog_options_init, then set
 * fields by name: the struct grows at its end from version to version,
 * and gdlog_options_init records the size the caller was compiled with,
 * so a program built against an older header keeps working. */
typedef struct gdlog_options {
  size_t size;             /* set by gdlog_options_init: sizeof(gdlog_options) of the caller */
  gdlog_backend backend;   /* default AUTO */
  gdlog_syntax syntax;     /* syntax of the game text; default AUTO */
  gdlog_syntax output;     /* syntax of texts the game returns; AUTO: the game's */
  uint64_t max_atoms;      /* atoms per model (rules) or per grounding; 0: no limit */
  volatile sig_atomic_t *cancel;  /* stop with GDLOG_ERR_LIMIT once *cancel != 0; may be NULL */
  gdlog_error_fn on_error; /* may be NULL */
  void *error_ctx;
  gdlog_demand demand;     /* the rules backend's evaluation; default AUTO */
  gdlog_diagnostic_fn on_diagnostic; /* may be NULL */
  void *diagnostic_ctx;
  double auto_seconds;     /* AUTO: seconds grounding may take before the rules answer; default 10 */
  uint64_t max_instances;  /* rule instances per grounding (CIRCUIT); 0: the default, 200000000 */
} gdlog_options;

/* Fills the size bytes at *o with the defaults (AUTO everywhere,
 * max_atoms 100000000, auto_seconds 10, no cancel flag, no callbacks) and
 * records size.  Call it through gdlog_options_init. */
GDLOG_API void gdlog_options_init_size(gdlog_options *o, size_t size);
#define gdlog_options_init(o) gdlog_options_init_size((o), sizeof *(o))

/* The library's version, "MAJOR.MINOR.PATCH". */
GDLOG_API const char *gdlog_version(void);

/* The name of a status: "ok", "bad input", "illegal move", ... */
GDLOG_API const char *gdlog_status_name(gdlog_status s);

/* ---- games ------------------------------------------------------------------ */

/* Loads the game in file path ("-": standard input) with options o (NULL:
 * the defaults) into *game.  *game is set even on an error (then only
 * gdlog_error and gdlog_close may be called on it), and is NULL only when
 * memory ran out.  Errors: INPUT (cannot read, syntax, checks, no role),
 * LIMIT, NOMEM. */
GDLOG_API gdlog_status gdlog_open_file(const char *path, const gdlog_options *o, gdlog_game **game);

/* As gdlog_open_file, with the game's text in text[0..len) (copied); name
 * is used in messages and to guess the syntax (may be NULL: "<buffer>"). */
GDLOG_API gdlog_status gdlog_open_buffer(const char *name, const char *text, size_t len, const gdlog_options *o,
                               gdlog_game **game);

/* Frees the game and everything it handed out but states; NULL is allowed.
 * Its states must be freed before (gdlog_state_free). */
GDLOG_API void gdlog_close(gdlog_game *g);

/* The text of the errors of the last call on g that failed ("" when none):
 * valid until the next call on g. */
GDLOG_API const char *gdlog_error(const gdlog_game *g);

/* Asks the call running on g (in another thread) to stop soon with
 * GDLOG_ERR_LIMIT, and every later call on g until gdlog_resume.
 * Thread-safe and async-signal-safe: a player's clock thread may call it. */
GDLOG_API void gdlog_interrupt(gdlog_game *g);

/* Undoes gdlog_interrupt: calls on g run again. */
GDLOG_API void gdlog_resume(gdlog_game *g);

/* The backend g runs on: RULES or CIRCUIT. */
GDLOG_API gdlog_backend gdlog_backend_of(const gdlog_game *g);

/* Whether g runs on the rules backend evaluating them demand-driven (their
 * magic-set rewriting): 1 or 0 (0 on the circuit). */
GDLOG_API int gdlog_uses_demand(const gdlog_game *g);

/* ---- roles -------------------------------------------------------------------- */

/* The number of roles (>= 1). */
GDLOG_API int gdlog_role_count(const gdlog_game *g);

/* The name of role r (0 <= r < gdlog_role_count) in the output syntax;
 * owned by g, valid until gdlog_close.  NULL for an r out of range. */
GDLOG_API const char *gdlog_role_name(const gdlog_game *g, int r);

/* The index of the role named text (either syntax; a bare name is read as
 * the game's own names are, so `XPLAYER` names xplayer in a KIF game) into
 * *r; INPUT when the game has no such role. */
GDLOG_API gdlog_status gdlog_role_index(gdlog_game *g, const char *text, int *r);

/* ---- states --------------------------------------------------------------------- */

/* The initial state into *s (free it with gdlog_state_free).  NOMEM. */
GDLOG_API gdlog_status gdlog_initial(gdlog_game *g, gdlog_state **s);

/* Frees a state; NULL is allowed. */
GDLOG_API void gdlog_state_free(gdlog_state *s);

/* A copy of s into *copy.  NOMEM. */
GDLOG_API gdlog_status gdlog_state_copy(const gdlog_state *s, gdlog_state **copy);

/* 1 when a and b (states of one game) hold the same fluents, else 0. */
GDLOG_API int gdlog_state_equal(const gdlog_state *a, const gdlog_state *b);

/* Whether s is terminal, into *terminal (0 or 1).  LIMIT, NOMEM. */
GDLOG_API gdlog_status gdlog_is_terminal(gdlog_game *g, const gdlog_state *s, int *terminal);

/* The legal moves of role r in s: *n moves in *moves, sorted, owned by g
 * and valid until the next gdlog_legal of role r on g (or gdlog_close).
 * In a terminal state the list may be empty.  GAME when r has no legal
 * move in a state that is not terminal; LIMIT, NOMEM. */
GDLOG_API gdlog_status gdlog_legal(gdlog_game *g, const gdlog_state *s, int r, const gdlog_move **moves, int *n);

/* The next state of s when role i plays joint[i] for each role i (in the
 * order of the roles) into *next (a new state).  ILLEGAL when a move is not
 * a legal move of its role in s (a move id of another role included);
 * GAME, LIMIT, NOMEM. */
GDLOG_API gdlog_status gdlog_next(gdlog_game *g, const gdlog_state *s, const gdlog_move *joint, gdlog_state **next);

/* The goal value (0..100) of role r in s into *value.  GAME when r has no
 * goal value or several in s (terminal or not); LIMIT, NOMEM. */
GDLOG_API gdlog_status gdlog_goal(gdlog_game *g, const gdlog_state *s, int r, int *value);

/* ---- playouts --------------------------------------------------------------------- */

/* The longest playout gdlog_playouts plays (joint moves). */
#define GDLOG_PLAYOUT_MAX_DEPTH 1000000

/* Runs n random playouts from s: in each state every role plays one of its
 * legal moves, each with the same chance, until a terminal state.  The
 * generator is seeded with seed (the same seed, the same playouts).
 * Writes each role's mean goal value into mean_goal[0..roles) and, when
 * mean_depth is not NULL, the mean number of joint moves into *mean_depth.
 * The circuit backend runs them 256 at a time, one bit per playout in every
 * gate (see `gdlog play --lanes`); an MCTS player asks this at a leaf.
 * GAME when a playout meets a role without a legal move, or a terminal
 * state where a role has no goal value or several (or one outside
 * 0..100); LIMIT when one passes GDLOG_PLAYOUT_MAX_DEPTH joint moves (or
 * the cancel flag was set); NOMEM. */
GDLOG_API gdlog_status gdlog_playouts(gdlog_game *g, const gdlog_state *s, uint64_t n, uint64_t seed,
                                      double *mean_goal, double *mean_depth);

/* ---- text ------------------------------------------------------------------------- */

/* The text of move m in the output syntax: owned by g, valid until the
 * next call on g that returns text.  NULL for a move id g never handed
 * out, or when out of memory (gdlog_error says which). */
GDLOG_API const char *gdlog_move_text(gdlog_game *g, gdlog_move m);

/* The move of role r written as text (either syntax, e.g. "mark(1,1)" or
 * "(mark 1 1)") into *m.  INPUT when it does not read as one ground term.
 * Whether the move is legal in a state is for gdlog_next to say; the
 * circuit backend refuses here already (ILLEGAL) a move its ground game
 * never makes legal. */
GDLOG_API gdlog_status gdlog_parse_move(gdlog_game *g, int r, const char *text, gdlog_move *m);

/* The joint move written in text[0..len) as does(R,A) facts (either
 * syntax), exactly one per role in any order, into joint[0..roles).  name
 * names the text in messages (may be NULL: "<moves>").  When s is not NULL,
 * each move must be legal in s (else ILLEGAL, with the place of the move;
 * see gdlog_parse_move for the circuit).  INPUT for text that is not does
 * facts, an unknown role, a role without a move or with two. */
GDLOG_API gdlog_status gdlog_parse_joint(gdlog_game *g, const gdlog_state *s, const char *name, const char *text, size_t len,
                               gdlog_move *joint);

/* The fluents of s as text, one per line, sorted, without true(...): a
 * text gdlog_parse_state reads back.  *text is malloc'd (free it).  NOMEM. */
GDLOG_API gdlog_status gdlog_state_text(gdlog_game *g, const gdlog_state *s, char **text);

/* The state whose fluents are written in text[0..len), one ground term or
 * true(term) fact each (either syntax; a file written by gdlog_state_text
 * or gdlog step), into *s.  name names the text in messages (may be NULL:
 * "<state>").  INPUT (also, with the circuit backend, for a fluent that no
 * state reached from the initial one holds), NOMEM. */
GDLOG_API gdlog_status gdlog_parse_state(gdlog_game *g, const char *name, const char *text, size_t len, gdlog_state **s);

/* ---- symmetries (section 14.7 of the book) -------------------------------------- */

/* Finds the symmetries of g once (later calls return at once): the
 * automorphisms of the game's rule graph (gdlog symmetry), each checked on
 * up to 20 random playouts first (no new one after a second; one at
 * least), as a group acting on states and moves.  Its
 * elements are numbered 0 .. *order - 1, 0 the identity.  GAME when a
 * symmetry fails the check (a bug of gdlog's, never a property of the
 * game), LIMIT, NOMEM. */
GDLOG_API gdlog_status gdlog_symmetries(gdlog_game *g, int *order);

/* The image of state s under group element e into *image (a new state).
 * INPUT when e is no element (or gdlog_symmetries was not called); LIMIT
 * as for gdlog_canonical; NOMEM. */
GDLOG_API gdlog_status gdlog_symmetry_state(gdlog_game *g, int e, const gdlog_state *s, gdlog_state **image);

/* The image of the joint move joint[0..roles) under group element e into
 * image[0..roles): the move of role r maps to the move of r's image
 * (symmetries may exchange roles), so that playing the image in the image
 * of s leads to the image of the next state.  INPUT for an element or a
 * move out of range; LIMIT when the game has too many actions to map (more
 * than 100,000 in the domain of does). */
GDLOG_API gdlog_status gdlog_symmetry_joint(gdlog_game *g, int e, const gdlog_move *joint, gdlog_move *image);

/* The canonical state of s, the least of its images under the group, into
 * *canonical (a new state), and a 64-bit hash of it into *hash when hash
 * is not NULL: symmetric states get the same canonical state and hash,
 * for a transposition table.  INPUT before gdlog_symmetries; LIMIT when
 * the game has too many fluents to map (more than 100,000 in the domain of
 * true); NOMEM. */
GDLOG_API gdlog_status gdlog_canonical(gdlog_game *g, const gdlog_state *s, gdlog_state **canonical, uint64_t *hash);

#ifdef __cplusplus
}
#endif

#endif
