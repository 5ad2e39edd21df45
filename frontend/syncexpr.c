/* syncexpr.c: __syncthreads_count/and/or inside a condition.
 *
 *   while (__syncthreads_or(more)) { ... }
 *   if (__syncthreads_count(t < 10) == 10) ...
 *
 * The IR has these barriers as statements that store their result in a
 * variable (S_SYNC with var: `c = __syncthreads_or(x);`); written inside an
 * expression, each becomes such a statement before it, its result a local
 * of its own: before an if, a switch, a return or an expression
 * statement; at the top of each turn of a while or for loop, which then
 * tests it (`for (;;) { c = __syncthreads_or(more); if (!c) break; ... }`:
 * a continue goes on to the increment and the barrier again, as the
 * loop's test would). A do-while's test goes at the end of its body
 * (`do { ...; c = __syncthreads_or(x); } while (c)`, c declared before the
 * loop), unless a continue of that loop would skip it: refused then. */
#include "fe.h"

typedef struct Lift {
  Obj *fn;
  Vec pre;   /* Node*: the statements before */
} Lift;

/* each barrier in e's operands: a local, set by the barrier before */
static void lift(Lift *l, Node **slot) {
  Node *n = *slot;
  if (!n) return;
  if (n->k == S_SYNC && n->coll && !n->var) {
    Obj *o = xcalloc(1, sizeof *o);
    o->name = xfmt("cu_sync%d", l->fn->locals.n);
    o->file = n->file, o->line = n->line, o->col = n->col;
    o->ty = ir_type(TY_INT);
    vec_push(&l->fn->locals, o);
    vec_push(&l->pre, ir_decl(ir_loc(n), o, NULL));
    lift(l, &n->a);   /* (a barrier in the predicate: first) */
    n->var = o;
    vec_push(&l->pre, n);
    *slot = ir_var(ir_loc(n), o);
    return;
  }
  if (n->k >= S_BLOCK) return;   /* (statements: their own) */
  lift(l, &n->a);
  lift(l, &n->b);
  lift(l, &n->c);
  lift(l, &n->d);
  for (int i = 0; i < n->list.n; i++) lift(l, (Node **)&n->list.v[i]);
}

static bool sync_p(Node *n, void *c) {
  (void)c;
  return n->k == S_SYNC && n->coll && !n->var;
}

/* a continue of loop c (a do-while's: it would skip a test moved into
 * the body) */
static bool cont_p(Node *n, void *c) { return n->k == S_CONTINUE && n->target == c; }

static void stmt(Obj *fn, Node **slot);

static Node *block_of(Vec *pre, Node *s) {
  Node *b = ir_new(S_BLOCK, ir_loc(s));
  for (int i = 0; i < pre->n; i++) vec_push(&b->list, pre->v[i]);
  vec_push(&b->list, s);
  return b;
}

static void stmt(Obj *fn, Node **slot) {
  Node *s = *slot;
  if (!s) return;
  switch (s->k) {
  case S_BLOCK: {   /* (a declaration's barriers before it in its list: its scope stays) */
    Vec out = {0};
    for (int i = 0; i < s->list.n; i++) {
      Node *d = s->list.v[i];
      if (d->k == S_DECL && d->a && any_node(d->a, sync_p, NULL)) {
        Lift l = {fn, {0}};
        lift(&l, &d->a);
        for (int j = 0; j < l.pre.n; j++) vec_push(&out, l.pre.v[j]);
      } else stmt(fn, &d);
      vec_push(&out, d);
    }
    s->list = out;
    return;
  }
  case S_IF: case S_SWITCH: case S_EXPR: case S_RETURN:
    if (s->a && any_node(s->a, sync_p, NULL)) {
      Lift l = {fn, {0}};
      lift(&l, &s->a);
      *slot = block_of(&l.pre, s);
    }
    stmt(fn, &s->b);
    stmt(fn, &s->c);
    if (s->k == S_SWITCH) stmt(fn, &s->d);
    return;
  case S_FOR: case S_WHILE:
    stmt(fn, &s->d);
    if (s->b && any_node(s->b, sync_p, NULL)) {   /* for (;;) { c = sync; if (!cond) break; body } */
      Lift l = {fn, {0}};
      lift(&l, &s->b);
      Node *nc = ir_un(ir_loc(s->b), OP_LNOT, ir_type(TY_INT), s->b);
      Node *brk = ir_new(S_BREAK, ir_loc(s));
      brk->target = s;
      vec_push(&l.pre, ir_if(ir_loc(s), nc, brk, NULL));
      if (s->d) vec_push(&l.pre, s->d);
      Node *body = ir_new(S_BLOCK, ir_loc(s));
      body->list = l.pre;
      s->b = NULL;
      s->d = body;
      if (s->k == S_WHILE) s->k = S_FOR;   /* (for(;;) without init or increment) */
    }
    return;
  case S_DO:
    stmt(fn, &s->d);
    if (s->b && any_node(s->b, sync_p, NULL) && !any_node(s->d, cont_p, s)) {
      Lift l = {fn, {0}};
      lift(&l, &s->b);
      Vec decls = {0};
      Node *body = ir_new(S_BLOCK, ir_loc(s));
      vec_push(&body->list, s->d);
      for (int i = 0; i < l.pre.n; i++) vec_push(((Node *)l.pre.v[i])->k == S_DECL ? &decls : &body->list, l.pre.v[i]);
      s->d = body;
      *slot = block_of(&decls, s);
    }
    return;
  default: return;
  }
}

void fe_sync_exprs(Obj *fn) {
  if (fn->body && any_node(fn->body, sync_p, NULL)) stmt(fn, &fn->body);
}
