/* bloop.c: a version's loops as warp statements (build.c's b_st hands
 * each loop to b_loop). Which form a loop takes, tried in this order:
 *   - in a checked build's fast versions, a uniform loop whose accesses
 *     are tested once before it (W_LOOPR), then run as unchecked;
 *   - a short or every-lane uniform loop of lane statements, inside one
 *     lane loop (W_LOOPL), its lanes' scalars held in registers;
 *   - a uniform loop around the lane loops of its body (W_LOOPU);
 *   - a varying loop whose lockstep would gather, each lane running its
 *     own (W_LOOPL, lane by lane);
 *   - a loop over the run of lanes its condition keeps (W_LOOPRUN);
 *   - else a divergent loop under masks of its own (W_LOOPD).
 * A file of its own: these tests (trip counts, the scalars a loop keeps,
 * a serial loop's cursor, a checked loop's variable) are of loops alone;
 * the statements inside a loop are built as anywhere else (build.c's
 * b_st, b_list, b_block). */
#include "build.h"

/* for-init that is a group of uniform scalar declarations (or nothing, or
 * a uniform expression): printed in the for's header */
static bool uniform_init(Node *init) {
  if (!init) return true;
  if (init->k == S_EXPR && !ln(init->a)->vary) return true;
  if (init->k != S_BLOCK || init->list.n != 1) return false;
  Node *d = init->list.v[0];
  return d->k == S_DECL && !lo(d->var)->vary;
}

/* ---- uniform loops inside lane loops ----
 * A uniform loop whose body only has per-lane effects (the matmul's
 * `for (k...) acc += As[ty][k] * Bs[k][tx]`) runs inside one lane loop
 * instead of around lane loops: each lane runs the whole loop in its own
 * order, which CUDA allows (threads of a warp are not ordered between
 * barriers), and the C compiler vectorizes across lanes with the
 * accumulators in registers. */
static bool stores_aff_p(Node *n, void *c) {
  (void)c;
  Obj *v = stored_var(n);
  return v && lo(v)->aff;
}

static bool lane_loop_ok(Node *n);

static Lw *lane_ok_L;   /* (lane_ok's program: which calls need a warp) */

/* A loop body that runs inside one lane loop. In lockstep (ser NULL): a
 * short uniform loop, its ifs and declarations uniform. Lane by lane (ser
 * the loop, serial_loop_ok): each lane runs it as scalar C, so
 * its ifs may vary, it may declare per-lane variables (its own: printed as
 * the lane's scalars, p_loopl) and break or continue ser itself; no nested
 * loops. Neither has other jumps or collectives. */
static bool lane_ok(Node *n, bool *work, Node *ser) {
  if (!n) return true;
  if (n->k != S_BLOCK && any_node(n, b_wcall, lane_ok_L)) return false;
  switch (n->k) {
  case S_NULL: return true;
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++)
      if (!lane_ok(n->list.v[i], work, ser)) return false;
    return true;
  case S_EXPR:   /* (a lane-affine variable is a base, not per lane: st_expr sets it) */
    if ((!ser && !ln(n->a)->vary) || has_warp(n->a) || is_syncwarp(n->a) || any_node(n->a, stores_aff_p, NULL))
      return false;
    *work |= ln(n->a)->vary;
    return true;
  case S_DECL:   /* (a varying one: the lane's own scalar, as in a lane-by-lane loop) */
    if (!n->a || n->a->k == N_INIT || lo(n->var)->cross) return false;
    if (!ser && !lo(n->var)->vary) return pure(n->a);
    return !lo(n->var)->esc && !lo(n->var)->aff && !n->var->ty->is_volatile && is_arith(n->var->ty) && !has_warp(n->a) &&
           (ser || pure(n->a));
  case S_IF:
    return (ser ? !has_warp(n->a) : !ln(n)->vary) && pure(n->a) && lane_ok(n->b, work, ser) && lane_ok(n->c, work, ser);
  case S_FOR: return !ser && lane_loop_ok(n) && lane_ok(n->d, work, NULL);
  case S_BREAK: case S_CONTINUE: return ser && n->target == ser;
  default: return false;
  }
}

/* for (T k = init; pure cond; k++ / k += c / k = ...) */
static bool lane_loop_ok(Node *n) {
  if (n->k != S_FOR || ln(n)->vary || ln(n)->masked || !n->a || !n->b || !n->c) return false;
  if (n->a->k != S_BLOCK || n->a->list.n != 1) return false;
  Node *d = n->a->list.v[0];
  if (d->k != S_DECL || lo(d->var)->vary || lo(d->var)->cross || !d->a || d->a->k == N_INIT || !pure(d->a)) return false;
  if (!pure(n->b) || has_warp(n->b)) return false;
  Node *c = n->c;
  if ((c->k != N_INCDEC && c->k != N_ASSIGN) || c->a->k != N_VAR || c->a->var != d->var) return false;
  return c->k == N_INCDEC || pure(c->b);
}

/* Constant trip count of `for (T k = a; k < b; ++k)` with constant a and b
 * (eval.c), else -1. */
static long long trips(Node *n) {
  Node *d = n->a->list.v[0], *c = n->b, *st = n->c;
  int64_t a, b, r;
  if (!d->a || !ev_int(d->a, &a) || c->k != N_BIN || c->op != OP_LT || c->a->k != N_VAR || c->a->var != d->var) return -1;
  if (!ev_int(c->b, &b) || st->k != N_INCDEC || st->op != OP_INC || __builtin_sub_overflow(b, a, &r)) return -1;
  return r;
}

/* The per-lane scalars a uniform loop inside a lane loop uses (prom) and
 * those it stores to (prom_st). Each is read into a scalar `_s_NAME` before
 * the loop and written back after it: per-lane storage lives in the
 * block's lane buffer, which gcc cannot tell apart from shared memory, so
 * `acc[_l] += As[ty][k] * Bs[k][tx]` stored acc back at every k (20% of the
 * tile-16 matmul). */

static bool prom_ptr;   /* pointers too: a lane-by-lane loop's cursor and locals */
static void prom_vars(Bc *b, Node *n, W *w, bool store) {
  if (!n) return;
  if (n->k == N_VAR) {
    Obj *o = n->var;
    LObj *l = lo(o);
    bool aff = (b->fast || b->hw) && l->aff;
    if (l->vary && !aff && !o->is_shared && !l->esc && !o->ty->is_volatile &&
        (is_arith(o->ty) || (prom_ptr && o->ty->kind == TY_PTR && !o->ty->is_ref))) {
      if (!in_vec(&w->prom, o)) vec_push(&w->prom, o);
      if (store && !in_vec(&w->prom_st, o)) vec_push(&w->prom_st, o);
    }
    return;
  }
  bool s = n->k == N_ASSIGN || n->k == N_INCDEC || (n->k == N_CAST && n->implicit && store);
  prom_vars(b, n->a, w, s);
  prom_vars(b, n->b, w, (n->k == N_COND || n->k == N_COMMA) && store);
  prom_vars(b, n->c, w, n->k == N_COND && store);
  prom_vars(b, n->d, w, false);
  for (int i = 0; i < n->list.n; i++) prom_vars(b, n->list.v[i], w, false);
}

/* lane statements with no calls but to the math library, and no stores to
 * a variable an address could use: uniform ones (k among them) and the
 * lane-affine ones (`i = i + 32`): the test takes them as fixed */
static bool rng_bad_p(Node *n, void *c) {
  (void)c;
  if (n->k == N_CALL && n->ck != C_LIBM) return true;
  Obj *v = stored_var(n);
  return v && (!lo(v)->vary || lo(v)->aff);
}

static bool rng_body(Node *n, Vec *x) {
  if (n->k == S_NULL) return true;
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++)
      if (!rng_body(n->list.v[i], x)) return false;
    return true;
  }
  if (n->k != S_EXPR || !ln(n->a)->vary || has_warp(n->a) || has_volatile(n->a) || any_node(n->a, rng_bad_p, NULL))
    return false;
  vec_push(x, n->a);
  return true;
}

/* ---- a checked loop tested as a whole ----
 * In a checked build's fast versions, a uniform loop `for (k = a; k < b;
 * k += c)` whose body is lane statements whose every checked access is a
 * range or a broadcast at an address affine in k (`acc += As[ty][k] *
 * Bs[k][tx]`) is tested once before it: each access is n lanes in t rows,
 * one per iteration, the address's step in k apart (cu_ck_rng2). Then the
 * loop runs as the unchecked build prints it, its accumulators in
 * registers; if a test fails it runs with each statement tested, which
 * reports. With racecheck the body may not write shared memory: between
 * its reads the order of the tests would matter. */
/* the variable a uniform for loop counts with, set by its init, `T k = a`
 * or `k = a` (declared before the loop), and stepped by its increment;
 * its initial value in *init */
static Obj *for_var(Node *n, Node **init) {
  if (n->k != S_FOR || ln(n)->vary || ln(n)->masked || !n->a || !n->b || !n->c) return NULL;
  Node *d = n->a;
  Obj *k;
  if (d->k == S_BLOCK && d->list.n == 1 && ((Node *)d->list.v[0])->k == S_DECL) {
    d = d->list.v[0];
    if (!d->a || d->a->k == N_INIT) return NULL;
    k = d->var;
    *init = d->a;
  } else if (d->k == S_EXPR && d->a->k == N_ASSIGN && d->a->op == OP_ASSIGN && bare(d->a->a)->k == N_VAR) {
    k = bare(d->a->a)->var;
    *init = d->a->b;
    if (k->addr_taken || lo(k)->esc) return NULL;
  } else return NULL;
  Node *c = n->c;
  if (lo(k)->vary || lo(k)->cross || !pure(*init) || !pure(n->b) || has_warp(n->b)) return NULL;
  if ((c->k != N_INCDEC && c->k != N_ASSIGN) || bare(c->a)->k != N_VAR || bare(c->a)->var != k) return NULL;
  return c->k == N_INCDEC || pure(c->b) ? k : NULL;
}

static bool rng_loop(Bc *b, Node *n) {
  if (b->rnoloop || !(b->ck & (CK_MEM | CK_RACE | CK_INIT)) || !(b->fast || b->bw || b->hw) || !b->full) return false;
  Vec xs = {0};
  Node *c = n->b, *inc = n->c, *init;
  Obj *k = for_var(n, &init);
  if (!k || !is_intty(k->ty) || !rng_body(n->d, &xs) || !xs.n || !no_access(init)) return false;
  /* k < b or k <= b; k++, ++k or k += literal */
  if (c->k != N_BIN || (c->op != OP_LT && c->op != OP_LE) || strip_casts(c->a)->k != N_VAR ||
      strip_casts(c->a)->var != k || reads_var(c->b, k) || !no_access(c->b))
    return false;
  int64_t step = 1;
  if (inc->k == N_ASSIGN) {
    if (inc->op != OP_ADDA || !ev_int(inc->b, &step) || step <= 0) return false;
  } else if (inc->op != OP_INC) return false;
  Vec rd = {0}, wr = {0};
  RngCtx rc = {b->ck, true, b->fast, b->hw != 0, b->bw, k, NULL};
  for (int i = 0; i < xs.n; i++)
    if (!rng_scan(&rc, xs.v[i], &rd, &wr)) return false;
  if (rd.n + wr.n == 0 || rd.n + wr.n > 8) return false;
  W *w = wadd(b, W_LOOPR, n);
  w->id = ++b->L->nid;
  w->kv = k;
  w->kinit = init;
  w->kstep = step;
  w->rd = rd;
  w->wr = wr;
  W *fast = seq(false), *slow = seq(false);
  unsigned ck = b->ck;
  b->ck = 0;
  INTO(b, fast, b_loop(b, n));
  b->ck = ck;
  b->rnoloop = true;
  INTO(b, slow, b_loop(b, n));
  b->rnoloop = false;
  w->a = fast;
  w->b = slow;
  return true;
}

/* ---- loops over a run of lanes ----
 * A loop whose condition compares a lane value with a row value (the
 * grid-stride loop's `i < n`, i affine) keeps, at every iteration, a run of
 * lanes: a prefix for < and <= (a suffix for > and >=), nested in the one
 * before, since a lane that has left does not come back. So it runs while
 * the run is not empty, its body over the run with no mask (the count is
 * O(1) per iteration: every iteration but the last runs whole warps). Only
 * in the whole-row and block-wide versions, and only where the condition
 * is the one way out: no divergent jumps, ifs, loops or collectives in the
 * body (as for the runs of an if). */
/* (the loop itself; version.c's block-wide test asks it too) */
bool run_loop_ok(Node *n) {
  bool sub;
  Run r = {0};
  if (!((n->k == S_FOR || n->k == S_WHILE) && n->b && ln(n->b)->vary && !ln(n)->has_cont && aff_cmp(n->b) &&
        n->b->op != OP_EQ && pure(n->b) && runs_sub_ok(n->d, &sub) && !(n->c && has_warp(n->c))))
    return false;
  /* (ifs over a prefix of its lanes: only in a loop over a prefix, build.c's sub_if) */
  return !sub || (b_affrun(n->b, 0, &r) && r.prefix);
}

static bool run_loop(Bc *b, Node *n) {
  if (!(b->fast || b->bw) || b->hw || !b->full || b->ls.step || !run_loop_ok(n)) return false;
  W *w = wadd(b, W_LOOPRUN, n);
  w->id = ++b->L->nid;
  b_affrun(n->b, w->id, &w->run);
  w->init = seq(false);
  if (n->a) INTO(b, w->init, b_st(b, n->a));
  Lanes save = b->ls;
  int sub = b->subrun;
  if (w->run.prefix) {
    b->ls.hi = w->id;
    b->ls.hik = HI_CUT;
  } else b->ls.lo = w->id;
  b->subrun = w->run.prefix && b->ls.lo == 0 ? w->id : 0;
  w->body = b_block(b, n->d);
  b->subrun = sub;
  w->inc = seq(false);
  if (n->c) {
    Obj *av = b_affstore(b, n->c);
    if (av && w->run.prefix && !b->ck) b_rpf(n, av, w);
    if (av) INTO(b, w->inc, b_affset(b, av, n->c, false));
    else if (ln(n->c)->vary) INTO(b, w->inc, b_lane(b, NULL, n->c));
    else INTO(b, w->inc, {
      W *e = wadd(b, W_EXPR, n->c);
      e->x = n->c;
    });
  }
  b->ls = save;
  return true;
}

/* A loop over a per-thread range that is no lane's function (`for (jj =
 * ptr[row]; jj < ptr[row + 1]; jj++)`, its variable's shape neither
 * uniform nor affine) whose body reads or writes memory at indices that
 * use it: run in lockstep, every step gathers one element of each lane's
 * range, 32 cache lines apart; run lane by lane, each range is read in
 * order. Not a loop of arithmetic only (a Mandelbrot escape loop runs its
 * lanes in vectors in lockstep). */
typedef struct { Obj *v; int idx, other, bad, unit; } SerCtx;
static int ser_f(Node *x, void *c) {
  SerCtx *q = c;
  /* calls only of pure functions: an atomic (a lock), a printf (the order
   * of its lines), a launch keep the lanes' lockstep order */
  if (x->k == N_CALL && !pure(x)) q->bad++;
  if (x->k == N_INDEX || (x->k == N_UN && x->op == OP_DEREF)) {
    if (reads_var(x->k == N_INDEX ? x->b : x->a, q->v)) {
      q->idx++;
      q->unit += x->k == N_INDEX && aff_e(x->b);   /* (`a[k * n + tid]`: a vector in lockstep) */
    }
    else q->other++;
  }
  return W_GO;
}
/* a `while` loop's cursor: the variable its body's last statement steps
 * (`j++`, `j += 2`, `j = nxt[j]`) and its condition reads */
static Obj *ser_cursor(Node *n) {
  Node *body = n->d, *last = body && body->k == S_BLOCK ? (body->list.n ? body->list.v[body->list.n - 1] : NULL) : body;
  if (!last || last->k != S_EXPR) return NULL;
  Node *c = last->a;
  if ((c->k != N_INCDEC && c->k != N_ASSIGN) || bare(c->a)->k != N_VAR || (c->k == N_ASSIGN && !pure(c->b))) return NULL;
  return reads_var(n->b, bare(c->a)->var) ? bare(c->a)->var : NULL;
}

/* the variables a for's increment steps (`j++`, `d++, c++`, `j += 2`):
 * false if a part of it is anything else */
static bool for_steps(Node *c, Vec *vs) {
  if (c->k == N_COMMA) return for_steps(c->a, vs) && for_steps(c->b, vs);
  if ((c->k != N_INCDEC && c->k != N_ASSIGN) || bare(c->a)->k != N_VAR || (c->k == N_ASSIGN && !pure(c->b))) return false;
  vec_push(vs, bare(c->a)->var);
  return true;
}

static int own_f(Node *n, void *c) {
  if (n->k == S_DECL) vec_push(c, n->var);
  return W_GO;
}

static bool serial_loop_ok(Node *n) {
  if (!ln(n)->vary || !n->b || !pure(n->b) || has_warp(n->b)) return false;
  Obj *v;
  if (n->k == S_FOR) {
    Vec vs = {0};
    if (!n->c || !for_steps(n->c, &vs)) return false;
    if (n->a && !(n->a->k == S_BLOCK && !n->a->list.n) && n->a->k != S_NULL) {
      if (n->a->k != S_BLOCK || n->a->list.n != 1) return false;
      Node *d = n->a->list.v[0];
      if (d->k != S_DECL || !d->a || d->a->k == N_INIT || !pure(d->a)) return false;
      v = d->var;
    } else {   /* (declared before it: p_loopl loads it and stores it back) */
      v = NULL;
      for (int i = 0; i < vs.n && !v; i++)
        if (reads_var(n->b, vs.v[i])) v = vs.v[i];
    }
    /* (the others it steps, `d++, c++`: the lane's own, as scalars) */
    bool ok = v && in_vec(&vs, v);
    for (int i = 0; ok && i < vs.n; i++) {
      Obj *o = vs.v[i];
      ok = o == v || (lo(o)->vary && !lo(o)->aff && !lo(o)->cross);
    }
    free(vs.v);
    if (!ok) return false;
  } else if (n->k == S_WHILE || n->k == S_DO) {   /* (declared before it: p_loopl stores it back) */
    if (!(v = ser_cursor(n))) return false;
  } else return false;
  /* (a for's own variable may be the same in every lane still running it:
   * `for (k = 0; k < len; k++) v[k]`, each lane a scalar of its own) */
  /* (an index, or a pointer stepped along the range: `for (p = a + s; p < a + e; p++) *p`) */
  bool ptr = v->ty->kind == TY_PTR && !v->ty->is_ref;
  if ((!lo(v)->vary && (n->k != S_FOR || ptr)) || lo(v)->aff || lo(v)->cross || !(is_intty(v->ty) || ptr)) return false;
  SerCtx q = {v, 0, 0, 0, 0};
  walk(n->d, ser_f, &q);
  walk(n->b, ser_f, &q);
  /* (a variable the same in every lane may index a lane's run in lockstep:
   * `out[k * n + tid]` is one vector a step; lane by lane, 32 strided) */
  return q.idx > 0 && !q.bad && (lo(v)->vary || !q.unit) && !has_volatile(n->d) && !has_volatile(n->b);
}

void b_loop(Bc *b, Node *n) {
  bool work = false;
  if (rng_loop(b, n)) return;
  /* In the whole- and half-row versions: a loop over every lane, which is
   * jammed (version.c: the loop outside, the lanes' scalars in arrays: a
   * tile-32 matmul's accumulators stay in registers, where around lane
   * loops gcc kept them in memory); or a short constant one over some
   * lanes, which gcc unrolls inside the lane loop and vectorizes (a long
   * one inside a lane loop stays scalar). */
  bool ok = lane_loop_ok(n), every = b->full && lanes_all(b->ls);
  long long nt = ok ? trips(n) : -1;
  lane_ok_L = b->L;
  if ((b->fast || b->hw) && !b->ck && ok && (every || (nt > 0 && nt <= 16)) && lane_ok(n->d, &work, NULL) && work) {
    W *w = wadd(b, W_LOOPL, n);
    use_hdr(b, &w->h);
    prom_vars(b, n, w, false);
    walk(n->d, own_f, &w->own);
    return;
  }
  if (!ln(n)->vary && !ln(n)->masked) {
    W *w = wadd(b, W_LOOPU, n);
    w->uinit = n->k != S_FOR || uniform_init(n->a);
    if (!w->uinit) {
      w->init = seq(false);
      INTO(b, w->init, b_st(b, n->a));
    }
    /* lanes that return in one iteration are gone in the next: the body
     * starts under _m0, not every lane (`for (l...) if (mask >> l & 1) {
     * if (r == 0) return l; r--; }`, cg's coalesced shfl, took every
     * lane's last l) */
    bool full = b->full;
    if (ln(n)->has_jump) b->full = false;
    w->body = b_block(b, n->d);
    b->full = full;
    return;
  }
  /* a varying loop whose lockstep would gather (a CSR row per thread): each
   * lane runs its own loop, reading its row in order as a CPU likes */
  if ((b->fast || b->hw) && !b->ck && serial_loop_ok(n) && lane_ok(n->d, &work, n) && work) {
    W *w = wadd(b, W_LOOPL, n);
    use_hdr(b, &w->h);
    prom_ptr = true;
    prom_vars(b, n, w, false);
    prom_ptr = false;
    walk(n->d, own_f, &w->own);
    return;
  }
  if (run_loop(b, n)) return;
  /* divergent loop: lanes leave one by one; the loop ends when none is left */
  W *w = wadd(b, W_LOOPD, n);
  w->m = cur(b);
  use(b, w->m);
  w->ml = mask(MK_L, ++b->L->nid);
  w->mi = ln(n)->has_cont ? mask(MK_I, ++b->L->nid) : NULL;
  w->init = seq(false);
  if (n->a) INTO(b, w->init, b_st(b, n->a));
  bool full = b->full, uctx = b->uctx;
  b->full = false;
  b->uctx = false;
  push_lv(b, w->ml, n, false);
  w->ch = seq(false);
  /* (a lane that has left computes the test too, where it cannot fault:
   * mandelbrot's escape test, branch-free, vectorized; not checked) */
  w->mall = n->b && !b->ck && spec_ok(n->b);
  w->flat = n->b && lane_flat(NULL, n->b);
  if (n->b && n->k != S_DO) {
    INTO(b, w->ch, b_hoist(b, n->b, false));
    if (ln(n->b)->vary && prof_here(b)) w->pa = ++b->L->nid;   /* lanes before the test */
  }
  if (w->mi) push_lv(b, w->mi, n, true);
  if (n->d->k == S_BLOCK) {
    w->body = seq(true);
    INTO(b, w->body, b_list(b, &n->d->list));
  } else {
    w->body = seq(false);
    INTO(b, w->body, b_st(b, n->d));
  }
  if (w->mi) b->chain.n--;
  w->ih = seq(false);
  if (n->c) {
    INTO(b, w->ih, b_hoist(b, n->c, false));
    w->inc = seq(false);
    Obj *av = b_affstore(b, n->c);
    /* (a grid-stride loop with an if inside, Harris's reduce6: its reads
     * prefetched a trip ahead as a run loop's are, a warp's lanes each) */
    if (av && !b->ck && !b->hw && n->k != S_DO) b_rpf(n, av, w);
    if (av) INTO(b, w->inc, b_affset(b, av, n->c, false));   /* every lane still in the loop: its base */
    else if (ln(n->c)->vary) {
      INTO(b, w->inc, {
        W *l = wadd(b, W_LANES, n->c);
        W *o = wmk(b, W_ONE, n->c);
        o->x = n->c;
        vec_push(&l->ws, o);
      });
    }
  }
  w->dh = seq(false);
  if (n->k == S_DO) INTO(b, w->dh, b_hoist(b, n->b, false));
  b->chain.n--;
  b->full = full;
  b->uctx = uctx;
}
