/* gdl.re: re2c rules for GDL tokens.  Only one-line rules live in the re2c
 * blocks; everything else is plain C around them.  See lexer.h. */
#include "lexer.h"

#include <assert.h>

void lx_init(lx_lexer *lx, const char *buf, uint32_t len, lx_syntax syntax)
{
  lx->buf = (const unsigned char *)buf;
  lx->len = len;
  lx->cur = 0;
  lx->syntax = syntax;
}

static lx_token make(lx_kind kind, uint32_t start, uint32_t end)
{
  lx_token t = { kind, start, end - start };
  return t;
}

/*!re2c
  re2c:define:YYCTYPE = "unsigned char";
  re2c:yyfill:enable = 0;
  re2c:flags:utf-8 = 0;

  space    = [ \t\f\v]+;
  nl       = "\r\n" | "\n" | "\r";
  kifchar  = [a-zA-Z0-9_\-+.*/<>=!$%&^~:'@#|[\]{},\\`];
  idchar   = [a-zA-Z0-9_];
  kifq     = [\x20-\x5b\x5d-\x7b\x7d\x7e] | "\\" [\x20-\x7e];
  infixq   = [\x20-\x26\x28-\x5b\x5d-\x7e] | "\\" [\x20-\x7e];
*/

static lx_token next_kif(lx_lexer *lx)
{
  const unsigned char *base = lx->buf;
  for (;;) {
    const unsigned char *YYCURSOR = base + lx->cur, *YYMARKER;
    uint32_t start = lx->cur;
    (void)YYMARKER;
#define DONE(k) do { lx->cur = (uint32_t)(YYCURSOR - base); return make(k, start, lx->cur); } while (0)
    /*!re2c
      "\x00"          { if (start >= lx->len) { lx->cur = start; return make(LX_EOF, start, start); } DONE(LX_BAD_NUL); }
      (space | nl)+   { lx->cur = (uint32_t)(YYCURSOR - base); continue; }
      ";" [^\r\n\x00]* { lx->cur = (uint32_t)(YYCURSOR - base); continue; }
      "("             { DONE(LX_LPAREN); }
      ")"             { DONE(LX_RPAREN); }
      "?" kifchar+    { DONE(LX_VARIABLE); }
      "?"             { DONE(LX_BAD_VAR); }
      "|" kifq* "|"   { DONE(LX_QSYMBOL); }
      "|"             { DONE(LX_BAD_QUOTE); }
      (kifchar \ "|") kifchar* { DONE(LX_SYMBOL); }
      *               { DONE(LX_BAD_BYTE); }
    */
#undef DONE
  }
}

/* Skips a block comment whose body starts at from; false when it never ends. */
static int skip_block_comment(lx_lexer *lx, uint32_t from)
{
  for (uint32_t i = from; i + 1 < lx->len; i++) {
    if (lx->buf[i] == '*' && lx->buf[i + 1] == '/') {
      lx->cur = i + 2;
      return 1;
    }
  }
  lx->cur = lx->len;
  return 0;
}

static lx_token next_infix(lx_lexer *lx)
{
  const unsigned char *base = lx->buf;
  for (;;) {
    const unsigned char *YYCURSOR = base + lx->cur, *YYMARKER;
    uint32_t start = lx->cur;
    (void)YYMARKER;
#define DONE(k) do { lx->cur = (uint32_t)(YYCURSOR - base); return make(k, start, lx->cur); } while (0)
    /*!re2c
      "\x00"          { if (start >= lx->len) { lx->cur = start; return make(LX_EOF, start, start); } DONE(LX_BAD_NUL); }
      space           { lx->cur = (uint32_t)(YYCURSOR - base); continue; }
      nl              { DONE(LX_NEWLINE); }
      "%" [^\r\n\x00]* { lx->cur = (uint32_t)(YYCURSOR - base); continue; }
      ";" [^\r\n\x00]* { if (lx->syntax != LX_INFIX) { YYCURSOR = base + start + 1; DONE(LX_BAD_BYTE); } lx->cur = (uint32_t)(YYCURSOR - base); continue; }
      "//" [^\r\n\x00]* { lx->cur = (uint32_t)(YYCURSOR - base); continue; }
      "/*"            { if (!skip_block_comment(lx, (uint32_t)(YYCURSOR - base))) DONE(LX_BAD_COMMENT); continue; }
      "("             { DONE(LX_LPAREN); }
      ")"             { DONE(LX_RPAREN); }
      ":-" | "<="     { DONE(LX_IF); }
      "&" | ","       { DONE(LX_AND); }
      "!="            { if (lx->syntax == LX_ASP) DONE(LX_NEQ); YYCURSOR = base + start + 1; DONE(LX_BAD_BYTE); }
      "="             { if (lx->syntax == LX_ASP) DONE(LX_EQ); DONE(LX_BAD_BYTE); }
      "#" [a-z]+      { if (lx->syntax == LX_ASP) DONE(LX_DIRECTIVE); YYCURSOR = base + start + 1; DONE(LX_BAD_BYTE); }
      "'" infixq* "'" { if (lx->syntax == LX_INFIX) DONE(LX_QSYMBOL); YYCURSOR = base + start + 1; DONE(LX_BAD_BYTE); }
      "'"             { if (lx->syntax == LX_INFIX) DONE(LX_BAD_QUOTE); DONE(LX_BAD_BYTE); }
      "~"             { DONE(LX_NOT); }
      "."             { DONE(LX_DOT); }
      [A-Z_] idchar*  { DONE(LX_VARIABLE); }
      "?" idchar+     { DONE(LX_VARIABLE); }
      "?"             { DONE(LX_BAD_VAR); }
      [a-z0-9] idchar* { DONE(LX_SYMBOL); }
      *               { DONE(LX_BAD_BYTE); }
    */
#undef DONE
  }
}

lx_token lx_next(lx_lexer *lx)
{
  return lx->syntax == LX_KIF ? next_kif(lx) : next_infix(lx);
}

void lx_advance_position(const char *buf, uint32_t from, uint32_t to, unsigned *line, unsigned *col)
{
  assert(buf && from <= to && line && col);
  unsigned l = *line, c = *col;
  for (uint32_t i = from; i < to; i++) {
    if (buf[i] == '\r' && i + 1 < to && buf[i + 1] == '\n') i++;  /* CR LF: one line end */
    if (buf[i] == '\n' || buf[i] == '\r') { l++; c = 1; } else c++;
  }
  *line = l;
  *col = c;
}

void lx_position(const char *buf, uint32_t off, unsigned *line, unsigned *col)
{
  *line = *col = 1;
  lx_advance_position(buf, 0, off, line, col);
}

const char *lx_kind_name(lx_kind kind)
{
  switch (kind) {
  case LX_EOF: return "end of file";
  case LX_LPAREN: return "'('";
  case LX_RPAREN: return "')'";
  case LX_SYMBOL: return "symbol";
  case LX_VARIABLE: return "variable";
  case LX_IF: return "':-'";
  case LX_AND: return "'&'";
  case LX_NOT: return "'~'";
  case LX_DOT: return "'.'";
  case LX_NEWLINE: return "end of line";
  case LX_BAD_BYTE: return "unexpected byte";
  case LX_BAD_NUL: return "NUL byte";
  case LX_BAD_VAR: return "'?' without a name";
  case LX_BAD_COMMENT: return "unterminated comment";
  case LX_QSYMBOL: return "quoted symbol";
  case LX_NEQ: return "'!='";
  case LX_EQ: return "'='";
  case LX_DIRECTIVE: return "directive";
  case LX_BAD_QUOTE: return "unterminated quote";
  }
  return "token";
}

size_t lx_unquote(const char *q, size_t n, char *out)
{
  assert(q && out && n >= 2 && q[0] == q[n - 1]);
  size_t k = 0;
  for (size_t i = 1; i + 1 < n; i++) {
    if (q[i] == '\\' && i + 2 < n) i++;
    out[k++] = q[i];
  }
  return k;
}
