/* batch.c: atomics a block's warps combine.
 *
 * An integer atomicAdd whose result a thread reads (a slot in an output
 * array: stream compaction, a work queue, a warp-aggregated counter)
 * cannot join the worker's pending sum as one whose result is dropped does
 * (plane.c, cu_red). When every warp of every block takes such a slot from
 * one counter, the workers take turns at one cache line, a transfer between
 * cores for each warp (a GPU's L2 does such an atomic every clock). A
 * block's warps may instead run as coroutines (runtime/src/warps.c) that
 * stop at the atomic: once every warp of the block has stopped or ended,
 * one fetch-and-add of their sum serves them all, each warp given the old
 * value plus the operands of the warps before it, in warp order. A GPU may
 * order the atomics so too (one after another, no other block's between),
 * so every result is one a GPU could give.
 *
 * Not worth it where only a few threads of a block reach the atomic (`if
 * (threadIdx.x == 0) slot = atomicAdd(&next, 1)`, a block's dynamic index):
 * under a condition that holds for one thread of a block-wide index (==)
 * or for those below a constant under 64 (< or <=, in the first warps),
 * the atomic is left as it is. A warp's lane (`threadIdx.x % 32 == 0`) is
 * in every warp: it is batched. Nor where the address differs between
 * threads (`slot = atomicAdd(&count[cell], 1)`: the warps' atomics would
 * seldom meet at one address, and such a kernel would lose its block-wide
 * version for nothing). A kernel runs as coroutines (Kern.wco,
 * region.c) when it reaches such an atomic, and nothing it does needs the
 * block's warps together (what region.c's wco_bad refuses). */
#include "lw.h"

/* an atomicAdd of a 32- or 64-bit integer on memory not known to be the
 * block's own shared memory */
static bool batchable(Node *n) {
  if (n->k != N_CALL || n->ck != C_ATOMIC || n->list.n != 2 || shared_atomic(n)) return false;
  static const char *const nm[] = {"cu_atomicAdd_i", "cu_atomicAdd_u", "cu_atomicAdd_ll", "cu_atomicAdd_ull"};
  for (size_t i = 0; i < sizeof nm / sizeof *nm; i++)
    if (!strcmp(n->name, nm[i])) return true;
  return false;
}

/* a statement's expression whose value is dropped */
static Node *dropped(Node *s) {
  if (s->k != S_EXPR || !s->a) return NULL;
  Node *x = s->a;
  if (x->k == N_CAST && x->ty->kind == TY_VOID) x = x->a;
  return bare(x);
}

/* holds for a few threads of a block only (see above): a conjunct
 * `t == u` or `t < c`, `t <= c` of t a thread index affine across the
 * block (not through a warp split out of it) */
static bool few(Node *c) {
  c = bare(c);
  if (c->k == N_LOG && c->op == OP_LAND) return few(c->a) || few(c->b);
  if (!aff_cmp(c) || uses_split(c)) return false;
  if (c->op == OP_EQ) return true;
  bool left = aff_e(c->a);
  Node *u = left ? c->b : c->a;
  Op op = left ? c->op : op_mirror(c->op);
  int64_t v;
  return (op == OP_LT || op == OP_LE) && ev_const(u, &v) && v < 64;
}

typedef struct Bt {
  bool kern;           /* walking a kernel: few() from its shapes */
  bool any;            /* a batched atomic reached where many warps are */
} Bt;

/* fw: n runs only where a condition few() takes holds; kid[]: the same
 * of n's operands */
static int bt_f(Node *n, int fw, int kid[5], void *c) {
  Bt *b = c;
  switch (n->k) {
  case S_EXPR: {
    Node *x = dropped(n);
    if (x && batchable(x)) {   /* (its result dropped: the worker's pending sum) */
      for (int i = 0; i < x->list.n; i++) walk_cx(x->list.v[i], fw, bt_f, b);
      return W_SKIP;
    }
    break;
  }
  case S_IF: case N_COND:   /* (cond, then, else) */
    kid[1] = kid[2] = fw || (b->kern && few(n->a));
    break;
  case N_LOG:
    kid[1] = fw || (b->kern && n->op == OP_LAND && few(n->a));
    break;
  case S_FOR: case S_WHILE: case S_DO:   /* (init, cond, inc, body) */
    kid[2] = kid[3] = fw || (b->kern && n->b && few(n->b));
    break;
  case N_CALL:
    if (batchable(n)) {
      if (!fw && !ln(n->list.v[0])->vary) ln(n)->batch = b->any = true;
    } else if (n->ck == C_FUNC && n->fn && !fw && lo(n->fn)->batch)
      b->any = true;   /* (a callee's, itself or in its callees) */
    break;
  default: break;
  }
  return W_GO;
}

/* A device function's atomics, whoever calls it (its warp versions are
 * shared by kernels): batched unless its kernel does not run as
 * coroutines, where the runtime does the atomic at once. LObj.batch: it
 * has one, itself or in a callee (as far as its callees are known: the
 * program's functions again until nothing changes, lw_batch_fns). */
bool lw_batch_fn(Obj *fn) {
  Bt b = {0};
  bool was = lo(fn)->batch;
  walk_cx(fn->body, false, bt_f, &b);
  lo(fn)->batch = b.any;
  return b.any != was;
}

void lw_batch_fns(Vec *funcs) {
  bool ch;
  do {
    ch = false;
    for (int i = 0; i < funcs->n; i++) ch |= lw_batch_fn(funcs->v[i]);
  } while (ch);
}

/* A kernel's, with its shapes (lw_shape): does it reach one where many of
 * a block's warps may? */
void lw_batch(Obj *k) {
  Bt b = {.kern = true};
  walk_cx(k->body, false, bt_f, &b);
  lo(k)->batch = b.any;
}
