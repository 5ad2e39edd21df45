/* clone.c: a copy of a device function, its own parameters, locals and
 * statements: each warp version of a function (warpfn.c) is analysed with
 * the shapes of its call site, which the side tables keep per object. */
#include "lw.h"

typedef struct Cm { Vec from, to; } Cm;

static void *cm_get(Cm *m, void *p) {
  for (int i = 0; i < m->from.n; i++)
    if (m->from.v[i] == p) return m->to.v[i];
  return p;
}

static void cm_put(Cm *m, void *from, void *to) {
  vec_push(&m->from, from);
  vec_push(&m->to, to);
}

/* each node's copy and the copies of the locals it names */
static void cl_post(Node *c, Node *n, void *p) {
  Cm *m = p;
  cm_put(m, n, c);
  if (c->var) c->var = cm_get(m, c->var);
}

static int retarget(Node *n, void *p) {
  if (n->target) n->target = cm_get(p, n->target);
  return W_GO;
}

Obj *lw_clone_fn(Obj *f, const char *cname) {
  Cm m = {0};
  Obj *c = memcpy(xcalloc(1, sizeof *c), f, sizeof *c);
  c->cname = xstrdup(cname);
  c->params = (Vec){0};
  c->locals = (Vec){0};
  for (int i = 0; i < f->locals.n; i++) {
    Obj *o = f->locals.v[i], *k = memcpy(xcalloc(1, sizeof *k), o, sizeof *k);
    cm_put(&m, o, k);
    vec_push(&c->locals, k);
  }
  for (int i = 0; i < f->params.n; i++) vec_push(&c->params, cm_get(&m, f->params.v[i]));
  if (f->self) c->self = cm_get(&m, f->self);
  c->body = copy_x(&(Cpx){NULL, cl_post, &m}, f->body);
  walk(c->body, retarget, &m);
  free(m.from.v);
  free(m.to.v);
  return c;
}
