/* soa.c: a varying record kept as one lane array per field.
 *
 * A warp's copy of a struct local (float3, float4, a user's struct of
 * scalars) would be `struct S v[32]`: a lane loop that reads or writes
 * its fields strides through memory by the record's size, and the C
 * compiler vectorizes it with gathers and permutes, or not at all. Kept as
 * one unit-stride lane array per field instead (`_fld0_v[32]`, ...), every
 * field access is a plain vector load or store (the n-body step's
 * accelerations: 2.5x). Chosen for a kernel's local that varies, lives in
 * one region (not per thread across barriers), has no address taken, and
 * whose record has only scalar fields; the printer names its fields'
 * arrays, rebuilds the record where it is read whole (a compound literal)
 * and takes it apart where it is stored whole. Refused where the lowered
 * form keeps it whole by name: a lane-by-lane loop's promoted scalar, a
 * warp's copy, an increment or an address of it. */
#include "lw.h"

static bool soa_type(Type *t) {
  if (t->kind != TY_RECORD || !t->rec || t->rec->is_union || !t->rec->fields.n || t->rec->fields.n > 16 ||
      t->is_volatile)
    return false;
  for (int i = 0; i < t->rec->fields.n; i++) {
    Field *f = t->rec->fields.v[i];
    if (!f->name || !*f->name || (!is_arith(f->ty) && f->ty->kind != TY_PTR) || f->ty->is_volatile) return false;
  }
  return true;
}

/* the uses that keep a candidate whole: anything but a field of it (.f),
 * a plain store to it, or a read of its value */
static int bad_use(Node *n, void *c) {
  Vec *cand = c;
  Node *ops[4] = {n->a, n->b, n->c, n->d};
  for (int i = 0; i < 4; i++) {
    Node *x = ops[i];
    if (!x || x->k != N_VAR || !in_vec(cand, x->var)) continue;
    /* (a call's arguments and an initializer's elements, in list, are reads) */
    bool ok = !((n->k == N_MEMBER && n->post) || (n->k == N_ASSIGN && i == 0 && n->op != OP_ASSIGN) ||
                n->k == N_UN || n->k == N_INCDEC || n->k == N_INDEX);
    if (!ok)
      for (int j = 0; j < cand->n; j++)
        if (cand->v[j] == x->var) cand->v[j] = NULL;   /* (kept whole) */
  }
  return W_GO;
}

static void drop(Vec *cand, Vec *whole) {
  for (int i = 0; i < whole->n; i++)
    for (int j = 0; j < cand->n; j++)
      if (cand->v[j] == whole->v[i]) cand->v[j] = NULL;
}

static void w_whole_f(W *w, void *c) {
  if (w->k == W_LOOPL) {
    drop(c, &w->prom);
    drop(c, &w->prom_st);
  }
}
static void w_whole(Vec *cand, W *w) { w_each(w, w_whole_f, cand); }

static void blk_whole(Vec *cand, Blk *b) {
  if (!b) return;
  if (b->k == BK_REGION) {
    drop(cand, &b->r->wcopy);
    for (int i = 0; i < b->r->vers.n; i++) w_whole(cand, ((Ver *)b->r->vers.v[i])->body);
  }
  if (b->w) w_whole(cand, b->w);
  if (b->uinit) w_whole(cand, b->uinit);
  if (b->cw) w_whole(cand, b->cw->body);
  if (b->dw) w_whole(cand, b->dw->body);
  for (int i = 0; i < b->items.n; i++) blk_whole(cand, b->items.v[i]);
  Blk *sub[] = {b->init, b->then, b->els, b->body, b->inc};
  for (int i = 0; i < 5; i++) blk_whole(cand, sub[i]);
}

void lw_soa(Kern *K) {
  Obj *k = K->k;
  Vec cand = {0};
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    LObj *l = lo(o);
    if (l->vary && !l->cross && !l->esc && !l->aff && !o->addr_taken && !o->is_param && !o->is_shared &&
        !o->is_global && soa_type(o->ty))
      vec_push(&cand, o);
  }
  if (!cand.n) return;
  walk(k->body, bad_use, &cand);
  blk_whole(&cand, K->body);
  for (int i = 0; i < cand.n; i++)
    if (cand.v[i]) lo(cand.v[i])->soa = true;
  free(cand.v);
}
