/* bspec.c: a kernel's copy specialized to the blocks where tests hold.
 *
 * Some values have no shape (shape.c) in general but a simple one in most
 * blocks, shown by a test once per block:
 *
 * Clamps. Image kernels clamp a neighbour's coordinates to the image:
 *     int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
 *     int xx = x + i < 0 ? 0 : x + i;
 * A clamp is a min or max of a value that moves with the lane and one that
 * does not, so every read at it is a gather, where the value it clamps is
 * affine and its reads unit-stride. In all blocks but the edge ones no
 * thread's clamp bites. In the copy each clamp is its lane side (`x - 1`),
 * and an early return of a bounds check (`if (x >= w) return;`) is dropped;
 * its guards are that every thread picks that side and does not return,
 * tested from the block's bounds (bound.c). They are over values of one
 * definition (LObj.bdef), and the test reads only parameters, the block's
 * indices and constants, so what it shows of a thread at the top holds
 * where the clamp reads them. A clamp is a ?: or a call of a function
 * whose body is `return c ? a : b;` (CUDA's min and max, a user's clamp()),
 * nested too (`min(max(x, 0), w - 1)`: the outer guard is over the inner's
 * lane side), of integers, pure, one side varying across the lanes and the
 * other not.
 *
 * Bits above a warp's. A bitonic sort's step pairs element i with
 * `i ^ j` and picks the order by `i & k`, j and k parameters: for j and k
 * multiples of 32 (most steps) the partner of a warp's lanes is a warp's
 * run of lanes too and the order the same in the warp, but shape.c cannot
 * know j's low bits. In the copy `x ^ u`, `x | u` and `x & u`, x varying and
 * u a value of parameters, read `u & ~31`; its guard is `(u & 31) == 0`.
 *
 * The kernel's body becomes
 *     if (B_BALL: every thread of the block passes the guards) copy; else body;
 * In the copy each thread computes what it computes in the body. Every
 * thread of a block runs the same side, so barriers and warp collectives
 * inside keep their meaning (region.c keeps the if at block level). The
 * copy has fresh locals (not parameters or __shared__ ones). */
#include "lw.h"

enum { BS_MAXN = 6000, BS_MAXG = 24 };

typedef struct Bind {
  Obj *fn;
  Node *call;
  struct Bind *up;
} Bind;

typedef struct Cc {
  Obj *k;
  bool fresh;       /* copying the kernel's body: its locals are their copies */
  Vec of, ot;       /* Obj*: locals and their copies */
  Vec nf, nt;       /* Node*: loops and switches and theirs (break's target) */
  Vec guards;       /* Node*: over the body's own variables (bound.c) */
  Vec ugs;          /* Node*: of parameters, the same in every thread */
  int nspec;        /* clamps and bit operations specialized */
  Bind *env;        /* in a called function's `return`: its arguments */
  int depth;
} Cc;

static Node *mk(NodeKind k, Node *at, Type *t) {
  Node *n = xcalloc(1, sizeof *n);
  n->k = k;
  n->ty = t;
  n->file = at->file;
  n->line = at->line;
  n->col = at->col;
  return n;
}

static Node *cp(Cc *q, Node *n);
static Node *unfold(Cc *q, Node *n);

static bool clamp_p(Node *n, void *c) { (void)c; return n->k == N_COND || (n->k == N_CALL && n->ck == C_FUNC); }

/* a parameter of the function being read, bound to its argument */
static Node *bound_arg(Cc *q, Node *n) {
  if (!q->env || n->k != N_VAR) return NULL;
  Bind *b = q->env;
  for (int i = 0; i < b->fn->params.n; i++)
    if (b->fn->params.v[i] == n->var) return b->call->list.v[i];
  return NULL;
}

/* reads the thread's index, itself or through a variable that varies */
static bool varies(Cc *q, Node *n) {
  if (!n) return false;
  Node *arg = bound_arg(q, n);
  if (arg) {
    Bind *b = q->env;
    q->env = b->up;
    bool r = varies(q, arg);
    q->env = b;
    return r;
  }
  if (n->k == N_BUILTIN) return n->bk == B_TID;
  if (n->k == N_VAR) return lo(n->var)->vary;
  if (n->k == N_CALL && n->ck == C_FUNC && n->fn && lo(n->fn)->uses_tid) return true;
  if (varies(q, n->a) || varies(q, n->b) || varies(q, n->c) || varies(q, n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (varies(q, n->list.v[i])) return true;
  return false;
}

/* not c, for a condition of comparisons, && and || (of integers: no NaN) */
static Node *neg(Node *c) {
  Node *e = c;
  while (e->k == N_CAST && is_intty(e->ty)) e = e->a;
  if (e->k == N_UN && e->op == OP_LNOT) return e->a;
  Node *r;
  if (e->k == N_LOG && (e->op == OP_LAND || e->op == OP_LOR)) {
    Node *a = neg(e->a), *b = a ? neg(e->b) : NULL;
    if (!b) return NULL;
    r = mk(N_LOG, e, e->ty);
    r->op = e->op == OP_LAND ? OP_LOR : OP_LAND;
    r->a = a;
    r->b = b;
    return r;
  }
  if (e->k != N_BIN || !op_cmp(e->op) || !is_intty(e->a->ty) || !is_intty(e->b->ty)) return NULL;
  static const Op inv[] = {[OP_LT] = OP_GE, [OP_GE] = OP_LT, [OP_GT] = OP_LE, [OP_LE] = OP_GT, [OP_EQ] = OP_NE, [OP_NE] = OP_EQ};
  r = mk(N_BIN, e, e->ty);
  r->op = inv[e->op];
  r->a = e->a;
  r->b = e->b;
  return r;
}

static void guard(Cc *q, Node *g) {
  for (int i = 0; i < q->guards.n; i++)
    if (same_x(q->guards.v[i], g)) return;
  vec_push(&q->guards, g);
}

/* e copied into a guard: over the body's own variables, its clamps too */
static Node *gcopy(Cc *q, Node *e) {
  bool f = q->fresh;
  q->fresh = false;
  Node *r = cp(q, e);
  q->fresh = f;
  return r;
}

/* index arithmetic: no memory read (a bounds-checked load `i < n ? a[i] :
 * 0` is bound.c's per region), calls only of clamps */
static bool mem_p(Node *n, void *c) {
  (void)c;
  if (n->k == N_VAR) return n->var->is_shared || n->var->is_global || n->var->ty->is_volatile;
  if (n->k == N_CALL) return n->ck != C_FUNC || !n->fn || !n->fn->body || !one_return(n->fn);
  return n->k == N_INDEX || n->k == N_MEMBER || (n->k == N_UN && n->op == OP_DEREF);
}

/* e without added constants and integer casts: `x + 1` and `x` clamp alike */
static Node *offs_base(Node *e) {
  int64_t c;
  for (;;) {
    e = bare(e);
    if (e->k == N_CAST && is_intty(e->ty) && is_intty(e->a->ty)) e = e->a;
    else if (e->k == N_BIN && (e->op == OP_ADD || e->op == OP_SUB) && ev_int(e->b, &c)) e = e->a;
    else if (e->k == N_BIN && e->op == OP_ADD && ev_int(e->a, &c)) e = e->b;
    else return e;
  }
}

/* a clamp's condition compares the side it picks (or that side moved by a
 * constant: `x + i < 0 ? 0 : x + i`, `y > 1 ? y - 2 : 0`) with a bound: not
 * a select between a lane value and another by some other test (`i % 4 ==
 * 1 ? 0 : i`, `lane < last ? x : y`), which no block passes whole */
static bool picks(Node *side, Node *x) {
  side = bare(side);
  if (same_x(offs_base(side), x)) return true;
  return side->k == N_COND && (picks(side->b, x) || picks(side->c, x));   /* (a clamp's other bound: clampi's) */
}
static bool clamps(Node *c, Node *side) {
  c = bare(c);
  if (c->k != N_BIN || !op_cmp(c->op) || c->op == OP_EQ || c->op == OP_NE) return false;
  return picks(side, offs_base(c->a)) || picks(side, offs_base(c->b));
}

/* n a clamp: its lane side copied, the guard that picks it recorded */
static Node *clamp(Cc *q, Node *n) {
  if (!is_intty(n->ty) || !pure(n) || any_node(n, mem_p, NULL) || q->depth > 6) return NULL;
  Node *c, *a, *b;
  Bind bd = {0};
  if (n->k == N_COND) {
    c = n->a, a = n->b, b = n->c;
  } else if (n->k == N_CALL && n->ck == C_FUNC && n->fn && n->fn->body) {
    Node *r = one_return(n->fn);
    if (!r || n->fn->params.n != n->list.n) return NULL;
    r = bare(r);
    if (r->k != N_COND) return NULL;
    for (int i = 0; i < n->list.n; i++) {
      Node *x = n->list.v[i];
      Type *pt = ((Obj *)n->fn->params.v[i])->ty;
      if (x->ty->kind != pt->kind || x->ty->size != pt->size) return NULL;
    }
    c = r->a, a = r->b, b = r->c;
    bd = (Bind){n->fn, n, q->env};
    q->env = &bd;
  } else {
    return NULL;
  }
  Node *res = NULL;
  bool va = varies(q, a), vb = varies(q, b);
  if (va != vb && clamps(c, va ? a : b)) {
    q->depth++;
    Node *g = gcopy(q, c);
    if (g && !va) g = neg(g);
    if (g && lw_bound_any(q->k, g, false)) {
      res = cp(q, va ? a : b);
      guard(q, g);
      q->nspec++;
    }
    q->depth--;
  }
  if (bd.fn) q->env = bd.up;
  if (res && res->ty != n->ty && (res->ty->kind != n->ty->kind || res->ty->size != n->ty->size)) {
    Node *x = mk(N_CAST, n, n->ty);
    x->a = res;
    x->implicit = true;
    res = x;
  }
  return res;
}

/* `if (c) return;` that no thread of the block takes (a bounds check of
 * the kernel's parameters: lw_bound) */
static bool ret_if(Node *n) {
  if (n->k != S_IF || n->c || n->inl) return false;
  Node *t = n->b;
  while (t && t->k == S_BLOCK && t->list.n == 1) t = t->list.v[0];
  return t && t->k == S_RETURN && !t->a && pure(n->a);
}

/* a value of parameters never stored, the block's shape and constants,
 * not a constant itself: the same in every thread, readable at the top */
static bool par_p(Node *n, void *c) {
  Obj *k = c;
  if (n->k == N_BUILTIN) return n->bk == B_TID || n->bk == B_BID || n->bk == B_BALL;
  if (n->k == N_VAR) return !n->var->is_param || n->var->ty->is_volatile || stores(k->body, n->var);
  return n->k != N_NUM && n->k != N_CAST && n->k != N_BIN && n->k != N_UN;
}
static bool of_params(Cc *q, Node *u) {
  int64_t c;
  return is_intty(u->ty) && !ev_int(u, &c) && pure(u) && !any_node(u, par_p, q->k);
}

/* x ^ u, x | u, x & u: u's bits below a warp's known to be 0 (`u & ~31`) */
static Node *bits(Cc *q, Node *n) {
  /* (in the copy only, not in a called function's return: its parameters
   * are not the kernel's) */
  if (!q->fresh || q->env || n->k != N_BIN || (n->op != OP_BXOR && n->op != OP_BOR && n->op != OP_BAND) || !is_intty(n->ty))
    return NULL;
  Node *x = n->a, *u = n->b;
  if (!of_params(q, u)) x = n->b, u = n->a;
  if (!of_params(q, u) || !varies(q, x) || u->ty->size != n->ty->size) return NULL;
  static Type tint = {.kind = TY_INT, .size = 4, .align = 4};
  Node *m = mk(N_NUM, u, u->ty), *lo = mk(N_BIN, u, u->ty), *z = mk(N_NUM, u, u->ty), *g = mk(N_BIN, u, &tint);
  m->ival = 31;
  z->ival = 0;
  lo->op = OP_BAND, lo->a = gcopy(q, u), lo->b = m;
  g->op = OP_EQ, g->a = lo, g->b = z;
  Node *m2 = mk(N_NUM, u, u->ty), *nm = mk(N_UN, u, u->ty), *hi = mk(N_BIN, u, u->ty), *r = mk(N_BIN, n, n->ty);
  m2->ival = 31;
  nm->op = OP_BNOT, nm->a = m2;
  hi->op = OP_BAND, hi->a = cp(q, u), hi->b = nm;
  r->op = n->op;
  r->a = cp(q, x);
  r->b = hi;
  for (int i = 0; i < q->ugs.n; i++)
    if (same_x(q->ugs.v[i], g)) goto have;
  vec_push(&q->ugs, g);
have:
  q->nspec++;
  return r;
}

static Obj *local(Cc *q, Obj *o) {
  for (int i = 0; i < q->of.n; i++)
    if (q->of.v[i] == o) return q->ot.v[i];
  if (o->is_param || o->is_shared || o->is_global || o->is_static || !in_vec(&q->k->locals, o)) return o;
  Obj *c = memcpy(xcalloc(1, sizeof *c), o, sizeof *c);
  vec_push(&q->of, o);
  vec_push(&q->ot, c);
  return c;
}

/* A pure function whose body is `return e;` (a neighbour's read through
 * `px(in, x - 1, y, w, h)`), called with pure arguments of its
 * parameters' types: e in the copy, its parameters bound to the
 * arguments, so that the clamps in it are seen */
static Node *unfold(Cc *q, Node *n) {
  Node *r = n->k == N_CALL && n->ck == C_FUNC && n->fn && n->fn->body && q->depth < 6 ? one_return(n->fn) : NULL;
  if (!r || n->fn->params.n != n->list.n || !pure(n) || !any_node(r, clamp_p, NULL)) return NULL;
  for (int i = 0; i < n->list.n; i++) {
    Node *x = n->list.v[i];
    Type *pt = ((Obj *)n->fn->params.v[i])->ty;
    if (x->ty->kind != pt->kind || x->ty->size != pt->size || pt->kind == TY_RECORD || pt->kind == TY_ARRAY) return NULL;
  }
  Bind bd = {n->fn, n, q->env};
  q->env = &bd;
  q->depth++;
  Node *c = cp(q, r);
  q->depth--;
  q->env = bd.up;
  if (c->ty != n->ty && (c->ty->kind != n->ty->kind || c->ty->size != n->ty->size)) {
    Node *x = mk(N_CAST, n, n->ty);
    x->a = c;
    x->implicit = true;
    c = x;
  }
  return c;
}

/* the copy's replacements: a called function's parameter, its argument;
 * a clamp, its lane side; bits of a parameter, above a warp's; an early
 * return no thread takes, nothing */
static Node *cp_pre(Node *n, void *p) {
  Cc *q = p;
  Node *arg = bound_arg(q, n);
  if (arg) {
    Bind *b = q->env;
    q->env = b->up;
    Node *r = cp(q, arg);
    q->env = b;
    return r;
  }
  if (n->k == N_COND || n->k == N_CALL || n->k == N_BIN) {
    Node *r = n->k == N_BIN ? bits(q, n) : clamp(q, n);
    if (r) return r;
  }
  if (q->fresh && (arg = unfold(q, n))) return arg;
  if (q->fresh && ret_if(n)) {
    Node *g = neg(gcopy(q, n->a));
    if (g && lw_bound_any(q->k, g, true)) {
      guard(q, g);
      return mk(S_NULL, n, NULL);
    }
  }
  return NULL;
}

/* in the copy of the kernel's body: its locals' copies; its loops' (for
 * break's targets) */
static void cp_post(Node *c, Node *n, void *p) {
  Cc *q = p;
  if (!q->fresh) return;
  if (c->var) c->var = local(q, c->var);
  if (n->k == S_FOR || n->k == S_WHILE || n->k == S_DO || n->k == S_SWITCH) {
    vec_push(&q->nf, n);
    vec_push(&q->nt, c);
  }
}

static Node *cp(Cc *q, Node *n) { return copy_x(&(Cpx){cp_pre, cp_post, q}, n); }

static Node *and_of(Node *a, Node *b) {
  if (!a) return b;
  Node *x = mk(N_LOG, a, a->ty);
  x->op = OP_LAND;
  x->a = a;
  x->b = b;
  return x;
}

static int retarget(Node *n, void *p) {
  Cc *q = p;
  for (int i = 0; n->target && i < q->nf.n; i++)
    if (q->nf.v[i] == n->target) {
      n->target = q->nt.v[i];
      break;
    }
  return W_GO;
}

static int count(Node *n, void *p) {
  (void)n;
  return ++*(int *)p > BS_MAXN ? W_STOP : W_GO;
}

/* the kernel's body as `if (B_BALL) copy; else body;` where it has values
 * to specialize: true when it did (its new nodes and locals want
 * uniform.c again) */
bool lw_bspec(Obj *k) {
  int nn = 0;
  walk(k->body, count, &nn);
  if (!k->body || nn > BS_MAXN) return false;
  lw_bdefs(k);
  Cc q = {.k = k, .fresh = true};
  Node *body = cp(&q, k->body);
  if (!q.nspec || q.guards.n + q.ugs.n > BS_MAXG) return false;   /* (the copies are dropped) */
  Node *g = NULL, *u = NULL;
  for (int i = 0; i < q.guards.n; i++) g = and_of(g, q.guards.v[i]);
  for (int i = 0; i < q.ugs.n; i++) u = and_of(u, q.ugs.v[i]);
  Bn *t = g ? lw_bound_any(k, g, false) : NULL;
  if (g && !t) return false;
  walk(body, retarget, &q);
  for (int i = 0; i < q.ot.n; i++) vec_push(&k->locals, q.ot.v[i]);
  Node *ball = mk(N_BUILTIN, k->body, (g ? g : u)->ty);
  ball->bk = B_BALL;
  ln(ball)->bt = t;
  ln(ball)->btc = g;
  ln(ball)->bu = u;
  Node *s = mk(S_IF, k->body, NULL);
  s->a = ball;
  s->b = body;
  s->c = k->body;
  Node *top = mk(S_BLOCK, k->body, NULL);
  vec_push(&top->list, s);
  k->body = top;
  return true;
}
