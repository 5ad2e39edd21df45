/* fold.c: conditions that are constants once a template is instantiated.
 *
 * A template's `if (blockSize >= 512 && tid < 256)`, `if (nIsPow2)` or
 * CUB's `IS_FULL_TILE ? 31 : valid_items - 1` reach the IR with literals
 * where the parameters stood. Left alone, the dead side is code to every
 * later pass: shapes call a value varying where the side taken is
 * uniform, and each version of each region prints the dead side for the
 * C compiler to delete again (cuda-samples' reduction: 213
 * instantiations, most of their code dead). This pass, first of all,
 * replaces each if, ?:, && and || whose condition is an integer constant
 * expression (frontend/eval.c's: literals, casts and operators, no
 * variable but a const static's constant) by the side it takes. */
#include "lw.h"

static Node *fd_num(Node *at, int64_t v) {
  Node *n = lw_copy(at);
  n->k = N_NUM;
  n->a = n->b = n->c = n->d = NULL;
  n->list = (Vec){0};
  n->ival = v;
  return n;
}

static Node *fd(Node *n) {
  if (!n) return NULL;
  n->a = fd(n->a);
  n->b = fd(n->b);
  n->c = fd(n->c);
  n->d = fd(n->d);
  for (int i = 0; i < n->list.n; i++) n->list.v[i] = fd(n->list.v[i]);
  int64_t x;
  switch (n->k) {
  case S_IF: {
    if (!ev_int(n->a, &x)) return n;
    /* (no case label is inside: parse.c refuses one below a switch's top;
     * a declaration alone as the side taken keeps the if, its scope) */
    Node *take = x ? n->b : n->c;
    if (take && (take->k == S_DECL || (take->k == S_BLOCK && take->post))) return n;
    if (take) return take;
    Node *e = lw_copy(n);   /* (an empty statement where the if was) */
    e->k = S_NULL;
    e->a = e->b = e->c = e->d = NULL;
    return e;
  }
  case N_COND: {
    if (!ev_int(n->a, &x)) return n;
    Node *take = x ? n->b : n->c;
    return take->ty && take->ty->kind == n->ty->kind && take->ty->size == n->ty->size ? take : n;
  }
  case N_LOG:
    if (ev_int(n, &x)) return fd_num(n, x);
    if (!ev_int(n->a, &x)) return n;
    /* `1 && c` is c where c is already a bool (a comparison, in C++) */
    return n->b->ty->kind == TY_BOOL && n->ty->kind == TY_BOOL ? n->b : n;
  default: return n;
  }
}

void lw_fold(Obj *f) {
  if (f->body) f->body = fd(f->body);
}
