/* walk.c: the one walker of the IR, and small predicates built on it. */
#include "lw.h"

int walk(Node *n, WalkFn *f, void *ctx) {
  if (!n) return W_GO;
  int r = f(n, ctx);
  if (r != W_GO) return r == W_STOP ? W_STOP : W_GO;
  Node *ops[4] = {n->a, n->b, n->c, n->d};
  for (int i = 0; i < 4; i++)
    if (walk(ops[i], f, ctx) == W_STOP) return W_STOP;
  for (int i = 0; i < n->list.n; i++)
    if (walk(n->list.v[i], f, ctx) == W_STOP) return W_STOP;
  return W_GO;
}

void walk_cx(Node *n, int cx, WalkCxFn *f, void *ctx) {
  if (!n) return;
  int kid[5] = {cx, cx, cx, cx, cx};
  if (f(n, cx, kid, ctx) != W_GO) return;
  Node *ops[4] = {n->a, n->b, n->c, n->d};
  for (int i = 0; i < 4; i++) walk_cx(ops[i], kid[i], f, ctx);
  for (int i = 0; i < n->list.n; i++) walk_cx(n->list.v[i], kid[4], f, ctx);
}

/* every statement of the lowered form under w, w first */
void w_each(W *w, void (*f)(W *, void *), void *c) {
  if (!w) return;
  f(w, c);
  for (int i = 0; i < w->ws.n; i++) w_each(w->ws.v[i], f, c);
  W *sub[] = {w->a, w->b, w->c, w->d, w->tall, w->eall, w->trun, w->erun, w->tm, w->em,
              w->init, w->ch, w->body, w->ih, w->inc, w->dh, w->sw};
  for (size_t i = 0; i < sizeof sub / sizeof *sub; i++) w_each(sub[i], f, c);
}

typedef struct Any { bool (*p)(Node *, void *); void *ctx; } Any;

static int any_f(Node *n, void *c) {
  Any *a = c;
  return a->p(n, a->ctx) ? W_STOP : W_GO;
}

bool any_node(Node *n, bool (*p)(Node *, void *), void *ctx) {
  Any a = {p, ctx};
  return walk(n, any_f, &a) == W_STOP;
}

bool stmts_any(Vec *v, int from, int to, bool (*p)(Node *, void *), void *ctx) {
  for (int i = from; i < to; i++)
    if (any_node(v->v[i], p, ctx)) return true;
  return false;
}

/* A copy of n, each node once in the tree: pre sees each node first and
 * may give its copy itself (a replacement, copied by its own means);
 * otherwise the node is copied, post sees the copy (to rename what it
 * names), then its kids are copied. Either may be NULL. (clone.c's
 * functions, bspec.c's kernel copies, canon.c's folded values.) */
Node *copy_x(Cpx *k, Node *n) {
  if (!n) return NULL;
  Node *r = k->pre ? k->pre(n, k->c) : NULL;
  if (r) return r;
  Node *c = memcpy(xcalloc(1, sizeof *c), n, sizeof *c);
  if (k->post) k->post(c, n, k->c);
  c->a = copy_x(k, n->a);
  c->b = copy_x(k, n->b);
  c->c = copy_x(k, n->c);
  c->d = copy_x(k, n->d);
  c->list = (Vec){0};
  for (int i = 0; i < n->list.n; i++) vec_push(&c->list, copy_x(k, n->list.v[i]));
  return c;
}

/* a function whose body is `return e;`: e */
Node *one_return(Obj *f) {
  Node *b = f->body;
  while (b && b->k == S_BLOCK && b->list.n == 1) b = b->list.v[0];
  return b && b->k == S_RETURN && b->a ? b->a : NULL;
}

bool in_vec(Vec *v, void *p) {
  for (int i = 0; i < v->n; i++)
    if (v->v[i] == p) return true;
  return false;
}

Node *bare(Node *n) {
  while (n->k == N_CAST && n->implicit) n = n->a;
  return n;
}

bool is_syncwarp(Node *n) {
  n = bare(n);
  return n->k == N_CALL && n->ck == C_BUILTIN && !strcmp(n->name, "cu_syncwarp");
}

bool is_warp_wait(Node *n) {
  return n->k == N_CALL && n->ck == C_BUILTIN && (!strcmp(n->name, "cu_warp_wait") || !strcmp(n->name, "cu_warp_yield"));
}

bool is_decay(Node *n) {
  return n->k == N_CAST && n->implicit && n->a->ty->kind == TY_ARRAY && n->ty->kind == TY_PTR;
}

bool is_intty(Type *t) { return t->kind >= TY_SHORT && t->kind <= TY_ULLONG && t->size >= 4; }
bool is_arith(Type *t) { return t->kind >= TY_BOOL && t->kind <= TY_LDOUBLE; }

/* builtins of no effect, whose result is a function of their arguments */
bool pure_builtin(const char *nm) {
  static const char *const ok[] = {"ffs", "ffsl", "ffsll", "popcount", "popcountl", "popcountll", "clz", "clzl",
                                   "clzll", "ctz", "ctzl", "ctzll", "parity", "parityl", "parityll", "bswap16",
                                   "bswap32", "bswap64", NULL};
  if (strncmp(nm, "__builtin_", 10)) return false;
  for (int i = 0; ok[i]; i++)
    if (!strcmp(nm + 10, ok[i])) return true;
  return false;
}

static bool fn_pure(Obj *f, int depth);

/* in a pure function's body: what it may not do (its own locals it may
 * assign: uniform.c's impure says whether it stores to memory) */
static bool fn_bad_p(Node *n, void *c) {
  int depth = *(int *)c;
  switch (n->k) {
  case S_FOR: case S_WHILE: case S_DO: case S_SYNC: return true;   /* (loops: a warp version, build.c) */
  case N_CALL:
    return n->ck != C_LIBM && n->ck != C_LDG && !(n->ck == C_BUILTIN && pure_builtin(n->name)) &&
           !(n->ck == C_FUNC && n->fn && fn_pure(n->fn, depth + 1));
  case N_VAR: return n->var->ty->is_volatile;
  case N_UN: case N_INDEX: case N_MEMBER: return n->ty->is_volatile;
  default: return false;
  }
}

/* A device function whose call may be evaluated twice, or not at all:
 * no stores to memory, atomics, barriers, collectives, volatile accesses
 * or loops, in it or its callees (a tile's thread_rank(), a lane()
 * helper). */
static bool fn_pure(Obj *f, int depth) {
  return depth < 8 && f->has_body && f->body && !f->is_kernel && !lo(f)->impure && !any_node(f->body, fn_bad_p, &depth);
}

static bool impure_p(Node *n, void *c) {
  (void)c;
  switch (n->k) {
  case N_ASSIGN: case N_INCDEC: return true;
  case N_CALL:
    return n->ck != C_LIBM && n->ck != C_LDG && !(n->ck == C_BUILTIN && pure_builtin(n->name)) &&
           !(n->ck == C_FUNC && n->fn && fn_pure(n->fn, 0));
  case N_VAR: return n->var->ty->is_volatile;
  case N_UN: case N_INDEX: case N_MEMBER: return n->ty->is_volatile;
  default: return false;
  }
}
bool pure(Node *n) { return !any_node(n, impure_p, NULL); }

/* pure once its warp collectives are hoisted (build.c): each is a value
 * computed before the statement (`__all_sync(m, p) && __any_sync(m, q)`:
 * the left side can be read again for the right side's mask) */
static bool impure_h_p(Node *n, void *c) { return !(n->k == N_CALL && n->ck == C_WARP) && impure_p(n, c); }
bool pure_h(Node *n) { return !any_node(n, impure_h_p, NULL); }

/* Evaluable where the source would not evaluate it, every lane's right
 * side of && and || computed without a branch so that the lane loop
 * vectorizes: no stores, calls (but of one-return functions of such an
 * expression) or volatile accesses, no reads through a
 * pointer (an index guarded by the left side may be out of bounds), no
 * integer division by what may be 0. */
static bool unspec_p(Node *n, void *c);

/* a call of a function whose body is `return e;`, e evaluable anywhere
 * (a functor's `a + b`: CUB's cub::Sum, called in a shuffle tree's
 * `if (lane + offset < 32) out = op(out, other)`) is as evaluable as e
 * with its arguments */
static bool spec_call(Node *n) {
  static int depth;
  /* (builtins of no effect defined for every argument; not clz and ctz,
   * undefined for 0: a guard's `x != 0 &&` printed as `&` would let the C
   * compiler assume it holds) */
  if (n->ck == C_BUILTIN && pure_builtin(n->name) && !strstr(n->name, "clz") && !strstr(n->name, "ctz")) return true;
  Node *b = n->ck == C_FUNC && n->fn && !n->fn->is_kernel && !n->fn->key ? n->fn->body : NULL;
  while (b && b->k == S_BLOCK && b->list.n == 1) b = b->list.v[0];
  if (!b || b->k != S_RETURN || !b->a || depth > 4) return false;
  depth++;
  bool ok = !any_node(b->a, unspec_p, NULL);
  depth--;
  return ok;
}

static bool unspec_p(Node *n, void *c) {
  (void)c;
  int64_t d;
  switch (n->k) {
  case N_CALL: return !spec_call(n);
  case N_NUM: case N_FNUM: case N_STR: case N_BUILTIN: case N_LOG: case N_COND: case N_CAST: return false;
  case N_VAR: return n->var->ty->is_volatile;
  case N_UN: return n->op == OP_DEREF || n->op == OP_ADDR || n->ty->is_volatile;
  case N_MEMBER: return n->post || n->ty->is_volatile;
  case N_BIN:
    return (n->op == OP_DIV || n->op == OP_MOD) && n->ty->kind != TY_FLOAT && n->ty->kind != TY_DOUBLE &&
           !(ev_int(n->b, &d) && d != 0 && d != -1);   /* (by a constant other than 0 and -1: no trap) */
  default: return true;
  }
}
bool spec_ok(Node *n) { return !any_node(n, unspec_p, NULL); }

static bool warp_p(Node *n, void *c) { (void)c; return n->k == N_CALL && n->ck == C_WARP; }
bool has_warp(Node *n) { return any_node(n, warp_p, NULL); }

static bool volatile_p(Node *n, void *c) {
  (void)c;
  return (n->k == N_VAR && n->var->ty->is_volatile) ||
         ((n->k == N_UN || n->k == N_INDEX || n->k == N_MEMBER) && n->ty->is_volatile);
}
bool has_volatile(Node *n) { return any_node(n, volatile_p, NULL); }

static bool reads_p(Node *n, void *o) { return n->k == N_VAR && n->var == o; }
bool reads_var(Node *n, Obj *o) { return any_node(n, reads_p, o); }

static bool stores_p(Node *n, void *o) {
  return (n->k == N_ASSIGN || n->k == N_INCDEC) && n->a->k == N_VAR && n->a->var == o;
}
bool stores(Node *n, Obj *o) { return any_node(n, stores_p, o); }

static bool decl_p(Node *n, void *o) { return n->k == S_DECL && n->var == o; }
bool decl_in(Node *n, Obj *o) { return any_node(n, decl_p, o); }

Obj *stored_var(Node *n) {
  if (n->k != N_ASSIGN && n->k != N_INCDEC) return NULL;
  Node *t = bare(n->a);
  return t->k == N_VAR ? t->var : NULL;
}

Type *arr_of(Type *base, int64_t len) {
  Type *t = xcalloc(1, sizeof *t);
  t->kind = TY_ARRAY;
  t->base = base;
  t->len = len;
  t->size = base->size * len;
  t->align = base->align;
  return t;
}

Type *ptr_to(Type *base) {
  Type *t = xcalloc(1, sizeof *t);
  t->kind = TY_PTR;
  t->base = base;
  t->size = 8;
  t->align = 8;
  return t;
}

/* Structurally the same expression (same variables, operators, constants). */
bool same_x(Node *a, Node *b) {
  if (!a || !b) return a == b;
  a = bare(a), b = bare(b);
  if (a->k != b->k || a->op != b->op || a->var != b->var || a->fn != b->fn || a->field != b->field ||
      a->ival != b->ival || a->fval != b->fval || a->bk != b->bk || a->dim != b->dim || a->post != b->post ||
      a->list.n != b->list.n || (a->name != b->name && (!a->name || !b->name || strcmp(a->name, b->name))))
    return false;
  for (int i = 0; i < a->list.n; i++)
    if (!same_x(a->list.v[i], b->list.v[i])) return false;
  return same_x(a->a, b->a) && same_x(a->b, b->b) && same_x(a->c, b->c) && same_x(a->d, b->d);
}

static bool in_shared(Node *n) {
  for (;;) {
    n = bare(n);
    if (n->k == N_INDEX && is_decay(n->a)) n = n->a->a;
    else if (n->k == N_MEMBER && !n->post) n = n->a;
    else return n->k == N_VAR && n->var->is_shared;
  }
}

/* An atomic on the block's own shared memory (&s[i], &s.f, a shared
 * array): a plain read-modify-write (cucc_dev.h, cu_satomic*; print.c),
 * as a block runs on one worker thread; never batched (batch.c). */
bool shared_atomic(Node *n) {
  if (!n->list.n || strncmp(n->name, "cu_atomic", 9)) return false;
  Node *a0 = n->list.v[0], *a = bare(a0);
  if (a->k == N_UN && a->op == OP_ADDR) return in_shared(a->a);
  return is_decay(a0) && in_shared(a0->a);
}
