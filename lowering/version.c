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
  return n->k == N_CALL && n->ck == C_BUILTIN && !strcmp(n->name, "cu_syncwarp");
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
      if ((all[i] != VK_BW || (!(d & 6u) && bw_ok(k, exits, s, 0, s->n))) && (all[i] != VK_HROW || (d & 2u)) &&
          (all[i] != VK_ROW || !r->vers.n)) {   /* (a 1-D kernel's block-wide version takes every launch rows would) */
        Ver *v = xcalloc(1, sizeof *v);
        v->k = all[i];
        vec_push(&r->vers, v);
      }
  Ver *g = xcalloc(1, sizeof *g);
  g->k = VK_GEN;
  vec_push(&r->vers, g);
}
