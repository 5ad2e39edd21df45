/* util.c: growable strings and pointer lists. The compiler is a short-lived
 * process, so memory is freed only where that is cheap and obvious. */
#include "cucc.h"

static void oom(void) { fputs("cucc: error: out of memory\n", stderr); exit(1); }

void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz ? sz : 1);
  if (!p) oom();
  return p;
}

void *xrealloc(void *p, size_t sz) {
  p = realloc(p, sz ? sz : 1);
  if (!p) oom();
  return p;
}

char *xstrndup(const char *s, size_t n) {
  char *r = xcalloc(1, n + 1);
  memcpy(r, s, n);
  return r;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

void buf_put(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->s = xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_put(b, s, strlen(s)); }

void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->s = xrealloc(b->s, b->cap);
  }
  vsnprintf(b->s + b->len, n + 1, fmt, ap);
  b->len += n;
}

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

char *buf_take(Buf *b) {
  char *s = b->s ? b->s : xstrdup("");
  b->s = NULL;
  b->len = b->cap = 0;
  return s;
}

char *xfmt(const char *fmt, ...) {
  Buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  return buf_take(&b);
}

void vec_push(Vec *v, void *p) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 8;
    v->v = xrealloc(v->v, sizeof(void *) * v->cap);
  }
  v->v[v->n++] = p;
}

/* ---- operators and collectives (cucc.h) ---- */
const char *const op_str[OP_NOPS] = {
  [OP_NONE] = "?",
  [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%", [OP_ADD] = "+", [OP_SUB] = "-", [OP_SHL] = "<<",
  [OP_SHR] = ">>", [OP_LT] = "<", [OP_GT] = ">", [OP_LE] = "<=", [OP_GE] = ">=", [OP_EQ] = "==",
  [OP_NE] = "!=", [OP_BAND] = "&", [OP_BXOR] = "^", [OP_BOR] = "|", [OP_LAND] = "&&", [OP_LOR] = "||",
  [OP_COMMA] = ",", [OP_ASSIGN] = "=", [OP_MULA] = "*=", [OP_DIVA] = "/=", [OP_MODA] = "%=",
  [OP_ADDA] = "+=", [OP_SUBA] = "-=", [OP_SHLA] = "<<=", [OP_SHRA] = ">>=", [OP_BANDA] = "&=",
  [OP_BXORA] = "^=", [OP_BORA] = "|=", [OP_INC] = "++", [OP_DEC] = "--", [OP_ADDR] = "&",
  [OP_DEREF] = "*", [OP_PLUS] = "+", [OP_NEG] = "-", [OP_BNOT] = "~", [OP_LNOT] = "!",
};

Op op_binary(const char *s) {
  for (int o = OP_MUL; o <= OP_BORA; o++)
    if (!strcmp(op_str[o], s)) return (Op)o;
  return OP_NONE;
}

const char *const coll_str[CO_NCOLLS] = {
  [CO_NONE] = "?", [CO_SHFL] = "shfl", [CO_SHFL_UP] = "shfl_up", [CO_SHFL_DOWN] = "shfl_down",
  [CO_SHFL_XOR] = "shfl_xor", [CO_BALLOT] = "ballot", [CO_ANY] = "vote_any", [CO_ALL] = "vote_all",
  [CO_ACTIVEMASK] = "activemask", [CO_MATCH_ANY] = "match_any", [CO_MATCH_ALL] = "match_all",
  [CO_RED_ADD] = "reduce_add", [CO_RED_MIN] = "reduce_min", [CO_RED_MAX] = "reduce_max",
  [CO_RED_AND] = "reduce_and", [CO_RED_OR] = "reduce_or", [CO_RED_XOR] = "reduce_xor",
  [CO_SYNC_COUNT] = "count", [CO_SYNC_AND] = "and", [CO_SYNC_OR] = "or",
};
