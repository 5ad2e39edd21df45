/* build.c: the lowered form of a program's kernels and device functions.
 *
 * A kernel becomes block-level items (Blk) around regions; each region is
 * built once per version (version.c); inside a version every statement
 * becomes warp statements (W) that say which lanes run it and under which
 * mask:
 *   - uniform values stay scalars and uniform control flow stays C control
 *     flow, once per warp;
 *   - a statement touching varying values is a lane loop over the live
 *     lanes (Hdr.full: lanes below _nl, or a run of them) or over every
 *     lane under a mask; consecutive lane statements under the same lanes
 *     share one loop (join) unless one accesses volatile memory
 *     (warp-synchronous code relies on each statement finishing in every
 *     lane before the next);
 *   - a divergent if/loop/switch gets masks of its own (_mtN/_meN then/else,
 *     _mlN loop lanes still iterating, _miN lanes still in this iteration,
 *     _msN switch lanes running); divergent break/continue/return clear
 *     the lanes that take them from every mask up to their target;
 *   - a divergent if counts its lanes first: when every lane of a full warp
 *     agrees the branch runs unmasked; when its lanes form a run
 *     (shape.c's aff_cmp/aff_mod) each branch runs over its run.
 * Names of masks and temporaries are numbered program-wide in the order
 * print.c prints them (Lw.nid). Which form a loop takes is bloop.c's, and
 * what is prefetched ahead bprefetch.c's; build.h is what the three
 * share. */
#include "build.h"

bool kernelish(Obj *fn) { return fn->is_kernel || lo(fn)->warpfn; }

static WarpFn *warp_fn(Bc *b, Node *call);
static bool wf_needs(Lw *L, Obj *f);

static Mask m0_ = {MK_0, 0};

static bool lanes_eq(Lanes a, Lanes b) { return a.lo == b.lo && a.hi == b.hi && a.step == b.step && a.hik == b.hik; }
static bool hdr_eq(Hdr *a, Hdr *b) {
  return a->full == b->full && (a->full ? lanes_eq(a->ls, b->ls) : a->m == b->m);
}

/* { n } */
W *b_block(Bc *b, Node *n) {
  W *w = seq(true);
  INTO(b, w, {
    if (n->k == S_BLOCK) b_list(b, &n->list);
    else b_st(b, n);
  });
  return w;
}

/* ---- warp collectives ----
 * A collective needs every lane's argument before any lane has its result,
 * so it cannot run inside one statement's lane loop: it is hoisted out.
 * Its arguments are gathered lane by lane into arrays, one helper computes
 * all 32 results (the lanes executing it are the current mask), and the
 * statement reads its lane's result from the array. */
static bool hoisted_p(Node *n, void *c);

/* The lanes that take an arm of ?:, && or || (where the condition, pure,
 * holds or not): the arm's collectives and warp calls run for them only. */
static void arm(Bc *b, Node *c, bool sense, Node *x) {
  W *w = wadd(b, W_ARM, c);
  w->id = ++b->L->nid;
  w->mt = mask(MK_A, w->id);
  w->x = c;
  w->sense = sense;
  use_hdr(b, &w->h);
  bool full = b->full, uctx = b->uctx;
  push_lv(b, w->mt, NULL, false);
  b->full = b->uctx = false;
  b_hoist(b, x, false);
  b->chain.n--;
  b->full = full;
  b->uctx = uctx;
}

/* a varying arithmetic variable kept as a lane array of its own */
static bool lane_arr(Obj *v) {
  return is_arith(v->ty) && !v->ty->is_volatile && lo(v)->vary && !lo(v)->aff && !lo(v)->esc && !lo(v)->soa &&
         !v->is_shared && !v->is_global && !v->addr_taken;
}

static int nvar_f(Node *n, void *c) {
  void **a = c;
  if (n->k == N_VAR && n->var == a[0]) (*(int *)a[1])++;
  return W_GO;
}

/* v's lanes are not read after call n before they are written again */
static bool dead_after(Bc *b, Node *n, Obj *v) {
  if (n != b->dcall) return false;
  int k = 0;
  walk(n, nvar_f, (void *[]){v, &k});
  if (k != 1) return false;   /* (f(v, v): two names of one array) */
  if (!b->tail) return v == b->dvar;
  for (int i = 0; i < b->fn->params.n; i++)
    if (b->fn->params.v[i] == v) return true;
  return in_vec(&b->fn->locals, v);
}

/* The arguments of a warp version's call that are lane arrays as they
 * stand: a varying variable of the parameter's own arithmetic type, which the
 * callee never changes (WarpFn.mod) nor takes the address of, or whose lanes
 * are dead after the call (`v = f(v)`, `return f(v)`). Passed as they are,
 * not copied lane by lane into a temporary for each call (cg::reduce's
 * chain of warp functions copied its value at every layer). */
static unsigned long long callw_direct(Bc *b, WarpFn *wf, Node *n) {
  unsigned long long d = 0;
  Obj *c = wf->c;
  for (int i = 0; i < c->params.n && i < n->list.n && i < 64; i++) {
    Obj *prm = c->params.v[i];
    Node *a = n->list.v[i];
    if (wf->sh[i] != PS_VARY || a->k != N_VAR) continue;
    Obj *v = a->var;
    Type *t = v->ty, *pt = prm->ty;
    /* (the same arithmetic type: a pointer's pointee may differ in its
     * qualifiers, which C's pointers to pointers do not convert) */
    if (t->kind != pt->kind || pt->is_volatile || (t->is_const && !pt->is_const)) continue;
    if (!lane_arr(v) || prm->addr_taken || lo(prm)->esc) continue;
    if ((wf->building || (wf->mod >> i & 1)) && !dead_after(b, n, v)) continue;
    d |= 1ull << i;
  }
  return d;
}

void b_hoist(Bc *b, Node *n, bool cond) {
  if (!n) return;
  if (n->k == N_COND || n->k == N_LOG) {
    b_hoist(b, n->a, cond);
    Node *x[2] = {n->b, n->k == N_COND ? n->c : NULL};
    bool sense[2] = {n->k == N_COND || n->op == OP_LAND, false};
    for (int i = 0; i < 2; i++) {
      if (!x[i]) continue;
      if (!cond && kernelish(b->fn) && !b->bw && pure_h(n->a) && any_node(x[i], hoisted_p, b)) arm(b, n->a, sense[i], x[i]);
      else b_hoist(b, x[i], true);   /* (a collective here: valid.c; a warp call: lane by lane) */
    }
    return;
  }
  b_hoist(b, n->a, cond);
  b_hoist(b, n->b, cond);
  b_hoist(b, n->c, cond);
  for (int i = 0; i < n->list.n; i++) b_hoist(b, n->list.v[i], cond);
  if (n->k == N_CALL && n->ck == C_FUNC && !cond && kernelish(b->fn) && !b->bw && ln(n)->vary &&
      wf_needs(b->L, n->fn)) {
    /* a device function that needs to run as a warp (warp_fn): its warp
     * version, once for the warp */
    W *w = wadd(b, W_CALLW, n);
    w->id = ++b->L->nid;
    w->wf = warp_fn(b, n);
    w->direct = callw_direct(b, w->wf, n);
    use_hdr(b, &w->h);
    b->lastcall = n;
    return;
  }
  if (n->k != N_CALL || n->ck != C_WARP || !kernelish(b->fn) || cond) return;   /* (valid.c) */
  W *w = wadd(b, W_WARPOP, n);
  w->id = ++b->L->nid;
  w->act = b->full ? NULL : cur(b);
  use(b, w->act);
  if (n->coll != CO_ACTIVEMASK) use_hdr(b, &w->h);
  /* a whole warp's shuffle by a uniform offset: one lane loop (print.c) */
  Node *off = n->list.n > 2 ? n->list.v[2] : NULL, *wd = n->list.n > 3 ? n->list.v[3] : NULL;
  w->fastsh = coll_shfl(n->coll) && b->full && lanes_all(b->ls) && off &&
              !ln(off)->vary && pure(off) && (!wd || (!ln(wd)->vary && pure(wd))) && pure(n->list.v[0]) &&
              !(b->ck & CK_SYNC);
  /* a shuffle from one lane, whose result shape.c gives stride 0 (read
   * from lane 0): that lane's value in every lane, whatever the mask */
  w->bcast = !w->fastsh && n->coll == CO_SHFL && b->v && (b->v->k == VK_ROW || b->v->k == VK_HROW) && rowu(n) &&
             pure(off) && pure(n->list.v[0]) && !(b->ck & CK_SYNC);
  Node *val = n->list.n > 1 ? n->list.v[1] : NULL;
  w->xdir = w->fastsh && n->coll == CO_SHFL_XOR && val && val->k == N_VAR && lane_arr(val->var) &&
            (val->ty->size == 4 || val->ty->size == 8);
}

static bool hoisted_p(Node *n, void *c) {
  Bc *b = c;
  return n->k == N_CALL && (n->ck == C_WARP || (n->ck == C_FUNC && ln(n)->vary && wf_needs(b->L, n->fn)));
}

/* ---- lane statements ---- */

/* The first `lane value CMP row value ? x : y` in n, outside other ?:s. */
static Node *run_cond(Node *n) {
  if (!n || n->k >= S_BLOCK) return NULL;
  if (n->k == N_COND) return run_ok(n->a, false) && pure(n->a) ? n : NULL;
  Node *r;
  if ((r = run_cond(n->a)) || (r = run_cond(n->b)) || (r = run_cond(n->c)) || (r = run_cond(n->d))) return r;
  for (int i = 0; i < n->list.n; i++)
    if ((r = run_cond(n->list.v[i]))) return r;
  return NULL;
}

/* In a whole-row warp, base + lane compared with a row value holds in a
 * run of lanes whose length is known without looking at each lane:
 * `t < stride` holds in clamp(stride - t_b, 0, 32) lanes. */
/* a comparison `lane value OP row value` as lane value first */
static void cmp_norm(Node *c, Node **a, Node **u, Op *op) {
  *op = c->op;
  *a = c->a, *u = c->b;
  if (!(aff_e(*a) && rowu(*u))) {
    *a = c->b;
    *u = c->a;
    *op = op_mirror(*op);
  }
}

/* the terms of a conjunction (op OP_LAND) or a disjunction (OP_LOR) */
static void log_terms(Node *c, Op op, Vec *v) {
  Node *b = bare(c);
  if (b->k == N_LOG && b->op == op) {
    log_terms(b->a, op, v);
    log_terms(b->b, op, v);
  } else vec_push(v, b);
}

static Op op_not(Op op) {
  return op == OP_LT ? OP_GE : op == OP_GE ? OP_LT : op == OP_LE ? OP_GT : op == OP_GT ? OP_LE : OP_NE;
}

/* The lanes where c holds (neg: where it does not) as a run: a lane
 * comparison, `lane value % row value == 0`, or a conjunction of row terms
 * and one comparison or an interval's two (neg: a disjunction of their
 * negations). */
static bool aff_run_(Node *c, int id, Run *r, bool neg) {
  *r = (Run){0};
  r->c = c;
  r->id = id;
  Node *m = neg ? NULL : aff_mod(c);
  if (m) {
    r->m = m;
    r->at = r->step = true;
    return true;
  }
  /* row terms, and one comparison or an interval's two: slots for ==, an
   * upper bound (< <=) and a lower bound (> >=) */
  Node *sl[3] = {0};
  Op so[3] = {OP_NE, OP_NE, OP_NE};
  Vec t = {0};
  log_terms(c, neg ? OP_LOR : OP_LAND, &t);
  for (int i = 0; i < t.n; i++) {
    Node *x = t.v[i], *a, *u;
    Op op;
    if (aff_cmp(x)) {
      cmp_norm(x, &a, &u, &op);
      if (neg) op = op_not(op);
      if (op == OP_NE) return false;
      int k = op == OP_EQ ? 0 : op == OP_LT || op == OP_LE ? 1 : 2;
      if (sl[k]) return false;
      sl[k] = x, so[k] = op;
    } else if ((!ln(x)->vary || rowu(x)) && pure(x)) vec_push(&r->g, x);
    else return false;
  }
  if (sl[0] && (sl[1] || sl[2])) return false;
  int k = sl[0] ? 0 : sl[1] ? 1 : 2;
  if (!sl[k]) return false;
  r->gneg = neg;
  Op op;
  cmp_norm(sl[k], &r->a, &r->u, &op);
  r->op = so[k];
  r->prefix = k == 1;
  r->point = r->at = k == 0;
  if (k == 1 && sl[2]) {   /* an interval: lanes [_cutN, _cutN2) */
    cmp_norm(sl[2], &r->a2, &r->u2, &op);
    r->op2 = so[2];
    r->at = true;
  }
  return true;
}
bool b_affrun(Node *c, int id, Run *r) { return aff_run_(c, id, r, false); }

bool run_ok(Node *c, bool els) {
  Run r;
  return b_affrun(c, 0, &r) && (!els || !r.at);
}

/* one lane statement `dst[_l] = x` (or `x`): range-tested as a whole in
 * the fast versions of a checked build where it can be (check.c), else in
 * a lane loop of its own or (join) the open one before it */
/* A store to memory in a statement with volatile accesses: warp-
 * synchronous code (`s[lane] += s[lane - k]` in a warp scan) relies on
 * the statement being one instruction for the warp, every lane's loads
 * before any lane's store, as on a GPU. */

/* The variable an element access `v[i]`, `v[i][j]` or `v[i].f` is of (an
 * array, shared or local, or a pointer), or NULL. */
static Obj *elem_root(Node *n) {
  n = bare(n);
  while (n->k == N_MEMBER && !n->post) n = bare(n->a);
  if (n->k != N_INDEX) return NULL;
  while (n->k == N_INDEX || n->k == N_MEMBER || n->k == N_CAST) n = n->a;
  return n->k == N_VAR ? n->var : NULL;
}

typedef struct { Obj *o; Node *at; } Nb;

/* an access to the same variable as the store's, at another element */
static bool nb_p(Node *n, void *c) {
  Nb *nb = c;
  return n->k == N_INDEX && elem_root(n) == nb->o && !same_x(n, nb->at);
}

/* A store that reads, in the same statement, the same array or pointer at
 * another element (`s[t] += s[t + k]`, `s[t] = s[t - 1] * 2`): with
 * lanes that vary, one lane may read the word another lane of the warp
 * writes, which a GPU does in one instruction (every load, then every
 * store) but a vectorized lane loop does in whatever order the C compiler
 * picks (gcc and clang differ). */
static bool nb_store(Node *x) {
  Node *l = bare(x->a);
  Nb nb = {elem_root(l), l};
  if (!nb.o || nb.o->ty->kind == TY_RECORD || !ln(l)->vary) return false;
  return any_node(x->b, nb_p, &nb);
}

/* The reads of the stored array, when each is `v[J]` for the store's
 * `v[I]` (the same v) with I and J of one positive lane stride: their
 * distance J - I is then the same in every lane, and where it is not
 * negative (`s[t] += s[t + k]`, reading ahead) lanes in order read every
 * word before the lane that stores it does, as the GPU's one instruction
 * would (a vectorized loop loads each chunk before storing it), so the
 * statement may run as one lane loop; print.c tests the distances per
 * warp. With a uniform stride S (s times a uniform value, both the same
 * s: `temp[bi] += temp[ai]` in a scan's tree) where the distance is not a
 * multiple of S, no lane reads a word any lane stores: also one loop, in
 * any order (print.c tests the strides and the distances). False for any
 * other read (behind, strided, another shape). */
static bool effect_p(Node *n, void *c) {
  (void)c;
  return n->k == N_ASSIGN || n->k == N_INCDEC || (n->k == N_CALL && n->ck != C_LIBM && n->ck != C_LDG);
}

bool nb_ahead(Node *x, Vec *rd) {
  Node *l = bare(x->a), *u, *u2;
  int64_t s, s2;
  if (l->k != N_INDEX || !aff_ustride(l->b, &s, &u) || (u ? !s : s <= 0) || has_warp(x) || any_node(x->b, effect_p, NULL))
    return false;
  Nb nb = {elem_root(l), l};
  if (!nb.o || ln(l->a)->vary) return false;   /* (one array for all lanes: `s[w][t]` with w varying is not) */
  Vec v = {0};
  Node *st[64];
  int n = 0;
  st[n++] = x->b;
  while (n) {   /* the reads of v, not inside another read of v's index */
    Node *e = st[--n];
    if (!e) continue;
    if (nb_p(e, &nb)) {
      e = bare(e);
      if (e->k != N_INDEX || !same_x(e->a, l->a) || !aff_ustride(e->b, &s2, &u2) || s2 != s || !u != !u2 ||
          any_node(e->b, nb_p, &nb))
        return false;
      vec_push(&v, e->b);
      continue;
    }
    Node *ops[4] = {e->a, e->b, e->c, e->d};
    for (int i = 0; i < 4; i++)
      if (ops[i] && n < 64) st[n++] = ops[i];
    for (int i = 0; i < e->list.n; i++)
      if (n < 64) st[n++] = e->list.v[i];
    if (n >= 64) return false;
  }
  *rd = v;
  return v.n > 0;
}

/* the reads nb_ahead finds in x, each with the index x stores at */
static void ahead_of(Node *x, Vec *rd, Vec *wx) {
  if (x->k == S_BLOCK) {
    for (int i = 0; i < x->list.n; i++) ahead_of(x->list.v[i], rd, wx);
    return;
  }
  if (x->k == S_EXPR) x = x->a;
  Vec v = {0};
  if (!simt_store(x) || !nb_ahead(x, &v)) return;
  for (int i = 0; i < v.n; i++) {
    vec_push(rd, v.v[i]);
    vec_push(wx, bare(x->a)->b);
  }
}

bool simt_store(Node *x) {
  if (x->k != N_ASSIGN) return false;
  if (!has_volatile(x)) return nb_store(x);
  Node *l = bare(x->a);
  return l->k == N_INDEX || l->k == N_MEMBER || (l->k == N_UN && l->op == OP_DEREF) ||
         (l->k == N_VAR && (l->var->is_shared || l->var->is_global));
}

/* An atomic whose result is unused, at an address that is the same in
 * every lane, of an associative operation: `atomicAdd(&sum, v)` after a
 * grid-stride loop, `atomicMax(&m, v)`. The warp's lanes combine their
 * values first and one atomic stores them (nvcc aggregates a warp's
 * atomics at one address too): one contended cache line per warp, not per
 * thread. The lanes' floats are added in lane order, an order the GPU's
 * unordered atomics may also take for their sum. Not checked builds:
 * their reports name each thread's access. */
static bool agg_atomic(Node *x) {
  x = bare(x);
  if (x->k != N_CALL || x->ck != C_ATOMIC || x->list.n != 2) return false;
  static const char *ops[] = {"cu_atomicAdd_", "cu_atomicSub_", "cu_atomicAnd_", "cu_atomicOr_",
                              "cu_atomicXor_", "cu_atomicMin_", "cu_atomicMax_"};
  bool op = false;
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) op |= !strncmp(x->name, ops[i], strlen(ops[i]));
  Node *a = x->list.v[0];
  return op && !ln(a)->vary && pure(a) && pure(x->list.v[1]);
}

/* __syncwarp(mask) with a mask that differs by lane (each half-warp its
 * own half): a lane statement, but the lanes' statements before it must
 * all be done before any lane's after it, so it shares no lane loop (in
 * one, lane 0 read its neighbour's element before lane 3 wrote it, right
 * only where the C compiler happened to vectorize the loop whole) */
static bool atomic_p(Node *n, void *c) {
  (void)c;
  return n->k == N_CALL && n->ck == C_ATOMIC;
}

static bool sel_var(Obj *o);
static bool sel_asg(Node *x);

/* a lane item that under a mask may run in every lane as a select by it
 * (`x = m ? v : x`, W.mblend): a store to the lane's own scalar of a value
 * any lane may compute (a divergent loop's body, mandelbrot's z = z * z +
 * c: masked lane loops of byte masks ran lane by lane, branching) */
static bool sel_item(Bc *b, W *w, Obj *dst, Node *x) {
  /* (not a bool: a lane's value not yet set is read, and must be one) */
  if (b->ck || w->simt || w->agg || (dst && dst->ty->kind == TY_BOOL)) return false;
  if (dst) return sel_var(dst) && spec_ok(x) && !has_warp(x);
  if (x->k == N_INCDEC) return bare(x->a)->k == N_VAR && sel_var(bare(x->a)->var) && is_intty(x->ty);
  return x->k == N_ASSIGN && sel_asg(x) && x->ty->kind != TY_BOOL;
}

/* reads a value printed per sub-row in half rows: a thread index, an
 * affine variable's base */
static bool subrow_p(Node *n, void *c) {
  (void)c;
  return (n->k == N_BUILTIN && n->bk == B_TID) || ((n->k == N_VAR || n->k == S_DECL) && lo(n->var)->aff);
}
bool lane_flat(Obj *dst, Node *x) { return !(dst && lo(dst)->aff) && !any_node(x, subrow_p, NULL); }

static W *lane_one(Bc *b, Obj *dst, Node *x, bool join, bool ctrue, Node *ct) {
  if (is_syncwarp(x)) join = false;
  W *w = wmk(b, W_ONE, x);
  w->o = dst;
  w->x = x;
  w->ctrue = ctrue;
  w->simt = !dst && simt_store(x);
  /* (checked builds: a statement that may read ahead keeps its one lane
   * loop, range-tested as before; the distance is not tested there) */
  Vec nbv = {0};
  int64_t ks;
  Node *ku;
  if (w->simt && b->ck && !has_volatile(x) && nb_ahead(x, &nbv) && aff_ustride(bare(x->a)->b, &ks, &ku) && !ku)
    w->simt = false;   /* (a uniform stride: its distances are tested, p_simt) */
  if (w->simt && b->fast && !b->hw && !b->ck) ahead_of(x, &w->ahead, &w->ahead_w);
  if (w->simt) {
    w->id = ++b->L->nid;
    join = false;
  }
  w->agg = !dst && !b->ck && !w->simt && agg_atomic(x);
  if (w->agg) {
    w->id = ++b->L->nid;
    join = false;
  }
  use_hdr(b, &w->h);
  if ((b->ck & (CK_MEM | CK_RACE | CK_INIT)) && (b->fast || b->bw || b->hw) && b->full && !w->simt) {
    RngCtx c = {b->ck, true, b->fast, b->hw != 0, b->bw, NULL, ct};
    Vec rd = {0}, wr = {0};
    if (rng_scan(&c, x, &rd, &wr) && rd.n + wr.n > 0 && rd.n + wr.n <= 8) {
      w->rng = true;
      w->rd = rd;
      w->wr = wr;
      vec_push(b->out, w);
      return w;
    }
  }
  /* (under a mask, an atomic: the lane loop over the mask's set bits, the
   * leader's atomicAdd of a warp-aggregated counter one lane of 32) */
  bool sparse = !b->full && !b->hw && !b->bw && any_node(x, atomic_p, NULL);
  /* the open lane loop before it, past the declarations of lane storage
   * printed since (they move before the loop: a C declaration, no code) */
  int k = b->out->n;
  while (k > 0 && ((W *)b->out->v[k - 1])->k == W_VDECL) k--;
  if (join && k > 0) {
    W *last = b->out->v[k - 1];
    if (last->k == W_LANES && last->join && hdr_eq(&last->h, &w->h)) {
      for (int i = k - 1; i + 1 < b->out->n; i++) b->out->v[i] = b->out->v[i + 1];   /* the loop after them */
      b->out->v[b->out->n - 1] = last;
      vec_push(&last->ws, w);
      last->sparse |= sparse;
      last->mblend &= sel_item(b, w, dst, x);
      last->flat &= lane_flat(dst, x);
      return w;
    }
  }
  W *l = wadd(b, W_LANES, x);
  l->join = join;
  l->sparse = sparse;
  l->mblend = sel_item(b, w, dst, x);
  l->flat = lane_flat(dst, x);
  vec_push(&l->ws, w);
  return w;
}

/* `dst[_l] = x` in a lane loop. A bounds test as in `s[t] = i < n ? in[i] :
 * 0` becomes masked loads, 2.3x slower than plain ones (gcc, Zen 4): where
 * every lane takes the first arm (every warp but the last), the statement
 * is printed with that arm alone. */
/* The first `c ? x : y` in n, outside other ?:s, whose condition the
 * block's bounds may show (bound.c): its region's test. */
static Node *bt_cond(Bc *b, Node *n, int *bt) {
  if (!n || n->k >= S_BLOCK) return NULL;
  if (n->k == N_COND && pure(n->a) && (*bt = lw_bound_region(b->fn, b->R, n->a))) return n;
  Node *r;
  if ((r = bt_cond(b, n->a, bt)) || (r = bt_cond(b, n->b, bt)) || (r = bt_cond(b, n->c, bt)) || (r = bt_cond(b, n->d, bt))) return r;
  for (int i = 0; i < n->list.n; i++)
    if ((r = bt_cond(b, n->list.v[i], bt))) return r;
  return NULL;
}

void b_lane(Bc *b, Obj *dst, Node *x) {
  Node *c = (b->fast || b->bw) && b->full ? run_cond(x) : NULL;
  /* a kernel region's fast versions: where the block's bounds show that
   * every thread takes the first arm (bound.c), that arm alone in every
   * lane, with no count (half rows, which count no runs, too: the tiled
   * matmul's `Ms[ty][tx] = row < n && ph * T + tx < n ? M[...] : 0`) */
  int bt = 0;
  bool bto = b->R && b->K && b->fn->is_kernel && !b->ck && b->full && b->v && b->v->k != VK_GEN && lanes_all(b->ls);
  if (c && bto) bt = pure(c->a) ? lw_bound_region(b->fn, b->R, c->a) : 0;
  else if (!c && bto && !has_volatile(x)) c = bt_cond(b, x, &bt);
  if (!c) {
    lane_one(b, dst, x, !has_volatile(x), false, NULL);
    return;
  }
  W *w = wadd(b, W_SPLIT, x);
  w->bt = bt;
  w->cond = c;
  W *t = seq(false), *e = seq(false);
  INTO(b, t, lane_one(b, dst, x, false, true, c));
  w->a = t;
  if (!((b->fast || b->bw) && run_ok(c->a, false))) {   /* (a block test alone: the statement as it is in other blocks) */
    INTO(b, e, lane_one(b, dst, x, !has_volatile(x), false, NULL));
    w->b = e;
    return;
  }
  b_affrun(c->a, ++b->L->nid, &w->run);
  if (w->run.a2) w->run.id2 = ++b->L->nid;
  Run *r = &w->run;
  if (!b->ck && !r->m && !r->at && !r->point && !r->step && lanes_all(b->ls)) {
    /* the lanes that take the first arm are a prefix or a suffix of the
     * warp's (`tid < nwarps ? s[tid] : 0` in a block reduction's last
     * warp): each arm over its lanes, with no test */
    W *c1 = seq(false), *c2 = seq(false);
    Lanes save = b->ls;
    if (r->prefix) b->ls.hi = r->id, b->ls.hik = HI_CUT;
    else b->ls.lo = r->id;
    INTO(b, c1, lane_one(b, dst, x, false, true, c));
    b->ls = save;
    if (r->prefix) b->ls.lo = r->id;
    else b->ls.hi = r->id, b->ls.hik = HI_CUT;
    INTO(b, c2, lane_one(b, dst, x, false, false, NULL));
    b->ls = save;
    w->c = c1;
    w->d = c2;
    return;
  }
  b->cold++;   /* the warp whose lanes do not all take the first arm */
  INTO(b, e, lane_one(b, dst, x, false, false, NULL));
  b->cold--;
  w->b = e;
}

/* whole-row version: an affine variable is set by its base; half-row
 * version: by one base per sub-row */
/* (st is the declaration or the store: =, op=, ++, --) */
void b_affset(Bc *b, Obj *o, Node *st, bool decl) {
  /* (a collective whose result is the same in every lane, shape.c's
   * coll_shape: computed first, its base read from it) */
  Node *x = decl ? st->a : st->k == N_ASSIGN ? st->b : NULL;
  if (x && has_warp(x)) b_hoist(b, x, false);
  W *w = wadd(b, W_AFFSET, st);
  w->o = o;
  w->x = x;
  w->decl = decl;
}

/* a store to an affine variable, in a fast version: its base(s) change */
Obj *b_affstore(Bc *b, Node *x) {
  Obj *v = x && (b->fast || b->hw) ? stored_var(x) : NULL;
  return v && lo(v)->aff ? v : NULL;
}

/* A varying local's initializer under a partial mask, where every lane
 * may compute it (no loads, stores, traps or collectives: spec_ok) and no
 * lane outside the mask has a value of it to keep (declared here, not by a
 * loop, not kept across regions, its address not taken): a lane loop over
 * every lane below _nl, with no mask, that the C compiler vectorizes
 * without masked operations (a masked warp version's `unsigned rank =
 * __popc(active & lt)`, a divergent if's temporaries). */
static bool spec_decl(Bc *b, Obj *o, Node *x) {
  LObj *l = lo(o);
  return !b->full && !b->hw && !b->bw && !l->cross && !l->esc && !l->dloop && o->ty->kind != TY_ARRAY &&
         spec_ok(x) && !has_warp(x);
}

static void st_decl_(Bc *b, Node *n) {
  Obj *o = n->var;
  LObj *l = lo(o);
  if ((b->fast || b->hw) && l->aff) {   /* (`int i;`: its base declared, set by its first store) */
    b_affset(b, o, n, true);
    return;
  }
  b_hoist(b, n->a, false);
  if (!l->vary) {
    /* a uniform variable used by several regions lives at block level */
    if (l->cross && !n->a) return;
    W *w = wadd(b, W_UDECL, n);
    w->o = o;
    w->x = n->a;
    return;
  }
  if (!l->cross) {   /* (kept per thread: declared at block level, set here) */
    W *w = wadd(b, W_VDECL, n);
    w->o = o;
  }
  if (!n->a) return;
  if (o->ty->kind == TY_ARRAY) {
    W *l2 = wadd(b, W_LANES, n);
    use_hdr(b, &l2->h);
    W *w = wmk(b, W_INIT, n);
    w->o = o;
    w->x = n->a;
    vec_push(&l2->ws, w);
  } else if (spec_decl(b, o, n->a)) {
    bool full = b->full;
    Lanes ls = b->ls;
    b->full = true;
    b->ls = (Lanes){0};
    b_lane(b, o, n->a);
    b->full = full;
    b->ls = ls;
  } else b_lane(b, o, n->a);
}

static void st_decl(Bc *b, Node *n) {
  bool np = b->noprof;
  b->noprof |= ln(n)->recomputed;
  st_decl_(b, n);
  b->noprof = np;
}

static void st_expr(Bc *b, Node *x) {
  Obj *av = b_affstore(b, x);
  if (av) {
    b_affset(b, av, x, false);
    return;
  }
  b->lastcall = NULL;
  if (x->k == N_ASSIGN && x->op == OP_ASSIGN && x->a->k == N_VAR && bare(x->b)->k == N_CALL) {
    b->dcall = bare(x->b);   /* (v = f(v): v's lanes dead during the call) */
    b->dvar = x->a->var;
  }
  b_hoist(b, x, false);
  b->dcall = NULL;
  if (x->k == N_CALL && b->lastcall == x && x->ty->kind == TY_VOID) return;   /* the call was all of it */
  if (!ln(x)->vary) {
    /* a uniform effect under a partial mask: once, if any lane is here */
    W *w = wadd(b, W_EXPR, x);
    w->x = x;
    if (!b->uctx) {
      w->guard = cur(b);
      use(b, w->guard);
    }
    return;
  }
  b_lane(b, NULL, x);
}

/* A divergent jump: the lanes here leave every mask up to its target. */
static void st_jump(Bc *b, Node *n) {
  W *w = wadd(b, W_JUMP, n);
  w->wret = ln(n)->masked && n->k == S_RETURN && b->wret;
  if (!ln(n)->masked || w->wret) {
    if (n->k == S_RETURN) {
      w->rend = b->v->rend;
      b->v->rend_used = true;
    }
    return;
  }
  Mask *m = cur(b);
  use(b, m);
  for (int i = b->chain.n - 1; i >= 0; i--) {
    Lv *lv = b->chain.v[i];
    if (lv->m != m) {
      vec_push(&w->clear, lv->m);
      use(b, lv->m);
    }
    if (n->k == S_BREAK && lv->owner == n->target && !lv->iter) break;
    if (n->k == S_CONTINUE && lv->owner == n->target && lv->iter) break;
  }
}

static void exit_check(Bc *b) {
  W *w = wadd(b, W_EXITCHK, NULL);
  w->rend = b->v->rend;
  use(b, &m0_);
  b->v->rend_used = true;
}

static bool warp_ret_if(Bc *b, Node *n);

void b_list(Bc *b, Vec *v) {
  for (int i = 0; i < v->n; i++) {
    Node *s = v->v[i];
    b_st(b, s);
    if (ln(s)->has_jump && !warp_ret_if(b, s)) {
      b->full = false;
      /* uniform context: the only mask is _m0; once every lane has
       * returned, nothing of the warp is left to run */
      if (b->uctx && i + 1 < v->n && kernelish(b->fn)) exit_check(b);
    }
  }
}

/* ---- if ---- */

/* Code that can be printed twice (once for "every lane", once under a
 * mask) at bounded cost: no jumps, no divergent loops or switches, and
 * divergent ifs only while the statements involved stay few (each level
 * of nested ifs doubles what is printed). */
static bool dual_ok(Node *n, int *budget) {
  if (!n) return true;
  if (--*budget < 0) return false;
  switch (n->k) {
  case S_BREAK: case S_CONTINUE: case S_RETURN: case S_SYNC: return false;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH:
    if (ln(n)->vary || ln(n)->masked) return false;
    break;
  case S_IF:
    if (ln(n)->vary) *budget -= 20;
    break;
  default: break;
  }
  if (n->k < S_BLOCK) return true;   /* expressions: no statements inside */
  if (!dual_ok(n->a, budget) || !dual_ok(n->b, budget) || !dual_ok(n->c, budget) || !dual_ok(n->d, budget))
    return false;
  for (int i = 0; i < n->list.n; i++)
    if (!dual_ok(n->list.v[i], budget)) return false;
  return true;
}

/* A failed assert's report (`if (!e) { report; stop the block; }`, no
 * else): its lanes are counted over the lanes that run, with no mask, so
 * it may stand in a run of lanes; the mask is made only when a lane fails,
 * and the block stops there. */
static bool cold_if(Node *n) { return n->k == S_IF && n->cold && !n->c && pure(n->a) && !has_warp(n->a); }

/* Code that can run over a run of lanes with no mask: straight code with
 * no divergent ifs (but asserts) and no warp collectives. */
static bool vary_if_p(Node *n, void *c) { (void)c; return n->k == S_IF && ln(n)->vary && !cold_if(n); }
static int vary_if_f(Node *n, void *c) {
  if (n->k < S_BLOCK) return W_SKIP;
  if (vary_if_p(n, NULL)) {
    *(bool *)c = true;
    return W_STOP;
  }
  return W_GO;
}
static bool has_vary_if(Node *n) {
  bool r = false;
  walk(n, vary_if_f, &r);
  return r;
}

bool runs_ok(Node *n) {
  int budget = 1 << 20;
  return dual_ok(n, &budget) && !has_warp(n) && !has_vary_if(n);
}

/* An if in a loop over a prefix run of lanes (bloop.c) whose lanes are a
 * prefix too, with no else (Harris's reduce6: `if (i + blockSize < n)` in
 * its grid-stride loop): its branch runs over the lanes of both runs, a
 * prefix again (IFD_SUB), where it made the loop a warp's under masks
 * (2.5-3x the expert). */
bool sub_if(Node *n) {
  Run r = {0};
  return n->k == S_IF && ln(n)->vary && !n->c && pure(n->a) && !has_warp(n->a) && b_affrun(n->a, 0, &r) && r.prefix &&
         !r.at && !r.m && !r.a2 && !r.g.n && !r.step && !r.point && runs_ok(n->b);
}
static int sub_f(Node *n, void *c) {
  if (n->k < S_BLOCK) return W_SKIP;
  if (sub_if(n)) return W_SKIP;
  if (vary_if_p(n, NULL)) {
    *(bool *)c = true;
    return W_STOP;
  }
  return W_GO;
}
/* runs_ok, but for such ifs; *sub: it has some */
bool runs_sub_ok(Node *n, bool *sub) {
  int budget = 1 << 20;
  bool bad = false;
  *sub = has_vary_if(n);
  if (*sub) walk(n, sub_f, &bad);
  return dual_ok(n, &budget) && !has_warp(n) && !bad;
}

/* ---- blends ----
 * Every 2nd, 4th or 8th lane of a run (`t % (2*stride) == 0` at small
 * strides) is too dense for a strided scalar loop, which stores one lane
 * per cycle at best. A branch of stores to unit-stride __shared__ elements
 * runs instead as a unit-stride loop over the run's span in which the other
 * lanes store back the value they read: `s[t] = on ? s[t] + x : s[t]`,
 * which the C compiler vectorizes as a blend. Safe because shared memory
 * belongs to one block, which one worker runs (no other thread can store
 * in between), and because every address the span touches lies between
 * those of its first and last lanes, which the program itself accesses:
 * so the right-hand sides may read only unit-stride lane elements, lane
 * variables and uniform values, and must not divide integers (a lane that
 * is off could divide by zero). */
static bool blend_rhs(Node *n) {
  if (!ln(n)->vary) return pure(n);
  switch (n->k) {
  case N_NUM: case N_FNUM: case N_BUILTIN: return true;
  case N_VAR: return !n->var->ty->is_volatile;
  case N_CAST: return blend_rhs(n->a);
  case N_UN: return n->op != OP_DEREF && n->op != OP_ADDR && blend_rhs(n->a);
  case N_BIN:
    if (is_intty(n->ty) && (n->op == OP_DIV || n->op == OP_MOD)) return false;
    return blend_rhs(n->a) && blend_rhs(n->b);
  case N_COND: return blend_rhs(n->a) && blend_rhs(n->b) && blend_rhs(n->c);
  case N_INDEX: return !n->ty->is_volatile && rowu(n->a) && aff_e(n->b) && n->ty->kind != TY_ARRAY;
  default: return false;
  }
}

static bool shared_root(Node *n) {
  while (n->k == N_INDEX || n->k == N_MEMBER || n->k == N_CAST) n = n->a;
  return n->k == N_VAR && n->var->is_shared;
}

/* a statement a blend may run: not warp-synchronous, or reading ahead
 * (print.c tests the distances before it blends) */
static bool blend_simt(Node *x) {
  Vec v = {0};
  return !simt_store(x) || (!has_volatile(x) && nb_ahead(x, &v));
}

static bool blend_ok(Node *n) {
  if (!n) return true;
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++)
      if (!blend_ok(n->list.v[i])) return false;
    return n->list.n > 0;
  }
  if (n->k != S_EXPR || n->a->k != N_ASSIGN) return false;
  Node *x = n->a, *l = x->a;
  if (x->op == OP_SHLA || x->op == OP_SHRA || x->op == OP_DIVA || x->op == OP_MODA) return false;
  return l->k == N_INDEX && rowu(l->a) && aff_e(l->b) && shared_root(l->a) && !l->ty->is_volatile && blend_simt(x) &&
         (is_intty(l->ty) || l->ty->kind == TY_FLOAT || l->ty->kind == TY_DOUBLE) && blend_rhs(x->b);
}

/* A divergent if computes its masks and counts the lanes that take each
 * way. When every live lane of a full warp agrees (the common case: a
 * bounds test, `t < stride` away from the boundary), the taken branch runs
 * as unmasked lane loops that vectorize; the masked version is only for
 * warps that really split. */
/* `if (row >= rows) return;` with row the same in every lane of the warp
 * (a warp per row): the whole warp returns or none of it, so the return
 * is a jump to the region's end and the lanes after it stay whole. In a
 * kernel of one region (no exit flags to set) and with no break or
 * continue inside (their masks belong to loops around). */
static bool jmp_p(Node *n, void *c) { (void)c; return n->k == S_BREAK || n->k == S_CONTINUE; }

static bool row_if(Bc *b, Node *n) {
  return (b->fast || b->bw) && rowu(n->a) && (!b->ck || no_access(n->a));
}

static bool warp_ret_if(Bc *b, Node *n) {
  return n->k == S_IF && ln(n)->vary && ln(n)->has_jump && b->K && !b->K->exits && b->fn->is_kernel && row_if(b, n) &&
         !any_node(n, jmp_p, NULL);
}

/* ---- selects ----
 * A divergent if whose arms only assign the lanes' own scalars (`if (lane
 * + offset < 32) val += other;`, CUB's spelling of a shuffle tree) runs its
 * assignments in every live lane as selects, `val = c ? val + other : val`,
 * which vectorize as blends; counted, its lanes a run, it ran as a loop
 * over a run of varying length at each step of the tree (an arg-max's
 * `if (d < best) { best = d; bi = c; }`: under masks). The condition is
 * evaluated once per lane, first (_selN); the right-hand sides in lanes
 * that do not take the branch too: they may not load, call, store or
 * divide integers (spec_ok). */
static bool is_fp(Type *t) { return t->kind == TY_FLOAT || t->kind == TY_DOUBLE || t->kind == TY_LDOUBLE; }

static bool sel_var(Obj *o) {
  LObj *l = lo(o);
  return l->vary && !l->aff && !l->esc && !l->soa && !o->is_shared && !o->ty->is_volatile && is_arith(o->ty);
}

/* an arm's assignments, counted; -1: not an arm of selects */
static int sel_arm(Node *n) {
  if (!n) return 0;
  if (n->k == S_BLOCK) {
    int c = 0;
    for (int i = 0; i < n->list.n && c >= 0; i++) {
      int k = sel_arm(n->list.v[i]);
      c = k < 0 ? -1 : c + k;
    }
    return c;
  }
  if (n->k != S_EXPR || n->a->k != N_ASSIGN) return -1;
  return sel_asg(n->a) ? 1 : -1;
}

/* `v = e`, `v op= e` of a lane's own scalar, e computable in any lane */
static bool sel_asg(Node *x) {
  if (x->a->k != N_VAR || !sel_var(x->a->var)) return false;
  if (x->op == OP_SHLA || x->op == OP_SHRA || ((x->op == OP_DIVA || x->op == OP_MODA) && !is_fp(x->a->ty) && !is_fp(x->b->ty))) return false;
  return spec_ok(x->b) && !has_warp(x->b);
}

/* (one lane loop: the condition's _selN is a local of its body) */
static void sel_emit(Bc *b, Node *n, int id, bool neg) {
  if (!n) return;
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++) sel_emit(b, n->list.v[i], id, neg);
    return;
  }
  W *w = lane_one(b, NULL, n->a, true, false, NULL);
  w->sel = id;
  w->sneg = neg;
}

static void st_if(Bc *b, Node *n) {
  /* in whole-row and block-wide warps a row value (threadIdx.y == 1) is
   * the same in every lane: a uniform branch (checked: not when the
   * condition reads memory, which every lane does and a race check must
   * see) */
  bool wr = warp_ret_if(b, n);
  if (!ln(n)->vary || (row_if(b, n) && (!ln(n)->has_jump || wr))) {
    bool sw = b->wret;
    b->wret |= wr;
    /* (a row condition of collectives, `__all_sync(m, p) && __any_sync(m,
     * q)`, shape.c's coll_shape: computed first, read from lane 0) */
    if (ln(n)->vary && has_warp(n->a)) b_hoist(b, n->a, false);
    /* under a mask that may be empty (every lane left by continue or
     * break) no lane evaluates the condition */
    W *w = wadd(b, W_IFU, n);
    if (!b->full) {
      w->guard = cur(b);
      use(b, w->guard);
    }
    w->a = b_block(b, n->b);
    if (n->c) w->b = b_block(b, n->c);
    b->wret = sw;
    return;
  }
  if (b->subrun && b->full && sub_if(n)) {   /* over the lanes of both prefixes (sub_if) */
    W *w = wadd(b, W_IFD, n);
    w->id = ++b->L->nid;
    w->mode = IFD_SUB;
    w->noprof = true;
    b_affrun(n->a, w->id, &w->run);
    Lanes save = b->ls;
    b->ls.lo = 0;
    b->ls.hi = w->id;
    b->ls.hik = HI_CUT;
    w->trun = b_block(b, n->b);
    b->ls = save;
    return;
  }
  int st = sel_arm(n->b), se = sel_arm(n->c);
  if (!b->ck && pure(n->a) && !has_warp(n->a) && st >= 0 && se >= 0 && st + se > 0) {
    int id = ++b->L->nid;
    W *h = lane_one(b, NULL, n->a, true, false, NULL);
    h->sel = id;
    h->shead = true;
    sel_emit(b, n->b, id, false);
    sel_emit(b, n->c, id, true);
    return;
  }
  b_hoist(b, n->a, false);
  Mask *m = cur(b);
  int id = ++b->L->nid;
  W *w = wadd(b, W_IFD, n);
  w->id = id;
  w->m = m;
  w->mt = mask(MK_T, id);
  w->me = n->c ? mask(MK_E, id) : NULL;
  w->psite = -1;
  int budget = 300;
  bool dual = b->full && dual_ok(n->b, &budget) && dual_ok(n->c, &budget);
  if (b->full && !b->ck && cold_if(n)) {
    w->mode = IFD_COLD;   /* counted over the lanes that run; masked when a lane fails */
    w->ckc = b->ck != 0;
  } else if (dual && pure(n->a)) {
    /* count first (compares and adds only); the masks only if it splits */
    /* (half rows: counted sub-row by sub-row, each a run of 16 lanes; the
     * lanes of a split branch under masks) */
    bool cnt = (b->fast || b->bw || (b->hw && lanes_all(b->ls))) && b_affrun(n->a, id, &w->run) && !(b->hw && w->run.m);
    if (!cnt) w->run = (Run){0};
    if (w->run.a2) w->run.id2 = ++b->L->nid;
    w->mode = IFD_COUNT;
    /* a kernel's region: counted only in blocks whose bounds do not
     * show that every thread takes it (bound.c; the tiled matmul's tile
     * loads under `row < n && ph * TILE + tx < n`) */
    if (b->R && b->K && b->fn->is_kernel && !b->ck && lanes_all(b->ls)) w->bt = lw_bound_region(b->fn, b->R, n->a);
    w->tall = b_block(b, n->b);
    if (w->me) w->eall = b_block(b, n->c);
    Run *r = &w->run;
    if (cnt && !b->hw && b->ls.lo == 0 && runs_ok(n->b) && runs_ok(n->c) && !(r->at && w->me)) {
      /* the lanes that take the branch are a run: [0, count), [_nl -
       * count, _nl), for == [at, at + 1), for % every step-th from at;
       * each branch runs over its lanes with no mask */
      w->mode = IFD_RUN;
      Lanes save = b->ls;
      b->ls.lo = r->prefix && !r->at ? 0 : id;
      b->ls.hi = r->a2 ? r->id2 : id;
      b->ls.hik = r->point ? HI_CUT1 : r->a2 || (r->prefix && !r->at) ? HI_CUT : HI_NL;
      if (r->step) b->ls.step = id;
      /* (not in checked builds: the blend's accesses would be checked
       * lane by lane; the run's are tested as ranges) */
      w->blend = r->step && !w->me && blend_ok(n->b) && !(b->ck & (CK_MEM | CK_RACE | CK_INIT));
      if (w->blend) ahead_of(n->b, &w->ahead, &w->ahead_w);
      w->trun = b_block(b, n->b);
      if (w->me) {
        b->ls.lo = r->prefix ? id : 0;
        b->ls.hik = r->prefix ? HI_NL : HI_CUT;
        w->erun = b_block(b, n->c);
      }
      b->ls = save;
      return;
    }
  } else {
    w->mode = dual ? IFD_MASKDUAL : IFD_MASK;
    if (!b->full) use(b, m);
    if (dual) {
      /* every lane one way: that branch alone, with no mask */
      w->tall = b_block(b, n->b);
      if (w->me) w->eall = b_block(b, n->c);
    }
  }
  bool full = b->full, uctx = b->uctx;
  b->full = false;
  b->uctx = false;
  push_lv(b, w->mt, n, false);
  w->tm = b_block(b, n->b);
  b->chain.n--;
  if (w->me) {
    push_lv(b, w->me, n, false);
    w->em = b_block(b, n->c);
    b->chain.n--;
  }
  b->full = full;
  b->uctx = uctx;
}

/* ---- switch ---- */
static void st_switch(Bc *b, Node *n) {
  Vec *items = &n->d->list;
  if (!ln(n)->vary && !ln(n)->masked) {
    W *w = wadd(b, W_SWU, n);
    if (!b->full) {
      w->guard = cur(b);   /* (as st_if) */
      use(b, w->guard);
    }
    INTO(b, w, {
      for (int i = 0; i < items->n; i++) {
        Node *s = items->v[i];
        if (s->k == S_CASE || s->k == S_DEFAULT) wadd(b, W_CASE, s);
        else b_st(b, s);
      }
    });
    return;
  }
  /* divergent switch: lanes enter at their case label and fall through
   * with the running mask until they break */
  W *w = wadd(b, W_SWD, n);
  w->m = cur(b);
  use(b, w->m);
  w->ms = mask(MK_S, ++b->L->nid);
  w->sv = b->L->nid;
  for (int i = 0; i < items->n; i++) w->has_def |= ((Node *)items->v[i])->k == S_DEFAULT;
  if (w->has_def) w->md = mask(MK_D, w->sv);
  w->sw = seq(false);
  INTO(b, w->sw, b_hoist(b, n->a, false));
  bool full = b->full, uctx = b->uctx;
  b->full = false;
  b->uctx = false;
  push_lv(b, w->ms, n, false);
  INTO(b, w, {
    for (int i = 0; i < items->n; i++) {
      Node *s = items->v[i];
      if (s->k == S_CASE || s->k == S_DEFAULT) wadd(b, W_SWLABEL, s);
      else b_st(b, s);
    }
  });
  b->chain.n--;
  b->full = full;
  b->uctx = uctx;
}

void b_st(Bc *b, Node *n) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK:
    if (n->post) b_list(b, &n->list);   /* a declaration group */
    else vec_push(b->out, b_block(b, n));
    break;
  case S_DECL: st_decl(b, n); break;
  case S_EXPR: st_expr(b, n->a); break;
  case S_IF: st_if(b, n); break;
  case S_FOR: case S_WHILE: case S_DO: b_loop(b, n); break;
  case S_SWITCH: st_switch(b, n); break;
  case S_BREAK: case S_CONTINUE: st_jump(b, n); break;
  case S_RETURN:
    if (lo(b->fn)->warpfn && n->a) {   /* the lanes' results, then they leave */
      int at = b->out->n;
      b->dcall = bare(n->a);   /* (its arguments' lanes dead after it) */
      b->tail = true;
      b_hoist(b, n->a, false);
      b->dcall = NULL;
      b->tail = false;
      /* `return f(...)` of a warp version, or `return __shfl_xor_sync(...)`,
       * of the same type: f or the collective writes the lanes' results into
       * our _ret itself, the lanes this one would (f: its caller's lanes; a
       * collective: only where every lane runs it, as some write all 32) */
      W *c = b->out->n == at + 1 ? b->out->v[at] : NULL;
      Type *t = n->a->ty, *r = b->ret->ty;
      bool same = t->kind == r->kind && (is_arith(t) || (t->kind == TY_RECORD && t->rec == r->rec));
      bool every = b->full && lanes_all(b->ls);
      if (c && ((c->k == W_CALLW && c->wf->ret) || (c->k == W_WARPOP && every)) && c->n == n->a && same)
        c->fwd = true;
      else b_lane(b, b->ret, n->a);
    }
    if (!kernelish(b->fn)) {
      W *w = wadd(b, W_RETURN, n);
      w->x = n->a;
    } else st_jump(b, n);
    break;
  case S_NULL: break;
  default:   /* (a barrier is block level: region.c, valid.c) */
    errorat(n->file, n->line, n->col, "internal error: statement kind %d here", n->k);
  }
}

/* ---- warps and regions ---- */

/* The set-up of one warp: its lanes, its mask (_m0), its per-thread
 * storage; the version decides what threadIdx is. */
static void warp_head(Bc *b, Ver *v) {
  b->v = v;
  b->bw = v->k == VK_BW;
  v->rend = ++b->L->nid;
  b->chain.n = 0;
  push_lv(b, &m0_, NULL, false);
  b->uctx = true;
  /* (a kernel with exit flags: its fast versions run only in a block none
   * of whose threads has returned or is parked, print.c's _clean) */
  b->full = !b->K->exits || v->k != VK_GEN;
  b->fast = v->k == VK_ROW || v->k == VK_BW;   /* block-wide: one whole row */
  b->hw = v->k == VK_HROW ? 16 : 0;
  b->inwarp = true;
  b->ls = (Lanes){0};
  v->body = seq(false);
  b->out = &v->body->ws;
}

static void warp_close(Bc *b) {
  b->fast = false;
  b->hw = 0;
  b->bw = false;
  b->inwarp = false;
  b->v = NULL;
  b->out = NULL;
}

/* `if (c) return;` at a kernel region's top, the lanes left a prefix run
 * (`if (i >= n) return;`, `if (x >= w || y >= h) return;` in whole-row
 * warps): the rest of the region runs with _nl the run's length, as a
 * partial warp does, instead of under a mask. Not where returned threads
 * must be remembered for later regions (exit flags), nor in checked builds. */
static bool ret_stmt(Node *n) {
  while (n && n->k == S_BLOCK && n->list.n == 1) n = n->list.v[0];
  return n && n->k == S_RETURN && !n->a;
}

/* (nor where the rest calls a device function's warp version: a whole-row
 * one takes every warp for full, _nl 32; cdpAdvancedQuicksort's
 * coalesced_threads().ballot() after `if (thread_id >= len) return;`) */
static bool narrow_ret(Bc *b, Vec *stmts, int i, Run *r) {
  Node *s = stmts->v[i];
  if (!(b->fast || b->bw) || b->hw || !b->full || !b->uctx || b->ck || b->ls.lo || b->ls.hik != HI_NL || b->ls.step)
    return false;
  if (!b->K || b->K->exits || !b->fn->is_kernel || s->k != S_IF || !ln(s)->vary || s->c || !ret_stmt(s->b) || !pure(s->a))
    return false;
  if (stmts_any(stmts, i + 1, stmts->n, b_wcall, b->L)) return false;
  return aff_run_(s->a, 0, r, true) && r->prefix && !r->a2;
}

static void region_list(Bc *b, Vec *stmts, int from) {
  for (int i = from; i < stmts->n; i++) {
    Node *s = stmts->v[i];
    Run r;
    if (i + 1 < stmts->n && narrow_ret(b, stmts, i, &r)) {
      W *w = wadd(b, W_NARROW, s);
      w->run = r;
      w->run.id = w->id = ++b->L->nid;
      w->body = seq(false);
      INTO(b, w->body, region_list(b, stmts, i + 1));
      return;
    }
    b_st(b, s);
    if (ln(s)->has_jump && !warp_ret_if(b, s)) {
      b->full = false;
      if (i + 1 < stmts->n) exit_check(b);
    }
  }
}

static void region_body(Bc *b, Vec *stmts) { region_list(b, stmts, 0); }

static bool return_p(Node *n, void *c) {
  (void)c;
  return n->k == S_RETURN;
}

static Region *region(Bc *b, Vec *stmts, int from, int to) {
  Region *r = xcalloc(1, sizeof *r);
  wcopies(stmts, from, to, &r->wcopy);
  Vec *s = b->L->remat.n ? with_remat(&b->L->remat, stmts, from, to) : NULL;
  for (int i = s ? 0 : from; i < (s ? s->n : to); i++) vec_push(&r->stmts, (s ? s : stmts)->v[i]);
  bool tids;
  int npf = 0;
  lw_versions(b->fn, b->K->exits, b->L->ck, r, &tids);
  b->R = r;
  for (int i = 0; i < r->vers.n; i++) {
    Ver *v = r->vers.v[i];
    v->tids = tids || v->k != VK_GEN;
    warp_head(b, v);
    if (!b->bpf_done) npf += b_bpf(b, &r->stmts, 0, r->stmts.n);
    region_body(b, &r->stmts);
    warp_close(b);
  }
  b->R = NULL;
  for (int i = 0; i < r->stmts.n; i++) r->flags |= any_node(r->stmts.v[i], return_p, NULL);
  b->bpf_done |= npf > 0;   /* (the first region that reads such a slice) */
  return r;
}

static Region *region1(Bc *b, Node *n) {
  Vec one = {0};
  vec_push(&one, n);
  return region(b, &one, 0, 1);
}

/* A general warp loop evaluating a block-level condition or predicate x:
 * the recomputed values it reads, and its warp collectives. */
static Ver *cond_warp(Bc *b, Node *x) {
  Ver *v = xcalloc(1, sizeof *v);
  v->k = VK_GEN;
  v->tids = true;
  warp_head(b, v);
  Vec one = {0};
  vec_push(&one, x);
  Vec *rv = with_remat(&b->L->remat, &one, 0, 1);
  for (int i = 0; i + 1 < rv->n; i++) st_decl(b, rv->v[i]);
  b_hoist(b, x, false);
  warp_close(b);
  return v;
}

/* a statement at block level, once per block */
static W *block_uni(Bc *b, Node *n) {
  W *w = seq(false);
  b->chain.n = 0;
  push_lv(b, &m0_, NULL, false);
  b->uctx = true;
  b->full = true;
  b->out = &w->ws;
  b_st(b, n);
  b->out = NULL;
  return w;
}

static Blk *bnew(BlkKind k, Node *n) {
  Blk *x = xcalloc(1, sizeof *x);
  x->k = k;
  x->n = n;
  return x;
}

static Blk *bregion(Region *r) {
  Blk *x = bnew(BK_REGION, NULL);
  x->r = r;
  return x;
}

static Blk *bst(Bc *b, Node *n);

static void bst_list(Bc *b, Vec *v, Vec *out) {
  for (int i = 0; i < v->n;) {
    Node *c = v->v[i];
    if (ln(c)->sync) {
      vec_push(out, bst(b, c));
      i++;
      continue;
    }
    if (block_stmt(c)) {
      Blk *x = bnew(BK_UNI, c);
      x->w = block_uni(b, c);
      vec_push(out, x);
      i++;
      continue;
    }
    int j = i;
    while (j < v->n && !ln(v->v[j])->sync && !block_stmt(v->v[j]) && (j == i || !ln(v->v[j])->seam)) j++;
    vec_push(out, bregion(region(b, v, i, j)));
    i = j;
  }
}

static Blk *bsub(Bc *b, Node *n) {
  return ln(n)->sync ? bst(b, n) : bregion(region1(b, n));
}

static Blk *bst(Bc *b, Node *n) {
  Blk *x;
  switch (n->k) {
  case S_BLOCK:
    x = bnew(BK_SEQ, n);
    x->brace = !n->post;
    bst_list(b, &n->list, &x->items);
    return x;
  case S_SYNC:
    x = bnew(BK_SYNC, n);
    if (!n->grid && n->coll) x->cw = cond_warp(b, n->a);
    return x;
  case S_IF:
    x = bnew(BK_IF, n);
    if (ln(n->a)->vary) {
      x->cw = cond_warp(b, n->a);
      /* (bound.c: counted thread by thread only in blocks whose bounds do
       * not show that every thread takes it) */
      if (!b->L->ck) x->bt = lw_bound(b->fn, n->a, NULL);
    }
    x->then = bsub(b, n->b);
    if (n->c) x->els = bsub(b, n->c);
    return x;
  case S_FOR: case S_WHILE: case S_DO:
    x = bnew(BK_LOOP, n);
    if (n->a) {
      if (uniform_stmt(n->a)) x->uinit = block_uni(b, n->a);
      else x->init = bregion(region1(b, n->a));
    }
    x->lid = ln(n)->lid = ++b->L->nid;
    if (n->b && n->k != S_DO && ln(n->b)->vary) x->cw = cond_warp(b, n->b);
    x->body = bst(b, n->d);
    if (n->c && ln(n->c)->vary) {
      Node *e = xcalloc(1, sizeof *e);
      e->k = S_EXPR;
      e->a = n->c;
      e->file = n->c->file;
      e->line = n->c->line;
      e->col = n->c->col;
      x->inc = bregion(region1(b, e));
    }
    if (n->k == S_DO && ln(n->b)->vary) x->dw = cond_warp(b, n->b);
    b_lpf(b, x);
    return x;
  case S_BREAK: return bnew(BK_BREAK, n);
  case S_CONTINUE: return bnew(BK_CONT, n);
  default:
    errorat(n->file, n->line, n->col, "internal error: block-level statement kind %d", n->k);
    return bnew(BK_SEQ, n);
  }
}

/* The lowered form of kernel k (its analyses done: layout, shape, regions). */
void lw_build_kernel(Lw *L, Kern *K) {
  Obj *k = K->k;
  Bc b = {.L = L, .K = K, .fn = k, .ck = L->ck};
  lw_bdefs(k);
  /* varying parameters start as the argument in every lane */
  Vec pinit = {0};
  for (int i = 0; i < k->params.n; i++) {
    Obj *p = k->params.v[i];
    if (!lo(p)->vary) continue;
    Node *d = xcalloc(1, sizeof *d);
    d->k = S_DECL;
    d->var = p;
    d->a = xcalloc(1, sizeof(Node));
    d->a->k = N_STR;
    d->a->str = xfmt("_p_%s", cname(p));
    d->a->ty = p->ty;
    vec_push(&pinit, d);
  }
  Blk *body = bnew(BK_SEQ, k->body);
  if (ln(k->body)->sync || ln(k->body)->seam) {   /* (regions between barriers or seams) */
    if (pinit.n) vec_push(&body->items, bregion(region(&b, &pinit, 0, pinit.n)));
    vec_push(&body->items, bst(&b, k->body));
  } else {
    Vec all = {0};
    for (int i = 0; i < pinit.n; i++) vec_push(&all, pinit.v[i]);
    if (k->body->k == S_BLOCK)
      for (int i = 0; i < k->body->list.n; i++) vec_push(&all, k->body->list.v[i]);
    else vec_push(&all, k->body);
    vec_push(&body->items, bregion(region(&b, &all, 0, all.n)));
  }
  K->body = body;
}

/* a device function: scalar C, called once per lane */
Dfn *lw_build_dfn(Lw *L, Obj *f) {
  Bc b = {.L = L, .fn = f, .ck = L->ck};
  Dfn *d = xcalloc(1, sizeof *d);
  d->f = f;
  d->body = seq(false);
  push_lv(&b, &m0_, NULL, false);
  b.uctx = true;
  b.full = true;
  b.out = &d->body->ws;
  vec_push(b.out, b_block(&b, f->body));
  return d;
}

/* ---- device functions as warps ----
 * A device function called where lanes vary runs as a warp: its warp
 * version takes the caller's active lanes (all, or a mask), its lane
 * geometry (version kind) and each argument as at the call (a scalar if
 * uniform, a base if affine, a lane array if varying), and runs its
 * statements for all those lanes one after another, as a GPU does; so
 * warp-synchronous code in a device function is right, and a call costs
 * one call per warp. A version is a clone of the function analysed for
 * those shapes. Not for functions with no effect and no loop (printed as
 * scalar C and called per lane, which the C compiler inlines into the lane
 * loop), nor for those in a call cycle. */
static bool loop_p(Node *n, void *c) { (void)c; return n->k == S_FOR || n->k == S_WHILE || n->k == S_DO; }

/* f has warp collectives, or calls a function that has (it runs only as a warp) */
static bool coll_call_p(Node *n, void *L);

bool lw_warp_only(Lw *L, Obj *f) {
  if (!f || !f->body || f->is_kernel || fn_inlined(f)) return false;
  LObj *l = lo(f);
  if (!l->wcoll) {
    l->wcoll = 1;   /* (a cycle is refused by valid.c) */
    l->wcoll = has_warp(f->body) || any_node(f->body, coll_call_p, L) ? 2 : 1;
  }
  return l->wcoll == 2;
}

static bool coll_call_p(Node *n, void *L) { return n->k == N_CALL && n->ck == C_FUNC && lw_warp_only(L, n->fn); }

/* A function whose lanes must run its statements together: one with
 * warp collectives (__syncwarp too) or volatile accesses, the forms in
 * which a warp's lanes communicate; one with a loop, which a warp runs
 * over its lanes at once. Plain stores and atomics need no warp version:
 * running the lanes one after another is a schedule the GPU may take too
 * (lanes that share memory without __syncwarp or volatile race), and a
 * lane loop calling the function inlined vectorizes (Black-Scholes's
 * body storing through its reference parameters). */
bool b_wcall(Node *n, void *L) { return n->k == N_CALL && n->ck == C_FUNC && wf_needs(L, n->fn); }
static bool wf_needs(Lw *L, Obj *f) {
  if (!f || !f->body || f->is_kernel || fn_inlined(f) || f->serial || in_vec(&L->rec, f)) return false;
  /* (itself or a callee: a function run lane by lane runs its callees so) */
  return any_node(f->body, loop_p, NULL) || has_volatile(f->body) || lw_warp_only(L, f) ||
         any_node(f->body, b_wcall, L);
}

/* An argument affine in the lane, passed as its base: an integer of a
 * stride (`tx`, `2 * t + 1`), or a pointer the same in every lane of a
 * row (`As[ty]`, `in + row * n`): in the half-row version one base per
 * sub-row. Passed as a lane array, a pointer's loads were gathers. */
static bool aff_arg(Node *a, Obj *p, int64_t *s) {
  if (is_intty(p->ty)) return aff_stride(a, s);
  *s = 0;
  return p->ty->kind == TY_PTR && !p->ty->is_ref && a->ty->kind == TY_PTR && rowu(a);
}

/* which of a warp version's parameters may change in it: stored to, or
 * passed as they are to a parameter of a callee that may change */
static void mod_f(W *w, void *c) {
  WarpFn *wf = c;
  if (w->k != W_CALLW) return;
  for (int i = 0; i < w->n->list.n && i < 64; i++) {
    Node *a = w->n->list.v[i];
    if (!(w->direct >> i & 1) || !(w->wf->building || (w->wf->mod >> i & 1))) continue;
    for (int j = 0; j < wf->c->params.n && j < 64; j++)
      if (a->var == wf->c->params.v[j]) wf->mod |= 1ull << j;
  }
}

static void wf_mod(WarpFn *w) {
  Obj *c = w->c;
  for (int i = 0; i < c->params.n && i < 64; i++) {
    Obj *p = c->params.v[i];
    if (stores(c->body, p) || p->addr_taken || lo(p)->esc) w->mod |= 1ull << i;
  }
  w_each(w->v->body, mod_f, w);
}

static WarpFn *warp_fn(Bc *b, Node *call) {
  Lw *L = b->L;
  Obj *f = call->fn;
  int np = f->params.n;
  WarpFn key = {.f = f, .k = b->fast ? VK_ROW : b->hw ? VK_HROW : VK_GEN,
                .en = b->full && lanes_all(b->ls) ? EN_FULL : EN_MASK,
                .sh = xcalloc(np + 1, sizeof(int)), .sx = xcalloc(np + 1, sizeof(int64_t))};
  for (int i = 0; i < np; i++) {
    Node *a = i < call->list.n ? call->list.v[i] : NULL;
    Obj *p = f->params.v[i];
    int64_t s;
    if (!a || !ln(a)->vary) key.sh[i] = PS_UNI;
    else if (key.k != VK_GEN && aff_arg(a, p, &s) && !stores(f->body, p) && !p->addr_taken) {   /* (half rows: a base per sub-row) */
      key.sh[i] = PS_AFF;
      key.sx[i] = s;
    } else key.sh[i] = PS_VARY;
  }
  for (int i = 0; i < L->wfs.n; i++) {
    WarpFn *w = L->wfs.v[i];
    if (w->f == f && w->k == key.k && w->en == key.en && !memcmp(w->ksh, key.sh, np * sizeof(int)) &&
        !memcmp(w->sx, key.sx, np * sizeof(int64_t)))
      return w;
  }
  WarpFn *w = xcalloc(1, sizeof *w);
  *w = key;
  w->ksh = memcpy(xcalloc(np + 1, sizeof(int)), key.sh, np * sizeof(int));
  vec_push(&L->wfs, w);
  Obj *c = w->c = lw_clone_fn(f, xfmt("cu_w%d_%s", L->wfs.n, f->cname));
  lo(c)->warpfn = true;
  for (int i = 0; i < np; i++) {
    LObj *l = lo(c->params.v[i]);
    l->vary = w->sh[i] != PS_UNI;
    if (w->sh[i] == PS_AFF) {
      l->aff = AF_YES;
      l->sx = w->sx[i];
    }
  }
  lw_uniform(c);
  for (int i = 0; i < np; i++)   /* uniform at the call, written where lanes differ */
    if (w->sh[i] == PS_UNI && lo(c->params.v[i])->vary) w->sh[i] = PS_VARY;
  lw_shape(c);
  lw_batch_fn(c);   /* (the clone's own nodes) */
  lw_name_locals(c);
  if (f->ty->kind != TY_VOID) {
    Obj *r = w->ret = xcalloc(1, sizeof *r);
    r->name = r->cname = "_ret";
    r->ty = f->ty;
    r->file = f->file;
    r->line = f->line;
    lo(r)->vary = true;
  }
  Kern *K = w->K = xcalloc(1, sizeof *K);
  K->k = c;
  K->cn = c->cname;
  Ver *v = w->v = xcalloc(1, sizeof *v);
  v->k = w->k;
  v->tids = true;
  Bc nb = {.L = L, .K = K, .fn = c, .ck = L->ck, .ret = w->ret};
  warp_head(&nb, v);
  nb.full = w->en == EN_FULL;   /* else every statement under _m0, the caller's lanes */
  w->building = true;
  if (c->body->k == S_BLOCK) b_list(&nb, &c->body->list);
  else b_st(&nb, c->body);
  warp_close(&nb);
  w->building = false;
  wf_mod(w);
  vec_push(&L->wnew, w);   /* (after the versions it calls) */
  return w;
}
