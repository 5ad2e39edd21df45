/* shared32.c: a GPU's shared memory addresses are 32-bit, and wrap.
 *
 * nvcc addresses a pointer it knows to point into shared memory with 32
 * bits, so `p[~x]` (x unsigned: ~x is 2^32 - 1 - x) reads p[-(x + 1)] on
 * the GPU, and `c + (unsigned)-4` is c - 4 (recorded on an H100:
 * tests/warp/gpu_behaviour.cu); programs rely on it. On the CPU such an
 * index is 4 GB past the array. For an access through a pointer known to
 * point into shared memory, an unsigned 32-bit offset is therefore taken
 * as a signed one, which is the same address modulo 2^32 and the one
 * inside the block's shared memory.
 *
 * "Known to point into shared memory": a __shared__ variable, and a local
 * pointer (address never taken) whose every assignment is such a pointer,
 * with offsets and casts: the greatest such set, found by removing
 * variables with another definition until none goes. Parameters and
 * pointers loaded from memory are not known, as nvcc's generic addressing
 * then uses 64 bits too. */
#include "fe.h"

typedef struct Sh { Vec ptrs; bool changed; } Sh;

static bool in(Vec *v, Obj *o) {
  for (int i = 0; i < v->n; i++)
    if (v->v[i] == o) return true;
  return false;
}

static bool is_ptr(Type *t) { return t && t->kind == TY_PTR && !t->is_ref; }

/* does e point into shared memory (or name a shared array)? */
static bool shp(Sh *s, Node *e) {
  while (e && (e->k == N_CAST || e->k == N_COMMA)) e = e->k == N_CAST ? e->a : e->b;
  if (!e) return false;
  switch (e->k) {
  case N_VAR: return e->var->is_shared || in(&s->ptrs, e->var);
  case N_UN:
    if (e->op != OP_ADDR) return false;
    e = e->a;
    while (e->k == N_INDEX || e->k == N_MEMBER) {
      if (e->k == N_MEMBER && e->post) return shp(s, e->a);   /* &q->f */
      if (e->k == N_INDEX && is_ptr(e->a->ty)) return shp(s, e->a);
      e = e->a;
    }
    return e->k == N_VAR && e->var->is_shared;
  case N_BIN:
    if (e->op != OP_ADD && e->op != OP_SUB) return false;
    return is_ptr(e->a->ty) ? shp(s, e->a) : e->op == OP_ADD && shp(s, e->b);
  case N_COND: return shp(s, e->b) && shp(s, e->c);
  case N_ASSIGN: return e->op == OP_ASSIGN && shp(s, e->b);
  default: return false;
  }
}

static bool cand(Obj *o) { return o && is_ptr(o->ty) && !o->is_param && !o->is_global && !o->is_shared && !o->addr_taken; }

static void drop(Sh *s, Obj *o) {
  for (int i = 0; i < s->ptrs.n; i++)
    if (s->ptrs.v[i] == o) {
      s->ptrs.v[i] = s->ptrs.v[--s->ptrs.n];
      s->changed = true;
      return;
    }
}

static void gather(Sh *s, Node *n) {   /* every candidate local, first */
  if (!n) return;
  if (n->k == S_DECL && cand(n->var) && !in(&s->ptrs, n->var)) vec_push(&s->ptrs, n->var);
  gather(s, n->a), gather(s, n->b), gather(s, n->c), gather(s, n->d);
  for (int i = 0; i < n->list.n; i++) gather(s, n->list.v[i]);
}

static void prune(Sh *s, Node *n) {   /* ... less those with another definition */
  if (!n) return;
  if (n->k == S_DECL && n->a && in(&s->ptrs, n->var) && !shp(s, n->a)) drop(s, n->var);
  if (n->k == N_ASSIGN && n->a->k == N_VAR && in(&s->ptrs, n->a->var) &&
      !(n->op == OP_ASSIGN ? shp(s, n->b) : n->op == OP_ADDA || n->op == OP_SUBA))
    drop(s, n->a->var);
  prune(s, n->a), prune(s, n->b), prune(s, n->c), prune(s, n->d);
  for (int i = 0; i < n->list.n; i++) prune(s, n->list.v[i]);
}

static Type ty_int = {.kind = TY_INT, .size = 4, .align = 4};

/* an unsigned 32-bit offset of a shared pointer, as a signed one (not
 * threadIdx and the like, below 2^31: code stays as it was) */
static void wrap(Node **x) {
  Node *o = *x, *b = o;
  if (!o || !o->ty || o->ty->kind != TY_UINT) return;
  while (b->k == N_CAST) b = b->a;
  if (b->k == N_BUILTIN || (b->k == N_NUM && b->ival >= 0 && b->ival < 0x80000000ll)) return;
  Node *c = xcalloc(1, sizeof *c);
  c->k = N_CAST;
  c->ty = &ty_int;
  c->a = o;
  c->file = o->file, c->line = o->line, c->col = o->col;
  *x = c;
}

static void rewrite(Sh *s, Node *n) {
  if (!n) return;
  /* (a shared array indexed itself is left alone: an index past its
   * start is out of bounds on the GPU too) */
  Node *a = n->a;
  while (a && a->k == N_CAST && a->implicit) a = a->a;
  if (n->k == N_INDEX && !(a->k == N_VAR && a->ty->kind == TY_ARRAY) && shp(s, n->a)) wrap(&n->b);
  if (n->k == N_BIN && (n->op == OP_ADD || n->op == OP_SUB) && is_ptr(n->ty)) {
    if (is_ptr(n->a->ty) && shp(s, n->a)) wrap(&n->b);
    else if (n->op == OP_ADD && is_ptr(n->b->ty) && shp(s, n->b)) wrap(&n->a);
  }
  if (n->k == N_ASSIGN && (n->op == OP_ADDA || n->op == OP_SUBA) && is_ptr(n->a->ty) && shp(s, n->a)) wrap(&n->b);
  rewrite(s, n->a), rewrite(s, n->b), rewrite(s, n->c), rewrite(s, n->d);
  for (int i = 0; i < n->list.n; i++) rewrite(s, n->list.v[i]);
}

void fe_shared32(Node *body) {
  Sh s = {0};
  gather(&s, body);
  do {
    s.changed = false;
    prune(&s, body);
  } while (s.changed);
  rewrite(&s, body);
  free(s.ptrs.v);
}
