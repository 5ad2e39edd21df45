/* check.c: cucc --check in the fast versions: which statements can be
 * tested as ranges.
 *
 * A checked access (an element, a member reached through an index or a
 * pointer, a __shared__ variable) in a statement over the unmasked lanes
 * [lo, hi) of a whole-row, half-row or block-wide warp is tested once per
 * warp before its lane loop when it is a range (a[base + lane]: hi - lo
 * elements from lane lo's) or a broadcast (an element at the same address
 * in every lane: As[ty][k], s[0]); the lane loop then runs unchecked and
 * vectorizes as the unchecked build does. A uniform loop of such
 * statements whose addresses are affine in its counter k is tested once
 * for all its iterations (rows of ranges). Anything else (a gather, an
 * access some lanes skip under ?: && ||) is checked lane by lane.
 * rng_scan visits the accesses of an expression in the order print.c
 * prints them, and decides from the IR alone. */
#include "lw.h"

/* no memory access and no effect: computable before a lane loop */
static bool access_p(Node *n, void *c) {
  (void)c;
  return (n->k == N_INDEX && n->ty->kind != TY_ARRAY) || (n->k == N_UN && n->op == OP_DEREF) ||
         (n->k == N_MEMBER && n->post) || (n->k == N_VAR && n->var->is_shared && n->ty->kind != TY_ARRAY) ||
         n->k == N_CALL;
}
bool no_access(Node *n) { return !n || (!any_node(n, access_p, NULL) && pure(n)); }

Node *strip_casts(Node *n) {
  while (n->k == N_CAST && is_intty(n->ty) && is_intty(n->a->ty) && n->ty->size >= n->a->ty->size) n = n->a;
  return n;
}

/* an integer or an address affine in k (or free of it) */
bool kaff(Node *n, Obj *k) {
  if (!n || !reads_var(n, k)) return true;
  switch (n->k) {
  case N_VAR: return n->var == k;
  case N_CAST:
    return ((is_intty(n->ty) && is_intty(n->a->ty) && n->ty->size >= n->a->ty->size) ||
            (n->ty->kind == TY_PTR && (n->a->ty->kind == TY_PTR || n->a->ty->kind == TY_ARRAY))) &&
           kaff(n->a, k);
  case N_BIN:
    if (n->op == OP_ADD || n->op == OP_SUB) return kaff(n->a, k) && kaff(n->b, k);
    if (n->op == OP_MUL) return reads_var(n->a, k) ? !reads_var(n->b, k) && kaff(n->a, k) : kaff(n->b, k);
    if (n->op == OP_SHL) return !reads_var(n->b, k) && kaff(n->a, k);
    return false;
  case N_UN: return n->op == OP_NEG && kaff(n->a, k);
  case N_INDEX: return n->ty->kind == TY_ARRAY && kaff(n->a, k) && kaff(n->b, k);   /* an address */
  default: return false;
  }
}

/* Element-major per-lane array `a[i][j][_l]`: the variable at the root of
 * an index chain, or NULL. */
Obj *emaj_root(Node *n) {
  if (n->k == N_INDEX && is_decay(n->a)) return emaj_root(n->a->a);
  if (n->k == N_VAR && lo(n->var)->vary && !lo(n->var)->esc && n->var->ty->kind == TY_ARRAY && !n->var->is_shared)
    return n->var;
  return NULL;
}

/* ... or a field of such an element (`float2 v[4]; v[j].x`): its index
 * is checked by cu_ck_index as the element's; the lanes' elements are not
 * one object (a check against &v[_l] failed every such access) */
Obj *emaj_access(Node *n) {
  while (n->k == N_MEMBER && !n->post) n = n->a;
  return emaj_root(n);
}

/* The object an access reaches: its root variable (c), and whether it
 * goes through an index or a pointer. false: not an access to check. */
bool ck_target(Node *n, Node **cp, int *space) {
  if (!(n->k == N_INDEX || n->k == N_MEMBER || (n->k == N_UN && n->op == OP_DEREF) ||
        (n->k == N_VAR && n->var->is_shared)))
    return false;
  bool idx = false;
  Node *c = n;
  for (;;) {
    if (c->k == N_INDEX) {
      idx = true;
      if (is_decay(c->a)) { c = c->a->a; continue; }
    } else if (c->k == N_MEMBER && !c->post) { c = c->a; continue; }
    break;
  }
  Obj *root = c->k == N_VAR ? c->var : NULL;
  bool viaptr = c->k == N_INDEX || c->k == N_MEMBER || c->k == N_UN;
  if (!root && !viaptr) return false;             /* a member of a value */
  if (root && !root->is_shared && !idx) return false;   /* a variable or its member */
  *cp = c;
  *space = !root ? SP_ANY : root->is_shared ? SP_SHARED : SP_OBJ;
  return true;
}

/* ---- the checked accesses of an expression ----
 * aw_ex visits an expression as print.c's ex() prints it and calls back at
 * each access that would be checked (not an element-major local array,
 * which has its own index check), with how it is accessed. */
typedef struct Aw Aw;
struct Aw {
  unsigned ck;
  bool fast, hw, lane;
  Node *ctrue;
  void (*f)(Aw *w, Node *n, Node *c, int space, int acc);
  bool skip;
  int acc, rcond;
  /* rng_scan */
  Obj *rk;
  Vec *rd, *wr;
  bool bad;
  /* lw_check */
  bool bw;
  int cold, nlck;
};

static void aw_ex(Aw *w, Node *n);

static bool aw_ck(Aw *w, Node *n) {
  bool skip = w->skip;
  int acc = w->acc ? w->acc : ACC_RD;
  w->skip = false;
  w->acc = ACC_RD;
  if (skip || !(w->ck & (CK_MEM | CK_RACE | CK_INIT)) || n->ty->kind == TY_ARRAY || n->ty->size <= 0) return false;
  if (!(n->k == N_INDEX || n->k == N_MEMBER || (n->k == N_UN && n->op == OP_DEREF) ||
        (n->k == N_VAR && n->var->is_shared)))
    return false;
  if (w->lane && emaj_access(n)) {   /* cu_ck_index, lane by lane, on its own */
    w->acc = acc;
    w->bad |= w->rk != NULL;       /* a loop printed unchecked would lose it */
    return false;
  }
  Node *c;
  int space;
  if (!ck_target(n, &c, &space)) return false;
  w->f(w, n, c, space, acc);
  w->skip = true;   /* then the access itself, with its operands */
  aw_ex(w, n);
  return true;
}

static void aw_emaj(Aw *w, Node *n) {
  if (n->k == N_VAR) return;
  aw_emaj(w, n->a->a);
  w->acc = ACC_RD;
  aw_ex(w, n->b);
}

static void aw_lane(Aw *w, Node *n, bool lane) {
  bool l = w->lane;
  w->lane = lane;
  aw_ex(w, n);
  w->lane = l;
}

static void aw_ex(Aw *w, Node *n) {
  if (aw_ck(w, n)) return;
  switch (n->k) {
  case N_BIN: case N_LOG: case N_ASSIGN:
    if (n->k == N_ASSIGN) w->acc = n->op == OP_ASSIGN ? ACC_WR : ACC_RD | ACC_WR;
    aw_ex(w, n->a);
    w->rcond += n->k == N_LOG;   /* the right side runs in some lanes only */
    aw_ex(w, n->b);
    w->rcond -= n->k == N_LOG;
    break;
  case N_COMMA: aw_ex(w, n->a); aw_ex(w, n->b); break;
  case N_UN:
    w->skip = n->op == OP_ADDR;   /* an address, no access */
    aw_ex(w, n->a);
    break;
  case N_INCDEC:
    w->acc = ACC_RD | ACC_WR;
    aw_ex(w, n->a);
    break;
  case N_COND:
    if (n == w->ctrue) { aw_ex(w, n->b); break; }
    aw_ex(w, n->a);
    w->rcond++;   /* each arm runs in some lanes only */
    aw_ex(w, n->b);
    aw_ex(w, n->c);
    w->rcond--;
    break;
  case N_CAST: aw_ex(w, n->a); break;
  case N_CALL:
    if (n->ck == C_WARP) break;
    if (n->ck == C_LDG) { aw_ex(w, n->list.v[0]); break; }
    /* a checked callee's accesses from uniform code of the block-wide
     * version would run once per block (print.c, args) */
    w->nlck += n->ck == C_FUNC && w->ck && w->bw && !w->lane;
    for (int i = 0; i < n->list.n; i++) aw_ex(w, n->list.v[i]);
    break;
  case N_INDEX:
    if (w->lane && emaj_root(n)) { aw_emaj(w, n); break; }
    if ((w->fast || w->hw) && w->lane && rowu(n->a) && aff_e(n->b)) {
      aw_ex(w, n->a);
      aw_lane(w, n->b, false);
      break;
    }
    aw_ex(w, n->a);
    aw_ex(w, n->b);
    break;
  case N_MEMBER:
    w->skip = !n->post;   /* the struct is part of this lvalue */
    aw_ex(w, n->a);
    break;
  case N_INIT:
    for (int i = 0; i < n->list.n; i++) aw_ex(w, n->list.v[i]);
    break;
  default: break;
  }
}

/* one access tested as a range or a broadcast, else bad */
static void rs_access(Aw *w, Node *n, Node *c, int space, int acc) {
  Obj *root = c->k == N_VAR ? c->var : NULL;
  if (w->rcond || (space == SP_OBJ && lo(root)->vary) ||
      (w->rk && (!kaff(n->a, w->rk) || !kaff(n->b, w->rk) || (space == SP_SHARED && acc != ACC_RD && (w->ck & CK_RACE))))) {
    w->bad = true;
    return;
  }
  bool range = n->k == N_INDEX && rowu(n->a) && aff_e(n->b) && no_access(n->a) && no_access(n->b);
  bool bcast = ((n->k == N_INDEX && rowu(n->a) && rowu(n->b)) || (n->k == N_UN && rowu(n->a)) ||
                (n->k == N_VAR && n->var->is_shared)) && no_access(n->k == N_VAR ? NULL : n->a) && no_access(n->b);
  if (!range && !bcast) {
    w->bad = true;
    return;
  }
  Rng *r = xcalloc(1, sizeof *r);
  *r = (Rng){n, c, space, acc, w->rd->n + w->wr->n};
  vec_push(acc == ACC_RD ? w->rd : w->wr, r);
}

/* x's accesses in the order they are printed (a lane statement: lane is
 * true); false if one is neither a range nor a broadcast. rd and wr
 * collect across calls (a loop's statements). */
bool rng_scan(RngCtx *c, Node *x, Vec *rd, Vec *wr) {
  Aw w = {.ck = c->ck, .fast = c->fast, .hw = c->hw, .lane = c->lane, .ctrue = c->ctrue, .f = rs_access,
          .rk = c->rk, .rd = rd, .wr = wr};
  aw_ex(&w, x);
  return !w.bad;
}

/* ---- versions that check lane by lane ----
 * A fast version in which some access would be checked lane by lane is
 * slower than the general version (measured: the t % (2*stride) reduction
 * 3x, the tile-16 matmul 1.6x): it is dropped (Ver.nlck). Code that runs
 * rarely (a failed range test's lanes, a grid's last partial warp) does
 * not count. */
static void nl_access(Aw *w, Node *n, Node *c, int space, int acc) {
  (void)n, (void)c, (void)space, (void)acc;
  w->nlck += ((w->fast || w->bw || w->hw) && w->lane && !w->cold) || (w->bw && !w->lane);
}

static void nl_x(Aw *w, Node *x, bool lane) {
  if (!x) return;
  w->skip = false;
  w->acc = 0;
  w->lane = lane;
  aw_ex(w, x);
}

static void nl_init(Aw *w, Type *t, Node *init) {
  if (t->kind == TY_ARRAY) {
    for (int64_t i = 0; i < t->len; i++) nl_init(w, t->base, init && init->k == N_INIT && i < init->list.n ? init->list.v[i] : NULL);
    return;
  }
  nl_x(w, init, true);
}

static void nl_w(Aw *w, W *s) {
  if (!s) return;
  Node *n = s->n;
  switch (s->k) {
  case W_SEQ: case W_SWU: case W_SWD:
    if (s->k == W_SWU) nl_x(w, n->a, false);
    if (s->k == W_SWD) {
      nl_w(w, s->sw);
      nl_x(w, n->a, ln(n)->vary);
    }
    for (int i = 0; i < s->ws.n; i++) nl_w(w, s->ws.v[i]);
    break;
  case W_EXPR: case W_UDECL: case W_AFFSET: nl_x(w, s->x, false); break;
  case W_LANES:
    for (int i = 0; i < s->ws.n; i++) {
      W *o = s->ws.v[i];
      w->cold += o->cold;
      if (o->k == W_INIT) nl_init(w, o->o->ty, o->x);
      else nl_x(w, o->x, true);
      w->cold -= o->cold;
    }
    break;
  case W_ONE:
    if (!s->rng) {
      w->cold += s->cold;
      nl_x(w, s->x, true);
      w->cold -= s->cold;
    }
    break;   /* (range-tested: unchecked, or checked when cold) */
  case W_SPLIT:
    w->ctrue = s->cond;
    nl_w(w, s->a);
    w->ctrue = NULL;
    w->cold++;
    nl_w(w, s->b);
    w->cold--;
    break;
  case W_WARPOP:
    if (n->coll != CO_ACTIVEMASK) {
      nl_x(w, n->list.v[0], true);
      nl_x(w, n->list.v[1], true);
      if (coll_shfl(n->coll) || n->coll == CO_MATCH_ALL) nl_x(w, n->list.v[2], true);
      if (coll_shfl(n->coll) && n->list.n > 3) nl_x(w, n->list.v[3], false);
    }
    break;
  case W_IFU: nl_x(w, n->a, false); nl_w(w, s->a); nl_w(w, s->b); break;
  case W_IFD:
    if (s->mode == IFD_COLD) {
      nl_x(w, n->a, true);   /* counted (the mask with it, checked) */
      w->cold++;
      nl_w(w, s->tm);
      w->cold--;
      break;
    }
    if (s->mode == IFD_COUNT || s->mode == IFD_RUN) {
      if (!s->run.c) nl_x(w, n->a, true);   /* counted lane by lane */
      nl_w(w, s->tall);
      nl_w(w, s->eall);
      if (s->mode == IFD_RUN) {
        nl_w(w, s->trun);
        nl_w(w, s->erun);
        break;
      }
      nl_x(w, n->a, true);   /* the masks */
    } else {
      nl_x(w, n->a, true);
      nl_w(w, s->tall);
      nl_w(w, s->eall);
    }
    nl_w(w, s->tm);
    nl_w(w, s->em);
    break;
  case W_LOOPU:
    if (s->uinit && n->k == S_FOR && n->a) {
      Node *i = n->a;
      nl_x(w, i->k == S_EXPR ? i->a : ((Node *)i->list.v[0])->a, false);
    }
    nl_w(w, s->init);
    nl_x(w, n->b, false);
    if (n->k == S_FOR) nl_x(w, n->c, false);
    nl_w(w, s->body);
    break;
  case W_LOOPD:
    nl_w(w, s->init);
    if (n->b && n->k != S_DO) {
      nl_w(w, s->ch);
      nl_x(w, n->b, ln(n->b)->vary);
    }
    nl_w(w, s->body);
    if (n->c) {
      nl_w(w, s->ih);
      if (s->inc->ws.n) nl_w(w, s->inc);
      else nl_x(w, n->c, false);
    }
    if (n->k == S_DO) {
      nl_w(w, s->dh);
      nl_x(w, n->b, ln(n->b)->vary);
    }
    break;
  case W_CALLW:
    for (int i = 0; i < s->wf->c->params.n && i < n->list.n; i++) nl_x(w, n->list.v[i], s->wf->sh[i] == PS_VARY);
    break;
  case W_LOOPRUN:
    nl_w(w, s->init);
    nl_w(w, s->body);
    nl_w(w, s->inc);
    break;
  case W_LOOPR: {
    unsigned ck = w->ck;
    w->ck = 0;
    nl_w(w, s->a);
    w->ck = ck;
    nl_w(w, s->b);
    break;
  }
  case W_NARROW: nl_w(w, s->body); break;   /* (built unchecked) */
  default: break;   /* W_LOOPL (built unchecked), jumps */
  }
}

/* the lane-by-lane checks of the fast versions of a checked build */
void lw_check_ver(unsigned ck, Ver *v) {
  if (!ck || v->k == VK_GEN) return;
  Aw w = {.ck = ck, .fast = v->k == VK_ROW || v->k == VK_BW, .hw = v->k == VK_HROW, .bw = v->k == VK_BW,
          .f = nl_access};
  nl_w(&w, v->body);
  v->nlck = w.nlck;
}
