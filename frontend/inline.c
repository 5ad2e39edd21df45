/* inline.c: device functions that contain __syncthreads() or __shared__
 * variables are inlined into their callers' IR, so that the barrier stands
 * in the kernel, where lowering/ can split regions, and the variable is
 * one per block. (Warp collectives need no inlining: a function with them
 * runs as a warp, lowering/build.c.)
 *
 * A call is inlined when it sits in a statement's expression, a
 * declaration's initializer, a return value or an if/switch condition
 * (evaluated once, before the statement: the same order for any call
 * without side effects on the statement's other operands), also in an arm
 * of ?: there (the ?: becomes an if, each arm run where it is taken); the
 * callee's returns must be in tail position (last statement, or the
 * branches of a last if), where they become assignments to a result
 * variable, or before it in an if of which one branch returns (a guard,
 * `if (c) return;`, or `if (c) return x; else ...;`): what follows that if
 * joins its other branch. */
#include "fe.h"

typedef struct Map { Vec from, to, cparm, cval; } Map;   /* Obj* or Node* -> copy; constant parameters */

static void *look(Map *m, void *p) {
  for (int i = 0; i < m->from.n; i++)
    if (m->from.v[i] == p) return m->to.v[i];
  return p;
}

static int ninl;

static Obj *clone_obj(Fe *p, Map *m, Obj *o) {
  Obj *c = look(m, o);
  if (c != o) return c;
  c = xcalloc(1, sizeof *c);
  c->name = xfmt("%s_i%d", o->name, ninl);
  c->ty = o->ty;   /* const dropped already (parse.c, unconst) */
  c->file = o->file;
  c->line = o->line;
  c->col = o->col;
  c->addr_taken = o->addr_taken;
  c->inl_made = true;
  vec_push(&p->fn->locals, c);
  vec_push(&m->from, o);
  vec_push(&m->to, c);
  return c;
}

static Node *clone(Fe *p, Map *m, Obj *callee, Node *n) {
  if (!n) return NULL;
  for (int i = 0; n->k == N_VAR && i < m->cparm.n; i++)
    if (m->cparm.v[i] == n->var) return clone(p, m, callee, m->cval.v[i]);
  Node *c = xcalloc(1, sizeof *c);
  *c = *n;
  vec_push(&m->from, n);
  vec_push(&m->to, c);
  if (n->var && !n->var->is_global && !n->var->is_shared) {
    bool local = false;
    for (int i = 0; i < callee->locals.n; i++) local |= callee->locals.v[i] == n->var;
    if (local) c->var = clone_obj(p, m, n->var);
  }
  c->a = clone(p, m, callee, n->a);
  c->b = clone(p, m, callee, n->b);
  c->c = clone(p, m, callee, n->c);
  c->d = clone(p, m, callee, n->d);
  c->list = (Vec){0};
  for (int i = 0; i < n->list.n; i++) vec_push(&c->list, clone(p, m, callee, n->list.v[i]));
  return c;
}

static void retarget(Map *m, Node *n) {   /* break/continue: to the copies of their loops */
  if (!n) return;
  if (n->target) n->target = look(m, n->target);
  retarget(m, n->a);
  retarget(m, n->b);
  retarget(m, n->c);
  retarget(m, n->d);
  for (int i = 0; i < n->list.n; i++) retarget(m, n->list.v[i]);
}

/* Is variable o written or its address taken in n? */
static bool written(Node *n, Obj *o) {
  if (!n) return false;
  if (n->k == N_ASSIGN || n->k == N_INCDEC || (n->k == N_UN && n->op == OP_ADDR)) {
    Node *a = n->a;
    while (a->k == N_MEMBER || a->k == N_INDEX || (a->k == N_CAST && a->implicit)) a = a->a;
    if (a->k == N_VAR && a->var == o) return true;
  }
  if (n->k == S_DECL && n->var == o) return true;
  if (written(n->a, o) || written(n->b, o) || written(n->c, o) || written(n->d, o)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (written(n->list.v[i], o)) return true;
  return false;
}

static bool has_return(Node *n) {
  if (!n) return false;
  if (n->k == S_RETURN) return true;
  if (has_return(n->a) || has_return(n->b) || has_return(n->c) || has_return(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_return(n->list.v[i])) return true;
  return false;
}

/* Does s end in a return on every path? */
static bool ends_return(Node *s) {
  if (s->k == S_RETURN) return true;
  if (s->k == S_BLOCK) return s->list.n && ends_return(s->list.v[s->list.n - 1]);
  if (s->k == S_IF) return s->c && ends_return(s->b) && ends_return(s->c);
  return false;
}

/* Turn the tail returns of s into res = value; false if s returns
 * elsewhere. */
static bool tails(Node *s, Obj *res) {
  switch (s->k) {
  case S_RETURN: {
    Node *v = s->a;
    s->k = v && res ? S_EXPR : S_NULL;
    if (!res) s->inl = INL_RET, s->ival = ninl;   /* (ninl: this inlining) */
    s->a = NULL;
    if (v && res) {
      Node *r = xcalloc(1, sizeof *r);
      *r = (Node){.k = N_VAR, .var = res, .ty = res->ty, .file = s->file, .line = s->line, .col = s->col};
      Node *a = xcalloc(1, sizeof *a);
      *a = (Node){.k = N_ASSIGN, .op = OP_ASSIGN, .a = r, .b = v, .ty = res->ty, .file = s->file, .line = s->line, .col = s->col};
      s->a = a;
    }
    return true;
  }
  case S_BLOCK:
    for (int i = 0; i + 1 < s->list.n; i++) {
      Node *g = s->list.v[i];
      if (g->k == S_IF && !has_return(g->a)) {
        bool rb = ends_return(g->b), rc = g->c && ends_return(g->c);
        if (rb && rc) {   /* both branches return: nothing after it runs */
          s->list.n = i + 1;
          break;
        }
        /* a guard, `if (c) return;`, or an if one of whose branches
         * returns (`if (c) return f(x); else {...}`, CUB's fall-backs):
         * what follows it is the other branch's rest */
        if (rb || rc) {
          Node *e = xcalloc(1, sizeof *e);
          *e = (Node){.k = S_BLOCK, .file = g->file, .line = g->line, .col = g->col};
          Node *other = rb ? g->c : g->b;
          if (other) vec_push(&e->list, other);
          for (int j = i + 1; j < s->list.n; j++) vec_push(&e->list, s->list.v[j]);
          if (rb) g->c = e;
          else g->b = e;
          if (rb && !res) g->inl = INL_GUARD, g->ival = ninl;
          s->list.n = i + 1;
          break;
        }
      }
      if (has_return(g)) return false;
    }
    return !s->list.n || tails(s->list.v[s->list.n - 1], res);
  case S_IF:
    return has_return(s->a) ? false : tails(s->b, res) && (!s->c || tails(s->c, res));
  default:
    return !has_return(s);
  }
}

static bool needs(Obj *f) { return f && f->has_body && fn_inlined(f); }

/* calls inlined on request (fe_inline_calls: sroa.c's), whatever their
 * callee; a refused one (a return the inliner cannot place) stays a call */
static Vec *forced;
static int nforced;

static bool is_forced(Node *n) {
  for (int i = 0; forced && i < forced->n; i++)
    if (forced->v[i] == n) return true;
  return false;
}

static bool wants(Node *n) { return n->k == N_CALL && n->ck == C_FUNC && (needs(n->fn) || is_forced(n)); }

static bool has_need(Node *n) {
  if (!n) return false;
  if (wants(n) && n->fn->body) return true;
  if (has_need(n->a) || has_need(n->b) || has_need(n->c) || has_need(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_need(n->list.v[i])) return true;
  return false;
}

static Node *mk(NodeKind k, Node *at) {
  Node *n = xcalloc(1, sizeof *n);
  *n = (Node){.k = k, .file = at->file, .line = at->line, .col = at->col};
  return n;
}

static Node *inl_arm(Fe *p, Obj *res, Node *v) {   /* res = v; or v; with v's calls inlined */
  Node *s = mk(S_EXPR, v);
  s->a = v;
  if (res) {
    Node *r = mk(N_VAR, v), *a = mk(N_ASSIGN, v);
    r->var = res, r->ty = res->ty;
    a->op = OP_ASSIGN, a->a = r, a->b = v, a->ty = res->ty;
    s->a = a;
  }
  return fe_inline(p, s);
}

/* Inline the calls in expression *n that need it (innermost first),
 * appending their statements to pre. */
static void inl_expr(Fe *p, Node *n, Vec *pre) {
  if (!n) return;
  /* c ? f(x) : g(y) with calls to inline in its arms (CUB's `return
   * aligned ? ConsumeRange(s, Int2Type<true>()) : ConsumeRange(s,
   * Int2Type<false>())`): if (c) t = f(x); else t = g(y); then t. An arm
   * runs only where c takes it, as written. (The arms of a value-returning
   * ?: are values: an lvalue ?: holds no calls that need inlining.) */
  if (n->k == N_COND && (has_need(n->b) || has_need(n->c))) {
    inl_expr(p, n->a, pre);
    Obj *res = NULL;
    if (n->ty->kind != TY_VOID) {
      Map m = {0};
      Obj fake = {.name = "cond", .ty = n->ty, .file = n->file, .line = n->line, .col = n->col};
      ninl++;
      res = clone_obj(p, &m, &fake);
      Node *d = mk(S_DECL, n);
      d->var = res;
      vec_push(pre, d);
    }
    Node *i = mk(S_IF, n);
    i->a = n->a;
    i->b = inl_arm(p, res, n->b);
    i->c = inl_arm(p, res, n->c);
    vec_push(pre, i);
    Type *ty = n->ty;
    *n = (Node){.k = res ? N_VAR : N_NUM, .var = res, .ty = ty, .file = n->file, .line = n->line, .col = n->col};
    return;
  }
  if (n->k == N_COND || n->k == N_LOG) {   /* maybe not evaluated: leave it */
    inl_expr(p, n->a, pre);
    return;
  }
  inl_expr(p, n->a, pre);
  inl_expr(p, n->b, pre);
  inl_expr(p, n->c, pre);
  for (int i = 0; i < n->list.n; i++) inl_expr(p, n->list.v[i], pre);
  if (!wants(n)) return;
  Obj *f = n->fn;
  if (!f->body) return;   /* recursion: reported by fe_inline_left */
  ninl++;
  int nloc = p->fn->locals.n;
  Map m = {0};
  /* a constant argument (a literal, or an integer constant expression of
   * literals: eval.c) of a parameter the body never writes stands in for
   * it (a shuffle width stays a constant, a tile size folds) */
  bool *cst = xcalloc(f->params.n + 1, 1);
  for (int i = 0; i < f->params.n && i < n->list.n; i++) {
    Node *a = n->list.v[i];
    int64_t v;
    while (a->k == N_CAST && a->implicit && (a->a->k == N_NUM || a->a->k == N_FNUM || a->a->k == N_CAST)) a = a->a;
    if ((a->k == N_NUM || a->k == N_FNUM || ev_const(n->list.v[i], &v)) && !written(f->body, f->params.v[i])) {
      cst[i] = true;
      vec_push(&m.cparm, f->params.v[i]);
      vec_push(&m.cval, n->list.v[i]);
    }
  }
  Node *body = clone(p, &m, f, f->body);
  retarget(&m, body);
  Obj *res = NULL;
  if (f->ty->kind != TY_VOID) {
    Obj fake = {.name = "ret", .ty = f->ty, .file = n->file, .line = n->line, .col = n->col};
    res = clone_obj(p, &m, &fake);
  }
  if (!tails(body, res)) {
    if (!needs(f)) {   /* a request: the call stays, its clone's locals go */
      p->fn->locals.n = nloc;
      return;
    }
    errorat(n->file, n->line, n->col,
            "unsupported in device code: call to '%s', which has barriers or __shared__ data and returns before its end", f->name);
    n->ck = C_BUILTIN;   /* reported: not again by fe_inline_left */
    return;
  }
  for (int i = 0; i < f->params.n && i < n->list.n; i++) {   /* parameters = arguments */
    if (cst[i]) continue;
    Node *d = xcalloc(1, sizeof *d);
    *d = (Node){.k = S_DECL, .var = clone_obj(p, &m, f->params.v[i]), .a = n->list.v[i],
                .file = n->file, .line = n->line, .col = n->col};
    vec_push(pre, d);
  }
  if (res) {
    Node *d = xcalloc(1, sizeof *d);
    *d = (Node){.k = S_DECL, .var = res, .file = n->file, .line = n->line, .col = n->col};
    vec_push(pre, d);
  }
  vec_push(pre, body);
  for (int i = 0; i < f->shared.n; i++) {   /* one per block, however often inlined */
    bool have = false;
    for (int j = 0; j < p->fn->shared.n; j++) have |= p->fn->shared.v[j] == f->shared.v[i];
    if (!have) {
      vec_push(&p->fn->shared, f->shared.v[i]);
      vec_push(&p->fn->locals, f->shared.v[i]);   /* named with the caller's locals */
    }
  }
  p->fn->has_sync |= f->has_sync;
  p->fn->has_warp |= f->has_warp;
  nforced += !needs(f);
  Node *r = n;   /* the call becomes its result */
  *r = (Node){.k = res ? N_VAR : N_NUM, .var = res, .ty = res ? res->ty : f->ty, .file = n->file, .line = n->line, .col = n->col};
}

/* Statement s (an expression statement, declaration, return, if or
 * switch) with its calls inlined: s itself, or a block of the inlined
 * statements followed by s. */
Node *fe_inline(Fe *p, Node *s) {
  Vec pre = {0};
  if (s->k == S_BLOCK && s->post) {   /* declarations: each initializer in turn */
    Vec out = {0};
    for (int i = 0; i < s->list.n; i++) {
      Node *d = s->list.v[i];
      if (d->k == S_DECL) inl_expr(p, d->a, &out);
      vec_push(&out, d);
    }
    s->list = out;
    return s;
  }
  inl_expr(p, s->a, &pre);
  if (!pre.n) return s;
  if (s->k == S_EXPR && s->a->k == N_NUM && s->a->ty->kind == TY_VOID) s->k = S_NULL;   /* f(); */
  Node *b = xcalloc(1, sizeof *b);
  *b = (Node){.k = S_BLOCK, .post = true, .file = s->file, .line = s->line, .col = s->col};
  b->list = pre;
  vec_push(&b->list, s);
  return b;
}

/* Calls left that needed inlining (in a loop condition, behind && ||, or
 * recursive): refused at their location. */
void fe_inline_left(Node *n) {
  if (!n) return;
  if (n->k == N_CALL && n->ck == C_FUNC && needs(n->fn))
    errorat(n->file, n->line, n->col,
            "unsupported in device code: call to '%s' (it has barriers or __shared__ data) in this position "
            "(call it in a statement of its own)", n->fn->name);
  fe_inline_left(n->a);
  fe_inline_left(n->b);
  fe_inline_left(n->c);
  fe_inline_left(n->d);
  for (int i = 0; i < n->list.n; i++) fe_inline_left(n->list.v[i]);
}

/* A kernel's own exit through an inlined function: a guard of a void
 * function inlined where nothing of the kernel follows the call (`k() {
 * stage(); }`) returns from the kernel, so its takers exit. They then take
 * no part in the barriers of the function's rest, as on a GPU (since
 * Volta): given that rest as its else, the barriers would stand under an
 * `if` its takers never reach, reported as divergent (docs/design.md,
 * Parked threads). The guard becomes the kernel's `if (c) return;` again,
 * the rest after it. */
static bool inl_empty(Node *s) {
  if (!s || s->k == S_NULL || (s->k == S_RETURN && !s->a)) return true;
  if (s->k != S_BLOCK) return false;
  for (int i = 0; i < s->list.n; i++)
    if (!inl_empty(s->list.v[i])) return false;
  return true;
}

/* the returns of inlining id (not those of functions it inlined), its
 * kernel's again */
static void inl_rets(Node *n, int64_t id) {
  if (!n) return;
  if (n->k == S_NULL && n->inl == INL_RET && n->ival == id) n->k = S_RETURN;
  if (n->k == S_FOR || n->k == S_WHILE || n->k == S_DO || n->k == S_SWITCH) return;   /* (a tail return is in none) */
  inl_rets(n->b, id);
  inl_rets(n->c, id);
  for (int i = 0; i < n->list.n; i++) inl_rets(n->list.v[i], id);
}

static void inl_tail(Node *s, bool tail) {
  if (!s) return;
  if (s->k == S_IF) {
    inl_tail(s->b, tail);
    inl_tail(s->c, tail);
    return;
  }
  if (s->k != S_BLOCK) return;
  for (int i = 0; i < s->list.n; i++) {
    Node *g = s->list.v[i];
    bool t = tail;
    for (int j = i + 1; t && j < s->list.n; j++) t = inl_empty(s->list.v[j]);
    if (t && g->k == S_IF && g->inl == INL_GUARD && g->c) {
      Node *rest = g->c;
      g->c = NULL;
      g->inl = 0;
      inl_rets(g->b, g->ival);
      Vec out = {0};
      for (int j = 0; j <= i; j++) vec_push(&out, s->list.v[j]);
      if (rest->k == S_BLOCK)
        for (int j = 0; j < rest->list.n; j++) vec_push(&out, rest->list.v[j]);
      else vec_push(&out, rest);
      for (int j = i + 1; j < s->list.n; j++) vec_push(&out, s->list.v[j]);
      s->list = out;
      continue;   /* the rest's statements are this block's now */
    }
    inl_tail(g, t);
  }
}

void fe_inline_exits(Obj *kernel) { inl_tail(kernel->body, true); }

/* Inline the calls in `calls` (and any that need it) wherever the inliner
 * can place their statements: statements' expressions, declarations'
 * initializers, returns, if and switch conditions; not a for's init,
 * a loop's condition or increment. The number inlined. */
static void inl_walk(Fe *p, Node **slot) {
  Node *s = *slot;
  if (!s) return;
  switch (s->k) {
  case S_BLOCK: {
    Vec out = {0};
    for (int i = 0; i < s->list.n; i++) {
      Node *d = s->list.v[i];
      if (d->k == S_DECL && has_need(d->a)) inl_expr(p, d->a, &out);
      else inl_walk(p, &d);
      vec_push(&out, d);
    }
    s->list = out;
    break;
  }
  case S_EXPR: case S_RETURN: case S_IF: case S_SWITCH:
    if (has_need(s->a)) *slot = fe_inline(p, s);
    if (s->k == S_IF) {
      inl_walk(p, &s->b);
      inl_walk(p, &s->c);
    }
    if (s->k == S_SWITCH) inl_walk(p, &s->d);
    break;
  case S_FOR: case S_WHILE: case S_DO: inl_walk(p, &s->d); break;
  default: break;
  }
}

int fe_inline_calls(Fe *p, Obj *fn, Vec *calls) {
  Obj *save = p->fn;
  int n0 = nforced;
  p->fn = fn;
  forced = calls;
  inl_walk(p, &fn->body);
  forced = NULL;
  p->fn = save;
  return nforced - n0;
}
