/* fuzz_parse.c: the lexer and both parsers on arbitrary bytes.  The syntax is
 * sniffed as the command line does for stdin; an input whose first byte is
 * '!' is forced to infix (the byte is replaced by a blank), so both parsers
 * see every kind of text.  Every message is rendered, as main.c would. */
#include <stdlib.h>
#include <string.h>

#include "datalog/read/ast.h"
#include "datalog/base/diag.h"
#include "datalog/read/parse.h"
#include "datalog/base/terms.h"
#include "tests/fuzz/fuzz.h"

static void render_all(const dl_diag *d)
{
  for (size_t i = 0; i < dl_diag_count(d); i++) free(dl_diag_render(dl_diag_message(d, i)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size >= UINT32_MAX) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  if (size) memcpy(text, data, size);
  text[size] = 0;
  lx_syntax syn = dl_parse_guess_syntax(NULL, text, (uint32_t)size);
  if (size && text[0] == '!') { text[0] = ' '; syn = LX_INFIX; }
  dl_source src = { "fuzz", text, (uint32_t)size };
  dl_terms *terms = dl_terms_create();
  ast_program *prog = ast_program_create();
  dl_diag *diag = dl_diag_create();
  if (terms && prog && diag) {
    dl_parse(prog, terms, &src, syn, diag);
    render_all(diag);
  }
  dl_diag_destroy(diag);
  ast_program_destroy(prog);
  dl_terms_destroy(terms);
  free(text);
  return 0;
}
