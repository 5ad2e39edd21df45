/* spin.c: a lock the threads of one warp take in turn.
 *
 *   while (atomicCAS(&locks[b], 0, 1) != 0);   // acquire
 *   hist[b] += 1;                              // the critical section
 *   atomicExch(&locks[b], 0);                  // release
 *
 * A warp's lanes run a loop together until every lane leaves it: the lane
 * that takes the lock waits at the loop's end for the others, which spin
 * on the lock it holds, forever (a GPU before Volta hangs so; since Volta a
 * warp's threads are scheduled apart, and the program works). So the
 * statements from such a loop to the last one that releases (an atomic, or
 * a store through a volatile pointer) in the same block become a device
 * function of their own, `serial`, which the lowering runs lane by lane as
 * scalar C (never as a warp): each lane takes the lock, runs its critical
 * section and releases it before the next lane tries. CUDA orders nothing
 * between a warp's threads there, so this is one of its schedules.
 *
 * The locals the statements use are its parameters: by value where the
 * statements only read them, else by address. Not outlined (the loop runs
 * in lockstep as before): statements with a barrier, a warp collective or
 * __syncwarp, a return, a break or continue out of them, or a local they
 * declare and the rest of the block uses. (Also here: loops that wait for
 * another warp yield, below.) */
#include "fe.h"

static bool atomic_p(Node *n, void *c) {
  (void)c;
  return n->k == N_CALL && n->ck == C_ATOMIC;
}

/* a store through a volatile lvalue or an atomic: what may release a lock */
static bool release_p(Node *n, void *c) {
  (void)c;
  if (atomic_p(n, NULL)) return true;
  return (n->k == N_ASSIGN || n->k == N_INCDEC) && n->a->ty && n->a->ty->is_volatile;
}

/* taking a lock: an atomic CAS or exchange, itself or in a function
 * (cuda::atomic's exchange, compare_exchange_strong) */
static int ldepth;

static bool lockop_p(Node *n, void *c) {
  if (n->k != N_CALL) return false;
  if (n->ck == C_ATOMIC) return strstr(n->name, "atomicCAS") || strstr(n->name, "atomicExch");
  if (n->ck != C_FUNC || !n->fn->body || ldepth > 4) return false;
  ldepth++;
  bool r = any_node(n->fn->body, lockop_p, c);
  ldepth--;
  return r;
}

/* what a spin's body may do: nothing, or wait politely */
static bool idle(Node *n) {
  if (!n || n->k == S_NULL) return true;
  if (n->k == S_EXPR && n->a->k == N_CALL)
    return (n->a->ck == C_BUILTIN && !strcmp(n->a->name, "cu_fence")) ||
           (n->a->ck == C_FUNC && !strcmp(n->a->fn->name, "__nanosleep"));
  if (n->k != S_BLOCK) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!idle(n->list.v[i])) return false;
  return true;
}

/* a loop that spins on taking a lock, with nothing else to do */
static bool spin_p(Node *n) {
  if (n->k != S_WHILE && n->k != S_DO && !(n->k == S_FOR && !n->a && !n->c)) return false;
  return n->b && idle(n->d) && any_node(n->b, lockop_p, NULL);
}

/* a spin, or a block that ends in one (an inlined lock()'s body) */
static bool ends_spin(Node *n) {
  if (spin_p(n)) return true;
  if (n->k != S_BLOCK) return false;
  for (int i = n->list.n - 1; i >= 0; i--) {
    Node *s = n->list.v[i];
    if (s->k == S_NULL) continue;
    return ends_spin(s);
  }
  return false;
}

typedef struct Sp {
  Obj *fn;          /* the function the statements come from */
  Node *from;       /* the first of them */
  Vec decl;         /* Obj*: the locals they declare */
  Vec used;         /* Obj*: the locals they use and do not declare */
  Vec wrote;        /* ... those they store to or take the address of */
  bool bad;
} Sp;

static bool has(Vec *v, void *p) {
  for (int i = 0; i < v->n; i++)
    if (v->v[i] == p) return true;
  return false;
}

static bool local_of(Obj *fn, Obj *o) { return !o->is_global && !o->is_shared && has(&fn->locals, o); }

static int scan_f(Node *n, void *c) {
  Sp *s = c;
  switch (n->k) {
  case S_SYNC: case S_RETURN: s->bad = true; return W_STOP;
  case N_CALL:
    if (n->ck == C_WARP || (n->ck == C_BUILTIN && !strcmp(n->name, "cu_syncwarp")) ||
        (n->ck == C_FUNC && n->fn->has_warp)) {
      s->bad = true;
      return W_STOP;
    }
    break;
  case S_DECL:
    if (n->var->is_shared) s->bad = true;
    vec_push(&s->decl, n->var);
    break;
  case N_VAR:
    if (local_of(s->fn, n->var) && !has(&s->used, n->var)) vec_push(&s->used, n->var);
    break;
  case N_ASSIGN: case N_INCDEC: case N_UN: {
    if (n->k == N_UN && n->op != OP_ADDR) break;
    Node *v = n->a;
    while (v->k == N_MEMBER && !v->post) v = v->a;
    while (v->k == N_INDEX && v->a->ty->kind == TY_ARRAY) v = v->a;
    while (v->k == N_CAST) v = v->a;
    if (v->k == N_VAR && !has(&s->wrote, v->var)) vec_push(&s->wrote, v->var);
    break;
  }
  default: break;
  }
  return W_GO;
}

/* does a break or continue leave the statements (not a loop or switch
 * among them)? */
typedef struct Jo { Vec inner; bool out; } Jo;

static int jumps_f(Node *n, void *c) {
  Jo *j = c;
  if (n->k == S_FOR || n->k == S_WHILE || n->k == S_DO || n->k == S_SWITCH) vec_push(&j->inner, n);
  if ((n->k == S_BREAK || n->k == S_CONTINUE) && !has(&j->inner, n->target)) {
    j->out = true;
    return W_STOP;
  }
  return W_GO;
}

static int nspin;

/* uses of v among the statements: through its parameter p, *p if by address */
typedef struct Rp { Obj *v, *p; bool ptr; } Rp;

static int repl_f(Node *n, void *c) {
  Rp *r = c;
  if (n->k != N_VAR || n->var != r->v) return W_GO;
  if (!r->ptr) {
    n->var = r->p;
    return W_GO;
  }
  Node *x = xcalloc(1, sizeof *x);
  *x = *n;
  x->var = r->p;
  x->ty = r->p->ty;
  n->k = N_UN;
  n->op = OP_DEREF;
  n->a = x;
  n->var = NULL;
  return W_SKIP;
}

/* statements list[i..j] of block blk into function f, called in their place */
static bool outline(Prog *prog, Obj *fn, Node *blk, int i, int j) {
  Sp s = {fn, blk->list.v[i], {0}, {0}, {0}, false};
  for (int k = i; k <= j && !s.bad; k++) walk(blk->list.v[k], scan_f, &s);
  Jo jo = {{0}, false};
  for (int k = i; k <= j && !s.bad; k++) walk(blk->list.v[k], jumps_f, &jo);
  s.bad |= jo.out;
  /* a declaration the rest of the block reads stays where it is */
  for (int k = j + 1; k < blk->list.n && !s.bad; k++) {
    Sp t = {fn, blk->list.v[k], {0}, {0}, {0}, false};
    walk(blk->list.v[k], scan_f, &t);
    for (int d = 0; d < s.decl.n && !s.bad; d++) s.bad = has(&t.used, s.decl.v[d]);
  }
  if (s.bad) return false;
  Node *at = blk->list.v[i];
  Loc l = ir_loc(at);
  Obj *f = xcalloc(1, sizeof *f);
  f->name = xfmt("%s_spin%d", fn->name, nspin);
  f->cname = xfmt("%s_spin%d", fn->cname, nspin++);
  f->ty = ir_type(TY_VOID);
  f->file = at->file;
  f->line = at->line;
  f->col = at->col;
  f->has_body = true;
  f->serial = true;
  Node *call = ir_call(l, C_FUNC, f->name, f->ty);
  call->fn = f;
  Node *body = ir_new(S_BLOCK, l);
  for (int k = i; k <= j; k++) vec_push(&body->list, blk->list.v[k]);
  for (int u = 0; u < s.used.n; u++) {
    Obj *v = s.used.v[u];
    if (has(&s.decl, v)) continue;
    bool ptr = has(&s.wrote, v) || v->ty->kind == TY_ARRAY || v->ty->kind == TY_RECORD;
    Obj *p = xcalloc(1, sizeof *p);
    p->name = v->name;
    p->ty = ptr ? ir_ptr(v->ty) : v->ty;
    p->file = v->file;
    p->line = v->line;
    p->col = v->col;
    p->is_param = true;
    vec_push(&f->params, p);
    vec_push(&f->locals, p);
    for (int k = 0; k < body->list.n; k++) walk(body->list.v[k], repl_f, &(Rp){v, p, ptr});
    Node *a = ir_var(l, v);
    if (ptr) {
      a = ir_un(l, OP_ADDR, p->ty, a);
      v->addr_taken = true;
    }
    vec_push(&call->list, a);
  }
  for (int d = 0; d < s.decl.n; d++) {   /* the locals it declares are its own */
    Obj *v = s.decl.v[d];
    vec_push(&f->locals, v);
    for (int k = 0; k < fn->locals.n; k++)
      if (fn->locals.v[k] == v) {
        fn->locals.v[k] = fn->locals.v[--fn->locals.n];
        break;
      }
  }
  f->body = body;
  blk->list.v[i] = ir_stmt(l, S_EXPR, call);
  for (int k = j + 1; k < blk->list.n; k++) blk->list.v[k - (j - i)] = blk->list.v[k];
  blk->list.n -= j - i;
  /* a function before its callers (the lowering's analyses go callees first) */
  Vec *fs = &prog->funcs;
  int at_ = fs->n;
  for (int k = 0; k < fs->n; k++)
    if (fs->v[k] == fn) at_ = k;
  vec_push(fs, f);
  for (int k = fs->n - 1; k > at_; k--) fs->v[k] = fs->v[k - 1];
  fs->v[at_] = f;
  return true;
}

/* A lock taken through a function (`struct Lock { ... void lock() {
 * while (atomicCAS(m, 0, 1) != 0); } }`, CUDA by Example's): its calls
 * inlined first, so that the loop stands with its critical section. */
static bool spin_fn(Obj *f) {
  if (!f || !f->has_body || !f->body || f->body->k != S_BLOCK) return false;
  int n = 0;
  for (int i = 0; i < f->body->list.n; i++) {
    Node *s = f->body->list.v[i];
    if (spin_p(s)) n++;
    else if (s->k != S_DECL && s->k != S_NULL && !(s->k == S_RETURN && !s->a)) return false;
  }
  return n == 1;
}

static int spin_call_f(Node *n, void *c) {
  if (n->k == N_CALL && n->ck == C_FUNC && spin_fn(n->fn)) vec_push(c, n);
  return W_GO;
}

/* a release in a function a statement calls (the lock's unlock()) */
static int rdepth;

static bool release_call_p(Node *n, void *c) {
  if (release_p(n, c)) return true;
  if (n->k != N_CALL || n->ck != C_FUNC || !n->fn->body || rdepth > 4) return false;
  rdepth++;
  bool r = any_node(n->fn->body, release_call_p, NULL);
  rdepth--;
  return r;
}

static void blocks(Prog *prog, Obj *fn, Node *n) {
  if (!n) return;
  if (n->k == S_BLOCK)
    for (int i = 0; i < n->list.n; i++) {
      Node *s = n->list.v[i];
      if (!ends_spin(s)) continue;
      int j = -1;
      for (int k = i + 1; k < n->list.n; k++)
        if (any_node(n->list.v[k], release_call_p, NULL)) j = k;
      if (j > i) outline(prog, fn, n, i, j);
    }
  blocks(prog, fn, n->a);
  blocks(prog, fn, n->b);
  blocks(prog, fn, n->c);
  blocks(prog, fn, n->d);
  if (n->k == S_BLOCK)
    for (int i = 0; i < n->list.n; i++) blocks(prog, fn, n->list.v[i]);
}

/* ---- waiting for another warp ----
 * `while (ready == 0);` on a volatile flag (or an atomic's load) another
 * warp of the block sets later: a block's warps run one after another
 * between barriers, so the flag never came. Such a loop (a body with
 * nothing to do, a condition that reads volatile memory or an atomic, not
 * a lock) yields at each turn (cu_warp_yield), which makes its kernel's
 * warps coroutines (runtime/src/warps.c): the others run meanwhile. */
static int fdepth;

static bool flag_p(Node *n, void *c) {
  if (n->k == N_CALL && n->ck == C_ATOMIC) return true;
  if ((n->k == N_VAR || n->k == N_INDEX || n->k == N_MEMBER || (n->k == N_UN && n->op == OP_DEREF)) && n->ty &&
      n->ty->is_volatile)
    return true;
  if (n->k != N_CALL || n->ck != C_FUNC || !n->fn->body || fdepth > 4) return false;
  fdepth++;
  bool r = any_node(n->fn->body, flag_p, c);
  fdepth--;
  return r;
}

static int yield_f(Node *n, void *c) {
  (void)c;
  bool loop = n->k == S_WHILE || n->k == S_DO || (n->k == S_FOR && !n->a && !n->c);
  if (!loop || !n->b || !idle(n->d) || spin_p(n) || !any_node(n->b, flag_p, NULL)) return W_GO;
  Loc l = ir_loc(n);
  Node *b = ir_new(S_BLOCK, l);
  if (n->d && n->d->k != S_NULL) vec_push(&b->list, n->d);
  vec_push(&b->list, ir_stmt(l, S_EXPR, ir_call(l, C_BUILTIN, "cu_warp_yield", ir_type(TY_VOID))));
  n->d = b;
  return W_SKIP;
}

static void spin_in(Fe *p, Prog *prog, Obj *fn) {
  Vec calls = {0};
  walk(fn->body, spin_call_f, &calls);
  if (calls.n) fe_inline_calls(p, fn, &calls);
  free(calls.v);
  blocks(prog, fn, fn->body);
  walk(fn->body, yield_f, NULL);
}

void fe_spin(Fe *p, Prog *prog) {
  for (int i = 0; i < prog->kernels.n; i++) spin_in(p, prog, prog->kernels.v[i]);
  Vec fs = {0};   /* (outline() adds to the list) */
  for (int i = 0; i < prog->funcs.n; i++) vec_push(&fs, prog->funcs.v[i]);
  for (int i = 0; i < fs.n; i++) {
    Obj *f = fs.v[i];
    if (!f->serial && f->has_body && !fn_inlined(f) && !spin_fn(f)) spin_in(p, prog, f);
  }
  free(fs.v);
}
