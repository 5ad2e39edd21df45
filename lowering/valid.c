/* valid.c: what the lowering cannot do, reported once per construct,
 * before anything is built (a region is built in up to four versions; an
 * error found while building one would be reported by each). */
#include "lw.h"

/* Warp collectives: every one is hoisted out of its statement (build.c),
 * for the lanes that evaluate it: inside an arm of ?:, && or ||, those
 * whose condition (evaluated again for the mask, so without side effects)
 * takes it. Visited in the order build.c hoists them (operands first). */
static Lw *vL;

static bool in_rec(Obj *f) {
  for (int i = 0; i < vL->rec.n; i++)
    if (vL->rec.v[i] == f) return true;
  return false;
}

static void coll(Obj *fn, Node *n, bool cond) {
  if (!n) return;
  if (n->k == N_COND || n->k == N_LOG) {   /* an arm runs under its lanes' mask if the condition can be read twice */
    coll(fn, n->a, cond);
    coll(fn, n->b, cond || !pure_h(n->a));
    if (n->k == N_COND) coll(fn, n->c, cond || !pure_h(n->a));
    return;
  }
  if (n->k == S_SYNC)
    errorat(n->file, n->line, n->col,
            "unsupported: __syncthreads_%s() inside an expression (assign its result to a variable)", coll_str[n->coll]);
  coll(fn, n->a, cond);
  coll(fn, n->b, cond);
  coll(fn, n->c, cond);
  for (int i = 0; i < n->list.n; i++) coll(fn, n->list.v[i], cond);
  if (n->k == N_CALL && n->ck == C_FUNC && lw_warp_only(vL, n->fn) && in_rec(n->fn)) {
    errorat(n->file, n->line, n->col, "unsupported: call to '%s', which has warp collectives and calls itself", n->fn->name);
    return;
  }
  if (n->k != N_CALL || n->ck != C_WARP) return;
  if (cond) {
    errorat(n->file, n->line, n->col,
            "unsupported: warp collective inside ?:, && or || whose condition has side effects (compute it in a statement of its own)");
    return;
  }
}

static void stmt(Obj *fn, Node *n) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) stmt(fn, n->list.v[i]);
    break;
  case S_DECL: case S_EXPR: case S_RETURN: coll(fn, n->a, false); break;
  case S_IF:
    coll(fn, n->a, false);
    stmt(fn, n->b);
    stmt(fn, n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO:
    stmt(fn, n->a);
    coll(fn, n->b, false);
    stmt(fn, n->d);
    coll(fn, n->c, false);
    break;
  case S_SWITCH:
    coll(fn, n->a, false);
    stmt(fn, n->d);
    break;
  case S_SYNC:
    coll(fn, n->a, false);
    if (n->var && lo(n->var)->vary)
      errorat(n->file, n->line, n->col, "unsupported: __syncthreads_%s() result stored in a per-thread variable",
              coll_str[n->coll]);
    if (!fn->is_kernel)
      errorat(n->file, n->line, n->col, "unsupported: __syncthreads() in a __device__ function (call it from the kernel)");
    break;
  default: break;
  }
}

/* 0 if fn can be lowered; else its errors were reported */
int lw_valid(Lw *L, Obj *fn) {
  int before = nerrors;
  vL = L;
  stmt(fn, fn->body);
  return nerrors - before;
}
