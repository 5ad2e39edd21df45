/* plane.c: lane loops and what runs in them: lane statements (W_ONE,
 * W_LANES, W_INIT) and their variants (warp-synchronous stores, aggregated
 * atomics, statements whose accesses --check tests as ranges), affine
 * variables' bases (W_AFFSET), short loops inside one lane loop (W_LOOPL),
 * and the counts of runs of lanes (Run) that counted ifs and splits take. */
#include "print.h"

/* ---- runs of lanes ---- */

/* the count of a run's lanes (and for % its first lane and step) */
/* u - a for a run's count: 32-bit integers widened; 64-bit ones (size_t
 * indices) by a difference that saturates instead of wrapping */
char *p_run_diff(P *p, Node *u, Node *a) {
  Type *t = a->ty;
  if (t->size <= 4) return xfmt("(long long)(%s) - (long long)(%s)", p_exs(p, u, false), p_exs(p, a, false));
  bool uns = t->kind == TY_ULONG || t->kind == TY_ULLONG;
  return xfmt("cu_ldiff_%c(%s, %s)", uns ? 'u' : 's', p_exs(p, u, false), p_exs(p, a, false));
}

char *p_run_cnt(P *p, Run *r, char **at) {
  /* (in a whole-row warp 32, or fewer after a return that cut it; in half
   * rows a sub-row's, _r's: build.c counts there only where no lane left) */
  const char *n = p->hw ? xfmt("%d", p->hw) : "_nl";
  *at = NULL;
  if (r->m) {
    *at = xfmt("_f%d", r->id);
    return xfmt("cu_lanes_divisible((long long)(%s), (long long)(%s), %s, &_f%d, &_s%d)", p_exs(p, r->m->a, false),
                p_exs(p, r->m->b, false), n, r->id, r->id);
  }
  char *d = p_run_diff(p, r->u, r->a), *c;
  switch (r->op) {
  case OP_EQ:
    *at = xfmt("cu_lanes_below(%s, %s)", d, n);
    c = xfmt("cu_lanes_below(%s + 1, %s) - %s", d, n, *at);
    break;
  case OP_LT: c = xfmt("cu_lanes_below(%s, %s)", d, n); break;
  case OP_LE: c = xfmt("cu_lanes_below(%s + 1, %s)", d, n); break;
  case OP_GT: c = xfmt("%s - cu_lanes_below(%s + 1, %s)", n, d, n); break;
  default: c = xfmt("%s - cu_lanes_below(%s, %s)", n, d, n); break;   /* >= */
  }
  if (r->a2) {   /* an interval: from the lower bound's first lane to the upper bound's end */
    char *d2 = p_run_diff(p, r->u2, r->a2);
    *at = xfmt("cu_lanes_below(%s%s, %s)", d2, r->op2 == OP_GT ? " + 1" : "", n);
    c = xfmt("cu_run_len(%s, %s)", *at, c);
  }
  if (r->g.n) {   /* the row terms, tested once where some lane passes the comparisons */
    char *g = "";
    for (int i = 0; i < r->g.n; i++) g = xfmt("%s%s%s(%s)", g, i ? " && " : "", r->gneg ? "!" : "", p_exs(p, r->g.v[i], false));
    c = xfmt("({ const int _k = %s; _k && !(%s) ? 0 : _k; })", c, g);
  }
  return c;
}

void p_run_decl(P *p, Run *r) {
  if (r->m) line(p, "int _f%d, _s%d;", r->id, r->id);
}

/* ---- lane loops ---- */

static char *lane_head(P *p) {
  return p->full ? xfmt("%s {", lanes(p, false)) : xfmt("%s if (%s[_l]) {", lanes(p, true), mname(p->m));
}

static char *dst_s(P *p, W *w);
char *p_pre_s(P *p, W *w) {
  if (!w->o || lo(w->o)->soa) return xstrdup("");
  return xfmt("%s = ", dst_s(p, w));
}

/* an arm's assignment as a select in every lane (build.c, sel_arm):
 * `l = c ? l op v : l`, the right-hand side read first as C does */
static char *blend_s(P *p, Node *x, const char *on) {
  if (x->k == N_INCDEC) {
    char *l = p_exs(p, x->a, true);
    return xfmt("%s = %s ? %s %c 1 : %s", l, on, l, x->op == OP_INC ? '+' : '-', l);
  }
  char *l = p_exs(p, x->a, true), *v = p_exs(p, x->b, true);
  if (x->op == OP_ASSIGN) return xfmt("({ const %s = %s; %s = %s ? _v : %s; })", ty_decl(x->b->ty, "_v"), v, l, on, l);
  return xfmt("({ const %s = %s; %s = %s ? %s %.*s _v : %s; })", ty_decl(x->b->ty, "_v"), v, l, on, l,
              (int)strlen(op_str[x->op]) - 1, op_str[x->op], l);
}

static char *sel_s(P *p, W *w) {
  if (w->shead) return xfmt("const int _sel%d = (%s) != 0", w->sel, p_exs(p, w->x, true));
  return blend_s(p, w->x, xfmt("%s_sel%d", w->sneg ? "!" : "", w->sel));
}

/* the lane's variable a lane item stores */
static char *dst_s(P *p, W *w) {
  return xfmt(p->jam && p_promoted(p, w->o) && !in_vec(p->own, w->o) ? "_s_%s[_l]" : "%s[_l]", cname(w->o));
}

/* a W.mblend item under mask m: a select in every lane */
static void blend_item(P *p, W *w, const char *m) {
  const char *on = xfmt("%s[_l]", m);
  if (!w->o) {
    line(p, "%s;", blend_s(p, w->x, on));
    return;
  }
  char *l = dst_s(p, w);
  line(p, "{ const %s = %s; %s = %s ? _v : %s; }", ty_decl(w->o->ty, "_v"), p_exs(p, w->x, true), l, on, l);
}

/* a lane item's expression: stored to its variable, or a statement */
char *p_item_s(P *p, W *w) {
  if (w->sel) return sel_s(p, w);
  if (w->o && lo(w->o)->soa) return xfmt("(void)%s", p_soa_store(w->o, p_exs(p, w->x, true)));
  return w->o ? p_exs(p, w->x, true) : p_stx(p, w->x, true);
}

/* a lane loop of its own, its header after the profile's count */
void p_lane_open(P *p) {
  if (p_prof_here(p)) line(p, "if (_pf & 1) { _pst++; _pln += %s; }", p_act_count(p));
  line(p, "%s", lane_head(p));
  p->ind++;
}

void p_lane_close(P *p) {
  p->ind--;
  line(p, "}");
}

static void init_elems(P *p, Obj *o, Type *t, Node *init, const char *path) {
  /* arrays of a varying variable: one assignment per element */
  if (t->kind == TY_ARRAY) {
    for (int64_t i = 0; i < t->len; i++) {
      Node *el = init && init->k == N_INIT && i < init->list.n ? init->list.v[i] : NULL;
      init_elems(p, o, t->base, el, xfmt("%s[%lld]", path, (long long)i));
    }
    return;
  }
  char *v = init ? p_exs(p, init, true) : xstrdup(t->kind == TY_RECORD ? "{0}" : "0");
  if (!init && t->kind == TY_RECORD) v = xfmt("(%s){0}", ty_decl(t, ""));
  if (lo(o)->soa) line(p, "(void)%s;", p_soa_store(o, v));
  else if (lo(o)->esc) line(p, "%s[_l]%s = %s;", cname(o), path, v);
  else line(p, "%s%s[_l] = %s;", cname(o), path, v);
}

/* one item of a lane loop */
static void lane_item(P *p, W *w) {
  if (w->k == W_INIT) init_elems(p, w->o, w->o->ty, w->x, "");
  else line(p, "%s%s;", p_pre_s(p, w), p_item_s(p, w));
}

/* the read at index j is at or ahead of the store at index i: their
 * difference, small, in the indices' width and signed (an unsigned `t - k`
 * wraps in the first warp) */
static char *ahead_s(const char *j, const char *i, bool wide) {
  if (wide) return xfmt("(long long)((unsigned long long)(%s) - (unsigned long long)(%s)) >= 0", j, i);
  return xfmt("(int)((unsigned)(%s) - (unsigned)(%s)) >= 0", j, i);
}

/* the test that read index rj cannot reach the word any lane stores at wx
 * (build.c, nb_ahead): reading ahead with a constant stride; with a
 * uniform one, both strides the same and the distance not a multiple */
char *p_ahead_x(P *p, Node *rj, Node *wx) {
  int64_t s, s2;
  Node *u, *u2;
  char *j = p_exs(p, rj, false), *i = p_exs(p, wx, false);
  if (!aff_ustride(wx, &s, &u) || !u || !aff_ustride(rj, &s2, &u2) || !u2)
    return ahead_s(j, i, wx->ty->size > 4 || rj->ty->size > 4);
  char *su = p_exs(p, u, false), *su2 = p_exs(p, u2, false);
  return xfmt("((long long)(%s) == (long long)(%s) && (long long)(%s) != 0 && ((long long)(%s) - (long long)(%s)) %% ((long long)(%lld) * (long long)(%s)) != 0)",
              su, su2, su, j, i, (long long)s, su);
}

/* a warp-synchronous store as one instruction: every lane's value, then
 * every lane's store; or, in the versions whose lanes are a run, where
 * each read of the stored array is at or ahead of the lane's store
 * (build.c, nb_ahead; tested here once per warp), one lane loop, whose
 * lanes in order do what the one instruction does */
static void p_simt(P *p, W *w) {
  Node *x = w->x;
  int id = w->id;
  /* Volatile accesses, read as plain memory between two compiler
   * barriers: each lane's word is loaded in the statement and stored
   * before it ends, as volatile asks (a warp's loads are one instruction
   * on a GPU too), and the lane loops vectorize (`volatile` alone keeps
   * them scalar: 2-3x slower warp-synchronous tails). Checked builds keep
   * volatile: their accesses are calls anyway. */
  bool nv = has_volatile(x) && !p->ck;
  char *ok = NULL;
  p->novol = nv;
  for (int i = 0; i < w->ahead.n; i++) {   /* (build.c: fast versions, not half rows, unchecked) */
    char *c = p_ahead_x(p, w->ahead.v[i], w->ahead_w.v[i]);
    ok = ok ? xfmt("%s && %s", ok, c) : c;
  }
  line(p, "{");
  p->ind++;
  if (nv) line(p, "__asm__ __volatile__(\"\" ::: \"memory\");");
  p->novol = nv;
  if (ok) {
    line(p, "if (%s) {   /* reading ahead, or no lane's read at another's store: one loop */", ok);
    p->ind++;
    p_lane_open(p);
    line(p, "%s;", p_stx(p, x, true));
    p_lane_close(p);
    p->ind--;
    line(p, "} else {");
    p->ind++;
  }
  line(p, "%s;", ty_decl(p_unvol(x->ty), xfmt("_sv%d[%s]", id, LN(p))));
  p_lane_open(p);
  if (x->op == OP_ASSIGN) line(p, "_sv%d[_l] = %s;", id, p_exs(p, x->b, true));
  else {
    char *l = p_exs(p, x->a, true);   /* (read here: checked as a read) */
    line(p, "_sv%d[_l] = %s %.*s %s;", id, l, (int)strlen(op_str[x->op]) - 1, op_str[x->op], p_exs(p, x->b, true));
  }
  p_lane_close(p);
  p_lane_open(p);
  p->acc = ACC_WR;
  line(p, "%s = _sv%d[_l];", p_exs(p, x->a, true), id);
  p_lane_close(p);
  if (ok) {
    p->ind--;
    line(p, "}");
  }
  if (nv) line(p, "__asm__ __volatile__(\"\" ::: \"memory\");");
  p->novol = false;
  p->ind--;
  line(p, "}");
}

/* an aggregated atomic (build.c, agg_atomic): the lanes' values combined
 * in _agN, then one atomic if any lane ran */
static void p_agg(P *p, W *w) {
  Node *c = bare(w->x), *v = c->list.v[1];
  const char *nm = c->name, *sfx = strrchr(nm, '_') + 1;
  int id = w->id;
  bool fl = !strcmp(sfx, "f") || !strcmp(sfx, "d"), wide = !strncmp(sfx, "ll", 2) || !strncmp(sfx, "ull", 3);
  bool mn = strstr(nm, "Min_") != NULL, mx = strstr(nm, "Max_") != NULL, sg = !strcmp(sfx, "i") || !strcmp(sfx, "ll");
  char *t = ty_decl(c->ty, "");
  /* sums and bit operations in an unsigned type (they wrap, as on the
   * GPU); floats from -0.0, the identity of IEEE addition */
  const char *u = fl || mn || mx ? t : wide ? "unsigned long long" : "unsigned";
  const char *id0 = fl ? (sfx[0] == 'f' ? "-0.0f" : "-0.0")
                    : mn ? (sg ? (wide ? "0x7fffffffffffffffll" : "2147483647") : (wide ? "~0ull" : "~0u"))
                    : mx ? (sg ? (wide ? "(-0x7fffffffffffffffll - 1)" : "(-2147483647 - 1)") : "0")
                    : strstr(nm, "And_") ? (wide ? "~0ull" : "~0u") : "0";
  const char *op = strstr(nm, "And_") ? "&" : strstr(nm, "Or_") ? "|" : strstr(nm, "Xor_") ? "^" : "+";
  const char *any_lane = !p->full ? any(p, mname(p->m)) : p->hw ? "1" : xfmt("(%s) > (%s)", hi_s(&p->ls), lo_s(&p->ls));
  line(p, "{");
  p->ind++;
  line(p, "%s _ag%d = %s;", u, id, id0);
  p_lane_open(p);
  char *x = p_exs(p, v, true);
  if (mn || mx) line(p, "{ %s _x = %s; if (_x %s _ag%d) _ag%d = _x; }", t, x, mn ? "<" : ">", id, id);
  else line(p, "_ag%d %s= (%s)(%s);", id, op, u, x);
  p_lane_close(p);
  /* (a sum to global memory: the worker's pending reduction, cucc_rt.h's
   * cu_red; not in checked builds) */
  bool red = fl || !strcmp(sfx, "i") || !strcmp(sfx, "u") || wide;
  if (red && *op == '+' && !shared_atomic(c) && !p->ck && strstr(nm, "Add_"))
    line(p, "if (%s) cu_red_add_%s(_B, %s, (%s)_ag%d);", any_lane, sfx, p_exs(p, c->list.v[0], false), t, id);
  else
    line(p, "if (%s) %s(%s, (%s)_ag%d);", any_lane, shared_atomic(c) ? xfmt("cu_s%s", nm + 3) : nm,
         p_exs(p, c->list.v[0], false), t, id);
  p->ind--;
  line(p, "}");
}

void p_lanes(P *p, W *w) {
  if (w->ws.n == 1 && ((W *)w->ws.v[0])->simt) {
    p_simt(p, w->ws.v[0]);
    return;
  }
  if (w->ws.n == 1 && ((W *)w->ws.v[0])->agg) {
    p_agg(p, w->ws.v[0]);
    return;
  }
  if (!p->full && w->mblend && !p_prof_here(p)) {
    /* selects by the mask in every lane: no branch per lane, vectorized
     * (one loop in half rows too) */
    const char *m = mname(p->m);
    line(p, "%s {", w->flat ? lanes_flat(p) : lanes(p, true));
    p->ind++;
    for (int i = 0; i < w->ws.n; i++) blend_item(p, w->ws.v[i], m);
    p->ind--;
    line(p, "}");
    return;
  }
  if (!p->full && p->hw && !p->subrow && !p_prof_here(p)) {
    /* half rows under a mask: each sub-row's loop on its own, its lanes
     * tested from an int copy of the mask's bytes. gcc 12 vectorizes a
     * masked loop of 16 lanes (AVX-512's masked loads and stores) only so:
     * not with byte masks ("no vectype for .MASK_LOAD"), not inside the
     * loop over the sub-rows; a 16 x 16 block's boundary warps ran lane by
     * lane */
    for (int r = 0; r < p->nr; r++) {
      line(p, "{");
      p->ind++;
      line(p, "const int _r = %d;", r);
      line(p, "int _mi[%d];", p->hw);
      line(p, "CU_LANES for (int _x = 0; _x < %d; _x++) _mi[_x] = %s[%d + _x];", p->hw, mname(p->m), r * p->hw);
      line(p, "CU_LANES for (int _x = 0, _l = %d; _x < %d; _x++, _l++) if (_mi[_x]) {", r * p->hw, p->hw);
      p->ind++;
      for (int i = 0; i < w->ws.n; i++) lane_item(p, w->ws.v[i]);
      p->ind--;
      line(p, "}");
      p->ind--;
      line(p, "}");
    }
    return;
  }
  if (w->sparse && !p->full && !p->hw && !p->bw && !p->pair) {
    if (p_prof_here(p)) line(p, "if (_pf & 1) { _pst++; _pln += %s; }", p_act_count(p));
    line(p, "for (unsigned _mb = cu_bits(%s); _mb; _mb &= _mb - 1) {", mname(p->m));
    p->ind++;
    line(p, "const int _l = __builtin_ctz(_mb);");
  } else p_lane_open(p);
  for (int i = 0; i < w->ws.n; i++) lane_item(p, w->ws.v[i]);
  p_lane_close(p);
}

static RngS rng_s(P *p, Rng *r) {
  Node *n = r->n, *c = r->root;
  Lanes *l = &p->ls;
  bool z = !l->lo, st = l->step != 0;   /* st: every step-th lane */
  RngS s = {0};
  if (n->k == N_INDEX && rowu(n->a) && aff_e(n->b) && no_access(n->a) && no_access(n->b)) {
    char *b = p_exs(p, n->b, false);
    s.addr = xfmt("&(%s)[%s]", p_exs(p, n->a, false), p_row_base(n->b, z ? b : xfmt("%s + (%s)", b, lo_s(l))));
    s.step = xfmt(st ? "(%2$s) * sizeof (%1$s)[0]" : "sizeof (%1$s)[0]", p_exs(p, n->a, false), step_s(l));
  } else {
    p->skipck = true;   /* the address only */
    s.addr = xfmt("&%s", p_exs(p, n, false));
    s.step = xstrdup("0");
  }
  s.id = p_site(p, n, r->acc, r->space);
  s.obj = xstrdup("0");
  s.objn = xstrdup("0");
  if (r->space == SP_OBJ) {
    char *x = p_exs(p, c, false);
    s.obj = xfmt("&%s", x);
    s.objn = xfmt("sizeof %s", x);
  }
  s.tid = p->hw ? xfmt("_w * 32u + (unsigned)_r * %du", p->hw)
          : z ? xstrdup("_w * 32u") : xfmt("_w * 32u + (unsigned)(%s)", lo_s(l));
  s.cnt = p->hw ? xfmt("%d", p->hw)
          : st ? xfmt("((long)(%s) - (long)(%s) + (%s) - 1) / (%s)", hi_s(l), lo_s(l), step_s(l), step_s(l))
          : z ? xstrdup(hi_s(l)) : xfmt("(long)(%s) - (long)(%s)", hi_s(l), lo_s(l));
  s.tstep = st ? xfmt("(unsigned)(%s)", step_s(l)) : "1u";
  return s;
}

/* the fields of all range tests rd + wr, each site taken in the order the
 * accesses were visited */
RngS *p_rng_all(P *p, Vec *rd, Vec *wr) {
  int n = rd->n + wr->n;
  RngS *s = xcalloc(n + 1, sizeof *s);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < n; i++) {
      Rng *r = i < rd->n ? rd->v[i] : wr->v[i - rd->n];
      if (r->seq == q) s[i] = rng_s(p, r);
    }
  return s;
}

/* `pre x;` in a lane loop of its own */
void p_lane_stmt(P *p, const char *pre, const char *x) {
  p_lane_open(p);
  line(p, "%s%s;", pre, x);
  p_lane_close(p);
}

/* A statement over the unmasked lanes whose every checked access is a
 * range or a broadcast: tested once per access before its lane loop, reads
 * first (a warp loads before it stores), then run unchecked, so it
 * vectorizes as the unchecked build does. If any test fails the lanes run
 * checked one by one instead, and that reports. */
void p_one_rng(P *p, W *w) {
  p->subrow = p->hw != 0;   /* half rows: a sub-row's lanes are a range, the tests go inside its loop */
  if (p->hw) {
    line(p, "for (int _r = 0; _r < %d; _r++) {", p->nr);
    p->ind++;
  }
  Buf c = {0};
  RngS *all = p_rng_all(p, &w->rd, &w->wr);
  for (int i = 0; i < w->rd.n + w->wr.n; i++) {
    RngS s = all[i];
    buf_printf(&c, "%scu_ck_rng(_B, %s, %s, %s, %s, %s, &_cs[%d], %s, %s)", i ? xfmt(" &&\n%*s", 2 * p->ind + 4, "") : "",
               s.tid, s.tstep, s.addr, s.cnt, s.step, s.id, s.obj, s.objn);
  }
  char *pre = p_pre_s(p, w);
  p->rngfast = true;
  char *fast = p_item_s(p, w);
  p->rngfast = false;
  line(p, "if (%s) {", c.s);
  p->ind++;
  p_lane_stmt(p, pre, fast);
  p->ind--;
  line(p, "} else {");
  p->ind++;
  p->cold++;
  p_lane_stmt(p, pre, p_item_s(p, w));
  p->cold--;
  p->ind--;
  line(p, "}");
  if (p->hw) {
    p->ind--;
    line(p, "}");
  }
  p->subrow = false;
}

/* an affine variable's declaration or store: its base (one per sub-row in
 * half rows); kept per thread, the lanes' values too */
void p_affset(P *p, W *w) {
  Obj *o = w->o;
  LObj *l = lo(o);
  const char *cn = cname(o);
  Node *st = w->n;
  const char *b = p->hw ? xfmt("%s_b[_r]", cn) : xfmt("%s_b", cn);
  char *set;
  p->rbase = p->hw != 0;
  if (w->decl && !w->x) {   /* `int i;`: the base alone, set by a later store */
    if (!l->cross) line(p, "%s;", ty_decl(o->ty, p->hw ? xfmt("%s_b[%d]", cn, p->nr) : xfmt("%s_b", cn)));
    return;
  }
  if (w->decl || st->k == N_ASSIGN) set = xfmt("%s %s %s;", b, w->decl ? "=" : op_str[st->op], p_exs(p, w->x, false));
  else set = st->post ? xfmt("%s%s;", b, op_str[st->op]) : xfmt("%s%s;", op_str[st->op], b);
  p->rbase = false;
  if (l->su)   /* (shape.c: set only by this declaration, never kept across regions) */
    line(p, "const %s = (%s)(%s);", ty_decl(o->ty, cname(l->su)), ty_decl(o->ty, ""), p_exs(p, l->sun, false));
  if (p->hw) {
    int R = p->nr;
    if (w->decl && !l->cross) line(p, "%s;", ty_decl(o->ty, xfmt("%s_b[%d]", cn, R)));
    line(p, "for (int _r = 0; _r < %d; _r++) %s", R, set);
  } else if (w->decl && !l->cross) line(p, "%s = %s;", ty_decl(o->ty, xfmt("%s_b", cn)), p_exs(p, w->x, false));
  else line(p, "%s", set);
  if (l->cross) {
    const char *x = p->hw ? "_x" : "_l";
    const char *s = l->sx == 0 ? "" : l->sx == 1 ? xfmt(" + %s", x) : xfmt(" + (%lld) * %s", (long long)l->sx, x);
    line(p, "%s %s[_l] = %s%s;", lanes(p, true), cn, b, s);
  }
}

static Obj *loop_var(Node *n);

/* the statement of a short uniform loop inside a lane loop */
static void lane_st(P *p, Node *n) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK:
    if (n->post) {   /* a declaration group: no scope of its own */
      for (int i = 0; i < n->list.n; i++) lane_st(p, n->list.v[i]);
      break;
    }
    line(p, "{");
    p->ind++;
    for (int i = 0; i < n->list.n; i++) lane_st(p, n->list.v[i]);
    p->ind--;
    line(p, "}");
    break;
  case S_EXPR: line(p, "%s;", p_stx(p, n->a, true)); break;
  case S_DECL:   /* (a lane-by-lane loop's own variable: the lane's scalar) */
    line(p, "%s = %s;", ty_decl(n->var->ty, p_promoted(p, n->var) ? xfmt("_s_%s", cname(n->var)) : cname(n->var)),
         p_exs(p, n->a, true));
    break;
  case S_IF:
    line(p, "if (%s)", p_exs(p, n->a, true));
    p->ind += n->b->k != S_BLOCK;
    lane_st(p, n->b);
    p->ind -= n->b->k != S_BLOCK;
    if (n->c) {
      line(p, "else");
      p->ind += n->c->k != S_BLOCK;
      lane_st(p, n->c);
      p->ind -= n->c->k != S_BLOCK;
    }
    break;
  case S_FOR: {
    Obj *lv = loop_var(n);
    if (lv) {
      Node *d = n->a->list.v[0];
      /* (a varying loop's own variable, promoted: the lane's scalar) */
      const char *nm = p_promoted(p, lv) ? xfmt("_s_%s", cname(lv)) : cname(lv);
      line(p, "for (%s = %s; %s; %s)", ty_decl(lv->ty, nm), p_exs(p, d->a, true), p_exs(p, n->b, true), p_exs(p, n->c, true));
    } else line(p, "for (; %s; %s)", p_exs(p, n->b, true), p_exs(p, n->c, true));   /* (bloop.c: no init, or none but this) */
    p->ind++;
    lane_st(p, n->d);
    p->ind--;
    break;
  }
  case S_WHILE:   /* (its cursor, declared before it, is promoted: p_loopl) */
    line(p, "while (%s)", p_exs(p, n->b, true));
    p->ind++;
    lane_st(p, n->d);
    p->ind--;
    break;
  case S_DO:
    line(p, "do");
    p->ind++;
    lane_st(p, n->d);
    p->ind--;
    line(p, "while (%s);", p_exs(p, n->b, true));
    break;
  case S_BREAK: line(p, "break;"); break;   /* (of the lane's own loop: bloop.c's lane_ok) */
  case S_CONTINUE: line(p, "continue;"); break;
  case S_NULL: break;
  default:   /* (bloop.c's lane_ok and serial_loop_ok let only the above in) */
    errorat(n->file, n->line, n->col, "internal error: statement kind %d in a lane loop", n->k);
  }
}

/* the variable a loop declares (a varying loop's is promoted: declared by
 * the loop itself, neither read before nor stored after) */
static Obj *loop_var(Node *n) {
  return n->k == S_FOR && n->a && n->a->k == S_BLOCK && n->a->list.n == 1 && ((Node *)n->a->list.v[0])->k == S_DECL
             ? ((Node *)n->a->list.v[0])->var : NULL;
}

/* A jammed loop (version.c, lw_jam): the loop outside, the lanes inside,
 * the lanes' scalars in an array of a step's lanes. The arrays are copied
 * in and out fully unrolled: as loops gcc made them `rep movs`. */
static void p_loopl_jam(P *p, W *w) {
  Obj *lv = loop_var(w->n);
  Node *n = w->n, *d = n->a->list.v[0];
  line(p, "{");
  p->ind++;
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o == lv || in_vec(&w->own, o)) continue;
    line(p, "%s;", ty_decl(o->ty, xfmt("_s_%s[%s]", cname(o), LN(p))));
    line(p, "CU_UNROLL for (int _l = 0; _l < %s; _l++) _s_%s[_l] = %s[_l];", LN(p), cname(o), cname(o));
  }
  line(p, "for (%s = %s; %s; %s)", ty_decl(lv->ty, cname(lv)), p_exs(p, d->a, false), p_exs(p, n->b, false), p_exs(p, n->c, false));
  p->ind++;
  line(p, "%s", lane_head(p));
  p->ind++;
  p->prom = w->prom;
  p->jam = true;
  p->own = &w->own;
  lane_st(p, n->d);
  p->jam = false;
  p->own = NULL;
  p->prom = (Vec){0};
  p_lane_close(p);
  p->ind--;
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o != lv && !in_vec(&w->own, o) && p_promoted(&(P){.prom = w->prom_st}, o))
      line(p, "CU_UNROLL for (int _l = 0; _l < %s; _l++) %s[_l] = _s_%s[_l];", LN(p), cname(o), cname(o));
  }
  p->ind--;
  line(p, "}");
}

void p_loopl(P *p, W *w) {
  if (w->jam) {
    p_loopl_jam(p, w);
    return;
  }
  p_lane_open(p);
  Obj *lv = loop_var(w->n);
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o != lv && !in_vec(&w->own, o)) line(p, "%s = %s[_l];", ty_decl(o->ty, xfmt("_s_%s", cname(o))), cname(o));
  }
  p->prom = w->prom;
  lane_st(p, w->n);
  p->prom = (Vec){0};
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o != lv && !in_vec(&w->own, o) && p_promoted(&(P){.prom = w->prom_st}, o))
      line(p, "%s[_l] = _s_%s;", cname(o), cname(o));
  }
  p_lane_close(p);
}
