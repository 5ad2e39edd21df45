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
 * (a declaration with no value is none) is: a declaration, `v = e`,
 * `v += e`, `v -= e`, `v++` or `v--` as a statement or a for loop's
 * increment, of an affine value, where no lane of those that declared it
 * can skip it (no divergent construct between the declaration and the
 * store; a loop's own increment, run by every lane still in the loop at
 * the same iteration, counts as no divergence for the variables its init
 * declares). So the grid-stride loop's
 * `for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)`
 * keeps i affine, stride 1. The version keeps one base per warp (`i_b`),
 * prints `(i_b + s * _l)` in a lane, and `a[i]` as the unit-stride
 * `(&a[i_b])[_l]`. Assumed, as for any vectorization of SPMD code: a
 * warp's lane values do not wrap around between lanes. */
#include "lw.h"

/* the shape of an expression: is it affine, its stride, and two facts
 * about its base (its value in the run's first lane) that let a warp be
 * split out of a thread index: al, the base is a multiple of the run of
 * lanes (32 in whole-row warps: threadIdx.x's base is 32 * warp and
 * blockDim.x a multiple of 32; 16 in half rows: threadIdx.x's base is 0
 * and blockDim.x is 16), and nn, the value is not negative. With both, a
 * lane value of stride 1 divided by a multiple of 32 is the same in every
 * lane (`warp = tid / 32`), and its remainder is affine again (`lane =
 * tid % 32`, base + lane). Those two hold in the warp versions only, not
 * block-wide, where all the block's threads are one run: split marks the
 * values that rely on them. While lw_shape iterates, a variable not yet
 * known reads as stride 0 and sets unknown: a store computed from it says
 * nothing yet. */
typedef struct Sh {
  int64_t s;
  bool al, nn;
  Node *u;   /* the stride is s * u, u uniform (NULL: s) */
} Sh;

/* a uniform stride's part: the same value in both (a variable's kept
 * value, or one expression of uniform variables read at one point) */
static bool same_u(Node *a, Node *b) { return a == b || (a && b && same_x(a, b)); }

static bool shq(Node *n, Sh *o);
static void bin_facts(Node *n, Sh *a, Sh *b, Sh *o);
static bool unknown, split;

/* Calls: a device function whose body is `return e;` (a tile's
 * thread_rank(), a lane() helper) has the shape of e with its parameters
 * bound to the call's arguments, read in the caller. */
typedef struct Bind {
  Obj *fn;
  Node *call;
  struct Bind *up;
  int depth;
} Bind;
static Bind *env;

static bool arg_shape(Node *n, Sh *o) {
  Bind *b = env;
  for (int i = 0; i < b->fn->params.n && i < b->call->list.n; i++)
    if (b->fn->params.v[i] == n->var) {
      env = b->up;
      bool r = shq(b->call->list.v[i], o);
      env = b;
      return r;
    }
  return false;
}

static bool call_shape(Node *n, Sh *o) {
  Node *e = n->ck == C_FUNC && n->fn && n->fn->body && (!env || env->depth < 6) ? one_return(n->fn) : NULL;
  if (!e || !is_intty(n->ty) || n->fn->params.n != n->list.n) return false;
  for (int i = 0; i < n->list.n; i++) {   /* (every argument, read or not: the base's call passes it) */
    Sh a;
    if (!shq(n->list.v[i], &a)) return false;
  }
  Bind b = {n->fn, n, env, env ? env->depth + 1 : 0};
  env = &b;
  bool r = shq(e, o);
  env = b.up;
  return r && !o->u;   /* (a uniform stride names the callee's values) */
}

/* A collective's result the same in every lane of the warp: a vote, a
 * reduction, __activemask(), and a shuffle from one lane (a source lane
 * of stride 0, the whole warp's width): stride 0, a warp's (split: not
 * block-wide, where the block's warps are one run). The lowering reads it
 * from lane 0 (cucc_dev.h's helpers give every lane the result; a
 * broadcast shuffle, build.c's bcast, too). */
static bool coll_shape(Node *n, Sh *o) {
  Sh a;
  int64_t w;
  (void)o;
  if (coll_vote(n->coll) || coll_reduce(n->coll) || n->coll == CO_ACTIVEMASK) {
    split = true;
    return true;
  }
  if (n->coll != CO_SHFL || n->list.n < 3 || !is_arith(n->ty)) return false;
  if (n->list.n > 3 && !(ev_int(n->list.v[3], &w) && w == 32)) return false;
  if (!shq(n->list.v[2], &a) || a.s) return false;
  split = true;
  return true;
}

static bool is_unsigned_int(Type *t) { return t->kind == TY_UINT || t->kind == TY_ULONG || t->kind == TY_ULLONG; }

/* uniform values: a multiple of the run (blockDim.x, 32 * k) or not
 * negative (indices, dimensions, constants) */
static void uni_facts(Node *n, Sh *o) {
  int64_t c;
  Sh a, b;
  o->al = o->nn = false;
  n = bare(n);
  if (ev_int(n, &c)) {
    o->al = c % 32 == 0;
    o->nn = c >= 0;
    return;
  }
  switch (n->k) {
  case N_BUILTIN:
    o->al = n->bk == B_BDIM && n->dim == 0;
    o->nn = true;
    return;
  case N_CAST:
    if (!is_intty(n->ty) || !is_intty(n->a->ty)) return;
    uni_facts(n->a, o);
    return;
  case N_BIN:
    uni_facts(n->a, &a);
    uni_facts(n->b, &b);
    bin_facts(n, &a, &b, o);
    return;
  default: return;
  }
}

/* the facts of a op b, both the same in every lane */
static void bin_facts(Node *n, Sh *a, Sh *b, Sh *o) {
  int64_t c;
  o->al = o->nn = false;
  if (!is_intty(n->ty)) return;
  switch (n->op) {
    case OP_ADD: o->al = a->al && b->al; o->nn = a->nn && b->nn; return;
    case OP_SUB: o->al = a->al && b->al; return;
    case OP_MUL: o->al = a->al || b->al; o->nn = a->nn && b->nn; return;
    case OP_SHL: o->al = a->al || (ev_int(n->b, &c) && c >= 5 && c < 32); o->nn = a->nn && b->nn; return;
    case OP_DIV: case OP_SHR: case OP_MOD: o->nn = a->nn && b->nn; return;
    case OP_BAND: o->al = a->al || b->al; o->nn = a->nn || b->nn; return;
    case OP_BXOR: case OP_BOR: o->al = a->al && b->al; o->nn = a->nn && b->nn; return;
    default: return;
  }
}

/* n, a constant multiple of 32 (constants: frontend/eval.c, `32 - 1`,
 * `32 / (WARP_BYTES / (16 * sizeof(double)))` as C computes them) */
static bool split_by(Node *n) {
  int64_t c;
  return ev_int(n, &c) && c > 0 && c % 32 == 0;
}

static bool shq_(Node *n, Sh *o);

/* a uniform multiplier of a lane value (`offset * (2 * t + 1)`): the same
 * in every thread of the block, read with no effect, outside any callee's
 * analysis (the uniformity pass's marks are the kernel's) */
static bool uni_mul(Node *n) {
  return !env && is_intty(n->ty) && n->ty->size <= 8 && !ln(n)->vary && pure(n);
}

/* a variable's uniform stride part (su), as its expressions read it */
static Node *var_node(Obj *o) {
  Node *v = xcalloc(1, sizeof *v);
  v->k = N_VAR;
  v->var = o;
  v->ty = o->ty;
  return v;
}

static bool shq(Node *n, Sh *o) {
  bool r = shq_(n, o);
  if (!o->s) o->u = NULL;
  return r;
}

static bool shq_(Node *n, Sh *o) {
  Sh a, b;
  int64_t c;
  o->s = 0;
  o->al = o->nn = false;
  o->u = NULL;
  if (env && n->k == N_VAR && n->var->is_param) return arg_shape(n, o);
  /* (in a callee the uniformity pass's marks do not hold for this call:
   * its scalar functions are analysed for no caller in particular) */
  if (!env && !ln(n)->vary) {
    uni_facts(n, o);
    return true;
  }
  switch (n->k) {
  case N_NUM:
    uni_facts(n, o);
    return true;
  case N_CALL:
    if (n->ck == C_WARP) return coll_shape(n, o);
    if (n->ck == C_LIBM || (n->ck == C_BUILTIN && pure_builtin(n->name))) {
      /* a pure function of values the same in every lane (__ffs(ballot)) */
      for (int i = 0; i < n->list.n; i++)
        if (!shq(n->list.v[i], &a) || a.s) return false;
      return true;
    }
    return call_shape(n, o);
  case N_BUILTIN:
    if (n->bk != B_TID) {
      uni_facts(n, o);
      return true;
    }
    o->s = n->dim == 0;
    o->al = n->dim == 0;
    o->nn = true;
    return true;
  case N_VAR: {
    LObj *l = lo(n->var);
    o->s = l->sx;
    o->u = l->su ? var_node(l->su) : NULL;
    o->al = l->sal;
    o->nn = l->snn;
    unknown |= l->aff == AF_TOP;
    split |= l->split;
    return l->aff != 0;
  }
  case N_CAST:
    if (!shq(n->a, &a)) return false;
    *o = a;
    if (!is_intty(n->ty) || !is_intty(n->a->ty)) o->al = o->nn = false, o->u = a.s ? a.u : NULL;
    /* between integers (a warp's values do not wrap), or anything of stride 0 */
    return a.s == 0 || (is_intty(n->ty) && is_intty(n->a->ty));
  case N_UN:
    if (n->op == OP_DEREF) {   /* a load at the same address in every lane */
      if (!shq(n->a, &a) || a.s || n->ty->is_volatile || n->ty->kind == TY_ARRAY) return false;
      return true;
    }
    if (n->op == OP_ADDR) {   /* the same element's address in every lane (`&As[ty][0]`) */
      /* each index on the way to the variable asked itself: uniform.c
       * marks the indices of a shared or global variable's part, not the
       * rows between (`&shmem[idx][0]` with idx varying was the same in
       * every lane: dmmaTensorCoreGemm's generated C did not compile) */
      Node *e = n->a;
      if (e->k != N_INDEX) return false;
      for (;;) {
        while (is_decay(e)) e = e->a;
        if (e->k == N_INDEX) {
          if (!shq(e->b, &b) || b.s) return false;
          e = e->a;
        } else if (e->k == N_MEMBER && !e->post) e = e->a;
        else break;
      }
      return shq(e, &a) && !a.s;
    }
    if (!shq(n->a, &a)) return false;
    if (n->op == OP_NEG) o->s = -a.s;
    else if (n->op == OP_PLUS) *o = a;
    else if (n->op == OP_BNOT && is_intty(n->ty)) o->s = -a.s;   /* ~x = -x - 1 */
    else return a.s == 0;
    o->u = a.u;
    return true;
  case N_BIN:
    if (!shq(n->a, &a) || !shq(n->b, &b)) return false;
    if ((n->op == OP_ADD || n->op == OP_SUB) && a.s && b.s && !same_u(a.u, b.u)) return false;
    if (n->op == OP_ADD) {
      o->s = a.s + b.s;
      o->u = a.s ? a.u : b.u;
      o->al = a.al && b.al;
      o->nn = a.nn && b.nn;
      return true;
    }
    if (n->op == OP_SUB) {
      o->s = a.s - b.s;
      o->u = a.s ? a.u : b.u;
      o->al = a.al && b.al;
      return true;
    }
    if (a.s == 0 && b.s == 0) {   /* row op row */
      bin_facts(n, &a, &b, o);
      return true;
    }
    if (!is_intty(n->ty)) return false;
    if (n->op == OP_MUL) {
      /* (a stride too large for 64 bits: no shape) */
      if (b.s == 0 && ev_int(n->b, &c)) {
        if (__builtin_mul_overflow(a.s, c, &o->s)) return false;
        o->u = a.u, o->al = a.al || c % 32 == 0, o->nn = a.nn && c >= 0;
      } else if (a.s == 0 && ev_int(n->a, &c)) {
        if (__builtin_mul_overflow(b.s, c, &o->s)) return false;
        o->u = b.u, o->al = b.al || c % 32 == 0, o->nn = b.nn && c >= 0;
      } else if (b.s == 0 && !a.u && uni_mul(n->b)) o->s = a.s, o->u = n->b;   /* (x * offset: offset uniform) */
      else if (a.s == 0 && !b.u && uni_mul(n->a)) o->s = b.s, o->u = n->a;
      else return false;
      return true;
    }
    if (n->op == OP_SHL) {
      if (b.s == 0 && ev_int(n->b, &c) && c >= 0 && c < 32) {
        o->s = a.s * ((int64_t)1 << c);
        o->u = a.u;
        o->al = a.al || c >= 5;
        o->nn = a.nn;
        return true;
      }
      return false;
    }
    /* bits above a warp's (a bitonic sort's partner `i ^ j`, its `i & k`
     * for j, k multiples of 32): of a lane value of stride 1 whose base is
     * a multiple of the run, x ^ u and x | u keep the lane's bits, base ^ u
     * + l, and x & u is the same in every lane */
    if ((n->op == OP_BXOR || n->op == OP_BOR || n->op == OP_BAND) && a.s == 0 && b.s == 1) {
      Sh t = a;
      a = b, b = t;
    }
    if ((n->op == OP_BXOR || n->op == OP_BOR || n->op == OP_BAND) && a.s == 1 &&
        !a.u && a.al && b.s == 0 && b.al) {
      split = true;
      o->s = n->op == OP_BAND ? 0 : 1;
      o->al = true;
      o->nn = n->op == OP_BAND ? a.nn || b.nn : a.nn && b.nn;
      return true;
    }
    /* splitting a warp out of a lane value of stride 1 whose base is a
     * multiple of the run: base + l for l below the run */
    if (a.s != 1 || a.u || b.s != 0 || !a.al) return false;
    bool nn = a.nn || is_unsigned_int(n->ty);   /* (C's / and % round towards 0) */
    if ((n->op == OP_DIV && nn && split_by(n->b)) || (n->op == OP_SHR && ev_int(n->b, &c) && c >= 5 && c < 32)) {
      split = true;
      o->nn = a.nn;
      return true;   /* the same in every lane */
    }
    if ((n->op == OP_MOD && nn && split_by(n->b)) || (n->op == OP_BAND && ev_int(n->b, &c) && c >= 31 && c < ((int64_t)1 << 40) && c % 32 == 31 && !(c & (c + 1)))) {
      split = true;
      o->s = 1;
      o->al = true;   /* base % c: still a multiple of the run */
      o->nn = true;
      return true;
    }
    return false;
  case N_LOG: return shq(n->a, &a) && shq(n->b, &b) && a.s == 0 && b.s == 0;
  case N_COND:
    if (!shq(n->a, &a) || a.s || !shq(n->b, &a) || !shq(n->c, &b) || a.s != b.s || !same_u(a.u, b.u)) return false;
    o->s = a.s;
    o->u = a.u;
    o->al = a.al && b.al;
    o->nn = a.nn && b.nn;
    return true;
  case N_INDEX:
    if (!shq(n->a, &a) || !shq(n->b, &b) || a.s || b.s) return false;
    /* an address of stride 0, or a load from one: every lane reads the
     * same element (as a warp's one load instruction would) */
    return n->ty->kind == TY_ARRAY || !n->ty->is_volatile;
  case N_MEMBER:
    if (n->ty->is_volatile || !shq(n->a, &a) || a.s) return false;
    return true;
  default: return false;
  }
}

/* (a constant stride: the uniform ones are the variables' own, print.c) */
static bool shp(Node *n, int64_t *s) {
  Sh o;
  bool r = shq(n, &o);
  *s = o.s;
  return r && !o.u;
}

/* does n rely on a warp split out of a lane value (not block-wide)? */
static bool split_p(Node *n, void *c) {
  (void)c;
  Sh o;
  if (n->k == N_VAR) return lo(n->var)->split;
  if (n->k != N_BIN || (n->op != OP_DIV && n->op != OP_MOD && n->op != OP_SHR && n->op != OP_BAND)) return false;
  split = false;
  bool r = shq(n, &o) && split;
  split = false;
  return r;
}
bool uses_split(Node *n) { return any_node(n, split_p, NULL); }

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

/* ... or s times a uniform value u (a variable's kept stride, NULL: s) */
bool aff_ustride(Node *n, int64_t *s, Node **u) {
  Sh o;
  if (!is_intty(n->ty) || !shq(n, &o)) return false;
  *s = o.s;
  *u = o.u;
  return true;
}

/* `lane value OP row value`, either way round, OP one of < <= > >= == on
 * integers of 32 or 64 bits: the lanes where it holds form a run (for ==,
 * of at most one lane: `if (t == 0)`; its else-branch would be two runs). */
bool aff_cmp(Node *c) {
  if (c->k != N_BIN || !is_intty(c->a->ty) || c->a->ty->size > 8) return false;
  if (c->op != OP_LT && c->op != OP_LE && c->op != OP_GT && c->op != OP_GE && c->op != OP_EQ) return false;
  return (aff_e(c->a) && rowu(c->b)) || (aff_e(c->b) && rowu(c->a));
}

/* OP' of `b OP' a`, the same test as `a OP b` with its operands swapped
 * (< and >, <= and >= trade places; == and != stay): an aff_cmp comparison
 * read lane value first (batch.c's few, build.c's cmp_norm) */
Op op_mirror(Op op) {
  return op == OP_LT ? OP_GT : op == OP_GT ? OP_LT : op == OP_LE ? OP_GE : op == OP_GE ? OP_LE : op;
}

/* `lane value % row value == 0`, either way round: the lanes where it
 * holds are every u-th from the first (the lecture's divergent reduction,
 * `t % (2 * stride) == 0`). Its else-branch would not be a run. */
Node *aff_mod(Node *c) {
  if (c->k != N_BIN || c->op != OP_EQ || !is_intty(c->a->ty) || c->a->ty->size > 4) return NULL;
  int64_t z;
  Node *m = ev_int(c->b, &z) && z == 0 ? c->a : ev_int(c->a, &z) && z == 0 ? c->b : NULL;
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

/* the shape a store gives v, or false if it makes v not affine */
static bool store_shape(Node *x, Obj *v, Sh *o) {
  Sh a;
  LObj *l = lo(v);
  o->u = NULL;
  switch (x->k) {
  case N_ASSIGN:
    if (!shq(x->b, &a)) return false;
    if (x->op == OP_ASSIGN) { *o = a; return true; }
    if (a.u) return false;   /* (a uniform stride: only a declaration's, stride) */
    if (x->op == OP_ADDA || x->op == OP_SUBA) {
      o->s = x->op == OP_ADDA ? l->sx + a.s : l->sx - a.s;
      o->al = l->sal && a.al;
      o->nn = x->op == OP_ADDA && l->snn && a.nn;
      return true;
    }
    /* v *= c and the like keep a stride of 0 only */
    o->s = 0;
    o->al = o->nn = false;
    return l->sx == 0 && a.s == 0;
  case N_INCDEC:
    o->s = l->sx;
    o->al = false;
    o->nn = x->op == OP_INC && l->snn;
    return true;
  default: return false;
  }
}

static void spoil(Sc *c, Obj *v) {
  if (lo(v)->aff) { lo(v)->aff = 0; c->ch = true; }
}

/* v's stride a multiple of uniform value u: kept in a variable of its own
 * (v_u) where v is declared, so that a later change of what u reads does
 * not change v's lanes */
static void set_u(Obj *v, Node *u) {
  LObj *l = lo(v);
  l->sun = u;
  if (l->su) return;
  Obj *o = l->su = xcalloc(1, sizeof *o);   /* (of v's type: v's lanes are computed in it, print.c) */
  o->name = xfmt("%s_u", v->name);
  o->ty = v->ty;
  o->file = v->file;
  o->line = v->line;
  lo(o)->cname = xfmt("%s_u", cname(v));
}

/* v's shape is the one all its stores agree on; its base's facts hold if
 * they hold for every store (they only ever turn false, so this ends). A
 * uniform stride only from v's declaration, its one store (decl). */
static void stride(Sc *c, Obj *v, Sh *o, bool decl) {
  LObj *l = lo(v);
  if (!l->aff) return;
  if ((v->ty->kind == TY_PTR && o->s) || (o->u && (!decl || l->nou)) || (!decl && l->su)) {
    /* (a pointer's stride would be in elements) */
    spoil(c, v);
    return;
  }
  if (split && !l->split) { l->split = true; c->ch = true; }
  if (l->aff == AF_TOP) {
    l->aff = AF_YES;
    l->sx = o->s;
    if (o->u) set_u(v, o->u);
    l->sal = o->al;
    l->snn = o->nn;
    c->ch = true;
  } else if (l->sx != o->s || !l->su != !o->u) spoil(c, v);
  else if (o->u && !same_x(l->sun, o->u)) set_u(v, o->u);   /* (the declaration's again, as its operands' shapes settle) */
  else {
    if (l->sal && !o->al) { l->sal = false; c->ch = true; }
    if (l->snn && !o->nn) { l->snn = false; c->ch = true; }
  }
}

/* a store in an expression: affine only where the lowering can update the
 * base (top is a statement's or an increment's whole expression) */
static void expr_stores(Sc *c, Node *n, bool top);

static void one_store(Sc *c, Node *x, bool top) {
  Obj *v = stored_var(x);
  if (!v || !lo(v)->aff) return;
  Node *t = bare(x->a);
  Sh s;
  int vd = c->inc && lo(v)->dloop == c->inc ? c->incvd : c->vd;
  if (!top || t->k != N_VAR || vd > lo(v)->vdecl) {
    spoil(c, v);
    return;
  }
  unknown = split = false;
  bool ok = store_shape(x, v, &s);
  if (x->k == N_ASSIGN && x->op != OP_ASSIGN) unknown |= lo(v)->aff == AF_TOP;   /* v += e: from v's own */
  if (unknown) return;
  if (!ok) spoil(c, v);
  else stride(c, v, &s, false);
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
    Sh s;
    unknown = split = false;
    /* (`int i;` then `i = e;`, C89's way: no store yet; its stores
     * decide, each where no lane of those that declared it can skip it) */
    if (!n->a) break;
    if (!shq(n->a, &s)) {
      if (!unknown) spoil(c, n->var);
    } else if (!unknown) stride(c, n->var, &s, true);
    walk(n->a, stores_f, c);
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
    /* (pointers too, of stride 0: a warp's row, `x = in + row * cols`) */
    l->aff = l->vary && !o->is_shared && !l->esc && (is_intty(o->ty) || (o->ty->kind == TY_PTR && !o->ty->is_ref)) ? AF_TOP : 0;
    l->sx = 0;
    l->su = NULL;
    l->sun = NULL;
    l->sal = l->snn = l->split = false;
  }
  Sc c = {0};
  do {
    c.ch = false;
    sw(&c, k->body);
  } while (c.ch);
  for (int i = 0; i < k->locals.n; i++) {   /* never stored: nothing to keep */
    LObj *l = lo(k->locals.v[i]);
    if (l->aff == AF_TOP) l->aff = 0;
    if (!l->aff) l->su = NULL, l->sun = NULL;
  }
}

/* A variable kept across regions is read back from its lanes there, with
 * no uniform stride to go with its base (print.c): the shapes again, with
 * none for those. */
void lw_shape_cross(Obj *k) {
  bool again = false;
  for (int i = 0; i < k->locals.n; i++) {
    LObj *l = lo(k->locals.v[i]);
    if (l->su && l->cross) l->nou = again = true;
  }
  if (again) lw_shape(k);
}
