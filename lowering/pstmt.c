/* pstmt.c: warp statements (W), one template per kind (pw): uniform and
 * divergent ifs (counted first, masked only where the warp splits), loops,
 * switches, jumps, prefetches, a warp narrowed to the lanes that did not
 * return. Lane loops are plane.c's, collectives pcoll.c's, calls of warp
 * versions pfunc.c's. */
#include "print.h"

static void blend_st(P *p, Node *n, const char *on) {
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++) blend_st(p, n->list.v[i], on);
    return;
  }
  /* the right-hand side is read in every lane of the span, not under
   * the condition: a conditional load became a masked one that gcc
   * carried through the stack from one iteration to the next */
  Node *x = n->a;
  char *l = p_exs(p, x->a, true);
  line(p, "{");
  line(p, "  const %s = %s;", ty_decl(x->b->ty, "_v"), p_exs(p, x->b, true));
  if (x->op == OP_ASSIGN) line(p, "  %s = %s ? _v : %s;", l, on, l);
  else line(p, "  %s = %s ? %s %.*s _v : %s;", l, on, l, (int)strlen(op_str[x->op]) - 1, op_str[x->op], l);
  line(p, "}");
}

/* the tests that the blended statements read ahead (build.c,
 * blend_simt, ahead_of), after " && ", or "" */
static char *blend_ahead(P *p, W *w) {
  char *s = "";
  for (int i = 0; i < w->ahead.n; i++) s = xfmt("%s && %s", s, p_ahead_x(p, w->ahead.v[i], w->ahead_w.v[i]));
  return s;
}

/* a prefix of a run loop's prefix: its branch over the lanes of both */
static void p_ifsub(P *p, W *w) {
  char *at, *cnt = p_run_cnt(p, &w->run, &at);
  line(p, "{");
  p->ind++;
  line(p, "const int _cut%d = cu_imin(%s, %s);", w->id, cnt, hi_s(&w->h.ls));
  line(p, "if (_cut%d > 0) {", w->id);
  p->ind++;
  pw(p, w->trun);
  p->ind--;
  line(p, "}");
  p->ind--;
  line(p, "}");
}

static void p_ifd(P *p, W *w) {
  if (w->mode == IFD_SUB) {
    p_ifsub(p, w);
    return;
  }
  Node *n = w->n;
  int id = w->id;
  char *nt = xfmt("_nt%d", id), *ne = xfmt("_ne%d", id);
  const char *mt = mname(w->mt), *me = w->me ? mname(w->me) : NULL;
  bool dual = w->mode != IFD_MASK;
  line(p, "{");
  p->ind++;
  if (w->mode == IFD_COLD) {
    /* a failed assert: the lanes that run (all, or a run) counted with no
     * mask; the mask of the failing lanes only when there are any */
    line(p, "int %s = 0;", nt);
    const char *mdecl = xfmt("unsigned char %s[%s];", mt, LN(p));
    const char *zero = xfmt("%s %s[_l] = 0;", lanes(p, true), mt);
    if (w->ckc) {   /* (checked: the condition's accesses tested once) */
      line(p, "%s", mdecl);
      line(p, "%s", zero);
      line(p, "%s {", lanes(p, false));
      line(p, "  int _c = (%s) != 0;", p_exs(p, n->a, true));
      line(p, "  %s[_l] = _c;", mt);
      line(p, "  %s += _c;", nt);
      line(p, "}");
    } else line(p, "%s %s += (%s) != 0;", lanes(p, false), nt, p_exs(p, n->a, true));
    p_prof_branch(p, w->psite, nt, p_act_count(p));
    line(p, "if (__builtin_expect(%s != 0, 0)) {", nt);
    p->ind++;
    if (!w->ckc) {
      line(p, "%s", mdecl);
      line(p, "%s", zero);
      line(p, "%s %s[_l] = (%s) != 0;", lanes(p, false), mt, p_exs(p, n->a, true));
    }
    pw(p, w->tm);
    p->ind--;
    line(p, "}");
    p->ind--;
    line(p, "}");
    return;
  }
  if (w->mode == IFD_COUNT || w->mode == IFD_RUN) {
    /* count first (compares and adds only); the masks only if it splits */
    Run *r = &w->run;
    char *at = NULL, *cnt = r->c ? p_run_cnt(p, r, &at) : NULL;
    /* (where the block's bounds show that every thread takes it, every
     * lane: bound.c) */
    const char *bt = w->bt ? xfmt("_bt%d ? _nl : ", w->bt) : "";
    if (cnt && p->hw) {
      line(p, "int %s = %s0;", nt, bt);
      line(p, "%sfor (int _r = 0; _r < %d; _r++) %s += %s;", w->bt ? xfmt("if (!_bt%d) ", w->bt) : "", p->nr, nt, cnt);
    } else if (cnt) {
      p_run_decl(p, r);
      line(p, "int %s = %s%s;", nt, bt, cnt);
    } else {
      line(p, "int %s = %s0;", nt, bt);
      if (w->bt) line(p, "if (!_bt%d) {", w->bt);
      line(p, "%s%s %s += (%s) != 0;", w->bt ? "  " : "", lanes(p, false), nt, p_exs(p, n->a, true));
      if (w->bt) line(p, "}");
    }
    p_prof_branch(p, w->psite, nt, "_nl");
    line(p, "if (%s == _nl)", nt);
    pw(p, w->tall);
    ctx(p, &w->h);
    if (me) {
      line(p, "else if (%s == 0)", nt);
      pw(p, w->eall);
      ctx(p, &w->h);
    }
    if (w->mode == IFD_RUN) {
      line(p, "else if (%s) {", me ? "1" : nt);
      p->ind++;
      line(p, "const int _cut%d = %s;", id, at ? at : r->prefix ? nt : xfmt("_nl - %s", nt));
      if (r->a2) line(p, "const int _cut%d = _cut%d + %s;", r->id2, id, nt);
      if (w->blend) {
        const char *cut = xfmt("_cut%d", id), *step = xfmt("_s%d", id);
        line(p, "if (!(%s & (%s - 1)) && %s <= 8%s) {   /* a dense run: blend over its span */", step, step, step,
             blend_ahead(p, w));
        p->ind++;
        line(p, "const int _e%d = %s + (%s - 1) * %s + 1;", id, cut, nt, step);
        line(p, "CU_LANES for (int _l = %s; _l < _e%d; _l++) {", cut, id);
        p->ind++;
        line(p, "const int _on = ((_l - %s) & (%s - 1)) == 0;", cut, step);
        ctx(p, &((W *)w->trun)->h);
        p->ls = w->h.ls;
        bool lane = p->lane;
        p->lane = true;
        blend_st(p, n->b, "_on");
        p->lane = lane;
        p->ind--;
        line(p, "}");
        p->ind--;
        line(p, "} else");
      }
      pw(p, w->trun);
      if (me) pw(p, w->erun);
      p->ind--;
      line(p, "}");
      p->ind--;
      line(p, "}");
      return;
    }
    /* (with no else: a warp none of whose lanes take the branch makes no mask) */
    line(p, me ? "else {" : "else if (%s) {", nt);
    p->ind++;
    line(p, "unsigned char %s[%s]%s%s%s;", mt, LN(p), me ? ", " : "", me ? me : "", me ? xfmt("[%s]", LN(p)) : "");
    line(p, "%s {", lanes(p, true));
    line(p, "  int _c = _l < _nl && (%s);", p_exs(p, n->a, true));
    line(p, "  %s[_l] = _c;", mt);
    if (me) line(p, "  %s[_l] = _l < _nl && !_c;", me);
    line(p, "}");
    if (me) line(p, "int %s = _nl - %s;", ne, nt);
  } else {
    line(p, "unsigned char %s[%s]%s%s%s;", mt, LN(p), me ? ", " : "", me ? me : "", me ? xfmt("[%s]", LN(p)) : "");
    line(p, "int %s = 0%s%s%s;", nt, me ? ", " : "", me ? ne : "", me ? " = 0" : "");
    line(p, "%s {", lanes(p, true));
    if (p->full) line(p, "  int _c = _l < _nl && (%s);", p_exs(p, n->a, true));
    else line(p, "  int _c = %s[_l] && (%s);", mname(w->m), p_exs(p, n->a, true));
    line(p, "  %s[_l] = _c;", mt);
    line(p, "  %s += _c;", nt);
    if (me) {
      line(p, "  %s[_l] = %s && !_c;", me, p->full ? "_l < _nl" : xfmt("%s[_l]", mname(w->m)));
      line(p, "  %s += %s[_l];", ne, me);
    }
    line(p, "}");
    p_prof_branch(p, w->psite, nt, p_act_count(p));
    if (dual) {
      /* every lane one way: that branch alone, with no mask */
      line(p, "if (%s == _nl)", nt);
      pw(p, w->tall);
      ctx(p, &w->h);
      if (me) {
        line(p, "else if (%s == 0)", nt);
        pw(p, w->eall);
        ctx(p, &w->h);
      }
      line(p, "else {");
      p->ind++;
    }
  }
  line(p, "if (%s)", nt);
  pw(p, w->tm);
  if (me) {
    line(p, "if (%s)", ne);
    pw(p, w->em);
  }
  if (dual) {
    p->ind--;
    line(p, "}");
  }
  p->ind--;
  line(p, "}");
}

/* a loop's for-init of uniform declarations, in its header */
static char *uniform_init(P *p, Node *init) {
  if (!init) return xstrdup("");
  if (init->k == S_EXPR) return p_exs(p, init->a, false);
  Node *d = init->list.v[0];
  return d->a ? xfmt("%s = %s", ty_decl(d->var->ty, cname(d->var)), p_exs(p, d->a, false))
              : ty_decl(d->var->ty, cname(d->var));
}

static void loopu(P *p, W *w);

/* a uniform loop whose lanes' scalars are kept in arrays of the lanes
 * (version.c, W_LOOPU's jam): copied in before it, out after it */
static void p_loopu_jam(P *p, W *w) {
  line(p, "{");
  p->ind++;
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    line(p, "%s;", ty_decl(o->ty, xfmt("_s_%s[%s]", cname(o), LN(p))));
    line(p, "CU_UNROLL for (int _l = 0; _l < %s; _l++) _s_%s[_l] = %s[_l];", LN(p), cname(o), cname(o));
  }
  Vec own = {0};
  p->prom = w->prom;
  p->jam = true;
  p->own = &own;
  loopu(p, w);
  p->jam = false;
  p->own = NULL;
  p->prom = (Vec){0};
  for (int i = 0; i < w->prom_st.n; i++)
    line(p, "CU_UNROLL for (int _l = 0; _l < %s; _l++) %s[_l] = _s_%s[_l];", LN(p), cname(w->prom_st.v[i]),
         cname(w->prom_st.v[i]));
  p->ind--;
  line(p, "}");
}

static void loopu(P *p, W *w) {
  Node *n = w->n;
  char *ui = w->uinit && n->k == S_FOR ? uniform_init(p, n->a) : xstrdup("");
  if (!w->uinit) {
    line(p, "{");
    p->ind++;
    pw(p, w->init);
    ctx(p, &w->h);
  }
  char *c = n->b ? p_exs(p, n->b, false) : xstrdup("");
  if (n->k == S_FOR) line(p, "for (%s; %s; %s)", ui, c, n->c ? p_exs(p, n->c, false) : "");
  else if (n->k == S_WHILE) line(p, "while (%s)", c);
  else line(p, "do");
  pw(p, w->body);
  if (n->k == S_DO) line(p, "while (%s);", c);
  if (!w->uinit) {
    p->ind--;
    line(p, "}");
  }
}

static void p_loopu(P *p, W *w) {
  if (w->jam) p_loopu_jam(p, w);
  else loopu(p, w);
}

/* the lines of a loop's unit-stride reads, n lanes from the row's base
 * (bprefetch.c, b_rpf): a run loop's the next trip's (cu_prefetch_next; a
 * block's run of lanes, or a histogram's trip of 256 shared atomics, is
 * time enough: further ahead, privatized histograms were 1.3-1.5x slower),
 * a divergent loop's a warp's lanes some trips ahead (cu_prefetch_trip) */
static void pf_next(P *p, W *w, const char *n) {
  const char *fn = w->k == W_LOOPD ? "cu_prefetch_trip" : "cu_prefetch_next";
  char *seen = "";
  for (int i = 0; i < w->pf.n; i++) {
    Node *x = w->pf.v[i];
    char *a = xfmt("&(%s)[%s]", p_exs(p, x->a, false), p_row_base(x->b, p_exs(p, x->b, false)));
    if (strstr(seen, xfmt("|%s|", a))) continue;
    seen = xfmt("%s|%s|", seen, a);
    line(p, "%s(%s, (long long)(%s) * (long long)sizeof *%s, (long long)%s * (long long)sizeof *%s);", fn, a,
         p_exs(p, w->pstep, false), a, n, a);
  }
}

/* a divergent loop's test: the lanes still in it keep its answer */
static void p_mtest(P *p, W *w, const char *ml) {
  const char *c = p_exs(p, w->n->b, true);
  if (w->mall) line(p, "%s %s[_l] &= (%s) != 0;", w->flat ? lanes_flat(p) : lanes(p, true), ml, c);
  else line(p, "%s if (%s[_l]) %s[_l] = (%s) != 0;", lanes(p, true), ml, ml, c);
}

static void p_loopd(P *p, W *w) {
  Node *n = w->n;
  const char *ml = mname(w->ml), *mi = w->mi ? mname(w->mi) : NULL;
  Hdr in = {false, w->ml, w->h.ls};
  line(p, "{");
  p->ind++;
  pw(p, w->init);
  ctx(p, &w->h);
  line(p, "unsigned char %s[%s];", ml, LN(p));
  line(p, "memcpy(%s, %s, sizeof %s);", ml, mname(w->m), ml);
  line(p, "for (;;) {");
  p->ind++;
  if (n->b && n->k != S_DO) {
    pw(p, w->ch);
    ctx(p, &in);
    char *pa = w->pa ? xfmt("_pa%d", w->pa) : NULL;   /* lanes before the test */
    if (pa) line(p, "const unsigned %s = (_pf & 1) ? cu_count(%s) : 0;", pa, ml);
    if (ln(n->b)->vary) p_mtest(p, w, ml);
    else line(p, "if (!%s || !(%s)) break;", any(p, ml), p_exs(p, n->b, false));   /* no lane left: no test */
    if (pa) p_prof_branch(p, w->psite, xfmt("cu_count(%s)", ml), pa);
  }
  if (n->k != S_DO) line(p, "if (!%s) break;", any(p, ml));
  pf_next(p, w, "_nl");
  if (mi) {
    line(p, "unsigned char %s[%s];", mi, LN(p));
    line(p, "memcpy(%s, %s, sizeof %s);", mi, ml, mi);
  }
  pw(p, w->body);
  ctx(p, &in);
  if (n->c) {
    pw(p, w->ih);
    ctx(p, &in);
    if (w->inc->ws.n) pw(p, w->inc);
    else line(p, "if (%s) %s;", any(p, ml), p_exs(p, n->c, false));
  }
  if (n->k == S_DO) {
    pw(p, w->dh);
    ctx(p, &in);
    if (ln(n->b)->vary) p_mtest(p, w, ml);
    else line(p, "if (!%s || !(%s)) break;", any(p, ml), p_exs(p, n->b, false));
    line(p, "if (!%s) break;", any(p, ml));
  }
  p->ind--;
  line(p, "}");
  p->ind--;
  line(p, "}");
}

/* A loop over the run of lanes its condition keeps: the run's end (a
 * prefix) or start (a suffix) is _cutN, narrowed at every iteration. */
static void p_looprun(P *p, W *w) {
  Run *r = &w->run;
  Lanes in = w->h.ls;
  const char *n = "_nl";
  int id = w->id;
  line(p, "{");
  p->ind++;
  pw(p, w->init);
  ctx(p, &w->h);
  line(p, "int _cut%d = %s;   /* the run of lanes still in the loop */", id, r->prefix ? hi_s(&in) : lo_s(&in));
  line(p, "for (;;) {");
  p->ind++;
  char *d = p_run_diff(p, r->u, r->a);
  bool one = r->op == OP_LE || r->op == OP_GT;   /* <= and > count from d + 1 */
  line(p, "const int _c%d = cu_lanes_below(%s%s, %s);", id, d, one ? " + 1" : "", n);
  if (r->prefix) {
    line(p, "if (_c%d < _cut%d) _cut%d = _c%d;", id, id, id, id);
    line(p, "if (_cut%d <= %s) break;", id, lo_s(&in));
    pf_next(p, w, xfmt("_cut%d", id));
  } else {
    line(p, "if (_c%d > _cut%d) _cut%d = _c%d;", id, id, id, id);
    line(p, "if (%s <= _cut%d) break;", hi_s(&in), id);
  }
  pw(p, w->body);
  pw(p, w->inc);
  p->ind--;
  line(p, "}");
  p->ind--;
  line(p, "}");
}

static void p_loopr(P *p, W *w) {
  Node *n = w->n, *c = n->b, *inc = n->c;
  Obj *k = w->kv;
  int id = w->id;
  long long step = w->kstep;
  /* the tests' fields, once (each takes a site) */
  RngS *rs = p_rng_all(p, &w->rd, &w->wr);
  line(p, "{");
  p->ind++;
  line(p, "int _lk%d = 1;   /* the loop's accesses, tested as ranges before it */", id);
  /* reads, then writes: in the half-row version every sub-row's reads
   * before any sub-row's writes (a write marks the bytes it initializes
   * for all the loop's iterations) */
  for (int wi = 0; wi < 2; wi++) {
    int nv = wi ? w->wr.n : w->rd.n;
    RngS *v = wi ? rs + w->rd.n : rs;
    if (!nv) continue;
    if (p->hw) line(p, "for (int _r = 0; _r < %d && _lk%d; _r++) {", p->nr, id);
    else line(p, "{");
    p->ind++;
    line(p, "%s = %s;", ty_decl(k->ty, cname(k)), p_exs(p, w->kinit, false));   /* (its own: the loop's may be declared before it) */
    /* iterations, counted in the comparison's own types */
    char *span = xfmt("(long long)(%s)(%s) - (long long)(%s)%s", ty_decl(c->b->ty, ""), p_exs(p, c->b, false),
                      ty_decl(c->a->ty, ""), p_exs(p, c->a, false));
    char *nit = c->op == OP_LE ? xfmt("%s + 1", step > 1 ? xfmt("(%s) / %lld", span, step) : span)
                : step > 1 ? xfmt("(%s + %lld) / %lld", span, step - 1, step) : span;
    line(p, "const long long _lt%d = %s ? %s : 0;", id, p_exs(p, c, false), nit);
    Buf pb = {0}, t = {0};
    for (int i = 0; i < nv; i++) buf_printf(&pb, "%s(const char *)(%s)", i ? ", " : "", v[i].addr);
    line(p, "const char *_lp%d[%d] = {%s};", id, nv, pb.s ? pb.s : "");
    line(p, "%s;", p_stx(p, inc, false));
    for (int i = 0; i < nv; i++) {
      RngS *r = &v[i];
      buf_printf(&t, " &&\n%*scu_ck_rng2(_B, %s, %s, _lp%d[%d], %s, %s, _lt%d, (const char *)(%s) - _lp%d[%d], &_cs[%d], %s, %s)",
                 2 * p->ind + 6, "", r->tid, r->tstep, id, i, r->cnt, r->step, id, r->addr, id, i, r->id, r->obj, r->objn);
    }
    line(p, "_lk%d = _lk%d%s;", id, id, t.s);
    p->ind--;
    line(p, "}");
  }
  line(p, "if (_lk%d) {", id);
  p->ind++;
  unsigned ck = p->ck;
  p->ck = 0;
  pw(p, w->a);
  p->ck = ck;
  p->ind--;
  line(p, "} else {");
  p->ind++;
  pw(p, w->b);
  p->ind--;
  line(p, "}");
  p->ind--;
  line(p, "}");
}

static void p_swu(P *p, W *w) {
  Node *n = w->n;
  if (w->guard) line(p, "if (%s)", any(p, mname(w->guard)));
  line(p, "switch (%s) {", p_exs(p, n->a, false));
  for (int i = 0; i < w->ws.n; i++) {
    W *s = w->ws.v[i];
    if (s->k == W_CASE) {
      if (s->n->k == S_CASE) line(p, "case %lld: ;", (long long)s->n->ival);
      else line(p, "default: ;");
    } else {
      p->ind++;
      pw(p, s);
      p->ind--;
    }
  }
  line(p, "}");
}

static void p_swd(P *p, W *w) {
  Node *n = w->n;
  Vec *items = &n->d->list;
  const char *m = mname(w->m), *ms = mname(w->ms), *md = w->md ? mname(w->md) : NULL;
  char *sv = xfmt("_sv%d", w->sv);
  bool vary = ln(n)->vary;
  Buf cases = {0};
  for (int i = 0; i < items->n; i++) {
    Node *s = items->v[i];
    if (s->k == S_CASE) buf_printf(&cases, " || %s == %lld", vary ? xfmt("%s[_l]", sv) : sv, (long long)s->ival);
  }
  line(p, "{");
  p->ind++;
  pw(p, w->sw);
  ctx(p, &w->h);
  char *svt = ty_decl(n->a->ty, vary ? xfmt("%s[%s]", sv, LN(p)) : sv);
  if (vary) {
    line(p, "%s;", svt);
    line(p, "%s if (%s[_l]) %s[_l] = %s;", lanes(p, true), m, sv, p_exs(p, n->a, true));
  } else {
    line(p, "%s = %s;", svt, p_exs(p, n->a, false));
  }
  line(p, "unsigned char %s[%s] = {0};", ms, LN(p));
  if (md) {
    line(p, "unsigned char %s[%s];", md, LN(p));
    line(p, "%s %s[_l] = %s[_l] && !(0%s);", lanes(p, true), md, m, cases.s ? cases.s : "");
  }
  for (int i = 0; i < w->ws.n; i++) {
    W *s = w->ws.v[i];
    if (s->k == W_SWLABEL) {
      if (s->n->k == S_CASE)
        line(p, "%s %s[_l] |= %s[_l] && %s == %lld;", lanes(p, true), ms, m, vary ? xfmt("%s[_l]", sv) : sv,
             (long long)s->n->ival);
      else line(p, "%s %s[_l] |= %s[_l];", lanes(p, true), ms, md);
    } else pw(p, s);
  }
  p->ind--;
  line(p, "}");
}

static void p_jump(P *p, W *w) {
  Node *n = w->n;
  if (!ln(n)->masked || w->wret) {
    if (n->k == S_RETURN) line(p, "goto _rend%d;", w->rend);
    else line(p, n->k == S_BREAK ? "break;" : "continue;");
    return;
  }
  const char *m = mname(p->m);
  Buf b = {0};
  for (int i = 0; i < w->clear.n; i++) buf_printf(&b, "%s[_l] = 0; ", mname(w->clear.v[i]));
  line(p, "%s if (%s[_l]) { %s%s[_l] = 0; }", lanes(p, true), m, b.s ? b.s : "", m);
  free(b.s);
}

void pw(P *p, W *w) {
  if (!w) return;
  ctx(p, &w->h);
  p->noprof = w->noprof;
  switch (w->k) {
  case W_SEQ:
    if (w->brace) {
      line(p, "{");
      p->ind++;
    }
    for (int i = 0; i < w->ws.n; i++) pw(p, w->ws.v[i]);
    if (w->brace) {
      p->ind--;
      line(p, "}");
    }
    break;
  case W_EXPR:
    if (w->guard) line(p, "if (%s) %s;", any(p, mname(w->guard)), p_stx(p, w->x, false));
    else line(p, "%s;", p_stx(p, w->x, false));
    break;
  case W_UDECL: {
    Obj *o = w->o;
    const char *cn = cname(o);
    if (lo(o)->cross) {
      if (w->x->k == N_INIT) {
        /* a record's init list already prints as a compound literal */
        const char *ty = w->x->ty->kind == TY_RECORD ? "" : xfmt("(%s)", ty_decl(o->ty, ""));
        line(p, "memcpy(&%s, &%s%s, sizeof %s);", cn, ty, p_exs(p, w->x, false), cn);
      } else line(p, "%s = %s;", cn, p_exs(p, w->x, false));
    } else if (w->x) line(p, "%s = %s;", ty_decl(o->ty, cn), p_exs(p, w->x, false));
    else line(p, "%s;", ty_decl(o->ty, cn));
    break;
  }
  case W_VDECL:
    if (lo(w->o)->soa)
      for (int i = 0; i < w->o->ty->rec->fields.n; i++)
        line(p, "%s;", ty_decl(p_soa_fld(w->o, i)->ty, xfmt("%s[%s]", p_soa_f(w->o, i), LN(p))));
    else if (w->o->ty->kind == TY_ARRAY && !lo(w->o)->esc) line(p, "%s[32];", ty_decl(w->o->ty, cname(w->o)));   /* element-major */
    else line(p, "%s;", ty_decl(w->o->ty, xfmt("%s[%s]", cname(w->o), LN(p))));
    break;
  case W_AFFSET: p_affset(p, w); break;
  case W_LANES: p_lanes(p, w); break;
  case W_ONE:
    if (w->rng) p_one_rng(p, w);
    else p_lane_stmt(p, p_pre_s(p, w), p_item_s(p, w));
    break;
  case W_SPLIT: {
    if (!w->run.c) {   /* (a block test alone) */
      line(p, "if (_bt%d) {", w->bt);
      p->ind++;
      p->ctrue = w->cond;
      pw(p, w->a);
      p->ctrue = NULL;
      p->ind--;
      line(p, "} else {");
      p->ind++;
      pw(p, w->b);
      p->ind--;
      line(p, "}");
      break;
    }
    char *at;
    char *cnt = p_run_cnt(p, &w->run, &at);
    p_run_decl(p, &w->run);
    line(p, "if (%s%s == _nl) {", w->bt ? xfmt("_bt%d || ", w->bt) : "", cnt);
    p->ind++;
    p->ctrue = w->cond;
    pw(p, w->a);
    p->ctrue = NULL;
    p->ind--;
    line(p, "} else {");
    p->ind++;
    if (w->c) {   /* the first arm's lanes a prefix or a suffix */
      line(p, "const int _cut%d = %s;", w->run.id, w->run.prefix ? cnt : xfmt("_nl - (%s)", cnt));
      p->ctrue = w->cond;
      pw(p, w->c);
      p->ctrue = NULL;
      p->cfalse = w->cond;
      pw(p, w->d);
      p->cfalse = NULL;
    } else {
      p->cold++;
      pw(p, w->b);
      p->cold--;
    }
    p->ind--;
    line(p, "}");
    break;
  }
  case W_BPF:
    /* the same reads of the block w->id further on: its slice, fetched
     * while this block runs (a prefetch never faults: past the grid's
     * last block it touches nothing) */
    p->bshift = w->id;
    p->bsub = true;
    for (int i = 0; i < w->pf.n; i++) {
      Node *x = w->pf.v[i];
      char *a = p_exs(p, x->a, false), *ix = p_exs(p, x->b, false);
      line(p, "cu_prefetch_next(&%s[%s], 0, (long long)_nl * (long long)sizeof *%s);", a, ix, a);
    }
    p->bshift = 0;
    p->bsub = false;
    break;
  case W_LPF:
    /* the lines of the next iteration's reads, this warp's rows (bprefetch.c,
     * b_lpf): each read's lanes are a run of elements from the
     * row's base */
    p->bsub = true;
    p->ivn = &w->ivs;
    for (int i = 0; i < w->pf.n; i++) {
      Node *x = w->pf.v[i];
      char *a = p_exs(p, x->a, false), *ix = p_exs(p, x->b, false);
      if (p->hw)
        line(p, "for (int _r = 0; _r < %d; _r++) cu_prefetch_run(&%s[%s], %d * (long long)sizeof *%s);", p->nr, a, ix, p->hw, a);
      else line(p, "cu_prefetch_run(&%s[%s], (long long)_nl * (long long)sizeof *%s);", a, ix, a);
    }
    p->bsub = false;
    p->ivn = NULL;
    break;
  case W_NARROW: {
    /* the lanes left after `if (c) return;`: a prefix, as a partial warp */
    char *at;
    char *cnt = p_run_cnt(p, &w->run, &at);
    line(p, "{");
    p->ind++;
    p_run_decl(p, &w->run);
    line(p, "const int _nl%d = %s;   /* the lanes that did not return */", w->id, cnt);
    line(p, "if (_nl%d > 0) {", w->id);
    p->ind++;
    line(p, "const int _nl = _nl%d;", w->id);
    line(p, "unsigned char _m0[%s];", LN(p));
    line(p, "CU_LANES for (int _l = 0; _l < %s; _l++) _m0[_l] = _l < _nl;", p->bw ? "_nl" : "32");
    pw(p, w->body);
    line(p, "(void)_m0; (void)_nl;");
    p->ind--;
    line(p, "}");
    p->ind--;
    line(p, "}");
    break;
  }
  case W_WARPOP: p_warpop(p, w); break;
  case W_CALLW: p_callw(p, w); break;
  case W_ARM: {
    const char *m = mname(w->mt);
    const char *in = !p->full ? xfmt("%s[_l]", mname(p->m))
                     : xfmt("_l >= %s && _l < %s%s", lo_s(&p->ls), hi_s(&p->ls),
                            p->ls.step ? xfmt(" && (_l - %s) %% %s == 0", lo_s(&p->ls), step_s(&p->ls)) : "");
    line(p, "unsigned char %s[%s];", m, LN(p));
    line(p, "%s %s[_l] = (%s) && %s(%s);", lanes(p, true), m, in, w->sense ? "" : "!", p_exs(p, w->x, true));
    break;
  }
  case W_IFU:
    if (w->guard) line(p, "if (%s && (%s))", any(p, mname(w->guard)), p_exs(p, w->n->a, false));
    else line(p, "if (%s)", p_exs(p, w->n->a, false));
    pw(p, w->a);
    if (w->b) {
      line(p, "else");
      pw(p, w->b);
    }
    break;
  case W_IFD: p_ifd(p, w); break;
  case W_LOOPU: p_loopu(p, w); break;
  case W_LOOPD: p_loopd(p, w); break;
  case W_LOOPL: p_loopl(p, w); break;
  case W_LOOPR: p_loopr(p, w); break;
  case W_LOOPRUN: p_looprun(p, w); break;
  case W_SWU: p_swu(p, w); break;
  case W_SWD: p_swd(p, w); break;
  case W_JUMP: p_jump(p, w); break;
  case W_EXITCHK:
    line(p, "if (!%s) goto _rend%d;", any(p, "_m0"), w->rend);
    break;
  case W_RETURN:
    if (w->x) line(p, "return %s;", p_exs(p, w->x, false));
    else line(p, "return;");
    break;
  default: break;
  }
}
