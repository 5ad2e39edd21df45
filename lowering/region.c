/* region.c: barriers split a kernel into regions.
 *
 * __syncthreads() splits a kernel into regions: maximal runs of statements
 * without a barrier. A region runs for every warp of the block before the
 * next one starts, so each barrier is simply the end of a warp loop. The
 * statements that contain barriers stay at block level as C control flow:
 * a condition that varies between threads is evaluated for every thread;
 * threads that disagree on an if are parked while a side runs (mark_park),
 * and on a loop the barrier is divergent and reported (print.c,
 * block_cond).
 *
 * This pass marks the statements that contain barriers (LNode.sync),
 * numbers the regions, and decides where each variable lives: in its
 * region's registers, at block level (a uniform value used by several
 * regions), per thread in the block's lane storage (a varying one), or
 * recomputed at the start of each region that uses it. */
#include "lw.h"

static bool mark_sync(Node *n) {
  if (!n) return false;
  bool r = n->k == S_SYNC;
  switch (n->k) {
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) r |= mark_sync(n->list.v[i]);
    break;
  case S_IF:   /* both sides are marked: no short-circuit */
    /* (bspec.c's block version: a block's threads all take one side) */
    r = n->a->k == N_BUILTIN && n->a->bk == B_BALL;
    r |= mark_sync(n->b);
    r |= mark_sync(n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH:
    r |= mark_sync(n->a);
    r |= mark_sync(n->d);
    break;
  default: break;
  }
  ln(n)->sync = r;
  return r;
}

/* break/continue out of a loop with barriers is block-level control flow:
 * the statements around it must be block level too. One under a condition
 * that varies (`if (s_done) break;`, a flag in shared memory every thread
 * reads alike) makes that if block level: its condition is evaluated for
 * every thread and threads that disagree are reported at run time (print.c,
 * block_cond), as a barrier only some of them would reach. */
static bool mark_exits(Node *n) {
  if (!n) return false;
  bool r = false;
  switch (n->k) {
  case S_BREAK: case S_CONTINUE:
    r = n->target && ln(n->target)->sync;
    if (r && n->k == S_CONTINUE) ln(n->target)->bcont = true;
    break;
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) r |= mark_exits(n->list.v[i]);
    break;
  case S_IF:
    r = mark_exits(n->b);
    r |= mark_exits(n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH: r = mark_exits(n->d); break;
  default: break;
  }
  if (r) ln(n)->sync = true;
  return r;
}

static bool jump_in_p(Node *n, void *c) { return n == c; }

/* Block-level ifs whose threads may disagree. A barrier under such an if
 * is no barrier at all when the threads that take it never reach it: a
 * cg::thread_group's sync() is `if (kind == block) __syncthreads(); else
 * __syncwarp();`, called inside `if (idx < 16)` for a tile (dxtc). So the
 * threads not taking a side are parked (a bit of their exit flags: every
 * warp loop skips them) while the side runs, and a barrier reached while
 * some are parked is reported then (print.c). An if with a break or
 * continue out of a loop around it cannot park: its threads must agree. */
static bool jump_p(Node *n, void *c) {
  return (n->k == S_BREAK || n->k == S_CONTINUE) && n->target && ln(n->target)->sync && n->target != c &&
         !any_node(c, jump_in_p, n->target);
}

/* what a kernel of warp coroutines cannot do: decide at the block level
 * over the threads of other warps (the warps of its block run apart) */
static const char *wco_bad(Node *n) {
  if (n->k == S_SYNC && n->grid) return "grid.sync()";
  if (n->k == S_SYNC && n->coll) return "__syncthreads_count/and/or()";
  if (n->k == S_IF && ln(n)->park) return "__syncthreads() under a branch that threads may take apart";
  return NULL;
}

static int wco_bad_f(Node *n, void *arg) {
  (void)arg;
  const char *what = wco_bad(n);
  if (what)
    errorat(n->file, n->line, n->col,
            "unsupported: %s in a kernel whose warps wait for each other (a cuda::pipeline with producer and "
            "consumer roles)", what);
  return 0;
}

static bool wco_bad_p(Node *n, void *c) { return (void)c, wco_bad(n) != NULL; }

static void mark_park(Kern *K, Node *n, int depth) {
  if (!n || !ln(n)->sync) return;
  switch (n->k) {
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) mark_park(K, n->list.v[i], depth);
    break;
  case S_IF:
    ln(n)->park = 0;
    if (ln(n->a)->vary && depth < 7 && !any_node(n, jump_p, n)) {
      ln(n)->park = ++depth;
      K->park = true;
    }
    mark_park(K, n->b, depth);
    mark_park(K, n->c, depth);
    break;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH: mark_park(K, n->d, depth); break;
  default: break;
  }
}

/* A block with a barrier in a list of statements (an inlined function's
 * body: CUB's BlockReduce is five of them, one in another) is spliced into
 * the list: its statements become the list's. As a statement of its own it
 * would end the regions before and after it, and begin and end its own,
 * where only the barriers need to (cub::BlockReduce's one barrier made 12
 * regions, their values kept per thread). Every local has a C name of its
 * own in the function (layout.c), so no declaration changes meaning, and
 * a declaration without a value is still not one (the C it becomes reads
 * no value from before it). A declaration group (a post block) is spliced
 * too: it has no scope. */
static void flatten(Node *n) {
  if (!n || !ln(n)->sync) return;
  switch (n->k) {
  case S_BLOCK: {
    bool any = false;
    for (int i = 0; i < n->list.n; i++) {
      Node *c = n->list.v[i];
      flatten(c);
      any |= c->k == S_BLOCK && ln(c)->sync;
    }
    if (!any) break;
    Vec out = {0};
    for (int i = 0; i < n->list.n; i++) {
      Node *c = n->list.v[i];
      if (c->k == S_BLOCK && ln(c)->sync)
        for (int j = 0; j < c->list.n; j++) vec_push(&out, c->list.v[j]);
      else vec_push(&out, c);
    }
    n->list = out;
    break;
  }
  case S_IF:
    flatten(n->b);
    flatten(n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH: flatten(n->d); break;
  default: break;
  }
}

static void note(Obj *o, int r) {
  LObj *l = lo(o);
  if (l->use_rgn < 0) l->use_rgn = r;
  else if (l->use_rgn != r) l->cross = true;
  if (l->rgn != r) l->cross = true;
}

static int uses_f(Node *n, void *c) {
  int r = *(int *)c;
  if (n->k == N_VAR && !n->var->is_shared && !n->var->is_global) note(n->var, r);
  if (n->k == S_DECL) {
    lo(n->var)->rgn = r;
    note(n->var, r);
  }
  return W_GO;
}

static void uses(Node *n, int r) { walk(n, uses_f, &r); }

static int nrgn;

bool uniform_stmt(Node *n) {
  if (!n) return true;
  if (n->k == S_EXPR) return !ln(n->a)->vary;
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++)
      if (!uniform_stmt(n->list.v[i])) return false;
    return true;
  }
  if (n->k == S_DECL) return !lo(n->var)->vary;
  return false;
}

/* A statement with no varying part and no jump out of it, which stores to
 * a variable declared outside it (a parameter, a block-level local):
 * every thread does the same, so it runs once per block, between the warp
 * loops of the region around it, not once per warp (`out += blockIdx.x *
 * 64` moved the pointer once per warp). Splitting the region there is a
 * legal schedule: each thread still runs its statements in order. */
static bool not_uniform_p(Node *n, void *c) {
  (void)c;
  if (ln(n)->vary || ln(n)->masked) return true;
  switch (n->k) {
  case S_BREAK: case S_CONTINUE: case S_RETURN: case S_SYNC: return true;
  case S_DECL: return lo(n->var)->vary;
  case N_CALL: return n->ck != C_LIBM;
  default: return false;
  }
}

static bool stores_outer_p(Node *n, void *top) {
  return (n->k == N_ASSIGN || n->k == N_INCDEC) && n->a->k == N_VAR && !n->a->var->is_shared &&
         !decl_in(top, n->a->var);
}

bool block_stmt(Node *n) {
  return n->k >= S_BLOCK && !any_node(n, not_uniform_p, NULL) && any_node(n, stores_outer_p, n);
}

/* Number the regions of block-level statement n, noting variable uses. */
static void regions(Node *n) {
  switch (n->k) {
  case S_BLOCK: {
    int run = -1;
    for (int i = 0; i < n->list.n; i++) {
      Node *c = n->list.v[i];
      if (ln(c)->sync) {
        run = -1;
        regions(c);
      } else if (block_stmt(c)) {
        run = -1;
        uses(c, 0);
      } else {
        if (run < 0 || ln(c)->seam) run = ++nrgn;
        uses(c, run);
      }
    }
    break;
  }
  case S_IF:
    uses(n->a, ln(n->a)->vary ? ++nrgn : 0);
    regions(n->b);
    if (n->c) regions(n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO:
    if (n->a) uses(n->a, uniform_stmt(n->a) ? 0 : ++nrgn);
    if (n->b) uses(n->b, ln(n->b)->vary ? ++nrgn : 0);
    if (n->c) uses(n->c, ln(n->c)->vary ? ++nrgn : 0);
    regions(n->d);
    break;
  case S_SWITCH:
    errorat(n->file, n->line, n->col, "unsupported: __syncthreads() inside a switch");
    break;
  case S_SYNC:
    if (n->a) uses(n->a, ++nrgn);
    if (n->var) note(n->var, 0);
    break;
  default:   /* a branch or body of one statement, not a block: a region of its own */
    uses(n, block_stmt(n) ? 0 : ++nrgn);
    break;
  }
}

/* ---- recomputed values ----
 * A varying variable set once, at the top level of the kernel, from thread
 * and block indices, constants and unchanging parameters (`t = threadIdx.x`,
 * `i = blockIdx.x * blockDim.x + t`) is recomputed at the start of every
 * region that uses it instead of kept per thread: a few instructions (one
 * base in whole-row warps) instead of a store per thread before a barrier
 * and a load after (14% of the lecture's reduction). */
static bool remat_e(Node *n, Node *body) {
  switch (n->k) {
  case N_NUM: return true;
  case N_BUILTIN: return n->bk != B_WSIZE;
  case N_VAR: {
    LObj *l = lo(n->var);
    if (l->remat) return true;
    /* parameters, and uniform variables at block level, set once */
    return (n->var->is_param || l->cross) && !l->vary && !n->var->is_shared && !l->esc && is_intty(n->var->ty) &&
           !stores(body, n->var);
  }
  case N_CAST: return is_intty(n->ty) && remat_e(n->a, body);
  case N_UN: return n->op != OP_DEREF && n->op != OP_ADDR && remat_e(n->a, body);
  case N_BIN: return remat_e(n->a, body) && remat_e(n->b, body);
  default: return false;
  }
}

static void remat_decl(Vec *remat, Node *d, Node *body) {
  Obj *o = d->var;
  LObj *l = d->k == S_DECL ? lo(o) : NULL;
  if (!l || !l->cross || !l->vary || o->is_param || l->esc || !is_intty(o->ty) || !d->a || !remat_e(d->a, body))
    return;
  /* the declaration is its only store */
  l->remat = d;
  if (stores(body, o)) {
    l->remat = NULL;
    return;
  }
  l->cross = false;
  vec_push(remat, o);
}

static void find_remat(Vec *remat, Node *body) {
  for (int i = 0; i < body->list.n; i++) {
    Node *s = body->list.v[i];
    if (s->k == S_BLOCK && s->post)
      for (int j = 0; j < s->list.n; j++) remat_decl(remat, s->list.v[j], body);
    else remat_decl(remat, s, body);
  }
}

/* Is d statement s, or one of its declaration group? */
static bool declares(Node *s, Node *d) {
  if (s == d) return true;
  if (s->k == S_BLOCK && s->post)
    for (int i = 0; i < s->list.n; i++)
      if (s->list.v[i] == d) return true;
  return false;
}

/* stmts[from, to) with, in front, the declarations of the recomputed
 * variables it reads but does not declare (and of those they read). */
Vec *with_remat(Vec *remat, Vec *stmts, int from, int to) {
  Vec *v = xcalloc(1, sizeof *v);
  bool *need = xcalloc(remat->n + 1, sizeof *need);
  for (int j = remat->n - 1; j >= 0; j--) {
    Obj *o = remat->v[j];
    bool here = false;
    for (int i = from; i < to; i++) {
      Node *s = stmts->v[i];
      here |= declares(s, lo(o)->remat);
      need[j] |= reads_var(s, o);
    }
    for (int k = j + 1; k < remat->n; k++) need[j] |= need[k] && reads_var(lo((Obj *)remat->v[k])->remat->a, o);
    if (here) need[j] = false;
  }
  for (int j = 0; j < remat->n; j++)
    if (need[j]) {
      Node *d = lw_copy(lo((Obj *)remat->v[j])->remat);
      ln(d)->recomputed = true;
      vec_push(v, d);
    }
  for (int i = from; i < to; i++) vec_push(v, stmts->v[i]);
  free(need);
  return v;
}

/* ---- per-warp copies ----
 * A uniform variable that lives outside a region's warp loop (a parameter,
 * a block-level value) and that the region stores to, under uniform
 * control that also holds varying work (`if (pow2) { step <<= 1; ... }`):
 * run in the warp loop, the store would be applied once per warp. Each
 * warp works on a copy made from the value at the region's start, and the
 * last warp's copy is the value after it (every warp computes the same).
 * An array's element or a record's field is a store to the variable (a
 * histogram kept the same in every thread, `hist[s[i] & 3]++` after a
 * barrier, was counted once per warp into the block's one copy). */
typedef struct Wc { Vec *stmts; int from, to; Vec *out; } Wc;

static int wcopy_f(Node *n, void *c) {
  Wc *w = c;
  if (n->k == N_ASSIGN || n->k == N_INCDEC) {
    Node *v = n->a;
    for (;;) {
      if (v->k == N_MEMBER && !v->post) v = v->a;
      else if (v->k == N_INDEX && is_decay(v->a)) v = v->a->a;
      else if (v->k == N_INDEX && v->a->ty->kind == TY_ARRAY) v = v->a;
      else break;
    }
    Obj *o = v->k == N_VAR ? v->var : NULL;
    if (o && !lo(o)->vary && !o->is_shared && !lo(o)->esc && !o->is_global) {
      bool within = false;
      for (int i = w->from; i < w->to; i++) within |= decl_in(w->stmts->v[i], o);
      bool seen = false;
      for (int i = 0; i < w->out->n; i++) seen |= w->out->v[i] == o;
      if (!within && !seen) vec_push(w->out, o);
    }
  }
  return W_GO;
}

void wcopies(Vec *stmts, int from, int to, Vec *out) {
  Wc w = {stmts, from, to, out};
  for (int i = from; i < to; i++) walk(stmts->v[i], wcopy_f, &w);
}

static bool return_p(Node *n, void *c) { (void)c; return n->k == S_RETURN; }

/* The regions of kernel k and where its variables live: fills K's cross
 * (varying values kept per thread) and exits, and L's remat. */
void lw_regions(Lw *L, Kern *K) {
  Obj *k = K->k;
  for (int i = 0; i < k->locals.n; i++) {
    LObj *l = lo(k->locals.v[i]);
    l->rgn = 0;
    l->use_rgn = -1;
    l->cross = false;
    l->remat = NULL;
  }
  nrgn = 0;
  mark_sync(k->body);
  mark_exits(k->body);
  flatten(k->body);
  /* (regions also where seam.c ends them without a barrier) */
  bool seams = lw_seams(k);
  bool sync = ln(k->body)->sync || seams;
  if (sync) regions(k->body);
  L->remat.n = 0;
  if (sync) find_remat(&L->remat, k->body);
  K->cross.n = 0;
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    LObj *l = lo(o);
    if (!sync) l->cross = false;
    if (o->is_param && l->vary) l->cross = sync;   /* copied per thread once */
    if (o->is_param && !l->vary) l->cross = false;
    /* a varying local whose address escapes may be reached through a
     * pointer in a later region (`this = (tmp = T(...), &tmp)` of an
     * inlined temporary, read after a barrier): it cannot live in its
     * region's registers */
    if (sync && l->esc && l->vary && !o->is_shared && !o->is_global && !o->is_param) l->cross = true;
    if (l->cross && l->vary) vec_push(&K->cross, o);
  }
  K->park = false;
  if (sync) mark_park(K, k->body, 0);
  K->exits = sync && (K->park || any_node(k->body, return_p, NULL));
  /* a kernel whose warps wait for each other (cuda::pipeline's roles)
   * runs each warp as a coroutine, the block function one warp's: what
   * the block level decides over every warp between regions would see
   * only its own */
  K->wco = lo(k)->waits;
  if (K->wco) walk(k->body, wco_bad_f, K);
  /* batched atomics (batch.c) where nothing needs the warps together */
  else if (lo(k)->batch && !any_node(k->body, wco_bad_p, NULL)) K->wco = K->wb = lo(k)->waits = true;
}
