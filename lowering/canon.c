/* canon.c: a loop's own variable declared by its loop; clamps spelled as ifs.
 *
 * The later passes know a loop's induction variable by the loop's init
 * declaring it (`for (int i = gid; i < n; i += stride)`): such a variable
 * ends with the loop, so while lanes leave it at different trips its value
 * stays base + lane in the lanes still in it (shape.c), and the loop runs
 * over a run of lanes, its reads prefetched a trip ahead (bloop.c). People
 * write the same loop with the variable declared before it:
 *     int i = gid; for (; i < n; i += stride) ...         (1)
 *     int i = gid; while (i < n) { ...; i += stride; }     (2, CUDA by Example)
 *     int i; for (i = gid; i < n; i += stride) ...         (3, C89)
 * each of which ran lane by lane, each lane's own range (26 times slower).
 * Where nothing reads the variable after the loop, nor takes its address,
 * nor reads it between its declaration and the loop, the declaration moves
 * into the loop's init (1, 3), and a while loop whose body ends with a
 * store to it, with no continue of its own (which would skip that store),
 * becomes the for loop with that store as its increment (2). The
 * declaration moves past the statements between only where its value
 * cannot change: computed from local variables (no loads, no calls) none
 * of which those statements store or any statement takes the address of.
 *
 * And a clamp spelled as statements right after a declaration,
 *     int xm = x - 1;  if (xm < 0) xm = 0;  if (xm > w - 1) xm = w - 1;
 * (or `else if`) is folded into the declaration's value, `xm = (x - 1 < 0) ?
 * 0 : x - 1` and so on, so that the variable has one definition and
 * bspec.c sees its clamp: each if with no else but another such if, whose
 * branch only stores to the variable a value that does not read it, its
 * condition reading the variable; everything pure (the value is read
 * again in each condition). */
#include "lw.h"

/* what a statement could change but a local variable: a load, a call, a
 * store, an address */
static bool fixed_p(Node *n, void *c) {
  (void)c;
  return n->k == N_CALL || n->k == N_INDEX || n->k == N_MEMBER || n->k == N_ASSIGN || n->k == N_INCDEC ||
         (n->k == N_UN && (n->op == OP_DEREF || n->op == OP_ADDR));
}

/* can e, read at a declaration, be read instead after the statements
 * v[from, to)? Only its local variables may change, by a store there (a
 * call between may change a global or shared one; one whose address is
 * taken, anything) */
typedef struct Mv { Vec *v; int from, to; } Mv;
static bool moved_p(Node *n, void *c) {
  Mv *m = c;
  if (n->k != N_VAR) return false;
  Obj *o = n->var;
  if (o->is_global || o->is_shared || o->addr_taken) return true;
  for (int i = m->from; i < m->to; i++)
    if (stores(m->v->v[i], o)) return true;
  return false;
}
static bool stays(Node *e, Vec *v, int from, int to) {
  Mv m = {v, from, to};
  return from == to || (!any_node(e, fixed_p, NULL) && !any_node(e, moved_p, &m));
}

static bool cont_p(Node *n, void *loop) { return n->k == S_CONTINUE && n->target == loop; }
static bool inner_p(Node *n, void *body) { return n->k == N_VAR && decl_in(body, n->var); }

/* the store to o a loop's body ends with, taken out as its increment (no
 * continue of the loop's own skips it; none of the body's own variables
 * in it, which the for's header would not see); NULL if it ends otherwise */
static Node *last_store(Node *loop, Obj *o) {
  Node *b = loop->d;
  if (!b || b->k != S_BLOCK || b->list.n < 2) return NULL;
  Node *s = b->list.v[b->list.n - 1];
  if (s->k != S_EXPR || !s->a || stored_var(s->a) != o || bare(s->a->a)->k != N_VAR) return NULL;
  return any_node(b, cont_p, loop) || any_node(s->a, inner_p, b) ? NULL : s;
}

/* the one variable statement s declares (the frontend's declaration
 * statements are groups: blocks with no scope of their own) */
static Node *decl1(Node *s) {
  if (s->k == S_BLOCK && s->post && s->list.n == 1) s = s->list.v[0];
  return s->k == S_DECL && s->var ? s : NULL;
}

/* `i = e`, the init of a for loop, to o */
static bool init_of(Node *loop, Obj *o) {
  Node *x = loop->a && loop->a->k == S_EXPR ? loop->a->a : NULL;
  return x && x->k == N_ASSIGN && x->op == OP_ASSIGN && bare(x->a)->k == N_VAR && bare(x->a)->var == o &&
         !reads_var(x->b, o);
}

/* v[i] declares o; may the loop at v[l] take it? *inc: the body's last
 * statement, to become its increment (2) */
static bool take(Vec *v, int i, int l, Node **inc) {
  Node *d = decl1(v->v[i]), *loop = v->v[l];
  Obj *o = d->var;
  *inc = NULL;
  if (o->is_shared || o->addr_taken || o->ty->kind == TY_ARRAY || o->ty->kind == TY_RECORD) return false;
  for (int j = i + 1; j < v->n; j++)
    if (j != l && reads_var(v->v[j], o)) return false;
  if (loop->k == S_FOR && !loop->a && d->a && loop->c && stored_var(loop->c) == o)   /* (1): its variable */
    return stays(d->a, v, i + 1, l);
  if (loop->k == S_FOR && !d->a && init_of(loop, o)) return true;   /* (3) */
  if ((loop->k == S_WHILE || (loop->k == S_FOR && !loop->a && !loop->c)) && d->a && loop->b)
    return (*inc = last_store(loop, o)) && stays(d->a, v, i + 1, l);   /* (2), and `for (; i < n;) { ...; i += s; }` */
  return false;
}

static void cn_list(Vec *v) {
  for (int i = 0; i < v->n; i++) {
    Node *d = decl1(v->v[i]);
    if (!d) continue;
    int l = i + 1;
    while (l < v->n && ((Node *)v->v[l])->k != S_FOR && ((Node *)v->v[l])->k != S_WHILE) l++;
    Node *inc;
    if (l == v->n || !take(v, i, l, &inc)) continue;
    Node *loop = v->v[l];
    if (loop->k == S_FOR && loop->a) d->a = loop->a->a->b;   /* (3): `i = e` becomes the declaration's value */
    if (inc) {   /* (2) */
      loop->d->list.n--;
      loop->k = S_FOR;
      loop->c = inc->a;
    }
    loop->a = v->v[i];
    for (int j = i; j + 1 < v->n; j++) v->v[j] = v->v[j + 1];
    v->n--;
    i--;
  }
}

/* ---- clamps spelled as statements ---- */

/* e with v read as x (a copy: each node once in the tree) */
typedef struct Wv { Obj *v; Node *x; } Wv;
static Node *wv_pre(Node *n, void *c) {
  Wv *w = c;
  return n->k == N_VAR && n->var == w->v ? copy_x(&(Cpx){0}, w->x) : NULL;
}
static Node *with_val(Node *e, Obj *v, Node *x) { return copy_x(&(Cpx){wv_pre, NULL, &(Wv){v, x}}, e); }

/* `v = u;` alone, u pure and not reading v: u */
static Node *set_of(Node *s, Obj *v) {
  while (s && s->k == S_BLOCK && s->list.n == 1) s = s->list.v[0];
  Node *x = s && s->k == S_EXPR ? s->a : NULL;
  if (!x || x->k != N_ASSIGN || x->op != OP_ASSIGN || bare(x->a)->k != N_VAR || bare(x->a)->var != v) return NULL;
  return pure(x->b) && !reads_var(x->b, v) ? x->b : NULL;
}

/* `if (c) v = u; [else if ...]` after v's value cur: the value after it */
static Node *fold_if(Node *s, Obj *v, Node *cur) {
  Node *u;
  if (s->k != S_IF || !pure(s->a) || !reads_var(s->a, v) || !(u = set_of(s->b, v))) return NULL;
  Node *rest = cur;
  if (s->c) {
    Node *e = s->c;
    while (e->k == S_BLOCK && e->list.n == 1) e = e->list.v[0];
    if (!(rest = fold_if(e, v, cur))) return NULL;
  }
  Node *r = xcalloc(1, sizeof *r);
  r->k = N_COND;
  r->ty = v->ty;
  r->file = s->file, r->line = s->line, r->col = s->col;
  r->a = with_val(s->a, v, cur);
  r->b = with_val(u, NULL, NULL);
  r->c = rest == cur ? with_val(cur, NULL, NULL) : rest;
  return r;
}

static void clamp_list(Vec *v) {
  for (int i = 0; i + 1 < v->n; i++) {
    Node *d = decl1(v->v[i]), *f;
    if (!d || !d->a || d->a->k == N_INIT || !is_intty(d->var->ty) || d->var->addr_taken || d->var->is_shared ||
        d->var->ty->is_volatile || !pure(d->a))
      continue;
    while (i + 1 < v->n && (f = fold_if(v->v[i + 1], d->var, d->a))) {
      d->a = f;
      for (int j = i + 1; j + 1 < v->n; j++) v->v[j] = v->v[j + 1];
      v->n--;
    }
  }
}

static int cn_f(Node *n, void *c) {
  (void)c;
  if (n->k == S_BLOCK) {
    clamp_list(&n->list);
    cn_list(&n->list);
  }
  return W_GO;
}

void lw_canon(Obj *f) { walk(f->body, cn_f, NULL); }
