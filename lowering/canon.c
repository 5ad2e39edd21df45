/* canon.c: a loop's own variable declared by its loop.
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
 * of which those statements store or any statement takes the address of. */
#include "lw.h"

static bool var_p(Node *n, void *o) { return n->k == N_VAR && n->var == o; }
static bool uses(Node *n, Obj *o) { return any_node(n, var_p, o); }

static bool addr_p(Node *n, void *o) { return n->k == N_UN && n->op == OP_ADDR && uses(n->a, o); }
static bool cont_p(Node *n, void *loop) { return n->k == S_CONTINUE && n->target == loop; }

/* not computed from what a statement could change but a variable */
static bool movable_p(Node *n, void *c) {
  (void)c;
  return n->k == N_CALL || n->k == N_INDEX || n->k == N_MEMBER || n->k == N_ASSIGN || n->k == N_INCDEC ||
         (n->k == N_UN && (n->op == OP_DEREF || n->op == OP_ADDR));
}

typedef struct Cn { Node *body; Obj *init_vars[8]; int n; bool ok; } Cn;

static int init_var_f(Node *n, void *c) {
  Cn *x = c;
  if (n->k == N_VAR) {
    if (x->n == 8) x->ok = false;
    else x->init_vars[x->n++] = n->var;
  }
  return W_GO;
}

/* can e, read at a declaration, be read instead after the statements
 * v[from, to)? */
static bool stays(Cn *c, Node *e, Vec *v, int from, int to) {
  if (from == to) return true;
  if (!e || any_node(e, movable_p, NULL)) return !e;
  c->n = 0;
  c->ok = true;
  walk(e, init_var_f, c);
  for (int j = 0; c->ok && j < c->n; j++) {
    Obj *o = c->init_vars[j];
    /* (a global or shared variable: a call between may change it) */
    if (o->is_global || o->is_shared || any_node(c->body, addr_p, o)) return false;
    for (int i = from; i < to; i++)
      if (stores(v->v[i], o)) return false;
  }
  return c->ok;
}

/* the store a while loop's body ends with, to o, taken out as its
 * increment; NULL if it ends otherwise */
static Node *last_store(Node *loop, Obj *o) {
  Node *b = loop->d;
  if (!b || b->k != S_BLOCK || b->list.n < 2) return NULL;
  Node *s = b->list.v[b->list.n - 1];
  if (s->k != S_EXPR || !s->a || stored_var(s->a) != o || bare(s->a->a)->k != N_VAR) return NULL;
  if (any_node(b, cont_p, loop)) return NULL;
  Cn c = {0};
  c.ok = true;
  walk(s->a, init_var_f, &c);   /* (as the increment, outside the body's scope) */
  for (int j = 0; j < c.n; j++)
    if (decl_in(b, c.init_vars[j])) return NULL;
  return c.ok ? s : NULL;
}

/* the one variable statement s declares (the frontend's declaration
 * statements are groups: blocks with no scope of their own) */
static Node *decl1(Node *s) {
  if (s->k == S_BLOCK && s->post && s->list.n == 1) s = s->list.v[0];
  return s->k == S_DECL && s->var ? s : NULL;
}

/* v[i] declares o; the loop at v[l] may take it */
static bool take(Cn *c, Vec *v, int i, int l) {
  Node *d = decl1(v->v[i]), *loop = v->v[l];
  Obj *o = d->var;
  if (o->is_shared || o->ty->kind == TY_ARRAY || o->ty->kind == TY_RECORD || any_node(c->body, addr_p, o)) return false;
  for (int j = i + 1; j < l; j++)
    if (uses(v->v[j], o)) return false;
  for (int j = l + 1; j < v->n; j++)
    if (uses(v->v[j], o)) return false;
  if (loop->k == S_FOR && !loop->a && d->a && loop->c && stored_var(loop->c) == o)   /* (1): its variable */
    return stays(c, d->a, v, i + 1, l);
  if (loop->k == S_FOR && !d->a && loop->a && loop->a->k == S_EXPR && loop->a->a && loop->a->a->k == N_ASSIGN &&
      loop->a->a->op == OP_ASSIGN && bare(loop->a->a->a)->k == N_VAR && bare(loop->a->a->a)->var == o &&
      !uses(loop->a->a->b, o))   /* (3) */
    return true;
  if ((loop->k == S_WHILE || (loop->k == S_FOR && !loop->a && !loop->c)) && d->a && loop->b && last_store(loop, o))
    return stays(c, d->a, v, i + 1, l);   /* (2), and `for (; i < n;) { ...; i += s; }` */
  return false;
}

static void cn_list(Cn *c, Vec *v) {
  for (int i = 0; i < v->n; i++) {
    Node *d = decl1(v->v[i]);
    if (!d) continue;
    int l = i + 1;
    while (l < v->n && ((Node *)v->v[l])->k != S_FOR && ((Node *)v->v[l])->k != S_WHILE) l++;
    if (l == v->n || !take(c, v, i, l)) continue;
    Node *loop = v->v[l];
    if (loop->k == S_FOR && loop->a) {   /* (3): `i = e` becomes the declaration's value */
      d->a = loop->a->a->b;
    } else if (loop->k == S_WHILE || !loop->c) {   /* (2) */
      Node *s = last_store(loop, d->var);
      loop->d->list.n--;
      loop->k = S_FOR;
      loop->c = s->a;
    }
    loop->a = v->v[i];
    for (int j = i; j + 1 < v->n; j++) v->v[j] = v->v[j + 1];
    v->n--;
    i--;
  }
}

static int cn_f(Node *n, void *c) {
  if (n->k == S_BLOCK) cn_list(c, &n->list);
  return W_GO;
}

void lw_canon(Obj *f) {
  if (!f->body) return;
  Cn c = {f->body, {0}, 0, true};
  walk(f->body, cn_f, &c);
}
