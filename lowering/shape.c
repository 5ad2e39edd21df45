/* shape.c: affine values of a kernel, in warps that are whole rows.
 *
 * When blockDim.x is a multiple of 32, every warp is part of one row:
 * threadIdx.x = _tx0 + lane and threadIdx.y, .z are the same in all lanes.
 * Then a varying integer assigned only values of the form row + tid.x
 * (i = blockIdx.x * blockDim.x + threadIdx.x) holds base + lane in lane l
 * (AF_LANE), and one computed from threadIdx.y/z and uniform values only
 * (row = blockIdx.y * T + threadIdx.y) holds the same value in every lane
 * (AF_ROW). The whole-row version of a region keeps just the base (`i_b`)
 * and prints `(i_b + _l)` or `row_b`, so a[i] is a contiguous vector access
 * and As[row][k] one broadcast instead of 32 gathered loads. Assumed: a
 * warp's lane values do not wrap around 2^32 between lanes. */
#include "lw.h"

/* the same value in every lane of a whole-row warp (or uniform) */
bool rowu(Node *n) {
  if (!ln(n)->vary) return true;
  switch (n->k) {
  case N_BUILTIN: return n->bk == B_TID && n->dim > 0;
  case N_VAR: return lo(n->var)->aff == AF_ROW;
  case N_CAST: return rowu(n->a);
  case N_UN: return n->op != OP_DEREF && n->op != OP_ADDR && rowu(n->a);
  case N_BIN: case N_LOG: return rowu(n->a) && rowu(n->b);
  case N_COND: return rowu(n->a) && rowu(n->b) && rowu(n->c);
  case N_INDEX: return n->ty->kind == TY_ARRAY && rowu(n->a) && rowu(n->b);   /* an address, no load */
  default: return false;
  }
}

/* base + lane in lane l of a whole-row warp */
bool aff_e(Node *n) {
  switch (n->k) {
  case N_BUILTIN: return n->bk == B_TID && n->dim == 0;
  case N_VAR: return lo(n->var)->aff == AF_LANE;
  case N_CAST: return is_intty(n->ty) && is_intty(n->a->ty) && aff_e(n->a);
  case N_BIN:
    if (n->op == OP_ADD) return (aff_e(n->a) && rowu(n->b)) || (rowu(n->a) && aff_e(n->b));
    if (n->op == OP_SUB) return aff_e(n->a) && rowu(n->b);
    return false;
  default: return false;
  }
}

/* `lane value OP row value`, either way round, OP one of < <= > >= == on
 * 32-bit integers: the lanes where it holds form a run (for ==, of at most
 * one lane: `if (t == 0)`; its else-branch would be two runs). */
bool aff_cmp(Node *c) {
  if (c->k != N_BIN || !is_intty(c->a->ty) || c->a->ty->size > 4) return false;
  if (c->op != OP_LT && c->op != OP_LE && c->op != OP_GT && c->op != OP_GE && c->op != OP_EQ) return false;
  return (aff_e(c->a) && rowu(c->b)) || (aff_e(c->b) && rowu(c->a));
}

/* `lane value % row value == 0`, either way round: the lanes where it
 * holds are every u-th from the first (the lecture's divergent reduction,
 * `t % (2 * stride) == 0`). Its else-branch would not be a run. */
Node *aff_mod(Node *c) {
  if (c->k != N_BIN || c->op != OP_EQ || !is_intty(c->a->ty) || c->a->ty->size > 4) return NULL;
  Node *m = c->b->k == N_NUM && c->b->ival == 0 ? c->a : c->a->k == N_NUM && c->a->ival == 0 ? c->b : NULL;
  if (!m || m->k != N_BIN || m->op != OP_MOD || m->ty->size > 4) return NULL;
  return aff_e(m->a) && rowu(m->b) ? m : NULL;
}

static bool aff_ok(Obj *o, Node *v) { return lo(o)->aff == AF_ROW ? rowu(v) : aff_e(v); }

/* Candidates: varying local integers, never address-taken, assigned only
 * by declarations or plain top-level `=` outside divergent control. */
static int bad_store(Node *n, void *c) {   /* stores anywhere else disqualify */
  (void)c;
  Obj *v = stored_var(n);
  if (v) lo(v)->aff = 0;
  return W_GO;
}

static void aff_bad_stores(Node *n) { walk(n, bad_store, NULL); }

static bool aff_walk(Node *n, bool div) {   /* returns: something changed */
  if (!n) return false;
  bool ch = false;
  switch (n->k) {
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) ch |= aff_walk(n->list.v[i], div);
    break;
  case S_DECL:
    if (lo(n->var)->aff && (div || !n->a || !aff_ok(n->var, n->a))) { lo(n->var)->aff = 0; ch = true; }
    break;
  case S_EXPR: {
    Node *x = n->a;
    if (x->k == N_ASSIGN && x->op == OP_ASSIGN && x->a->k == N_VAR && lo(x->a->var)->aff) {
      if (div || !aff_ok(x->a->var, x->b)) { lo(x->a->var)->aff = 0; ch = true; }
    }
    break;
  }
  case S_IF:
    ch |= aff_walk(n->b, div || ln(n)->vary);
    ch |= aff_walk(n->c, div || ln(n)->vary);
    break;
  case S_FOR: case S_WHILE: case S_DO:
    ch |= aff_walk(n->a, div);
    ch |= aff_walk(n->d, div || ln(n)->vary || ln(n)->masked);
    break;
  case S_SWITCH: ch |= aff_walk(n->d, div || ln(n)->vary || ln(n)->masked); break;
  default: break;
  }
  return ch;
}

/* Stores other than a top-level `x = ...` statement or a declaration. */
static void aff_strip_assign_stores(Node *n) {
  if (!n) return;
  if (n->k == S_EXPR) {
    Node *x = n->a;
    if (x->k == N_ASSIGN && x->op == OP_ASSIGN && x->a->k == N_VAR) {
      aff_bad_stores(x->b);
      return;
    }
    aff_bad_stores(x);
    return;
  }
  if (n->k == S_DECL) { aff_bad_stores(n->a); return; }
  if (n->k >= N_NUM && n->k <= N_INIT) { aff_bad_stores(n); return; }
  aff_strip_assign_stores(n->a);
  aff_strip_assign_stores(n->b);
  aff_strip_assign_stores(n->c);
  aff_strip_assign_stores(n->d);
  for (int i = 0; i < n->list.n; i++) aff_strip_assign_stores(n->list.v[i]);
}

/* Row values first (lane values may be built on them), then lane values
 * among the rest; each is the largest set consistent with its stores. */
void lw_shape(Obj *k) {
  for (int kind = AF_ROW; kind >= AF_LANE; kind--) {
    for (int i = 0; i < k->locals.n; i++) {
      Obj *o = k->locals.v[i];
      LObj *l = lo(o);
      if (l->aff == AF_ROW) continue;
      l->aff = l->vary && !o->is_param && !o->is_shared && !l->esc && is_intty(o->ty) ? kind : 0;
    }
    aff_strip_assign_stores(k->body);
    while (aff_walk(k->body, false)) {}
  }
}
