/* stats.c: --stats (stats.h). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "datalog/base/clock.h"
#include "datalog/cli/stats.h"
#include "datalog/cli/cli.h"
#include "datalog/program/load.h"

long cli_peak_kib(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* Prints where a rule is, as file:line:col. */
static void print_rule_place(const dl_rule *rule)
{
  unsigned line = 0, col = 0;
  if (rule->src) dl_load_position(rule->src, rule->off, &line, &col);
  fprintf(stderr, "%s:%u:%u", rule->src ? rule->src->name : "?", line, col);
}

enum { TOP_RULES = 8 };

/* Prints the rules with a body that took the most time (facts and rules
 * not run as subsumed are left out), with their place and figures. */
static void print_rule_stats(const dl_loaded *l, const dl_eval *e)
{
  const ast_program *ast = l->prog->ast;
  uint32_t top[TOP_RULES], n = 0;
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    dl_eval_rule_stats rs = dl_eval_get_rule_stats(e, r);
    if (ast->rules[r].n_body == 0 || rs.subsumed_by != DL_NOT_SUBSUMED) continue;
    double t = rs.seconds;
    uint32_t i = n < TOP_RULES ? n++ : TOP_RULES;
    while (i > 0 && dl_eval_get_rule_stats(e, top[i - 1]).seconds < t) {
      if (i < TOP_RULES) top[i] = top[i - 1];
      i--;
    }
    if (i < TOP_RULES) top[i] = r;
  }
  fprintf(stderr, "costliest rules (seconds, derivations, of them staged as products, versions run, "
                  "of them planned heads first, skipped as saturated):\n");
  for (uint32_t i = 0; i < n; i++) {
    dl_eval_rule_stats rs = dl_eval_get_rule_stats(e, top[i]);
    fprintf(stderr, "  ");
    print_rule_place(&ast->rules[top[i]]);
    fprintf(stderr, "  %.3f s  %llu  %llu  %u  %u  %u\n", rs.seconds, (unsigned long long)rs.derivations,
            (unsigned long long)rs.in_products, rs.runs, rs.heads_first, rs.saturated);
  }
}

/* Prints the rules the evaluator left out because another subsumes them,
 * each with a rule that subsumes it. */
static void print_subsumed(const dl_loaded *l, const dl_eval *e, uint32_t n)
{
  const ast_program *ast = l->prog->ast;
  fprintf(stderr, "rules not run, as another rule subsumes them: %u\n", n);
  for (uint32_t r = 0; r < ast->n_rules; r++) {
    uint32_t by = dl_eval_get_rule_stats(e, r).subsumed_by;
    if (by == DL_NOT_SUBSUMED) continue;
    fprintf(stderr, "  ");
    print_rule_place(&ast->rules[r]);
    fprintf(stderr, " by ");
    print_rule_place(&ast->rules[by]);
    fprintf(stderr, "\n");
  }
}

void cli_print_stats(const dl_loaded *l, const dl_eval *e, const cli_stats *s)
{
  const dl_program *p = l->prog;
  const st_strata *st = p->strata;
  uint32_t strata = 0, recursive = 0;
  for (uint32_t c = 0; c < st->n_sccs; c++) {
    if (st->stratum[c] + 1 > strata) strata = st->stratum[c] + 1;
    recursive += st->recursive[c];
  }
  fprintf(stderr, "predicates %u, rules %u, components %u (%u recursive), strata %u\n", p->n_preds,
          p->ast->n_rules, st->n_sccs, recursive, strata);
  if (e) {
    dl_eval_stats es = dl_eval_get_stats(e);
    fprintf(stderr, "atoms %llu, derivations %llu (%llu staged as products), rounds %u, terms %u\n",
            (unsigned long long)es.atoms, (unsigned long long)es.derivations, (unsigned long long)es.in_products,
            es.rounds, dl_terms_count(l->terms));
    uint8_t *shown = calloc(p->n_preds + 1, 1);
    for (uint32_t c = 0; shown && c < st->n_sccs; c++) {
      uint32_t n;
      const uint32_t *preds = dl_program_component_preds(p, c, &n);
      for (uint32_t i = 0; i < n; i++) {
        uint32_t pr = preds[i];
        if (shown[pr]++) continue;
        fprintf(stderr, "  stratum %u  %-32s %10llu atoms\n", st->stratum[c], dl_program_pred_name(p, pr),
                (unsigned long long)dl_eval_size(e, pr));
      }
    }
    free(shown);
    if (es.subsumed) print_subsumed(l, e, es.subsumed);
    print_rule_stats(l, e);
  }
  fprintf(stderr, "time: parse %.3f s, check %.3f s, evaluate %.3f s, output %.3f s\n",
          l->parse_seconds, l->check_seconds, s->t_eval, s->t_output);
  fprintf(stderr, "peak memory: after loading %.1f MiB, after evaluating %.1f MiB, after output %.1f MiB\n",
          s->kib_load / 1024.0, (s->kib_eval ? s->kib_eval : s->kib_load) / 1024.0, cli_peak_kib() / 1024.0);
}


void cli_stats_finish(cli_ctx *c, const dl_eval *e, const cli_stats *s)
{
  assert(c && s);
  if (!cli_given(c, "--stats") || !c->loaded[0] || !c->loaded[0]->prog) return;
  cli_report(c);
  cli_report_end(c);
  cli_print_stats(c->loaded[0], e, s);
}
