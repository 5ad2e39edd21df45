/* bprefetch.c: the reads the lowered form prefetches ahead, where a
 * CPU's prefetchers come late: a grid-stride loop's next iteration
 * (W_LOOPRUN's pf, asked by bloop.c's run loops), the next block's slice
 * (W_BPF, at a kernel's first region that reads one) and a block-level
 * loop's next iteration (W_LPF, in its last region). A file of its own:
 * all three look at index expressions (loop-invariant values, variables
 * of one definition, induction steps, constant distances) and at nothing
 * of masks or lanes, and only add warp statements that print prefetches. */
#include "build.h"

/* ---- prefetching a grid-stride loop's next iteration ----
 * A grid-stride loop's iterations jump by the grid's size: each block
 * reads a few KB here and there, a pattern a CPU's prefetchers catch late
 * (a GPU hides it with other warps). Where the induction variable i steps
 * by a uniform s, a read p[i + c] (p, c, s loop-invariant) is at
 * &p[i + c] + s at the next iteration: its run's lines are prefetched one
 * iteration ahead (measured on a summing loop, 2^24 floats in 2 KB runs:
 * 1.6-1.9x). Up to 8 arrays: the Black-Scholes sample reads three and
 * writes two, and with 4 its fifth stream's loads were a quarter of the
 * kernel's time (perf). */
static bool inv_var_f(Node *x, void *loop) {
  return (x->k == N_VAR && (stores(((Node *)loop)->d, x->var) || stores(((Node *)loop)->c, x->var))) ||
         (x->k == N_UN && x->op == OP_DEREF) || x->k == N_INDEX || x->k == N_CALL;
}
static bool loop_inv(Node *x, Node *loop) { return !ln(x)->vary && pure(x) && !any_node(x, inv_var_f, loop); }

static Node *iv_step(Node *loop, Obj *av) {
  Node *c = loop->c ? bare(loop->c) : NULL;
  if (!c || c->k != N_ASSIGN || bare(c->a)->k != N_VAR || bare(c->a)->var != av) return NULL;
  if (c->op == OP_ADDA) return loop_inv(c->b, loop) ? c->b : NULL;
  Node *e = bare(c->b);
  if (c->op != OP_ASSIGN || e->k != N_BIN || e->op != OP_ADD) return NULL;
  Node *l = bare(e->a), *r = bare(e->b);
  if (l->k == N_VAR && l->var == av && loop_inv(e->b, loop)) return e->b;
  if (r->k == N_VAR && r->var == av && loop_inv(e->a, loop)) return e->a;
  return NULL;
}

typedef struct { Node *loop; Obj *av; Vec *pf; } PfCtx;
static int pf_f(Node *x, void *c) {
  PfCtx *q = c;
  if (x->k != N_INDEX || q->pf->n >= 8) return W_GO;
  Node *i = bare(x->b);
  bool ok = i->k == N_VAR && i->var == q->av;
  if (!ok && i->k == N_BIN && (i->op == OP_ADD || i->op == OP_SUB)) {
    Node *l = bare(i->a), *r = bare(i->b);
    ok = (l->k == N_VAR && l->var == q->av && loop_inv(i->b, q->loop)) ||
         (i->op == OP_ADD && r->k == N_VAR && r->var == q->av && loop_inv(i->a, q->loop));
  }
  if (ok && is_arith(x->ty) && !x->ty->is_volatile && x->ty->size > 0 && rowu(x->a) && loop_inv(x->a, q->loop)) {
    for (int k = 0; k < q->pf->n; k++)
      if (same_x(q->pf->v[k], x)) return W_GO;
    vec_push(q->pf, x);
  }
  return W_GO;
}

/* the reads of loop's body to prefetch, where av, the loop's lane-affine
 * variable, steps by a loop-invariant amount (w->pstep) */
void b_rpf(Node *loop, Obj *av, W *w) {
  if (!(w->pstep = iv_step(loop, av))) return;
  PfCtx q = {loop, av, &w->pf};
  walk(loop->d, pf_f, &q);
}

/* ---- the next block's slice ----
 * A block reads a slice of an array at an index that moves with
 * blockIdx.x (`a[blockIdx.x * blockDim.x + threadIdx.x]`, 1-2 KB a block),
 * and a worker runs a range of consecutive blocks. A CPU's prefetchers
 * follow those slices late (the block's tree between them), so the first
 * region's unit-stride reads at such an index have the same slice of the
 * block BPF_AHEAD further on prefetched: the index printed again with
 * blockIdx.x moved and its variables replaced by their one definition. */
enum { BPF_AHEAD = 2 };

static int bdef_depth;
static Obj *bdef_kern;   /* the kernel (its parameters never stored to are its arguments everywhere) */
/* what an expression of one-definition values reads: blockIdx.x; a
 * block-level loop's induction variables (ivs, printed at their next
 * values: b_lpf), which it may read */
typedef struct Bd { bool bid, iv; Vec *ivs; } Bd;
static bool bdef_ok(Node *e, Bd *q);
static bool bdef_f(Node *n, void *c) {
  Bd *q = c;
  switch (n->k) {
  case N_NUM: case N_CAST: case N_BIN: return false;
  case N_BUILTIN: q->bid |= n->bk == B_BID && n->dim == 0; return false;
  case N_UN: return n->op != OP_NEG && n->op != OP_PLUS && n->op != OP_BNOT;
  case N_VAR:
    if (q->ivs && in_vec(q->ivs, n->var)) return !(q->iv = true);
    if (n->var->is_param) return n->var->ty->is_volatile || !bdef_kern || stores(bdef_kern->body, n->var);
    return !lo(n->var)->bdef || !bdef_ok(lo(n->var)->bdef, q);
  default: return true;
  }
}
static bool bdef_ok(Node *e, Bd *q) {
  if (++bdef_depth > 6) {
    bdef_depth--;
    return false;
  }
  bool r = !any_node(e, bdef_f, q);
  bdef_depth--;
  return r;
}

typedef struct { Obj *k; Vec defs; } BdefCtx;
static int bdef_scan(Node *n, void *c) {
  BdefCtx *q = c;
  if (n->k == S_DECL && n->a && n->a->k != N_INIT && is_intty(n->var->ty) && !n->var->is_shared && !n->var->addr_taken &&
      !stores(q->k->body, n->var) && !lo(n->var)->bdef)
    vec_push(&q->defs, n);
  return W_GO;
}

/* the kernel's variables of one definition (once per kernel) */
void lw_bdefs(Obj *k) {
  lw_ranges(k);
  BdefCtx q = {k, {0}};
  walk(k->body, bdef_scan, &q);
  for (int i = 0; i < q.defs.n; i++) {
    Node *d = q.defs.v[i];
    lo(d->var)->bdef = d->a;
  }
}

/* the array read: a parameter never stored to, a global or a shared
 * array (a local pointer is declared later than the region's top) */
static bool bbase_f(Node *n, void *c) {
  Obj *k = c;
  if (n->k != N_VAR) return n->k != N_CAST && n->k != N_NUM && n->k != N_BIN;
  Obj *o = n->var;
  return !(o->is_global || o->is_shared || (o->is_param && !stores(k->body, o)));
}

typedef struct { Vec *pf; Vec lhs; Obj *k; } BpfCtx;
static int bpf_f(Node *x, void *c) {
  BpfCtx *q = c;
  if (x->k == S_FOR || x->k == S_WHILE || x->k == S_DO || x->k == S_SWITCH) return W_SKIP;   /* (the top, once per block) */
  if (x->k == N_ASSIGN && x->op == OP_ASSIGN) vec_push(&q->lhs, bare(x->a));   /* (stored, not read) */
  if (x->k != N_INDEX || in_vec(&q->lhs, x) || q->pf->n >= 4 || !is_arith(x->ty) || x->ty->is_volatile || x->ty->size <= 0) return W_GO;
  Bd bd = {0};
  if (!rowu(x->a) || !aff_e(x->b) || !pure(x->a) || any_node(x->a, bbase_f, q->k) || !bdef_ok(x->b, &bd) || !bd.bid)
    return W_GO;
  for (int k = 0; k < q->pf->n; k++)
    if (same_x(q->pf->v[k], x)) return W_GO;
  vec_push(q->pf, x);
  return W_GO;
}

int b_bpf(Bc *b, Vec *stmts, int from, int to) {
  if (!b->fast || b->hw || !b->fn->is_kernel || b->ck) return 0;
  Vec pf = {0};
  BpfCtx q = {&pf, {0}, b->fn};
  bdef_kern = b->fn;
  for (int i = from; i < to; i++) walk(stmts->v[i], bpf_f, &q);
  if (!pf.n) return 0;
  W *w = wadd(b, W_BPF, stmts->v[from]);
  w->pf = pf;
  w->id = BPF_AHEAD;
  return pf.n;
}

/* ---- the next iteration of a block-level loop ----
 * A block-level loop (the tiled matmul's phases, `for (m = 0; m < w / 16;
 * m++)`: a region loading tiles, a barrier, a region computing on them)
 * reads in each iteration a slice of an array at an index that moves with
 * its induction variable: the tile of N is 16 rows of 64 bytes 4 KB apart
 * at width 1024, which no prefetcher follows (a new page each row), and at
 * that stride the column strip falls into 32 of L2's sets (512 lines for
 * its 1024), so every row came from L3: perf had the tile-16 matmul
 * spending 40% of its time on those loads, one worker 51-56 ms where the
 * same tiles in cache take 31. So each warp of the body's last region, in
 * the fast versions, before its work, prefetches its lines of the earlier
 * regions' reads at the induction variables' next values (`m + 1`): they arrive
 * while that region computes (the tile-16 matmul, one worker: 40-44 ms).
 * Prefetched instead by the region that reads them, for the iteration
 * after next, they made no difference: there they wait for the line fill
 * buffers with the region's own loads. An induction variable: a uniform
 * block-level integer or pointer that only the loop's increment, or the
 * body's last statements (`m++;` after the last barrier), step by a
 * loop-invariant amount; a read: of a parameter never stored to or a
 * global, at an index of stride 1 in the lane that reads an induction
 * variable and otherwise only values of one definition (W_BPF's). A
 * prefetch never faults: past the loop's last iteration it touches
 * nothing. */
static Type lpf_int = {.kind = TY_INT, .size = 4, .align = 4};

static Node *lpf_node(NodeKind k, Type *ty) {
  Node *n = xcalloc(1, sizeof *n);
  n->k = k;
  n->ty = ty;
  return n;
}

/* e steps a variable by a loop-invariant amount (v++, --v, v += s, v -= s,
 * v = v + s, v = s + v): the variable, its next value in *next */
static Obj *iv_next(Node *e, Node *loop, Node **next) {
  e = bare(e);
  Node *a = NULL, *s = NULL;
  Op op = OP_ADD;
  if (e->k == N_INCDEC) {
    a = bare(e->a);
    s = lpf_node(N_NUM, &lpf_int);
    s->ival = 1;
    op = e->op == OP_INC ? OP_ADD : OP_SUB;
  } else if (e->k == N_ASSIGN && (e->op == OP_ADDA || e->op == OP_SUBA)) {
    a = bare(e->a);
    s = e->b;
    op = op_arith(e->op);
  } else if (e->k == N_ASSIGN && e->op == OP_ASSIGN) {
    a = bare(e->a);
    Node *r = bare(e->b);
    if (r->k == N_BIN && (r->op == OP_ADD || r->op == OP_SUB) && bare(r->a)->k == N_VAR && bare(r->a)->var == a->var) {
      s = r->b;
      op = r->op;
    } else if (r->k == N_BIN && r->op == OP_ADD && bare(r->b)->k == N_VAR && bare(r->b)->var == a->var) s = r->a;
  }
  if (!a || a->k != N_VAR || !s) return NULL;
  Obj *v = a->var;
  LObj *l = lo(v);
  if (l->vary || (!v->is_param && !l->cross) || v->addr_taken || v->is_shared || v->is_global || v->ty->is_volatile ||
      !(is_intty(v->ty) || v->ty->kind == TY_PTR) || !loop_inv(s, loop))
    return NULL;
  Node *x = lpf_node(N_BIN, v->ty);
  x->op = op;
  x->a = lpf_node(N_VAR, v->ty);
  x->a->var = v;
  x->b = s;
  *next = x;
  return v;
}

/* an integer constant (frontend/eval.c), through variables of one
 * definition (a local's bdef, not a parameter's: those of a warp version
 * are the caller's), at most 8 deep */
static bool cval_var(Obj *o, int64_t *v, void *ctx) {
  int *depth = ctx;
  if (o->is_param || !lo(o)->bdef || *depth >= 8) return false;
  ++*depth;
  bool r = ev_intv(lo(o)->bdef, cval_var, ctx, v);
  --*depth;
  return r;
}

static bool cval(Node *e, int64_t *v) {
  int depth = 0;
  return ev_intv(e, cval_var, &depth, v);
}

/* How far an index (of an expression bdef_ok takes) moves from one
 * iteration to the next: false where that is not a constant (`m * 16 *
 * width`: a multiple of a parameter) */
static bool iv_delta(Node *e, Vec *nexts, int64_t *d, int depth) {
  int64_t a, b, c;
  e = bare(e);
  if (depth > 8) return false;
  switch (e->k) {
  case N_NUM: case N_BUILTIN: *d = 0; return true;
  case N_CAST: return iv_delta(e->a, nexts, d, depth + 1);
  case N_VAR:
    for (int i = 0; i < nexts->n; i++) {
      Node *nx = nexts->v[i];
      if (nx->a->var == e->var) return cval(nx->b, &c) && (*d = nx->op == OP_SUB ? -c : c, true);
    }
    if (e->var->is_param || !lo(e->var)->bdef) {
      *d = 0;
      return true;
    }
    return iv_delta(lo(e->var)->bdef, nexts, d, depth + 1);
  case N_UN: return e->op == OP_NEG && iv_delta(e->a, nexts, &a, depth + 1) && (*d = -a, true);
  case N_BIN:
    if (!iv_delta(e->a, nexts, &a, depth + 1) || !iv_delta(e->b, nexts, &b, depth + 1)) return false;
    switch (e->op) {
    case OP_ADD: *d = a + b; return true;
    case OP_SUB: *d = a - b; return true;
    case OP_MUL:
      if (!a && !b) return (*d = 0, true);
      if (!a && cval(e->a, &c)) return (*d = c * b, true);
      if (!b && cval(e->b, &c)) return (*d = c * a, true);
      return false;
    case OP_SHL: return !b && cval(e->b, &c) && c >= 0 && c < 32 && (*d = a << c, true);
    default: return !a && !b && (*d = 0, true);
    }
  default: return false;
  }
}

typedef struct { Vec *pf, *ivs, *nexts; Vec lhs; Obj *k; } LpfCtx;
static int lpf_f(Node *x, void *c) {
  LpfCtx *q = c;
  if (x->k == S_FOR || x->k == S_WHILE || x->k == S_DO || x->k == S_SWITCH) return W_SKIP;
  if (x->k == N_ASSIGN && x->op == OP_ASSIGN) vec_push(&q->lhs, bare(x->a));   /* (stored, not read) */
  if (x->k != N_INDEX || in_vec(&q->lhs, x) || q->pf->n >= 4 || !is_arith(x->ty) || x->ty->is_volatile || x->ty->size <= 0)
    return W_GO;
  Bd bd = {.ivs = q->ivs};
  if (!rowu(x->a) || !aff_e(x->b) || !pure(x->a) || any_node(x->a, bbase_f, q->k) || !bdef_ok(x->b, &bd) || !bd.iv)
    return W_GO;
  Node *base = bare(x->a);
  if (base->k == N_VAR && base->var->is_shared) return W_GO;   /* (the block's own memory) */
  /* (a slice moving by less than a page: the next lines of the same rows,
   * which the CPU's prefetchers follow; prefetched too, the tile-16
   * matmul's rows of M took it from 40 to 45 ms) */
  int64_t d;
  if (iv_delta(x->b, q->nexts, &d, 0) && (d < 0 ? -d : d) * x->ty->size < 4096) return W_GO;
  for (int k = 0; k < q->pf->n; k++)
    if (same_x(q->pf->v[k], x)) return W_GO;
  vec_push(q->pf, x);
  return W_GO;
}

void b_lpf(Bc *b, Blk *x) {
  Node *n = x->n;
  if (b->ck || !b->fn->is_kernel || !x->body || x->body->k != BK_SEQ || !n->d) return;
  Vec *items = &x->body->items;
  int last = -1;
  for (int i = 0; i < items->n; i++)
    if (((Blk *)items->v[i])->k == BK_REGION) last = i;
  if (last < 1) return;
  /* the induction variables: stepped by the increment, or by the body's
   * last statements after its last region, and nowhere else in the loop */
  Vec ivs = {0}, nexts = {0}, steps = {0};
  if (n->c) {
    Node *c = bare(n->c);
    while (c->k == N_COMMA) {
      vec_push(&steps, c->b);
      c = bare(c->a);
    }
    vec_push(&steps, c);
  }
  int tail = items->n;   /* (none where a block-level continue skips them) */
  while (!ln(n)->bcont && tail > last + 1 && (((Blk *)items->v[tail - 1])->k == BK_UNI || ((Blk *)items->v[tail - 1])->k == BK_SYNC)) tail--;
  for (int i = tail; i < items->n; i++) {
    Blk *u = items->v[i];
    if (u->k == BK_UNI && u->n->k == S_EXPR) vec_push(&steps, u->n->a);
  }
  for (int i = 0; i < steps.n; i++) {
    Node *nx;
    Obj *v = iv_next(steps.v[i], n, &nx);
    if (!v || in_vec(&ivs, v)) continue;
    int st = 0;   /* (stored by this step only) */
    for (int j = 0; j < steps.n; j++) st += stores(steps.v[j], v);
    if (n->d->k == S_BLOCK) {
      for (int j = 0; j < n->d->list.n; j++) {
        Node *t = n->d->list.v[j];
        if (!(t->k == S_EXPR && in_vec(&steps, t->a))) st += stores(t, v);
      }
    } else st += stores(n->d, v);
    if (st != 1 || (n->b && stores(n->b, v))) continue;
    vec_push(&ivs, v);
    vec_push(&nexts, nx);
  }
  if (!ivs.n) return;
  /* the reads of the regions before the last */
  Vec pf = {0};
  LpfCtx q = {&pf, &ivs, &nexts, {0}, b->fn};
  bdef_kern = b->fn;
  for (int i = 0; i < last; i++) {
    Blk *u = items->v[i];
    if (u->k != BK_REGION) continue;
    for (int j = 0; j < u->r->stmts.n; j++) walk(u->r->stmts.v[j], lpf_f, &q);
  }
  if (!pf.n) return;
  Region *r = ((Blk *)items->v[last])->r;
  for (int i = 0; i < r->vers.n; i++) {
    Ver *v = r->vers.v[i];
    if (v->k == VK_GEN) continue;
    W *w = xcalloc(1, sizeof *w);
    w->k = W_LPF;
    w->n = n;
    w->psite = -1;
    w->pf = pf;
    w->ivs = nexts;
    /* after the warp's set-up (its values' bases), before its work */
    Vec *ws = &v->body->ws;
    int at = 0;
    while (at < ws->n && (((W *)ws->v[at])->k == W_AFFSET || ((W *)ws->v[at])->k == W_UDECL || ((W *)ws->v[at])->k == W_VDECL)) at++;
    vec_push(ws, w);
    memmove(&ws->v[at + 1], &ws->v[at], (ws->n - 1 - at) * sizeof(void *));
    ws->v[at] = w;
  }
}
