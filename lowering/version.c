/* version.c: which versions of a region are worth printing.
 *
 * A region that reads thread indices or affine values is printed in
 * versions chosen per launch by the block's shape: block-wide (a 1-D block
 * of whole warps as one row of lanes, where nothing can observe the warp
 * grouping), whole-row warps (blockDim.x % 32 == 0: threadIdx.x = _tx0 +
 * lane), half rows (16 x 2k blocks, the common 16 x 16 tile) and the
 * general one for any shape. */
#include "lw.h"

static bool tid_p(Node *n, void *c) {
  (void)c;
  return (n->k == N_BUILTIN && n->bk == B_TID) || (n->k == N_CALL && n->ck == C_FUNC && lo(n->fn)->uses_tid);
}
/* Does code read the lanes' thread indices (directly or in a callee)? */
bool reads_tid(Node *n) { return any_node(n, tid_p, NULL); }

static bool aff_p(Node *n, void *c) {
  (void)c;
  return ((n->k == N_VAR || n->k == S_DECL) && lo(n->var)->aff) || (n->k == N_BUILTIN && n->bk == B_TID);
}
bool uses_aff(Node *n) { return any_node(n, aff_p, NULL); }

/* a __syncwarp() in n: synccheck compares its mask with the lanes that
 * reach it, which the fast versions' runs of lanes do not keep */
static bool syncwarp_p(Node *n, void *c) {
  (void)c;
  return n->k == N_CALL && is_syncwarp(n);
}
bool has_syncwarp(Node *n) { return any_node(n, syncwarp_p, NULL); }

/* ---- block-wide regions ----
 * Between barriers, and without warp collectives, nothing a thread does can
 * observe how threads are grouped into warps. So for a 1-D block whose
 * warps are whole (blockDim.x % 32 == 0) a region may run as a single
 * "warp" of blockDim.x lanes: one lane loop over the block's threads
 * instead of a warp loop around 32-lane loops (`t < stride` in a reduction
 * becomes one loop of `stride` lanes). Not for regions with atomics, printf
 * or calls (the order between threads would change from the warp-by-warp
 * versions), nor kernels with per-thread exit flags or per-lane arrays; and
 * at most 16 per-lane variables (each is blockDim.x long on the stack). */
static bool bw_call_p(Node *n, void *c) {
  (void)c;
  return n->k == N_CALL && (n->ck == C_WARP || n->ck == C_ATOMIC || ck_per_thread(n->ck) || n->ck == C_FUNC);
}

static int bw_var_f(Node *n, void *c) {
  *(int *)c += n->k == S_DECL && lo(n->var)->vary && !lo(n->var)->cross;
  return W_GO;
}

/* Divergent control in a block-wide region only as ifs whose lanes form
 * runs (`lane value CMP row value`): other conditions would need masks and
 * lane-by-lane tests over the whole block, slower than warp by warp
 * (measured: the `t % (2*stride)` reduction, 1.5x slower without AVX-512). */
static bool bw_ctl_bad_p(Node *n, void *c) {
  (void)c;
  if (n->k < S_BLOCK || (n->k == S_IF && n->cold)) return false;   /* (an assert: a test, a cold branch) */
  if ((n->k == S_FOR || n->k == S_WHILE || n->k == S_DO || n->k == S_SWITCH) && (ln(n)->vary || ln(n)->masked))
    return true;
  return n->k == S_IF && ln(n)->vary && !run_ok(n->a, n->c != NULL);
}

/* A loop over a run of lanes (the grid-stride loop) at a region's top
 * level: its body runs over the block's run with no mask. */
static bool bw_stmt_bad(Node *n) {
  if (n->k == S_FOR && run_loop_ok(n) && !ln(n)->has_jump)
    return any_node(n->a, bw_ctl_bad_p, NULL) || any_node(n->c, bw_ctl_bad_p, NULL) || any_node(n->d, bw_ctl_bad_p, NULL);
  return any_node(n, bw_ctl_bad_p, NULL);
}

bool bw_ok(Obj *k, bool exits, Vec *stmts, int from, int to) {
  if (exits || !k->is_kernel) return false;
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    if (lo(o)->vary && o->ty->kind == TY_ARRAY) return false;
  }
  int vars = 0;
  for (int i = from; i < to; i++) {
    if (any_node(stmts->v[i], bw_call_p, NULL) || bw_stmt_bad(stmts->v[i])) return false;
    if (uses_split(stmts->v[i])) return false;   /* (`tid / 32` is a warp's, not the block's) */
    walk(stmts->v[i], bw_var_f, &vars);
  }
  return vars <= 16;
}

/* The thread index components fn reads, itself or in a callee, as bits
 * (1 << dim); a warp collective reads the lane, threadIdx.x's part. An
 * external -rdc function may read any. */
static int dims_f(Node *n, void *c) {
  unsigned *d = c;
  /* (a failed assert's report names its thread: .y and .z read there are
   * 0 in a 1-D block, which every version prints) */
  if (n->k == N_CALL && n->ck == C_BUILTIN && !strcmp(n->name, "cu_assert_fail")) return W_SKIP;
  if (n->k == N_BUILTIN && n->bk == B_TID) *d |= 1u << n->dim;
  if (n->k == N_CALL && n->ck == C_WARP) *d |= 1u;
  if (n->k == N_CALL && n->ck == C_FUNC) *d |= tid_dims(n->fn);
  return W_GO;
}
unsigned tid_dims(Obj *fn) {
  if (lo(fn)->tdims) return lo(fn)->tdims - 1u;
  lo(fn)->tdims = 1 + 7;   /* (recursion: any) */
  unsigned d = 0;
  if ((fn->key && !fn->is_kernel) || !fn->body) d = 7;
  else walk(fn->body, dims_f, &d);
  lo(fn)->tdims = (unsigned char)(1 + d);
  return d;
}

/* The versions of region r (its statements with their recomputed
 * declarations), in the order they are tried; the general one last. */
void lw_versions(Obj *k, bool exits, unsigned ck, Region *r, bool *tids) {
  /* (a kernel whose warps wait for each other runs one warp a call,
   * warps.c: no block-wide version, which runs the warps together) */
  bool wco = lo(k)->waits;
  Vec *s = &r->stmts;
  bool aff = false, sw = false;
  *tids = false;
  for (int i = 0; i < s->n; i++) {
    *tids |= reads_tid(s->v[i]);
    aff |= uses_aff(s->v[i]);
    sw |= ck && has_syncwarp(s->v[i]);
  }
  /* Only the versions a launch of this kernel can take: half rows are
   * for 2-D tiles (a kernel that reads threadIdx.y); the block-wide
   * version needs a 1-D block, which a kernel reading threadIdx.y or .z
   * is rarely launched with (its whole-row version takes that launch).
   * Where every launch host code makes of the kernel has a 1-D block,
   * its reads of threadIdx.y and .z count for none of this (cooperative
   * groups' thread_rank() reads them): frontend/blockshape.c; a launch by
   * other means, of any shape, still runs, in the general version.
   * Each version is more C to compile: up to four per region, for every
   * instantiation of a template kernel. */
  unsigned d = tid_dims(k);
  if (k->launch_1d) d &= 1u;   /* (threadIdx.y and .z are 0 in every launch host code makes) */
  static const VerKind all[] = {VK_BW, VK_ROW, VK_HROW};
  if ((aff || *tids) && !sw)   /* (checked, with __syncwarp(): the general version only) */
    for (int i = 0; i < 3; i++)
      if ((all[i] != VK_BW || (!wco && !(d & 6u) && bw_ok(k, exits, s, 0, s->n))) && (all[i] != VK_HROW || (d & 2u)) &&
          (all[i] != VK_ROW || !r->vers.n)) {   /* (a 1-D kernel's block-wide version takes every launch rows would) */
        Ver *v = xcalloc(1, sizeof *v);
        v->k = all[i];
        vec_push(&r->vers, v);
      }
  Ver *g = xcalloc(1, sizeof *g);
  g->k = VK_GEN;
  vec_push(&r->vers, g);
}

/* ---- jammed loops, and half rows in pairs of warps ----
 * A uniform loop of lane statements in a whole- or half-row version
 * (W_LOOPL: the tiled matmul's `for (k = 0; k < 16; k++) sum += a[ty][k]
 * * b[k][tx]`), over every lane, is jammed: the loop outside, the lanes
 * inside, as a warp runs it, and the lanes' scalars (sum) in arrays the C
 * compiler keeps in registers. Each step then adds two vectors'
 * independent chains side by side, where lane by lane, each lane's loop
 * whole, it added one vector's 16 dependent adds one after another; and
 * around lane loops of its lane arrays gcc kept the sums in memory. Legal
 * wherever the lane-by-lane order is: the loop's control is uniform, its
 * lanes' statements run in lockstep, as on a GPU (bloop.c, lane_ok).
 *
 * The half-row version also runs two warps at a time (64 lanes: four
 * vectors of chains a step) where a region of it holds a jammed loop and
 * nothing that could tell the pair from two warps one after another: lane
 * loops, uniform statements and counted divergent ifs only (the bounds
 * test around the first matmul everyone writes); no warp collectives,
 * atomics, printf or calls (whose order between threads would change), no
 * `tid / 32`, nothing volatile. Printed for blocks 16 wide (four rows of
 * 16, blockDim.y % 4 == 0) and 32 wide (two rows, blockDim.y % 2 == 0, the
 * tile-32 matmul); other launches, and CUCC_VERSIONS=rows or halfrows, run
 * one warp at a time. */
static void jam_f(W *w, void *c) {
  (void)c;
  Hdr *h = &w->h;
  if (w->k == W_LOOPL && !ln(w->n)->vary && w->n->k == S_FOR && h->full && lanes_all(h->ls)) w->jam = true;
}

/* A uniform loop around lane loops (`int k; for (k = 0; k < 16; k++)`,
 * `while (k < n) { ...; k++; }`, a loop the for-init does not declare, a
 * shuffle loop `for (o = 1; o < 32; o <<= 1)`): the lanes' scalars its lane
 * statements use are kept in arrays of the warp's lanes across it, as a
 * jammed loop keeps them (W_LOOPU's jam, prom, prom_st); in lane arrays
 * gcc kept them in memory, stored at every step (the tile-16 matmul
 * spelled so: 3x slower). The arrays hold every lane, so the lane loops
 * inside may run over any lanes: runs, masks, divergent ifs; but nothing
 * that names a lane array other than lane by lane (warp calls, simt and
 * aggregated stores, range tests). */
typedef struct Ul { bool ok; Vec prom, st, own; } Ul;

static void ul_vars(Ul *u, Node *n, bool store) {
  if (!n) return;
  if (n->k == N_VAR) {
    Obj *o = n->var;
    LObj *l = lo(o);
    if (!l->vary || l->aff || l->soa || o->is_shared || l->esc || o->ty->is_volatile || !is_arith(o->ty)) return;
    if (!in_vec(&u->prom, o)) vec_push(&u->prom, o);
    if (store && !in_vec(&u->st, o)) vec_push(&u->st, o);
    return;
  }
  bool s = n->k == N_ASSIGN || n->k == N_INCDEC || (n->k == N_CAST && n->implicit && store);
  ul_vars(u, n->a, s);
  ul_vars(u, n->b, (n->k == N_COND || n->k == N_COMMA) && store);
  ul_vars(u, n->c, n->k == N_COND && store);
  ul_vars(u, n->d, false);
  for (int i = 0; i < n->list.n; i++) ul_vars(u, n->list.v[i], false);
}

static void ul_f(W *w, void *c) {
  Ul *u = c;
  switch (w->k) {
  case W_SEQ: case W_UDECL: case W_AFFSET: break;
  case W_EXPR: case W_IFU: u->ok &= !w->guard; break;
  case W_LOOPU: u->ok &= w->uinit; break;
  case W_VDECL: vec_push(&u->own, w->o); break;   /* (a lane array of the body's own) */
  case W_INIT: vec_push(&u->own, w->o); break;
  case W_LANES: case W_SPLIT: case W_ARM: break;   /* (the arrays hold every lane: any run or mask) */
  case W_IFD: u->ok &= w->mode != IFD_COLD; break;
  case W_WARPOP:   /* a whole warp's shuffle: its value read over every lane */
    u->ok &= w->fastsh && !w->act && !w->fwd && w->n->list.n > 1;
    if (u->ok) ul_vars(u, w->n->list.v[1], false);
    /* (the body's own variable is a lane's scalar there: permuted from a copy) */
    if (w->xdir && in_vec(&u->own, bare(w->n->list.v[1])->var)) w->xdir = false;
    break;
  case W_ONE:
    u->ok &= !w->rng && !w->simt && !w->agg;
    if (w->o) {
      ul_vars(u, &(Node){.k = N_VAR, .var = w->o}, true);
      if (lo(w->o)->soa) u->ok = false;
    }
    ul_vars(u, w->x, false);
    break;
  default: u->ok = false;
  }
}

static void inner_f(W *w, void *c) {
  if (w->k == W_LOOPU) vec_push(c, w);
}

/* (c: the loops inside one whose scalars are kept: the outermost keeps them) */
static void ujam_f(W *w, void *c) {
  if (w->k != W_LOOPU || !w->uinit || in_vec(c, w)) return;   /* (W_LOOPU: never varying) */
  Ul u = {.ok = true};
  w_each(w->body, ul_f, &u);
  if (!u.ok) return;
  w->prom = (Vec){0};
  w->prom_st = (Vec){0};
  for (int i = 0; i < u.prom.n; i++)
    if (!in_vec(&u.own, u.prom.v[i])) {
      vec_push(&w->prom, u.prom.v[i]);
      if (in_vec(&u.st, u.prom.v[i])) vec_push(&w->prom_st, u.prom.v[i]);
    }
  w->jam = w->prom_st.n > 0;   /* (nothing stored: nothing kept in memory) */
  if (w->jam) w_each(w->body, inner_f, c);
}

typedef struct Pair { bool ok, jam; } Pair;

static void pair_f(W *w, void *c) {
  Pair *q = c;
  switch (w->k) {
  case W_SEQ: case W_UDECL: case W_AFFSET: case W_INIT: case W_LANES: case W_LPF: break;
  case W_EXPR: case W_IFU: q->ok &= !w->guard; break;
  case W_VDECL: q->ok &= w->o->ty->kind != TY_ARRAY; break;   /* (an array's lanes are element-major, 32) */
  case W_IFD: q->ok &= w->mode == IFD_COUNT; break;   /* (counted, then all lanes one way or masks) */
  case W_ONE: q->ok &= !w->rng && !w->simt && !w->agg; break;
  case W_LOOPU:
    q->ok &= w->uinit;
    q->jam |= w->jam;
    break;
  case W_LOOPL:
    q->ok &= w->jam;
    q->jam = true;
    break;
  default: q->ok = false;
  }
}

/* (an array kept per thread across barriers is element-major per warp,
 * [N][32] (layout.c): lane 32 + l of a pair is not at lane l + 32 of the
 * first warp's rows, as a scalar's [32] lanes are; a register-tiled
 * matmul's `float acc[4]` read every row of the second warp's elements
 * from the first's next row) */
static bool pair_bad_p(Node *n, void *c) {
  (void)c;
  if (n->k == N_VAR) {
    LObj *l = lo(n->var);
    return l->cross && l->vary && !l->esc && n->var->ty->kind == TY_ARRAY && !n->var->is_shared;
  }
  return n->k == N_CALL && (n->ck == C_WARP || n->ck == C_ATOMIC || ck_per_thread(n->ck) || n->ck == C_FUNC);
}

static void jam_blk(Blk *b, bool wco) {
  if (!b) return;
  if (b->k == BK_REGION) {
    Region *r = b->r;
    for (int i = 0; i < r->vers.n; i++) {
      Ver *v = r->vers.v[i];
      if (v->k != VK_ROW && v->k != VK_HROW) continue;
      w_each(v->body, jam_f, NULL);
      w_each(v->body, ujam_f, &(Vec){0});
      if (v->k != VK_HROW || v->nlck || wco) continue;   /* (warp coroutines: one warp a call) */
      Pair q = {true, false};
      w_each(v->body, pair_f, &q);
      v->pair = q.ok && q.jam && !stmts_any(&r->stmts, 0, r->stmts.n, pair_bad_p, NULL);
      for (int j = 0; v->pair && j < r->stmts.n; j++) v->pair = !uses_split(r->stmts.v[j]) && !has_volatile(r->stmts.v[j]);
    }
  }
  for (int i = 0; i < b->items.n; i++) jam_blk(b->items.v[i], wco);
  Blk *sub[] = {b->init, b->then, b->els, b->body, b->inc};
  for (int i = 0; i < 5; i++) jam_blk(sub[i], wco);
}

void lw_jam(Kern *K) { jam_blk(K->body, K->wco); }

/* a warp version of a device function over every lane of whole or half
 * rows: its loops jammed as a kernel's (`acc += dot16(As[ty], Bs, tx)`);
 * never in pairs (a call runs one warp) */
void lw_jam_wf(WarpFn *w) {
  if ((w->k == VK_ROW || w->k == VK_HROW) && w->en == EN_FULL) {
    w_each(w->v->body, jam_f, NULL);
    w_each(w->v->body, ujam_f, &(Vec){0});
  }
}
