/* bound.c: conditions that every thread of a block passes, shown once per
 * block from bounds of their operands over the block's threads.
 *
 * A tiled matmul's bounds tests (`row < n && ph * TILE + tx < n`, the
 * whole body under `if (row < n && col < n)`) hold for every thread of
 * every block but the edge ones. Per warp they are counted in O(1) (runs of
 * lanes) and a block-level if is counted thread by thread; both cost more
 * than the tile's loads they guard. Where a condition's operands are
 * integers built from threadIdx (each component in [0, blockDim - 1]),
 * values the same in every thread and constants, by +, -, *, casts and
 * division, remainder, shifts and masks by constants, an interval of each
 * operand over the block is a few additions (lowest, highest); a
 * comparison every point of whose intervals agrees holds in every thread.
 * The test is sufficient, not exact: when it fails the per-warp or
 * per-thread count runs as before. It reads no memory and has no effects,
 * so it may run where the source would not evaluate the condition.
 *
 * Where the test is evaluated decides which variables it may read:
 *   - at a block-level if (rstmts NULL), at the if itself: parameters never
 *     stored to, uniform variables at block level, and variables of one
 *     definition (LObj.bdef) of those, builtins and constants, replaced by
 *     that definition;
 *   - at a region's top (rstmts: its statements), for conditions inside
 *     the region: the same, but uniform block-level variables only when
 *     the region stores none of them, and a variable of one definition
 *     declared in the region may also read such variables (its value is
 *     the same wherever the region reads it).
 * Every interval is checked to fit the type of its node (where it does
 * not, a thread's arithmetic may have wrapped: the test fails), so the
 * intervals, kept in long long, are exact bounds of what each thread
 * computes. */
#include "lw.h"

typedef struct Bq {
  Obj *k;
  Vec *rs;      /* the region's statements, or NULL: at block level */
  bool inv;     /* inside a definition read elsewhere than where it was
                   declared: parameters, builtins, constants only */
  int depth;
  int nid;
} Bq;

static int64_t tmin(Type *t) {
  if (t->kind == TY_BOOL) return 0;
  bool uns = t->kind == TY_UCHAR || t->kind == TY_USHORT || t->kind == TY_UINT || t->kind == TY_ULONG ||
             t->kind == TY_ULLONG;
  if (uns) return 0;
  if (t->size >= 8) return -(INT64_C(1) << 61);
  return -(INT64_C(1) << (8 * t->size - 1));
}

/* (64-bit types: 2^61, so that sums of two stay within long long) */
static int64_t tmax(Type *t) {
  if (t->kind == TY_BOOL) return 1;
  bool uns = tmin(t) == 0;
  if (t->size >= 8) return INT64_C(1) << 61;
  return (INT64_C(1) << (8 * t->size - (uns ? 0 : 1))) - 1;
}

static bool int_ok(Type *t) {
  return t && t->kind >= TY_BOOL && t->kind <= TY_ULLONG && !t->is_volatile;
}

static Bn *bn(Bq *q, BnKind k, Type *t) {
  Bn *b = xcalloc(1, sizeof *b);
  b->k = k;
  b->id = ++q->nid;
  b->tmin = tmin(t);
  b->tmax = tmax(t);
  return b;
}

static Bn *val(Bq *q, Node *e);

static bool rs_stores(Vec *rs, Obj *v) {
  for (int i = 0; i < rs->n; i++)
    if (stores(rs->v[i], v)) return true;
  return false;
}

static bool rs_declares(Vec *rs, Obj *v) {
  for (int i = 0; i < rs->n; i++)
    if (decl_in(rs->v[i], v)) return true;
  return false;
}

/* ---- loops' variables ----
 * `for (int d = A; d <= B; d++)` (<, >, >= too; a step by a positive
 * constant; the body storing nothing to d) gives d, wherever the body
 * reads it, a value between A and B: a clamp or bounds check over a
 * filter's offsets (`min(max(x + dx, 0), w - 1)`, `if (x + dx >= 0 && x +
 * dx < w)`) holds in every iteration where it holds at both ends. A and B
 * are read where the test runs, so they may read only what the loop does
 * not change. */
static bool step_of(Node *c, Obj *v, int *dir) {
  int64_t k;
  c = bare(c);
  if (c->k == N_INCDEC && bare(c->a)->k == N_VAR && bare(c->a)->var == v) {
    *dir = c->op == OP_INC ? 1 : -1;
    return true;
  }
  if (c->k == N_ASSIGN && (c->op == OP_ADDA || c->op == OP_SUBA) && bare(c->a)->k == N_VAR && bare(c->a)->var == v &&
      ev_int(c->b, &k) && k > 0) {
    *dir = c->op == OP_ADDA ? 1 : -1;
    return true;
  }
  return false;
}

/* the loop's end: d op B, or B op d (mirrored); op as if d were on the left */
static Node *end_of(Node *c, Obj *v, Op *op) {
  c = bare(c);
  if (c->k != N_BIN || !op_cmp(c->op) || c->op == OP_EQ || c->op == OP_NE) return NULL;
  if (bare(c->a)->k == N_VAR && bare(c->a)->var == v) {
    *op = c->op;
    return c->b;
  }
  if (bare(c->b)->k == N_VAR && bare(c->b)->var == v) {
    *op = c->op == OP_LT ? OP_GT : c->op == OP_GT ? OP_LT : c->op == OP_LE ? OP_GE : OP_LE;
    return c->a;
  }
  return NULL;
}

static bool stores_any_p(Node *n, void *c) {
  Node *loop = c;
  return n->k == N_VAR && (n->var->addr_taken || (!n->var->is_param && stores(loop, n->var)));
}
/* the declaration a for loop's init is (`int d = A`, alone) */
static Node *for_decl(Node *n) {
  Node *a = n->a;
  while (a && a->k == S_BLOCK && a->list.n == 1) a = a->list.v[0];
  return a && a->k == S_DECL ? a : NULL;
}

static int range_f(Node *n, void *c) {
  (void)c;
  Node *d = n->k == S_FOR ? for_decl(n) : NULL;
  if (!d || !n->b || !n->c) return W_GO;
  Obj *v = d->var;
  int dir;
  Op op;
  Node *e;
  if (!is_intty(v->ty) || v->addr_taken || v->is_shared || v->ty->is_volatile || !d->a || d->a->k == N_INIT ||
      !step_of(n->c, v, &dir) || !(e = end_of(n->b, v, &op)) || stores(n->d, v) || !pure(d->a) || !pure(e))
    return W_GO;
  if (dir > 0 ? op != OP_LT && op != OP_LE : op != OP_GT && op != OP_GE) return W_GO;
  /* (the end read where the test runs: nothing the loop changes) */
  if (any_node(e, stores_any_p, n)) return W_GO;
  lo(v)->lfor = n;
  return W_GO;
}

void lw_ranges(Obj *k) { walk(k->body, range_f, NULL); }


static Bn *span(Bq *q, Obj *v, Node *loop) {
  int dir;
  Op op;
  Node *e = end_of(loop->b, v, &op);
  step_of(loop->c, v, &dir);
  q->depth++;
  Bn *a = val(q, for_decl(loop)->a), *b = a ? val(q, e) : NULL;
  q->depth--;
  if (!b) return NULL;
  if (op == OP_LT || op == OP_GT) {   /* d < B: at most B - 1; d > B: at least B + 1 */
    Bn *one = bn(q, BN_VAL, v->ty), *x = bn(q, op == OP_LT ? BN_SUB : BN_ADD, v->ty);
    one->c = 1;
    one->tmin = one->tmax = 1;
    x->a = b;
    x->b = one;
    b = x;
  }
  Bn *r = bn(q, BN_SPAN, v->ty);
  r->a = dir > 0 ? a : b;   /* (counting down: from the end up to the start) */
  r->b = dir > 0 ? b : a;
  return r;
}

/* a variable: a leaf (the same in every thread where the test runs) or its
 * one definition */
static Bn *var(Bq *q, Node *e) {
  Obj *v = e->var;
  LObj *l = lo(v);
  if (v->is_shared || v->is_global || v->addr_taken || l->esc || v->ty->is_volatile) return NULL;
  bool leaf = false;
  if (v->is_param) leaf = !l->vary && !stores(q->k->body, v);
  else if (!q->inv && !l->vary && (l->rgn == 0 || l->cross))   /* (declared in the region: not there yet at its top) */
    leaf = !q->rs || (!rs_stores(q->rs, v) && !rs_declares(q->rs, v));
  if (leaf) {
    Bn *b = bn(q, BN_VAL, v->ty);
    b->x = e;
    return b;
  }
  if (!v->is_param && !l->bdef && l->lfor && q->depth < 8) return span(q, v, l->lfor);
  if (v->is_param || !l->bdef || q->depth >= 8) return NULL;
  /* its one definition, read where the test runs: of values that are the
   * same there as where it was declared (declared in the region: what
   * the region does not store) */
  bool inv = q->inv;
  q->inv = inv || !q->rs || !rs_declares(q->rs, v);
  q->depth++;
  Bn *r = val(q, l->bdef);
  q->depth--;
  q->inv = inv;
  if (!r) return NULL;
  Bn *c = bn(q, BN_CAST, v->ty);   /* (its conversion to the variable's type, checked) */
  c->a = r;
  return c;
}

static Bn *val(Bq *q, Node *e) {
  if (!e || !int_ok(e->ty)) return NULL;
  switch (e->k) {
  case N_NUM: {
    if (e->ival < -(INT64_C(1) << 61) || e->ival > (INT64_C(1) << 61)) return NULL;
    Bn *b = bn(q, BN_VAL, e->ty);
    b->x = e;
    return b;
  }
  case N_BUILTIN: {
    if (e->bk == B_TID) {
      Bn *b = bn(q, BN_TID, e->ty);
      b->dim = e->dim;
      return b;
    }
    Bn *b = bn(q, BN_VAL, e->ty);
    b->x = e;
    return b;
  }
  case N_VAR: return var(q, e);
  case N_CAST: {
    if (!int_ok(e->a->ty)) return NULL;
    Bn *a = val(q, e->a);
    if (!a) return NULL;
    Bn *b = bn(q, BN_CAST, e->ty);
    b->a = a;
    return b;
  }
  case N_UN:
    if (e->op == OP_PLUS) return val(q, e->a);
    if (e->op == OP_NEG) {
      Bn *a = val(q, e->a);
      if (!a) return NULL;
      Bn *b = bn(q, BN_NEG, e->ty);
      b->a = a;
      return b;
    }
    return NULL;
  case N_BIN: {
    int64_t c = 0;
    BnKind k;
    switch (e->op) {
    case OP_ADD: k = BN_ADD; break;
    case OP_SUB: k = BN_SUB; break;
    case OP_MUL: k = BN_MUL; break;
    /* by a positive constant (frontend/eval.c): monotone (division,
     * shifts) or bounded (remainder, mask) */
    case OP_DIV: k = BN_DIV; if (!ev_int(e->b, &c) || c <= 0) return NULL; break;
    case OP_MOD: k = BN_MOD; if (!ev_int(e->b, &c) || c <= 0) return NULL; break;
    case OP_SHR: k = BN_SHR; if (!ev_int(e->b, &c) || c < 0 || c > 62) return NULL; break;
    case OP_SHL: k = BN_MUL; if (!ev_int(e->b, &c) || c < 0 || c > 31) return NULL; break;
    case OP_BAND: k = BN_AND; if (!ev_int(e->b, &c) || c < 0) return NULL; break;
    default: return NULL;
    }
    Bn *a = val(q, e->a);
    if (!a) return NULL;
    Bn *b = bn(q, k, e->ty);
    b->a = a;
    b->c = c;
    if (e->op == OP_SHL) {   /* x << c as x * 2^c */
      Bn *m = bn(q, BN_VAL, e->ty);
      m->x = NULL;
      m->c = INT64_C(1) << c;
      m->tmin = m->tmax = m->c;
      b->b = m;
    } else if (k == BN_ADD || k == BN_SUB || k == BN_MUL) {
      b->b = val(q, e->b);
      if (!b->b) return NULL;
    }
    return b;
  }
  default: return NULL;
  }
}

/* a condition every thread passes when the test built holds */
static Bn *cond(Bq *q, Node *c) {
  Node *e = c;
  while (e->k == N_CAST && int_ok(e->ty)) e = e->a;   /* (an int of a comparison, or its bool) */
  if (e->k == N_LOG && (e->op == OP_LAND || e->op == OP_LOR)) {
    Bn *a = cond(q, e->a), *b = a ? cond(q, e->b) : NULL;
    if (!b) return NULL;
    Bn *r = bn(q, e->op == OP_LAND ? BN_ALL : BN_ANY, e->ty);
    r->a = a;
    r->b = b;
    return r;
  }
  if (e->k != N_BIN || !op_cmp(e->op) || e->op == OP_EQ) return NULL;
  Bn *a = val(q, e->a), *b = a ? val(q, e->b) : NULL;
  if (!b) return NULL;
  Bn *r = bn(q, BN_CMP, e->ty);
  r->op = e->op;
  r->a = a;
  r->b = b;
  /* (an unsigned comparison agrees with the integers' own only where
   * both sides are not negative: checked) */
  r->uns = tmin(e->a->ty) == 0 || tmin(e->b->ty) == 0;
  return r;
}

/* reads a parameter (a size the kernel is given) */
static bool has_param(Bn *b) {
  if (!b) return false;
  if (b->k == BN_VAL && b->x && b->x->k == N_VAR && b->x->var->is_param) return true;
  return has_param(b->a) || has_param(b->b);
}

/* Only bounds checks: a condition that compares with a parameter (`i <
 * n`, `row < width`), which whole blocks pass but the edge ones; not one
 * that splits a block's threads into roles by constants and its shape
 * (`tid < 32`, `tid < s` of a tree), which no block passes whole. */
Bn *lw_bound(Obj *k, Node *c, Vec *rstmts) {
  if (!c || !pure(c)) return NULL;
  Bq q = {k, rstmts, false, 0, 0};
  Bn *b = cond(&q, c);
  return b && has_param(b) ? b : NULL;
}

/* tested at the kernel's top, of parameters, builtins and constants:
 * bspec.c's guards, sized (bounds checks, as lw_bound) or not (`x - 1 >
 * 0`, a clamp at 0 compares with no parameter; bspec.c picks the sides) */
Bn *lw_bound_any(Obj *k, Node *c, bool sized) {
  if (!c || !pure(c)) return NULL;
  Bq q = {k, NULL, true, 0, 0};   /* (tested at the kernel's top: parameters, builtins, constants only) */
  Bn *b = cond(&q, c);
  return b && (!sized || has_param(b)) ? b : NULL;
}

/* the test of region r for condition c: its number (1...), 0 if none */
int lw_bound_region(Obj *k, Region *r, Node *c) {
  /* (a region with a block-wide version counts a condition's run once
   * per block already, in O(1): a 1-D kernel's) */
  for (int i = 0; i < r->vers.n; i++)
    if (((Ver *)r->vers.v[i])->k == VK_BW) return 0;
  for (int i = 0; i < r->btc.n; i++)
    if (r->btc.v[i] == c) return i + 1;
  Bn *t = lw_bound(k, c, &r->stmts);
  if (!t) return 0;
  vec_push(&r->btc, c);
  vec_push(&r->btn, t);
  return r->btc.n;
}
