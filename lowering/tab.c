/* tab.c: side tables. What the lowering knows of an IR node or object
 * lives here, keyed by its address, not in the frontend's types. */
#include "lw.h"

typedef struct Ent { const void *key; void *val; } Ent;
typedef struct Tab { Ent *e; size_t n, cap; } Tab;

static Tab tn, to;

static size_t hash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x;
}

static void **slot(Tab *t, const void *key) {
  if (2 * (t->n + 1) > t->cap) {   /* grow: at most half full */
    Tab g = {xcalloc(t->cap ? 2 * t->cap : 1024, sizeof(Ent)), 0, t->cap ? 2 * t->cap : 1024};
    for (size_t i = 0; i < t->cap; i++)
      if (t->e[i].key) *slot(&g, t->e[i].key) = t->e[i].val;
    free(t->e);
    *t = g;
  }
  size_t i = hash(key) & (t->cap - 1);
  while (t->e[i].key && t->e[i].key != key) i = (i + 1) & (t->cap - 1);
  if (!t->e[i].key) {
    t->e[i].key = key;
    t->n++;
  }
  return &t->e[i].val;
}

LNode *ln(Node *n) {
  void **s = slot(&tn, n);
  if (!*s) *s = xcalloc(1, sizeof(LNode));
  return *s;
}

LObj *lo(Obj *o) {
  void **s = slot(&to, o);
  if (!*s) *s = xcalloc(1, sizeof(LObj));
  return *s;
}

void tab_reset(void) {
  free(tn.e);
  free(to.e);
  tn = to = (Tab){0};
}

Node *lw_copy(Node *n) {
  Node *c = memcpy(xcalloc(1, sizeof *c), n, sizeof *c);
  *ln(c) = *ln(n);
  return c;
}

/* the C name of a variable or function */
const char *cname(Obj *o) {
  LObj *l = lo(o);
  return l->cname ? l->cname : o->cname;
}
