/* lower.c: the lowering pipeline, IR -> warp-vectorized C.
 *
 * Whole program first:
 *   fold.c      if, ?:, && and || of constant conditions: the side taken
 *   canon.c     a loop's variable declared before it, declared by it; a
 *               clamp spelled as ifs after a declaration, its value
 *   uniform.c   which values and branches vary across a warp's lanes
 *   valid.c     what cannot be lowered, reported once
 *   bspec.c     kernels with clamped indices or bits of parameters: a copy
 *               for the blocks where the clamps do not bite and the bits
 *               are above a warp's (uniform.c again)
 * then each function in turn, printed before the next is analysed (an
 * inlined function's __shared__ variable is one object in every kernel
 * that inlines it, with an offset and a name in each):
 *   layout.c    C names, parameter and shared memory offsets, registers
 *   shape.c     which varying integers are affine in the lane
 *   batch.c     atomicAdds whose results are read, combined for a
 *               block's warps (device functions' first, for every kernel)
 *   region.c    barriers split the kernel into regions; where each
 *               variable lives (registers, block level, per thread)
 *   shape.c     (lw_shape_cross) again where a variable of a uniform
 *               stride is kept across regions: it has none there
 *   build.c     the lowered form: block-level items, regions in versions
 *               (version.c picks them), warp statements with their lanes
 *               and masks; names of temporaries numbered in print order;
 *               bloop.c: the form each loop takes; bprefetch.c: reads
 *               prefetched ahead; bound.c: bounds checks every thread
 *               of a block passes, tested once per block
 *   check.c     --check: which fast versions would check lane by lane
 *               (dropped); build.c asks it which statements and loops are
 *               tested as ranges
 *   version.c   (lw_jam) short uniform loops jammed over their lanes; other
 *               uniform loops keep their lanes' scalars in arrays across
 *               them; half rows in pairs of warps; the same for the warp
 *               versions of device functions (lw_jam_wf)
 *   soa.c       varying records kept as one lane array per field
 *   prof.c      CUCC_PROFILE's branch sites
 *   print.c     the lowered form as C
 * (dump.c shows the lowered form: cucc --dump-lir.) */
#include "lw.h"

/* ---- call cycles: their functions are called lane by lane ---- */
typedef struct Cg { Vec *stk, *rec; } Cg;

static void cg_fn(Cg *g, Obj *f);

static int cg_call(Node *n, void *c) {
  if (n->k == N_CALL && n->ck == C_FUNC && n->fn->body) cg_fn(c, n->fn);
  return W_GO;
}

static void cg_fn(Cg *g, Obj *f) {
  for (int i = 0; i < g->stk->n; i++)
    if (g->stk->v[i] == f) {   /* a cycle: every function on it */
      for (int j = i; j < g->stk->n; j++) vec_push(g->rec, g->stk->v[j]);
      return;
    }
  for (int i = 0; i < g->rec->n; i++)
    if (g->rec->v[i] == f) return;
  vec_push(g->stk, f);
  walk(f->body, cg_call, g);
  g->stk->n--;
}

static void check_vers(Lw *L, Blk *b) {
  if (!b) return;
  if (b->k == BK_REGION)
    for (int i = 0; i < b->r->vers.n; i++) lw_check_ver(L->ck, b->r->vers.v[i]);
  for (int i = 0; i < b->items.n; i++) check_vers(L, b->items.v[i]);
  Blk *sub[] = {b->init, b->then, b->els, b->body, b->inc};
  for (int i = 0; i < 5; i++) check_vers(L, sub[i]);
}

int lw_lower(Prog *p, const CuOpts *o, Buf *out) {
  tab_reset();
  for (int i = 0; i < p->funcs.n; i++) lw_fold(p->funcs.v[i]);
  for (int i = 0; i < p->kernels.n; i++) lw_fold(p->kernels.v[i]);
  for (int i = 0; i < p->funcs.n; i++) lw_canon(p->funcs.v[i]);
  for (int i = 0; i < p->kernels.n; i++) lw_canon(p->kernels.v[i]);
  for (int i = 0; i < p->funcs.n; i++) lw_uniform(p->funcs.v[i]);
  for (int i = 0; i < p->kernels.n; i++) lw_uniform(p->kernels.v[i]);
  Lw L = {.o = o, .ck = o->check};
  Vec stk = {0};
  Cg g = {&stk, &L.rec};
  for (int i = 0; i < p->funcs.n; i++) cg_fn(&g, p->funcs.v[i]);
  for (int i = 0; i < p->funcs.n; i++)
    if (!fn_inlined(p->funcs.v[i])) lw_valid(&L, p->funcs.v[i]);
  for (int i = 0; i < p->kernels.n; i++) lw_valid(&L, p->kernels.v[i]);
  if (nerrors) return 1;
  /* (checked builds keep one body: what they check is the program's) */
  for (int i = 0; i < p->kernels.n && !L.ck; i++)
    if (lw_bspec(p->kernels.v[i])) lw_uniform(p->kernels.v[i]);
  lw_batch_fns(&p->funcs);
  /* checked: every device function takes the thread indices, for reports */
  for (int i = 0; i < p->funcs.n && L.ck; i++) lo(p->funcs.v[i])->uses_tid = true;
  lw_name_globals(p);
  lw_print_begin(&L, p, out);
  Buf dump = {0};
  for (int i = 0; i < p->funcs.n; i++) {
    /* (-rdc: declared only; with warp collectives: only warp versions) */
    if (fn_inlined(p->funcs.v[i]) || !((Obj *)p->funcs.v[i])->body || lw_warp_only(&L, p->funcs.v[i])) continue;
    Dfn *d = lw_build_dfn(&L, p->funcs.v[i]);
    if (o->dump_lir) lw_dump_dfn(d, &dump);
    lw_print_dfn(&L, d);
  }
  for (int i = 0; i < p->kernels.n; i++) {
    Kern *K = xcalloc(1, sizeof *K);
    K->k = p->kernels.v[i];
    K->cn = xfmt("cu_k%d_%s", i, K->k->name);
    lw_layout(K, o->maxrreg);
    lw_shape(K->k);
    lw_batch(K->k);
    lw_regions(&L, K);
    if (nerrors) return 1;
    lw_shape_cross(K->k);
    lw_lanes(K);
    lw_build_kernel(&L, K);
    check_vers(&L, K->body);
    lw_jam(K);
    lw_soa(K);
    lw_prof(K);
    /* the warp versions it calls, before it (callees first) */
    for (int j = 0; j < L.wnew.n; j++) {
      lw_jam_wf(L.wnew.v[j]);
      if (o->dump_lir) lw_dump_warpfn(&L, L.wnew.v[j], &dump);
      lw_print_warpfn(&L, L.wnew.v[j]);
    }
    L.wnew.n = 0;
    if (o->dump_lir) lw_dump_kernel(&L, K, &dump);
    lw_print_kernel(&L, K);
  }
  lw_print_end(&L, p);
  if (dump.s) fputs(dump.s, stderr);
  return nerrors ? 1 : 0;
}
