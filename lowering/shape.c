/* shape.c: how a kernel's varying values vary across a warp's lanes.
 *
 * In the fast versions of a region (version.c) the lanes of a warp have
 * known thread indices: in whole-row warps (blockDim.x % 32 == 0)
 * threadIdx.x = _tx0 + lane and threadIdx.y, .z are one value per warp;
 * in half rows threadIdx.x = _x and threadIdx.y = _ty0 + _r; block-wide,
 * threadIdx.x = lane. So a value computed from thread indices by adds,
 * subtracts and multiplications by constants is *affine*: a base per warp
 * (per sub-row) plus a constant stride times the lane, whatever the names,
 * temporaries and nesting that spell it:
 *     threadIdx.x                         stride 1
 *     blockIdx.x * blockDim.x + t         stride 1 (t = threadIdx.x)
 *     2 * t + 1                           stride 2
 *     blockIdx.y * T + threadIdx.y        stride 0: the same in every lane
 * (uniform values have stride 0 too; "row" values are varying ones of
 * stride 0). A varying integer variable is affine when every store to it
 * is: a declaration, `v = e`, `v += e`, `v -= e`, `v++` or `v--` as a
 * statement or a for loop's increment, of an affine value, where no lane
 * of those that declared it can skip it (no divergent construct between
 * the declaration and the store; a loop's own increment, run by every lane
 * still in the loop at the same iteration, counts as no divergence for the
 * variables its init declares). So the grid-stride loop's
 * `for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)`
 * keeps i affine, stride 1. The version keeps one base per warp (`i_b`),
 * prints `(i_b + s * _l)` in a lane, and `a[i]` as the unit-stride
 * `(&a[i_b])[_l]`. Assumed, as for any vectorization of SPMD code: a
 * warp's lane values do not wrap around between lanes. */
#include "lw.h"

/* the shape of an expression: is it affine, and its stride. While
 * lw_shape iterates, a variable not yet known reads as stride 0 and sets
 * unknown: a store computed from it says nothing yet. */
static bool shp(Node *n, int64_t *s);
static bool unknown;

static bool num_val(Node *n, int64_t *v) {
  n = bare(n);
  while (n->k == N_CAST && is_intty(n->ty) && (n->a->k == N_NUM || n->a->k == N_CAST)) n = n->a;
  if (n->k != N_NUM) return false;
  *v = n->ival;
  return true;
}

static bool shp(Node *n, int64_t *s) {
  int64_t a, b;
  *s = 0;
  if (!ln(n)->vary) return true;
  switch (n->k) {
  case N_BUILTIN:
    if (n->bk != B_TID) return false;
    *s = n->dim == 0;
    return true;
  case N_VAR:
    *s = lo(n->var)->sx;
    unknown |= lo(n->var)->aff == AF_TOP;
    return lo(n->var)->aff != 0;
  case N_CAST:
    if (!shp(n->a, &a)) return false;
    *s = a;
    /* between integers (a warp's values do not wrap), or anything of stride 0 */
    return a == 0 || (is_intty(n->ty) && is_intty(n->a->ty));
  case N_UN:
    if (n->op == OP_DEREF || n->op == OP_ADDR || !shp(n->a, &a)) return false;
    if (n->op == OP_NEG) *s = -a;
    else if (n->op == OP_PLUS) *s = a;
    else if (n->op == OP_BNOT && is_intty(n->ty)) *s = -a;   /* ~x = -x - 1 */
    else return a == 0;
    return true;
  case N_BIN:
    if (!shp(n->a, &a) || !shp(n->b, &b)) return false;
    if (n->op == OP_ADD) { *s = a + b; return true; }
    if (n->op == OP_SUB) { *s = a - b; return true; }
    if (a == 0 && b == 0) return true;   /* row op row */
    if (!is_intty(n->ty)) return false;
    if (n->op == OP_MUL) {
      int64_t c;
      if (b == 0 && num_val(n->b, &c)) { *s = a * c; return true; }
      if (a == 0 && num_val(n->a, &c)) { *s = b * c; return true; }
      return false;
    }
    if (n->op == OP_SHL) {
      int64_t c;
      if (b == 0 && num_val(n->b, &c) && c >= 0 && c < 32) { *s = a * ((int64_t)1 << c); return true; }
      return false;
    }
    return false;
  case N_LOG: return shp(n->a, &a) && shp(n->b, &b) && a == 0 && b == 0;
  case N_COND:
    if (!shp(n->a, &a) || a || !shp(n->b, &a) || !shp(n->c, &b) || a != b) return false;
    *s = a;
    return true;
  case N_INDEX:   /* an address (no load) of stride 0 */
    return n->ty->kind == TY_ARRAY && shp(n->a, &a) && shp(n->b, &b) && a == 0 && b == 0;
  default: return false;
  }
}

/* the same value in every lane of a whole-row warp (or uniform) */
bool rowu(Node *n) {
  int64_t s;
  return shp(n, &s) && s == 0;
}

/* an integer of stride 1: base + lane in lane l */
bool aff_e(Node *n) {
  int64_t s;
  return is_intty(n->ty) && shp(n, &s) && s == 1 && ln(n)->vary;
}

/* an integer's lane stride; false if it has none */
bool aff_stride(Node *n, int64_t *s) { return is_intty(n->ty) && shp(n, s); }

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

/* ---- variables ---- */

typedef struct Sc {
  bool ch;
  int vd;              /* divergent constructs around the point walked */
  Node *inc;           /* walking this loop's increment */
  int incvd;
} Sc;

/* the stride a store gives v, or false if it makes v not affine */
static bool store_shape(Node *x, Obj *v, int64_t *s) {
  int64_t a;
  LObj *l = lo(v);
  switch (x->k) {
  case N_ASSIGN:
    if (!shp(x->b, &a)) return false;
    if (x->op == OP_ASSIGN) { *s = a; return true; }
    if (x->op == OP_ADDA || x->op == OP_SUBA) { *s = x->op == OP_ADDA ? l->sx + a : l->sx - a; return true; }
    /* v *= c and the like keep a stride of 0 only */
    *s = 0;
    return l->sx == 0 && a == 0;
  case N_INCDEC: *s = l->sx; return true;
  default: return false;
  }
}

static void spoil(Sc *c, Obj *v) {
  if (lo(v)->aff) { lo(v)->aff = 0; c->ch = true; }
}

static void stride(Sc *c, Obj *v, int64_t s) {
  LObj *l = lo(v);
  if (!l->aff) return;
  if (l->aff == AF_TOP) { l->aff = AF_YES; l->sx = s; c->ch = true; }
  else if (l->sx != s) spoil(c, v);
}

/* a store in an expression: affine only where the lowering can update the
 * base (top is a statement's or an increment's whole expression) */
static void expr_stores(Sc *c, Node *n, bool top);

static void one_store(Sc *c, Node *x, bool top) {
  Obj *v = stored_var(x);
  if (!v || !lo(v)->aff) return;
  Node *t = bare(x->a);
  int64_t s;
  int vd = c->inc && lo(v)->dloop == c->inc ? c->incvd : c->vd;
  if (!top || t->k != N_VAR || vd > lo(v)->vdecl) {
    spoil(c, v);
    return;
  }
  unknown = false;
  bool ok = store_shape(x, v, &s);
  if (x->k == N_ASSIGN && x->op != OP_ASSIGN) unknown |= lo(v)->aff == AF_TOP;   /* v += e: from v's own */
  if (unknown) return;
  if (!ok) spoil(c, v);
  else stride(c, v, s);
}

static int stores_f(Node *n, void *p) {
  if (n->k == N_ASSIGN || n->k == N_INCDEC) one_store(p, n, false);
  return W_GO;
}

static void expr_stores(Sc *c, Node *n, bool top) {
  if (!n) return;
  if (top && (n->k == N_ASSIGN || n->k == N_INCDEC)) {
    one_store(c, n, true);
    walk(n->b, stores_f, c);
    if (n->a != bare(n->a) || n->a->k != N_VAR) walk(n->a, stores_f, c);
    return;
  }
  walk(n, stores_f, c);
}

static bool divergent(Node *n) { return ln(n)->vary || ln(n)->masked; }

static void sw(Sc *c, Node *n) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) sw(c, n->list.v[i]);
    break;
  case S_DECL: {
    LObj *l = lo(n->var);
    if (!l->aff) break;
    int64_t s;
    unknown = false;
    if (!n->a) spoil(c, n->var);   /* (set later, maybe lane by lane) */
    else if (!shp(n->a, &s)) {
      if (!unknown) spoil(c, n->var);
    } else if (!unknown) stride(c, n->var, s);
    if (n->a) walk(n->a, stores_f, c);
    break;
  }
  case S_EXPR: expr_stores(c, n->a, true); break;
  case S_RETURN: expr_stores(c, n->a, false); break;
  case S_IF:
    expr_stores(c, n->a, false);
    c->vd += ln(n)->vary;
    sw(c, n->b);
    sw(c, n->c);
    c->vd -= ln(n)->vary;
    break;
  case S_FOR: case S_WHILE: case S_DO: {
    sw(c, n->a);
    int d = divergent(n);
    c->vd += d;
    expr_stores(c, n->b, false);
    sw(c, n->d);
    Node *si = c->inc;
    int sv = c->incvd;
    c->inc = n;
    c->incvd = c->vd - d;
    expr_stores(c, n->c, true);
    c->inc = si;
    c->incvd = sv;
    c->vd -= d;
    break;
  }
  case S_SWITCH:
    expr_stores(c, n->a, false);
    c->vd += divergent(n);
    sw(c, n->d);
    c->vd -= divergent(n);
    break;
  case S_SYNC:
    expr_stores(c, n->a, false);
    if (n->var) spoil(c, n->var);
    break;
  default: break;
  }
}

/* Candidates: varying local integers, never address-taken; each starts
 * unknown and is either spoiled or given the one stride all its stores
 * agree on, until nothing changes. */
void lw_shape(Obj *k) {
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    LObj *l = lo(o);
    if (o->is_param) continue;   /* (a warp version's: as at its call) */
    l->aff = l->vary && !o->is_shared && !l->esc && is_intty(o->ty) ? AF_TOP : 0;
    l->sx = 0;
  }
  Sc c = {0};
  do {
    c.ch = false;
    sw(&c, k->body);
  } while (c.ch);
  for (int i = 0; i < k->locals.n; i++) {   /* never stored: nothing to keep */
    LObj *l = lo(k->locals.v[i]);
    if (l->aff == AF_TOP) l->aff = 0;
  }
}
