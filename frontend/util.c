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
