/* pblock.c: a kernel's block function: its parameters, shared memory and
 * per-thread storage, then its block-level items (Blk): regions, uniform
 * statements run once per block, barriers, and ifs and loops with
 * barriers inside, whose varying conditions every warp counts; then its
 * descriptor (cu_kernel) for the runtime. */
#include "print.h"

static bool sync_p(Node *n, void *c) { (void)c; return n->k == S_SYNC; }
static Node *first_sync(Node *n) {
  Node *r = NULL;
  if (!n) return NULL;
  if (n->k == S_SYNC) return n;
  Node *ops[4] = {n->a, n->b, n->c, n->d};
  for (int i = 0; i < 4 && !r; i++) r = first_sync(ops[i]);
  for (int i = 0; !r && i < n->list.n; i++) r = first_sync(n->list.v[i]);
  (void)sync_p;
  return r;
}

/* Evaluate a varying condition of block-level control flow for every live
 * thread into the scalar `var`; report a divergent barrier if threads
 * disagree. `sync` is the barrier that only some threads would reach. */
static void block_cond(P *p, Ver *cw, Node *c, const char *var, Node *sync, const char *what, int park, Bn *bt) {
  line(p, "unsigned _nt = 0, _nc = 0, _td = 0%s;", park ? ", _tt = 0" : "");
  if (bt) {   /* (bound.c: no thread flagged, and every one takes it) */
    line(p, "if (%s%s) {", p->K->exits ? "!_exd && " : "", p_bound_x(p, bt));
    line(p, "  _nt = _nc = _B->nthreads;   /* every thread: %s */", p_exs(p, c, false));
    line(p, "} else {");
    p->ind++;
  }
  p_warp_open(p, cw, true);
  pw(p, cw->body);
  ctx(p, &(Hdr){!p->K->exits, NULL, {0}});
  line(p, "%s if (_m0[_l]) {", lanes(p, true));
  line(p, "  int _c = (%s) != 0;", p_exs(p, c, true));
  line(p, "  if (!_c && _nt == _nc) _td = _w * 32 + _l;");
  if (park) {   /* park the threads not taking it; the first that does */
    line(p, "  if (_c && _nc == 0) _tt = _w * 32 + _l;");
    line(p, "  if (!_c) _ex[_w][_l] |= %du;", 1 << park);
  }
  line(p, "  _nt++;");
  line(p, "  _nc += _c;");
  line(p, "}");
  p_warp_close(p, cw, true);
  if (bt) {
    p->ind--;
    line(p, "}");
  }
  if (park) {
    line(p, "if (_nc != _nt) _exd = 1;   /* threads parked */");
    line(p, "%s = _nc != 0;", var);
    return;
  }
  line(p, "if (_nc != 0 && _nc != _nt) {");
  line(p, "  cu_barrier_diverged(_B, _td, \"%s\", %d, \"%s\", %d, _nc, _nt, \"%s\");", c->file, c->line,
       sync ? sync->file : c->file, sync ? sync->line : c->line, what);
  line(p, "  return;");
  line(p, "}");
  line(p, "%s = _nc != 0;", var);
}

static void blk(P *p, Blk *b);

static void blk_uni(P *p, W *w) {
  p->inwarp = false;
  pw(p, w);
}

static void blk(P *p, Blk *b) {
  Node *n = b->n;
  switch (b->k) {
  case BK_SEQ:
    if (b->brace) {
      line(p, "{");
      p->ind++;
    }
    for (int i = 0; i < b->items.n; i++) blk(p, b->items.v[i]);
    if (b->brace) {
      p->ind--;
      line(p, "}");
    }
    break;
  case BK_REGION: p_region(p, b->r); break;
  case BK_UNI: blk_uni(p, b->w); break;
  case BK_SYNC:
    if (p->K->park) {   /* reached while an if has threads parked: only its takers reach it */
      line(p, "if (_pkd) {");
      line(p, "  cu_barrier_diverged(_B, _pktd, _pkf, _pkl, \"%s\", %d, _pkr, _pkt, \"if\");", n->file, n->line);
      line(p, "  return;");
      line(p, "}");
    }
    if (n->grid) {   /* once per block, between block barriers */
      if (p->ck) line(p, "cu_ck_sync(_B);");   /* a barrier of the block too */
      line(p, "CU_BARRIER(_B);   /* grid.sync(): %s:%d */", n->file, n->line);
      line(p, "cu_grid_sync(_B);");
      line(p, "CU_BARRIER(_B);");
      break;
    }
    if (!n->coll) {
      if (p->ck) line(p, "cu_ck_sync(_B);");
      line(p, "CU_BARRIER(_B);   /* __syncthreads(): %s:%d */", n->file, n->line);
      break;
    }
    /* __syncthreads_count/and/or: count the predicate over live threads */
    line(p, "/* __syncthreads_%s(): %s:%d */", coll_str[n->coll], n->file, n->line);
    line(p, "{");
    p->ind++;
    line(p, "unsigned _nt = 0, _nc = 0;");
    p_warp_open(p, b->cw, true);
    pw(p, b->cw->body);
    ctx(p, &(Hdr){!p->K->exits, NULL, {0}});
    line(p, "%s if (_m0[_l]) {", lanes(p, true));
    line(p, "  _nt++;");
    line(p, "  _nc += (%s) != 0;", p_exs(p, n->a, true));
    line(p, "}");
    p_warp_close(p, b->cw, true);
    if (n->var && !lo(n->var)->vary)
      line(p, "%s = %s;", cname(n->var),
           n->coll == CO_SYNC_COUNT ? "_nc" : n->coll == CO_SYNC_AND ? "_nc == _nt" : "_nc != 0");
    line(p, "(void)_nt;");
    if (p->ck) line(p, "cu_ck_sync(_B);");
    line(p, "CU_BARRIER(_B);");
    p->ind--;
    line(p, "}");
    break;
  case BK_IF: {
    line(p, "{");
    p->ind++;
    const char *c;
    int pk = b->cw ? ln(n)->park : 0;
    if (b->cw) {
      line(p, "int _bc;");
      Node *s = first_sync(n->b) ? first_sync(n->b) : first_sync(n->c);
      block_cond(p, b->cw, n->a, "_bc", s, s ? "if" : "jump", pk, b->bt);   /* (no barrier: a break or continue) */
      c = "_bc";
    } else {
      c = p_exs(p, n->a, false);
    }
    if (pk) {   /* threads that disagree: the others parked while a side runs */
      line(p, "const int _dv = _nc != 0 && _nc != _nt;");
      line(p, "const unsigned _sd = _pkd, _sr = _pkr, _st = _pkt, _std = _pktd;");
      line(p, "const char *const _sf = _pkf;");
      line(p, "const int _sl = _pkl;");
      line(p, "if (_dv) _pkd++, _pkr = _nc, _pkt = _nt, _pktd = _td, _pkf = \"%s\", _pkl = %d;", n->a->file, n->a->line);
    }
    line(p, "if (%s) {", c);
    p->ind++;
    blk(p, b->then);
    p->ind--;
    line(p, "}");
    if (b->els) {
      line(p, pk ? "if (_nc != _nt) {" : "else {");
      p->ind++;
      if (pk) {   /* the takers parked instead */
        line(p, "cu_park_flip(&_ex[0][0], 32u * _B->nwarps, %du, _dv);", 1 << pk);
        line(p, "if (_dv) _pkr = _nt - _nc, _pktd = _tt;");
      }
      blk(p, b->els);
      p->ind--;
      line(p, "}");
    }
    if (pk) {
      line(p, "if (_nc != _nt) cu_park_flip(&_ex[0][0], 32u * _B->nwarps, %du, 0);", 1 << pk);
      line(p, "_pkd = _sd, _pkr = _sr, _pkt = _st, _pktd = _std, _pkf = _sf, _pkl = _sl;");
    }
    p->ind--;
    line(p, "}");
    break;
  }
  case BK_LOOP: {
    line(p, "{");
    p->ind++;
    if (b->uinit) blk_uni(p, b->uinit);
    if (b->init) blk(p, b->init);
    line(p, "for (;;) {");
    p->ind++;
    if (n->b && n->k != S_DO) {
      if (b->cw) {
        line(p, "int _lc;");
        block_cond(p, b->cw, n->b, "_lc", first_sync(n->d), "loop", 0, NULL);
        line(p, "if (!_lc) break;");
      } else line(p, "if (!(%s)) break;", p_exs(p, n->b, false));
    }
    blk(p, b->body);
    if (ln(n)->bcont) line(p, "_cont%d: ;", b->lid);
    if (n->c) {
      if (b->inc) blk(p, b->inc);
      else line(p, "%s;", p_stx(p, n->c, false));
    }
    if (n->k == S_DO) {
      if (b->dw) {
        line(p, "int _lc;");
        block_cond(p, b->dw, n->b, "_lc", first_sync(n->d), "loop", 0, NULL);
        line(p, "if (!_lc) break;");
      } else line(p, "if (!(%s)) break;", p_exs(p, n->b, false));
    }
    p->ind--;
    line(p, "}");
    p->ind--;
    line(p, "}");
    break;
  }
  case BK_BREAK: line(p, "break;"); break;
  case BK_CONT: line(p, "goto _cont%d;", ln(n->target)->lid); break;
  }
}

static void kernel(P *p, Kern *K) {
  Obj *k = K->k;
  const char *kn = K->cn;
  p->K = K;
  /* the function goes to a buffer first: its profile sites come before it */
  Buf fb = {0}, *out = p->o;
  p->o = &fb;
  line(p, "/* __global__ %s, %s:%d */", k->pretty, k->file, k->line);
  line(p, "static void %s(const cu_block *restrict _B, const char *restrict _P)", kn);
  line(p, "{");
  p->ind++;
  /* CUCC_PROFILE / CUCC_SCHEDULE=shuffle: every region takes its general
   * version, which counts (divergent branches, active lanes) and runs the
   * warps in B->worder's order; the cost when off is this load and a test
   * per region */
  line(p, "const unsigned _pf = cu_rt_mode;");
  line(p, "unsigned long long _pln = 0, _pst = 0, _pbr = 0, _pdv = 0;");
  line(p, "const cu_idx3 _bid = _B->blockIdx, _bdm = _B->blockDim, _gdm = _B->gridDim;");
  line(p, "(void)_bid; (void)_bdm; (void)_gdm;");
  if (p->ck) line(p, "cu_ck_block(_B);");
  for (int i = 0; i < k->params.n; i++) {
    Obj *o = k->params.v[i];
    const char *nm = lo(o)->vary ? xfmt("_p_%s", cname(o)) : cname(o);
    if (o->ty->kind == TY_RECORD) {
      line(p, "%s;", ty_decl(o->ty, nm));
      line(p, "memcpy(&%s, _P + %lld, sizeof %s);", nm, (long long)lo(o)->off, nm);
    } else {
      line(p, "%s = *(%s)(_P + %lld);", ty_decl(o->ty, nm), ty_decl(o->ty, "const *"), (long long)lo(o)->off);
    }
  }
  for (int i = 0; i < k->shared.n; i++) {
    Obj *s = k->shared.v[i];
    Type *pt = ptr_to(s->ty->kind == TY_ARRAY ? s->ty->base : s->ty);
    char *at = s->is_extern_shared ? xstrdup("cu_dyn_smem_off(_B->kernel)") : xfmt("%lld", (long long)lo(s)->off);
    line(p, "%s = (%s)(_B->smem + %s);", ty_decl(pt, cname(s)), ty_decl(pt, ""), at);
  }
  /* uniform values used by several regions: block-level scalars */
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    if (lo(o)->cross && !lo(o)->vary && !o->is_param) line(p, "%s;", ty_decl(o->ty, cname(o)));
  }
  /* varying values used by several regions: kept per thread */
  if (K->cross.n || K->exits) line(p, "char *_lp = _B->lanes;");
  for (int i = 0; i < K->cross.n; i++) {
    Obj *o = K->cross.v[i];
    Type *wt = warp_type(o);
    line(p, "%s = (%s)_lp;", ty_decl(ptr_to(wt), xfmt("%s_all", cname(o))), ty_decl(ptr_to(wt), ""));
    line(p, "_lp += sizeof(%s) * _B->nwarps;", ty_decl(wt, ""));
  }
  if (K->exits) {
    line(p, "unsigned char (*_ex)[32] = (unsigned char (*)[32])_lp;");
    line(p, K->wco ? "memset(_ex[_B->wself], 0, 32 * (_B->wend - _B->wself));" : "memset(_ex, 0, 32 * _B->nwarps);");
    /* some flag may be set (a partial warp's missing lanes are, from the
     * first region on; then returns, and parked threads): while none is,
     * no region scans the flags for _clean */
    line(p, "int _exd = _B->nthreads %% 32u != 0;");
  }
  if (K->park) {   /* the innermost if with threads parked: how many take it, of how many; where */
    line(p, "unsigned _pkd = 0, _pkr = 0, _pkt = 0, _pktd = 0;");
    line(p, "const char *_pkf = 0;");
    line(p, "int _pkl = 0;");
  }
  p->fn = k;
  blk(p, K->body);
  line(p, "if (_pf & 1) cu_prof_add(&%s_prof, _pln, _pst, _pbr, _pdv);", kn);
  line(p, "(void)_P;");
  p->ind--;
  line(p, "}");
  line(p, "%s", "");
  p->o = out;
  int np = K->psites.n;
  Buf pf = {0}, pl = {0};
  for (int i = 0; i < np; i++) {
    Node *b = K->psites.v[i];
    buf_printf(&pf, "\"%s\", ", b->file);
    buf_printf(&pl, "%d, ", b->line);
  }
  line(p, "static unsigned long long %s_psplit[%d];", kn, np ? np : 1);
  line(p, "static const char *const %s_pfile[] = {%s0};", kn, pf.s ? pf.s : "");
  line(p, "static const int %s_pline[] = {%s0};", kn, pl.s ? pl.s : "");
  line(p, "static cu_prof %s_prof = {0, 0, 0, 0, %d, %s_pfile, %s_pline, %s_psplit};", kn, np, kn, kn, kn);
  buf_puts(p->o, fb.s);
  free(fb.s);
  Buf po = {0}, ps = {0};
  for (int i = 0; i < k->params.n; i++) {
    Obj *o = k->params.v[i];
    buf_printf(&po, "%s%lld", i ? ", " : "", (long long)lo(o)->off);
    buf_printf(&ps, "%s%lld", i ? ", " : "", (long long)o->ty->size);
  }
  if (k->params.n) {
    line(p, "static const unsigned %s_po[] = {%s};", kn, po.s);
    line(p, "static const unsigned %s_ps[] = {%s};", kn, ps.s);
  }
  line(p, "static const cu_kernel %s_desc = {", kn);
  line(p, "  .name = \"%s\",", k->key);
  line(p, "  .pretty = \"%s\",", k->pretty);
  line(p, "  .fn = %s,", kn);
  line(p, "  .nparams = %d,", k->params.n);
  line(p, "  .param_off = %s,", k->params.n ? xfmt("%s_po", kn) : "0");
  line(p, "  .param_size = %s,", k->params.n ? xfmt("%s_ps", kn) : "0");
  line(p, "  .param_bytes = %lld,", (long long)K->pbytes);
  line(p, "  .param_align = %d,", K->palign);
  line(p, "  .smem_static = %lld,", (long long)k->smem_static);
  line(p, "  .lane_bytes = %lld,", (long long)K->lane_bytes);
  line(p, "  .nregs = %d,", k->nregs);
  line(p, "  .max_threads = %d,", k->max_threads);
  line(p, "  .file = \"%s\",", k->file);
  line(p, "  .line = %d,", k->line);
  line(p, "  .barriers = %d,", ln(k->body)->sync ? 1 : 0);
  if (K->wco) line(p, "  .wco = %d,", K->wb ? 2 : 1);
  line(p, "  .prof = &%s_prof,", kn);
  line(p, "};");
  line(p, "%s", "");
}

void lw_print_kernel(Lw *L, Kern *K) { kernel(L->pr, K); }
