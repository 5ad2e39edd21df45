/* sroa.c: scalar replacement of a function's objects.
 *
 * C++ device code keeps its state in objects: CUB's BlockReduce holds a
 * reference to its temp storage and the thread's linear_tid, its
 * WarpReduceShfl lane_id, warp_id and member_mask, each built by a
 * constructor and read through `this` by member functions. Lowered as
 * written, such an object is a record per lane whose address is taken, so
 * every field is varying (uniform.c: its address escapes), the warp
 * versions of its member functions take `this` as 32 pointers, and every
 * field access is a gather. Split into one local per field, `lane_id =
 * linear_tid & 31` is an affine value, `warp_id` one per warp and the
 * temp storage a uniform pointer (shape.c, uniform.c).
 *
 * A local record is split when every use of it is a field (`v.f`, `p->f`
 * or `(*p).f` through a pointer that can only point to it), a copy from
 * or to another such record (`v = w`, `T v = w`, where the value is not
 * used), or its declaration. Pointers to it ("forwarders": a local
 * pointer with one definition, `p = &v` or `p = q` of another, whose
 * value is only dereferenced or copied to another forwarder, as
 * `this` and `T &` parameters become once inlined) are replaced by the
 * object (any local's: `*p` of an `int &` is the int). A call that takes
 * such an object or pointer, or builds the record (a constructor), is
 * inlined first (inline.c, fe_inline_calls), rounds until no such call is
 * left that the inliner can place; what then still takes an object's
 * address keeps it whole. Runs on kernels and device functions, after
 * parsing and inlining, before the lowering's analyses (translate.c). */
#include "fe.h"

typedef struct Tr {
  Obj *o;
  bool rec;      /* a record of scalar fields: may be split */
  bool bad;      /* ... it may not */
  bool ptr;      /* a pointer local: may forward */
  bool fbad;     /* ... it may not */
  bool seed;     /* a record split: its address was taken, or copied to
                    or from one that is */
  int ndef;      /* pointer: definitions */
  Node *def;     /* ... the one's value (its last comma operand) */
  Obj *to;       /* ... the object it points to */
  Type *pun;     /* ... read as this integer type of the object's size
                    (CUB's `(ShuffleWord *)&input`), or NULL */
  Vec fl;        /* Obj*: a split record's field locals, in field order */
} Tr;

typedef struct Sr {
  Fe *p;
  Obj *fn;
  Vec tr;        /* Tr* */
  Vec want;      /* Node*: calls to inline */
  Vec pairs;     /* Obj*, Obj*: records copied one to another */
  bool changed;
} Sr;

static Tr *tr_of(Sr *s, Obj *o) {
  for (int i = 0; o && i < s->tr.n; i++)
    if (((Tr *)s->tr.v[i])->o == o) return s->tr.v[i];
  return NULL;
}

static bool scalar_ty(Type *t) { return t->kind >= TY_BOOL && t->kind <= TY_PTR && !t->is_volatile; }

static bool split_ty(Type *t) {
  if (t->kind != TY_RECORD || !t->rec || t->rec->is_union || !t->rec->fields.n || t->is_volatile) return false;
  for (int i = 0; i < t->rec->fields.n; i++)
    if (!scalar_ty(((Field *)t->rec->fields.v[i])->ty)) return false;
  return true;
}

/* n without the casts that keep its type: clang's implicit ones, and a
 * record's to itself (CUB's functional cast `BlockReduce(temp)`) */
static Node *strip(Node *n) {
  for (;; n = n->a) {
    if (!n || n->k != N_CAST || !n->a) return n;
    Type *t = n->ty, *u = n->a->ty;
    if (t->kind == TY_RECORD && u->kind == TY_RECORD && t->rec == u->rec) continue;
    if (!n->implicit || t->kind != u->kind) return n;
    if (t->kind == TY_PTR && t->base != u->base &&
        !(t->base && u->base && t->base->kind == u->base->kind && t->base->rec == u->base->rec))
      return n;
  }
}

static void bad(Sr *s, Tr *t) {
  if (t && t->rec && !t->bad) t->bad = s->changed = true;
}

static void fbad(Sr *s, Tr *t) {
  if (t && t->ptr && !t->fbad) t->fbad = s->changed = true;
}

/* a good forwarder's object */
static Tr *fwd(Sr *s, Node *n) {
  n = strip(n);
  if (!n || n->k != N_VAR) return NULL;
  Tr *t = tr_of(s, n->var);
  return t && t->ptr && !t->fbad && t->to ? tr_of(s, t->to) : NULL;
}

/* the pointer *p or p[0] reads through, or NULL */
static Node *deref_of(Node *n) {
  if (n->k == N_UN && n->op == OP_DEREF) return n->a;
  if (n->k == N_INDEX && strip(n->b)->k == N_NUM && strip(n->b)->ival == 0 && n->a->ty->kind == TY_PTR) return n->a;
  return NULL;
}

/* the forwarder p of *p, p[0], or NULL */
static Tr *fwd_of(Sr *s, Node *n) {
  Node *a = deref_of(n);
  a = a ? strip(a) : NULL;
  Tr *t = a && a->k == N_VAR ? tr_of(s, a->var) : NULL;
  return t && t->ptr && !t->fbad && t->to ? t : NULL;
}

/* the local an lvalue expression designates: v, *p, p[0], *&v */
static Tr *des(Sr *s, Node *n) {
  n = strip(n);
  if (n->k == N_VAR) {
    Tr *t = tr_of(s, n->var);
    return t && !t->ptr ? t : NULL;
  }
  Node *a = deref_of(n);
  if (a) {
    a = strip(a);
    if (a->k == N_UN && a->op == OP_ADDR) return des(s, a->a);
    return fwd(s, a);
  }
  return NULL;
}

/* what a call's argument passes of a local: the object, its address, a
 * pointer to it */
static Tr *passed(Sr *s, Node *a) {
  a = strip(a);
  while (a->k == N_COMMA) a = strip(a->b);
  Tr *t = des(s, a);
  if (t) return t;
  if (a->k == N_UN && a->op == OP_ADDR) return des(s, a->a);
  if (a->k == N_VAR) {
    Tr *q = tr_of(s, a->var);
    if (q && q->ptr) return q;
  }
  return NULL;
}

static int nnodes(Node *n) {
  if (!n) return 0;
  int k = 1 + nnodes(n->a) + nnodes(n->b) + nnodes(n->c) + nnodes(n->d);
  for (int i = 0; i < n->list.n; i++) k += nnodes(n->list.v[i]);
  return k;
}

/* does f call g (directly or not)? */
static bool reaches(Node *n, Obj *g, Vec *seen) {
  if (!n) return false;
  if (n->k == N_CALL && n->ck == C_FUNC && n->fn) {
    if (n->fn == g) return true;
    bool in = false;
    for (int i = 0; i < seen->n; i++) in |= seen->v[i] == n->fn;
    if (!in) {
      vec_push(seen, n->fn);
      if (reaches(n->fn->body, g, seen)) return true;
    }
  }
  if (reaches(n->a, g, seen) || reaches(n->b, g, seen) || reaches(n->c, g, seen) || reaches(n->d, g, seen)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (reaches(n->list.v[i], g, seen)) return true;
  return false;
}

static bool inlinable(Obj *f) {
  if (!f || !f->has_body || !f->body || f->is_kernel || f->is_lambda || f->key) return false;
  if (nnodes(f->body) > 4000) return false;   /* (CUB's member functions: tens to hundreds) */
  Vec seen = {0};
  bool rec = reaches(f->body, f, &seen);
  free(seen.v);
  return !rec;
}

static void want(Sr *s, Node *call) {
  if (!inlinable(call->fn)) return;
  for (int i = 0; i < s->want.n; i++)
    if (s->want.v[i] == call) return;
  vec_push(&s->want, call);
}

static void chk(Sr *s, Node *n, bool vd);

static bool has_loop(Node *n) {
  if (!n) return false;
  if (n->k == S_FOR || n->k == S_WHILE || n->k == S_DO) return true;
  if (has_loop(n->a) || has_loop(n->b) || has_loop(n->c) || has_loop(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_loop(n->list.v[i])) return true;
  return false;
}

/* A field of an object given a small loop-free function's value (a
 * constructor's `linear_tid(RowMajorTid(...))`, `lane_id(LaneId())`): the
 * call is inlined too, so that the field's local has the shape of what it
 * computes (shape.c sees through a call only where its body is one
 * return; fold.c then folds the ?: of its constant arguments). */
static void field_init(Sr *s, Node *l, Node *v) {
  while (v->k == N_CAST && v->a && scalar_ty(v->ty) && scalar_ty(v->a->ty)) v = v->a;
  if (l->k != N_MEMBER || v->k != N_CALL || v->ck != C_FUNC || !v->fn || !v->fn->body) return;
  Node *a = strip(l->a);
  Tr *x = l->post ? fwd(s, a) : des(s, a);
  if (x && x->rec && nnodes(v->fn->body) <= 80 && !has_loop(v->fn->body)) want(s, v);
}

/* the value a record target is given: another record's (paired), a call's
 * (inlined first) */
static void rec_val(Sr *s, Tr *x, Node *v) {
  Node *b = strip(v);
  Tr *y = des(s, b);
  if (y && y->rec) {
    vec_push(&s->pairs, x->o);
    vec_push(&s->pairs, y->o);
    return;
  }
  bad(s, x);
  if (b->k == N_CALL && b->ck == C_FUNC && b->fn && b->fn->is_ctor) want(s, b);
  chk(s, v, false);
}

/* a forwarder's definition p = v */
static void ptr_def(Sr *s, Tr *p, Node *v, bool vd) {
  if (!vd) fbad(s, p);
  Node *b = strip(v);
  while (b->k == N_COMMA) {
    chk(s, b->a, true);
    b = strip(b->b);
  }
  /* &x and q are the definition itself, not uses of x or q, while p
   * forwards */
  if (b->k == N_CAST && b->ty->kind == TY_PTR && p->pun) b = strip(b->a);
  if (!p->fbad && ((b->k == N_UN && b->op == OP_ADDR && strip(b->a)->k == N_VAR) || b->k == N_VAR)) return;
  chk(s, b, false);
}

/* The uses in n (vd: its value is not used). */
static void chk(Sr *s, Node *n, bool vd) {
  if (!n) return;
  switch (n->k) {
  case N_VAR: {
    Tr *t = tr_of(s, n->var);
    if (!t) return;
    if (t->ptr) fbad(s, t);   /* the pointer's value itself */
    else bad(s, t);          /* the whole record */
    return;
  }
  case N_MEMBER: {
    Node *a = strip(n->a);
    if (!n->post && des(s, a)) return;
    if (n->post && (fwd(s, a) || (a->k == N_UN && a->op == OP_ADDR && des(s, a->a)))) return;
    chk(s, n->a, false);
    return;
  }
  case N_INDEX:
  case N_UN:
    if (fwd_of(s, n)) {
      bad(s, fwd(s, deref_of(n)));   /* a record's whole value here: not a field */
      return;
    }
    if (n->k == N_INDEX) break;
    if (n->op == OP_ADDR) {   /* &v, &v.f, &*p, &p->f: the address escapes */
      Node *a = strip(n->a), *q = NULL;
      while (a->k == N_MEMBER && !a->post) a = strip(a->a);
      if (a->k == N_MEMBER || (a->k == N_UN && a->op == OP_DEREF)) q = strip(a->a);
      if (q && q->k == N_VAR) fbad(s, tr_of(s, q->var));
      Tr *x = des(s, a);
      if (x) bad(s, x);
      chk(s, n->a, false);
      return;
    }
    break;
  case N_INCDEC:
  case N_ASSIGN: {
    /* through a punned pointer: only stores of a value not used */
    Tr *q = fwd_of(s, strip(n->a));
    if (q && q->pun && (n->k != N_ASSIGN || n->op != OP_ASSIGN || !vd)) fbad(s, q);
  }
    if (n->k == N_ASSIGN && n->op == OP_ASSIGN) {
      Node *l = strip(n->a);
      Tr *t = l->k == N_VAR ? tr_of(s, l->var) : NULL;
      if (t && t->ptr) {
        ptr_def(s, t, n->b, vd);
        return;
      }
      Tr *x = des(s, l);
      if (x && x->rec) {
        if (!vd) bad(s, x);
        rec_val(s, x, n->b);
        return;
      }
      Tr *y = des(s, n->b);
      if (y && y->rec) bad(s, y);   /* copied into memory */
      field_init(s, l, n->b);
    }
    break;
  case N_CALL:   /* a call taking a record's address: inlined, if it can be */
    for (int i = 0; i < n->list.n; i++) {
      Tr *t = n->ck == C_FUNC ? passed(s, n->list.v[i]) : NULL;
      if (t && t->ptr && !t->fbad && t->to) t = tr_of(s, t->to);
      if (t && !t->ptr && split_ty(t->o->ty) && strip(n->list.v[i])->ty->kind == TY_PTR) want(s, n);
    }
    break;
  case N_COMMA:
    chk(s, n->a, true);
    chk(s, n->b, vd);
    return;
  case S_DECL: {
    Tr *t = tr_of(s, n->var);
    if (t && t->ptr && n->a) {
      ptr_def(s, t, n->a, true);
      return;
    }
    if (t && t->rec && n->a) {
      rec_val(s, t, n->a);
      return;
    }
    break;
  }
  case S_EXPR:
    chk(s, n->a, true);
    return;
  case S_FOR:   /* (its increment's value is not used) */
    chk(s, n->a, true);
    chk(s, n->b, false);
    chk(s, n->c, true);
    chk(s, n->d, true);
    return;
  default: break;
  }
  /* (statements ignore vd; expressions below here use their operands) */
  chk(s, n->a, false);
  chk(s, n->b, false);
  chk(s, n->c, false);
  chk(s, n->d, false);
  for (int i = 0; i < n->list.n; i++) chk(s, n->list.v[i], false);
}

/* ---- the locals: pointers' definitions ---- */
static void defs(Sr *s, Node *n) {
  if (!n) return;
  if ((n->k == S_DECL && n->a) || (n->k == N_ASSIGN && strip(n->a)->k == N_VAR)) {
    Obj *o = n->k == S_DECL ? n->var : strip(n->a)->var;
    Tr *t = tr_of(s, o);
    if (t && t->ptr) {
      t->ndef++;
      if (n->k == N_ASSIGN && n->op != OP_ASSIGN) t->fbad = true;
      Node *v = strip(n->k == S_DECL ? n->a : n->b);
      while (v->k == N_COMMA) v = strip(v->b);
      t->def = v;
    }
  }
  if (n->k == N_INCDEC) {
    Node *a = strip(n->a);
    Tr *t = a->k == N_VAR ? tr_of(s, a->var) : NULL;
    if (t) t->fbad = true;
  }
  defs(s, n->a);
  defs(s, n->b);
  defs(s, n->c);
  defs(s, n->d);
  for (int i = 0; i < n->list.n; i++) defs(s, n->list.v[i]);
}

static bool int_ty(Type *t) { return t && t->kind >= TY_CHAR && t->kind <= TY_ULLONG && !t->is_volatile; }

static bool local(Obj *o) {
  return !o->is_param && !o->is_shared && !o->is_global && !o->is_extern_shared && !o->ty->is_volatile;
}

static void track(Sr *s) {
  s->tr.n = 0;
  for (int i = 0; i < s->fn->locals.n; i++) {
    Obj *o = s->fn->locals.v[i];
    bool prm = o->is_param && !o->is_shared && !o->is_global && !o->ty->is_volatile;
    if ((!local(o) && !prm) || o->ty->kind == TY_ARRAY) continue;
    Tr *t = xcalloc(1, sizeof *t);
    t->o = o;
    t->rec = !prm && split_ty(o->ty);   /* (a parameter: a pointer's object only) */
    t->bad = !t->rec;
    t->ptr = !prm && o->ty->kind == TY_PTR && !o->addr_taken;
    vec_push(&s->tr, t);
  }
  defs(s, s->fn->body);
  /* p = &x, p = q: chains resolved (a cycle forwards nothing) */
  for (int i = 0; i < s->tr.n; i++) {
    Tr *t = s->tr.v[i];
    if (!t->ptr) continue;
    Node *v = t->def;
    for (int hop = 0; !t->fbad && t->ndef == 1 && v && hop < 16; hop++) {
      if (hop == 0 && v->k == N_CAST && v->ty->kind == TY_PTR && int_ty(v->ty->base) && strip(v->a)->k == N_UN &&
          strip(v->a)->op == OP_ADDR && strip(strip(v->a)->a)->k == N_VAR) {
        /* (U *)&x, U and x integers of one size: *p is (U)x, *p = e is x = e */
        Tr *x = tr_of(s, strip(strip(v->a)->a)->var);
        if (x && !x->ptr && int_ty(x->o->ty) && x->o->ty->size == v->ty->base->size) t->to = x->o, t->pun = v->ty->base;
        break;
      }
      if (v->k == N_UN && v->op == OP_ADDR && strip(v->a)->k == N_VAR) {
        Tr *x = tr_of(s, strip(v->a)->var);
        if (x && !x->ptr && v->ty->base == x->o->ty) t->to = x->o;
        else if (x && !x->ptr && v->ty->base && x->o->ty->kind == v->ty->base->kind &&
                 (x->o->ty->kind != TY_RECORD || x->o->ty->rec == v->ty->base->rec))
          t->to = x->o;
        break;
      }
      if (v->k != N_VAR) break;
      Tr *q = tr_of(s, v->var);
      if (!q || !q->ptr || q->ndef != 1 || q->fbad) break;
      v = q->def;
    }
    if (!t->to) t->fbad = true;
  }
}

/* ---- the rewrite ---- */
static Obj *fld(Tr *x, Field *f) {
  Record *r = x->o->ty->rec;
  for (int i = 0; i < r->fields.n; i++)
    if (r->fields.v[i] == f) return x->fl.v[i];
  return NULL;
}

static Node *var(Obj *o, Node *at) {
  Node *v = xcalloc(1, sizeof *v);
  *v = (Node){.k = N_VAR, .var = o, .ty = o->ty, .file = at->file, .line = at->line, .col = at->col};
  return v;
}

static Node *mk(NodeKind k, Type *ty, Node *a, Node *b, Node *at) {
  Node *n = xcalloc(1, sizeof *n);
  *n = (Node){.k = k, .ty = ty, .a = a, .b = b, .file = at->file, .line = at->line, .col = at->col};
  if (k == N_ASSIGN) n->op = OP_ASSIGN;
  if (k == N_COMMA) n->op = OP_COMMA;
  return n;
}

/* x = y, field by field: (x_f0 = y_f0, x_f1 = y_f1, ...); as a
 * statement, one statement each (uniform.c makes every local a varying
 * statement stores to varying) */
static Node *copy(Tr *x, Tr *y, Node *at, Node *stmt) {
  Node *e = NULL;
  for (int i = 0; i < x->fl.n; i++) {
    Obj *a = x->fl.v[i], *b = y->fl.v[i];
    Node *as = mk(N_ASSIGN, a->ty, var(a, at), var(b, at), at);
    if (stmt) {
      Node *st = mk(S_EXPR, NULL, as, NULL, at);
      vec_push(&stmt->list, st);
    }
    e = e ? mk(N_COMMA, a->ty, e, as, at) : as;
  }
  return e;
}

static Node *rw(Sr *s, Node *n);

static Node *rw_list(Sr *s, Node *n) {
  n->a = rw(s, n->a);
  n->b = rw(s, n->b);
  n->c = rw(s, n->c);
  n->d = rw(s, n->d);
  for (int i = 0; i < n->list.n; i++) n->list.v[i] = rw(s, n->list.v[i]);
  return n;
}

/* a split record's designation, or NULL */
static Tr *sdes(Sr *s, Node *n) {
  Tr *t = des(s, n);
  return t && t->rec && !t->bad ? t : NULL;
}

/* a copy between split records (the assignment), or NULL */
static Node *sdes_l(Sr *s, Node *as) { return sdes(s, as->a) && sdes(s, as->b) ? as : NULL; }

/* the side effects of a forwarder's definition (its comma's left
 * operands), or NULL */
static Node *def_rest(Sr *s, Node *v) {
  Node *b = strip(v), *e = NULL;
  while (b->k == N_COMMA) {
    Node *l = rw(s, b->a);
    e = e ? mk(N_COMMA, l->ty, e, l, l) : l;
    b = strip(b->b);
  }
  return e;
}

static Node *rw(Sr *s, Node *n) {
  if (!n) return NULL;
  switch (n->k) {
  case N_MEMBER: {
    Node *a = strip(n->a);
    Tr *x = NULL;
    if (!n->post) x = sdes(s, a);
    else if (fwd(s, a)) x = fwd(s, a);
    else if (a->k == N_UN && a->op == OP_ADDR) x = des(s, a->a);
    if (x && x->rec && !x->bad) {
      Obj *f = fld(x, n->field);
      if (f) return var(f, n);
    }
    if (x && n->post) {   /* p->f of an object kept whole: x.f */
      n->post = false;
      n->a = var(x->o, n);
      return n;
    }
    break;
  }
  case N_INDEX:
  case N_UN: {
    Tr *q = fwd_of(s, n);
    if (!q) break;
    Node *x = var(tr_of(s, q->to)->o, n);
    return q->pun ? mk(N_CAST, q->pun, x, NULL, n) : x;
  }
  case N_ASSIGN: {
    Node *l = strip(n->a);
    Tr *q = fwd_of(s, l);
    if (q && q->pun) {   /* *(U *)&x = e: x = e */
      Obj *x = tr_of(s, q->to)->o;
      return mk(N_ASSIGN, x->ty, var(x, n), mk(N_CAST, x->ty, rw(s, n->b), NULL, n), n);
    }
    Tr *t = l->k == N_VAR ? tr_of(s, l->var) : NULL;
    if (n->op == OP_ASSIGN && t && t->ptr && !t->fbad) {
      Node *e = def_rest(s, n->b);
      if (e) return e;
      Type *ty = xcalloc(1, sizeof *ty);
      *ty = (Type){.kind = TY_INT, .size = 4, .align = 4};
      return mk(N_NUM, ty, NULL, NULL, n);
    }
    Tr *x = n->op == OP_ASSIGN ? sdes(s, l) : NULL;
    if (x) {
      Tr *y = sdes(s, n->b);
      if (y) return copy(x, y, n, NULL);
    }
    break;
  }
  case S_DECL: {
    Tr *t = tr_of(s, n->var);
    if (t && t->ptr && !t->fbad) {   /* its side effects, each a statement */
      Node *b = xcalloc(1, sizeof *b);
      *b = (Node){.k = S_BLOCK, .post = true, .file = n->file, .line = n->line, .col = n->col};
      for (Node *v = n->a ? strip(n->a) : NULL; v && v->k == N_COMMA; v = strip(v->b))
        vec_push(&b->list, rw(s, mk(S_EXPR, NULL, v->a, NULL, v->a)));
      return b;
    }
    if (t && t->rec && !t->bad) {
      Tr *y = n->a ? sdes(s, n->a) : NULL;
      Node *b = xcalloc(1, sizeof *b);
      *b = (Node){.k = S_BLOCK, .post = true, .file = n->file, .line = n->line, .col = n->col};
      for (int i = 0; i < t->fl.n; i++) {
        Node *d = xcalloc(1, sizeof *d);
        *d = (Node){.k = S_DECL, .var = t->fl.v[i], .file = n->file, .line = n->line, .col = n->col};
        if (y) d->a = var(y->fl.v[i], n);
        vec_push(&b->list, d);
      }
      return b;
    }
    break;
  }
  case S_EXPR: {
    Node *l = n->a && n->a->k == N_ASSIGN && n->a->op == OP_ASSIGN ? sdes_l(s, n->a) : NULL;
    if (l) {
      Node *b = xcalloc(1, sizeof *b);
      *b = (Node){.k = S_BLOCK, .post = true, .file = n->file, .line = n->line, .col = n->col};
      copy(sdes(s, n->a->a), sdes(s, n->a->b), n->a, b);
      return b;
    }
    n->a = rw(s, n->a);
    if (n->a && n->a->k == N_NUM) n->k = S_NULL, n->a = NULL;   /* a forwarder's definition, gone */
    return n;
  }
  default: break;
  }
  return rw_list(s, n);
}

/* is o's address still taken in n? */
static bool addr_in(Node *n, Obj *o) {
  if (!n) return false;
  if (n->k == N_UN && n->op == OP_ADDR) {
    Node *a = strip(n->a);
    while ((a->k == N_MEMBER && !a->post) || a->k == N_INDEX) a = strip(a->a);
    if (a->k == N_VAR && a->var == o) return true;
  }
  if (addr_in(n->a, o) || addr_in(n->b, o) || addr_in(n->c, o) || addr_in(n->d, o)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (addr_in(n->list.v[i], o)) return true;
  return false;
}

static Type *unconst(Type *t) {
  if (!t->is_const) return t;
  Type *u = xcalloc(1, sizeof *u);
  *u = *t;
  u->is_const = false;
  return u;
}

/* ---- constants ----
 * A local integer whose one store is its declaration's constant value
 * (CUB's `const int WORDS = (sizeof(T) + 3) / 4`) is that value where it
 * is read; a for loop whose test fails on entry (`for (int WORD = 1; WORD
 * < WORDS; ...)`, reading the pointer a reinterpret_cast made by index)
 * is its init. Then fewer pointers escape. */

/* n's value with variable v taken as c (frontend/eval.c) */
typedef struct { Obj *v; int64_t c; } Bound1;
static bool bound1(Obj *o, int64_t *r, void *ctx) {
  Bound1 *b = ctx;
  return o == b->v && (*r = b->c, true);
}

static bool ceval(Node *n, Obj *v, int64_t c, int64_t *r) {
  Bound1 b = {v, c};
  return ev_intv(n, bound1, &b, r);
}

Node *fe_dup(Node *n) {
  if (!n) return NULL;
  Node *c = xcalloc(1, sizeof *c);
  *c = *n;
  c->a = fe_dup(n->a);
  c->b = fe_dup(n->b);
  c->c = fe_dup(n->c);
  c->d = fe_dup(n->d);
  c->list = (Vec){0};
  for (int i = 0; i < n->list.n; i++) vec_push(&c->list, fe_dup(n->list.v[i]));
  return c;
}

static void subst(Node *n, Obj *v, Node *e) {
  if (!n) return;
  if (n->k == N_VAR && n->var == v) {
    Node *c = fe_dup(e);
    Type *ty = n->ty;
    *n = *c;
    if (n->ty->kind != ty->kind) {   /* (as the variable's type) */
      *n = (Node){.k = N_CAST, .ty = ty, .a = c, .file = c->file, .line = c->line, .col = c->col};
    }
    return;
  }
  subst(n->a, v, e);
  subst(n->b, v, e);
  subst(n->c, v, e);
  subst(n->d, v, e);
  for (int i = 0; i < n->list.n; i++) subst(n->list.v[i], v, e);
}

static int nstores(Node *n, Obj *v);
static Node *decl_of(Node *n, Obj *v);

/* the variable a for's init declares, with its value */
static Node *for_decl(Node *f) {
  Node *a = f->a;
  if (a && a->k == S_BLOCK && a->list.n == 1) a = a->list.v[0];
  return a && a->k == S_DECL && a->a ? a : NULL;
}

static void dead_loops(Node *n) {
  if (!n) return;
  Node *d = n->k == S_FOR ? for_decl(n) : NULL;
  int64_t c, t;
  if (d && n->b && int_ty(d->var->ty) && ceval(d->a, NULL, 0, &c) && ceval(n->b, d->var, c, &t) && !t) {
    *n = *n->a;   /* its test fails on entry: the init only */
    return;
  }
  dead_loops(n->a);
  dead_loops(n->b);
  dead_loops(n->c);
  dead_loops(n->d);
  for (int i = 0; i < n->list.n; i++) dead_loops(n->list.v[i]);
}

static void consts(Obj *fn) {
  int64_t c;
  for (int i = 0; i < fn->locals.n; i++) {
    Obj *v = fn->locals.v[i];
    if (!local(v) || v->addr_taken || (!int_ty(v->ty) && v->ty->kind != TY_BOOL)) continue;
    Node *d = decl_of(fn->body, v);
    if (!d || !ev_const(d->a, &c) || nstores(fn->body, v) != 1) continue;
    Node *e = d->a;
    d->a = NULL;   /* (not substituted into itself) */
    subst(fn->body, v, e);
    d->a = e;
  }
  dead_loops(fn->body);
}

/* ---- a declaration joined to its one store ----
 * The locals this pass made (inlined functions' results, parameters and
 * locals; the split fields) are declared without a value and set by one
 * store later (`T ret; ... ret = v;`, `x_f = ret_f`). shape.c gives an
 * affine shape only to a variable whose declaration has its value, so
 * where the one store follows the declaration in straight-line code (the
 * same block, or blocks in it) and nothing reads the variable between,
 * the store becomes the declaration. */

static bool ref_p(Node *n, void *v) { return (n->k == N_VAR || n->k == S_DECL) && n->var == v; }
static bool refs(Node *n, Obj *v) { return any_node(n, ref_p, v); }

static int nstores(Node *n, Obj *v) {
  if (!n) return 0;
  int k = 0;
  if (n->k == N_ASSIGN || n->k == N_INCDEC || (n->k == N_UN && n->op == OP_ADDR)) {
    Node *a = strip(n->a);
    while ((a->k == N_MEMBER && !a->post) || a->k == N_INDEX) a = strip(a->a);
    k += a->k == N_VAR && a->var == v;
  }
  if (n->k == S_DECL && n->var == v && n->a) k++;
  k += nstores(n->a, v) + nstores(n->b, v) + nstores(n->c, v) + nstores(n->d, v);
  for (int i = 0; i < n->list.n; i++) k += nstores(n->list.v[i], v);
  return k;
}

static bool is_store(Node *n, Obj *v) {
  return n->k == S_EXPR && n->a && n->a->k == N_ASSIGN && n->a->op == OP_ASSIGN && strip(n->a->a)->k == N_VAR &&
         strip(n->a->a)->var == v && !refs(n->a->b, v);
}

/* Items [i, n) of block b: 1, the store comes first (*st), reached in
 * straight-line code; -1, a read of v or a store elsewhere first; 0, v
 * not met. A declaration group (a post block) has no scope: the store
 * may become a declaration in it. A block on the way (an inlined body
 * whose last statement sets the result) is spliced into b, so that the
 * declaration is in v's scope: the C declares each local where its
 * declaration stands. (Every local has a name of its own in the function:
 * layout.c. A block with a barrier too: region.c splices those into
 * their lists itself, flatten.) */
static int scan(Node *b, int i, Obj *v, Node **st) {
  while (i < b->list.n) {
    Node *c = b->list.v[i];
    if (is_store(c, v)) {
      *st = c;
      return 1;
    }
    if (!refs(c, v)) {
      i++;
      continue;
    }
    if (c->k != S_BLOCK) return -1;
    if (c->post) return scan(c, 0, v, st) == 1 ? 1 : -1;
    if (scan(c, 0, v, st) != 1) return -1;
    Vec out = {0};
    for (int j = 0; j < b->list.n; j++)
      if (j != i) vec_push(&out, b->list.v[j]);
      else
        for (int k = 0; k < c->list.n; k++) vec_push(&out, c->list.v[k]);
    b->list = out;
  }
  return 0;
}

/* the blocks from d's up (each with the index of the item holding d),
 * while d is in a list of blocks */
static bool path(Node *n, Node *d, Vec *bs, Vec *is) {
  if (!n) return false;
  if (n == d) return true;
  for (int i = 0; n->k == S_BLOCK && i < n->list.n; i++)
    if (path(n->list.v[i], d, bs, is)) {
      vec_push(bs, n);
      vec_push(is, (void *)(intptr_t)i);
      return true;
    }
  if (n->k == S_BLOCK) return false;
  Node *k[] = {n->a, n->b, n->c, n->d};
  bool in = false;
  for (int j = 0; j < 4 && !in; j++) in = path(k[j], d, bs, is);
  for (int i = 0; i < n->list.n && !in; i++) in = path(n->list.v[i], d, bs, is);
  if (in) {   /* (d under a statement: the blocks above it are not d's) */
    vec_push(bs, NULL);
    vec_push(is, NULL);
  }
  return in;
}

/* the store that can become v's declaration d, or NULL */
static Node *first_store(Node *body, Node *d, Obj *v) {
  Vec bs = {0}, is = {0};
  Node *st = NULL;
  path(body, d, &bs, &is);
  for (int k = 0; k < bs.n && bs.v[k]; k++) {
    Node *b = bs.v[k];
    int r = scan(b, (int)(intptr_t)is.v[k] + 1, v, &st);
    if (r || !b->post) break;   /* (the end of a declaration group: on in its block) */
  }
  free(bs.v);
  free(is.v);
  return st;
}

static Node *decl_of(Node *n, Obj *v) {
  if (!n) return NULL;
  if (n->k == S_DECL && n->var == v) return n;
  Node *r = NULL;
  if ((r = decl_of(n->a, v)) || (r = decl_of(n->b, v)) || (r = decl_of(n->c, v)) || (r = decl_of(n->d, v))) return r;
  for (int i = 0; i < n->list.n; i++)
    if ((r = decl_of(n->list.v[i], v))) return r;
  return NULL;
}

static int nref_f(Node *n, void *c) {
  void **a = c;
  *(int *)a[1] += ref_p(n, a[0]);
  return W_GO;
}
static int nrefs(Node *n, Obj *v) {
  int k = 0;
  walk(n, nref_f, (void *[]){v, &k});
  return k;
}

static Node *store_of(Node *n, Obj *v) {
  if (!n) return NULL;
  if (is_store(n, v)) return n;
  Node *r = NULL;
  if ((r = store_of(n->a, v)) || (r = store_of(n->b, v)) || (r = store_of(n->c, v)) || (r = store_of(n->d, v))) return r;
  for (int i = 0; i < n->list.n; i++)
    if ((r = store_of(n->list.v[i], v))) return r;
  return NULL;
}

/* A store deeper than its declaration (a temporary declared at the
 * function's start, built in a branch: CUB's `if (linear_tid <
 * RAKING_THREADS) WarpReduce(...).Reduce(...)`): the store becomes the
 * declaration where every other use follows it in its block (or the
 * blocks of no scope around it). */
static bool sink_decl(Node *body, Node *d, Obj *v) {
  Node *st = store_of(body, v);
  Vec bs = {0}, is = {0};
  if (!st) return false;
  path(body, st, &bs, &is);
  int after = 0;
  for (int k = 0; k < bs.n && bs.v[k]; k++) {
    Node *b = bs.v[k];
    for (int i = (int)(intptr_t)is.v[k] + 1; i < b->list.n; i++) after += nrefs(b->list.v[i], v);
    if (!b->post) break;
  }
  free(bs.v);
  free(is.v);
  if (nrefs(body, v) != 2 + after) return false;   /* (the declaration and the store's own) */
  Node *e = st->a->b;
  *st = (Node){.k = S_DECL, .var = v, .a = e, .file = st->file, .line = st->line, .col = st->col};
  d->k = S_NULL;
  d->var = NULL;
  return true;
}

static void join_decls(Obj *fn, Vec *made) {
  consts(fn);
  lw_fold(fn);   /* (an inlined `if (!IS_ARCH_WARP) lane_id %= 32` is no store) */
  for (int i = 0; i < made->n; i++) {
    Obj *v = made->v[i];
    if (v->addr_taken || !scalar_ty(v->ty)) continue;
    Node *d = decl_of(fn->body, v);
    Node *st = d && !d->a && nstores(fn->body, v) == 1 ? first_store(fn->body, d, v) : NULL;
    if (!st) {
      if (d && !d->a && nstores(fn->body, v) == 1) sink_decl(fn->body, d, v);
      continue;
    }
    Node *e = st->a->b;
    *st = (Node){.k = S_DECL, .var = v, .a = e, .file = st->file, .line = st->line, .col = st->col};
    d->k = S_NULL;
    d->var = NULL;
  }
}

/* ---- copies forwarded ----
 * An inlined call's parameters and results are copies of the caller's
 * values (`T input = output;` ... `T ret = out;`), each a lane array in
 * memory where it varies (the warp versions of calls take their
 * addresses, so the C compiler keeps every copy): CUB's WarpReduceShfl
 * copied its value five times a shuffle step. A local this pass made,
 * set only by its declaration, to another local y of its type, is read
 * as y where no store to y comes between the declaration and the read. */

/* the items from i of block b: may each read of x there read y? (*gone:
 * y stored on the way; a statement that both reads x and stores y, or
 * a loop doing so, is refused whatever its order) */
static bool fwd_ok(Node *b, int i, Obj *x, Obj *y, bool *gone) {
  for (; i < b->list.n; i++) {
    Node *c = b->list.v[i];
    if (!refs(c, x)) {
      *gone |= nstores(c, y) > 0;
      continue;
    }
    if (*gone) return false;
    if (c->k == S_BLOCK) {
      if (!fwd_ok(c, 0, x, y, gone)) return false;
      continue;
    }
    if (nstores(c, y)) return false;
  }
  return true;
}

static bool copy_src(Obj *x, Obj *y) {
  if (y == x || y->addr_taken || y->ty->is_volatile || y->is_shared || y->is_global || y->is_extern_shared) return false;
  Type *a = x->ty, *b = y->ty;
  if (a->kind != b->kind || a->is_ref || b->is_ref) return false;
  return a->kind != TY_PTR || a->base == b->base ||
         (a->base && b->base && a->base->kind == b->base->kind && a->base->rec == b->base->rec);
}

/* is c the statement `y = x`? */
static bool back_copy(Node *c, Obj *x, Obj *y) {
  if (c->k != S_EXPR || !c->a || c->a->k != N_ASSIGN || c->a->op != OP_ASSIGN) return false;
  Node *l = strip(c->a->a), *r = strip(c->a->b);
  return l->k == N_VAR && l->var == y && r->k == N_VAR && r->var == x;
}

/* is c a store of x that reads y only before it: `x = e`, `x += e`,
 * `x++`, or one under `if (t)` (the shuffle tree's `if (lane + offset <=
 * last) output = op(input, temp)`), y stored by neither? */
static bool first_mod(Node *c, Obj *x, Obj *y) {
  while (c->k == S_BLOCK && !c->post && c->list.n == 1) c = c->list.v[0];
  if (nstores(c, y)) return false;
  if (c->k == S_IF && !c->c && !refs(c->a, x)) return first_mod(c->b, x, y);
  if (c->k != S_EXPR || !c->a || (c->a->k != N_ASSIGN && c->a->k != N_INCDEC)) return false;
  Node *l = strip(c->a->a);
  return l->k == N_VAR && l->var == x && (!c->a->b || nstores(c->a->b, x) == 0);
}

/* A copy changed, then copied back (`T x = y; ... x = f(y, x) ...; y =
 * x;`, an inlined call's by-value parameter made its result): x may be
 * y itself where y is only read before x changes, not at all after it
 * until the copy back, and x is dead after that. The items from i of
 * block b, in order; *st: 0 before x changes, 1 after, 2 after the copy
 * back; false: not so. *ny: y's references before x changes. */
static bool coal_ok(Node *b, int i, Obj *x, Obj *y, int *st, int *ny) {
  for (; i < b->list.n; i++) {
    Node *c = b->list.v[i];
    bool rx = refs(c, x), ry = refs(c, y);
    if (!rx && !ry) continue;
    if (c->k == S_BLOCK) {
      if (!coal_ok(c, 0, x, y, st, ny)) return false;
      continue;
    }
    switch (*st) {
    case 0:
      if (back_copy(c, x, y)) *st = 2;
      else if (nstores(c, y)) return false;
      else if (nstores(c, x)) {
        if (!first_mod(c, x, y)) return false;
        *st = 1;
      }
      *ny += nrefs(c, y);
      break;
    case 1:
      if (back_copy(c, x, y)) *st = 2;
      else if (ry) return false;
      break;
    default:
      if (rx) return false;
    }
  }
  return true;
}

static void drop_local(Obj *fn, Obj *x) {
  for (int j = 0; j < fn->locals.n; j++)
    if (fn->locals.v[j] == x) {
      memmove(&fn->locals.v[j], &fn->locals.v[j + 1], (size_t)(fn->locals.n - j - 1) * sizeof *fn->locals.v);
      fn->locals.n--;
      return;
    }
}

/* the copies back `y = x` left as `y = y` */
static int self_copy_f(Node *n, void *c) {
  (void)c;
  if (n->k == S_EXPR && n->a && n->a->k == N_ASSIGN && n->a->op == OP_ASSIGN && strip(n->a->a)->k == N_VAR &&
      strip(n->a->b)->k == N_VAR && strip(n->a->a)->var == strip(n->a->b)->var && !strip(n->a->a)->var->ty->is_volatile) {
    n->k = S_NULL;
    n->a = NULL;
    return W_SKIP;
  }
  return W_GO;
}

/* Is y dead once x is set from it, x's declaration d? y is declared
 * before d in straight-line code (the blocks d is in, no loop or branch
 * between) and referred to nowhere but there, before d, where x is set,
 * and (ny references) after d before x changes. */
static bool dead_src(Obj *fn, Obj *y, int ny, Vec *bs, Vec *is) {
  int pre = 0;
  for (int k = 0; k < bs->n && bs->v[k]; k++) {
    Node *b = bs->v[k];
    bool decl = false;
    for (int i = 0; i < (int)(intptr_t)is->v[k]; i++) {
      Node *c = b->list.v[i];
      pre += nrefs(c, y);
      decl |= (c->k == S_DECL && c->var == y) || (c->k == S_BLOCK && c->post && decl_of(c, y));
    }
    if (decl) return nrefs(fn->body, y) == pre + 1 + ny;
  }
  return false;
}

static bool fwd_copy(Obj *fn, Obj *x) {
  if (x->addr_taken || !scalar_ty(x->ty)) return false;
  Node *d = decl_of(fn->body, x);
  Node *v = d && d->a ? strip(d->a) : NULL;
  if (!v || v->k != N_VAR || !copy_src(x, v->var)) return false;
  Obj *y = v->var;
  bool once = nstores(fn->body, x) == 1;
  Vec bs = {0}, is = {0};
  path(fn->body, d, &bs, &is);
  bool ok = bs.n && bs.v[0], gone = false;
  int st = 0, ny = 0;
  for (int k = 0; ok && k < bs.n && bs.v[k]; k++) {
    Node *b = bs.v[k];
    int at = (int)(intptr_t)is.v[k] + 1;
    ok = once ? fwd_ok(b, at, x, y, &gone) : coal_ok(b, at, x, y, &st, &ny);
    if (!b->post) break;   /* (a declaration group's end: on in its block) */
  }
  if (ok && !once && st == 1) ok = dead_src(fn, y, ny, &bs, &is);
  free(bs.v);
  free(is.v);
  if (!ok) return false;
  d->k = S_NULL;
  d->var = NULL;
  d->a = NULL;
  subst(fn->body, x, var(y, v));
  drop_local(fn, x);
  return true;
}

static void fwd_copies(Obj *fn, Vec *made) {
  for (bool more = true; more;) {   /* (a forwarded copy may make another's source dead) */
    more = false;
    for (int i = 0; i < made->n; i++)
      if (fwd_copy(fn, made->v[i])) {
        made->v[i--] = made->v[--made->n];
        more = true;
      }
  }
  walk(fn->body, self_copy_f, NULL);
}

void fe_sroa(Fe *p, Obj *fn) {
  if (!fn->body) return;
  Sr s = {.p = p, .fn = fn};
  consts(fn);
  int n0 = fn->locals.n;
  Vec old = {0};   /* (the function's own locals) */
  for (int i = 0; i < n0; i++) vec_push(&old, fn->locals.v[i]);
  int budget = nnodes(fn->body) * 4 + 20000;
  for (int round = 0; round < 64; round++) {
    track(&s);
    s.want.n = 0;   /* (wanted while its objects were still whole) */
    do {
      s.changed = false;
      s.pairs.n = 0;
      chk(&s, fn->body, true);
      for (int i = 0; i + 1 < s.pairs.n; i += 2) {   /* a copy splits both or neither */
        Tr *a = tr_of(&s, s.pairs.v[i]), *b = tr_of(&s, s.pairs.v[i + 1]);
        if (a->bad || b->bad) bad(&s, a), bad(&s, b);
      }
    } while (s.changed);
    if (!s.want.n || nnodes(fn->body) > budget || !fe_inline_calls(p, fn, &s.want)) break;
  }
  /* split: the records whose address was taken (objects a member
   * function or reference reached: a record used only by value is one
   * lane array per field already, soa.c) and those copied to or from
   * them; any other record stays whole */
  for (int i = 0; i < s.tr.n; i++) {
    Tr *t = s.tr.v[i];
    t->seed = t->rec && !t->bad && t->o->addr_taken;
  }
  for (bool more = true; more;) {
    more = false;
    for (int i = 0; i + 1 < s.pairs.n; i += 2) {
      Tr *a = tr_of(&s, s.pairs.v[i]), *b = tr_of(&s, s.pairs.v[i + 1]);
      if (a->seed != b->seed) a->seed = b->seed = more = true;
    }
  }
  int nsplit = 0;
  for (int i = 0; i < s.tr.n; i++) {
    Tr *t = s.tr.v[i];
    if (!t->seed) t->bad = true;
    if (!t->rec || t->bad) continue;
    Record *r = t->o->ty->rec;
    for (int j = 0; j < r->fields.n; j++) {
      Field *f = r->fields.v[j];
      Obj *o = xcalloc(1, sizeof *o);
      o->name = xfmt("%s_%s", t->o->name, f->name);
      o->ty = unconst(f->ty);
      o->file = t->o->file, o->line = t->o->line, o->col = t->o->col;
      vec_push(&t->fl, o);
    }
    nsplit++;
  }
  int nfwd = 0;
  for (int i = 0; i < s.tr.n; i++) nfwd += ((Tr *)s.tr.v[i])->ptr && !((Tr *)s.tr.v[i])->fbad;
  if (nsplit || nfwd) {
    fn->body = rw(&s, fn->body);
    Vec keep = {0};
    for (int i = 0; i < fn->locals.n; i++) {
      Obj *o = fn->locals.v[i];
      Tr *t = tr_of(&s, o);
      if (t && t->ptr && !t->fbad) continue;   /* forwarded: gone */
      if (t && t->rec && !t->bad) {            /* split: its fields instead */
        for (int j = 0; j < t->fl.n; j++) vec_push(&keep, t->fl.v[j]);
        continue;
      }
      if (t && o->addr_taken && !addr_in(fn->body, o)) o->addr_taken = false;
      vec_push(&keep, o);
    }
    fn->locals = keep;
  }
  /* the locals this pass and the inliner made */
  Vec made = {0};
  for (int i = 0; i < fn->locals.n; i++) {
    bool own = false;
    for (int j = 0; j < old.n && !own; j++) own = old.v[j] == fn->locals.v[i];
    if (!own || ((Obj *)fn->locals.v[i])->inl_made) vec_push(&made, fn->locals.v[i]);
  }
  join_decls(fn, &made);
  fwd_copies(fn, &made);
  free(made.v);
  free(old.v);
}
