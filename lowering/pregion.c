/* pregion.c: a region between barriers, its versions in turn, each taken
 * by the block's shape at run time (the half-row version two warps at a
 * time, then block-wide, whole rows, half rows; the general one last):
 * each a loop over the block's warps, the warp's set-up (_nl, _m0,
 * per-thread storage, per-warp copies) around its body; bound.c's tests
 * once at the region's top. */
#include "print.h"

/* ---- warps and regions ---- */

/* The set-up of one warp in a region: its lanes, its mask, its per-thread
 * storage; the lanes' thread indices only if the region reads them. In the
 * whole-row version (fast) they are one scalar per dimension. */

/* a per-warp copy of uniform value o (region.c, wcopies): the C variable
 * named with prefix dst set from the one named with prefix src, declared
 * if decl; an array's by memcpy */
static void wc_copy(P *p, Obj *o, const char *dst, const char *src, bool decl) {
  const char *d = xfmt("%s%s", dst, cname(o)), *s = xfmt("%s%s", src, cname(o));
  if (o->ty->kind != TY_ARRAY) line(p, "%s = %s;", decl ? ty_decl(o->ty, d) : d, s);
  else {
    if (decl) line(p, "%s;", ty_decl(o->ty, d));
    line(p, "memcpy(%s, %s, sizeof %s);", d, s, d);
  }
}
static void warp_head(P *p, Ver *v, bool m0) {
  bool fast = v->k == VK_ROW || v->k == VK_BW;
  int hw = p->pair ? p->pair : v->k == VK_HROW ? 16 : 0, nr = p->pair ? 64 / p->pair : 2;
  p->bw = v->k == VK_BW;   /* before the head: its lane arrays are block-sized too */
  p->hw = 0;
  p->ls = (Lanes){0};
  if (p->bw) {
    line(p, "const int _nl = (int)_B->blockDim.x;   /* the block's threads as one row of lanes */");
  } else if (p->pair) {
    line(p, "const int _nl = 64;   /* two warps' half rows: both full */");
  } else if (fast || hw) {
    line(p, "const int _nl = 32;   /* whole or half rows: every warp is full */");
  } else if (v->tids) {
    line(p, "unsigned _tx[32], _ty[32], _tz[32];");
    line(p, "const int _nl = cu_warp_ids(_B, _w, _tx, _ty, _tz);");
  } else {
    line(p, "const int _nl = cu_warp_nl(_B, _w);");
  }
  if (m0) line(p, "unsigned char _m0[%s];", LN(p));
  if (p->K->exits && v->k == VK_GEN) {
    line(p, "%s _m0[_l] = _l < _nl && !_ex[_w][_l];", lanes(p, true));
    line(p, "if (!%s) continue;", any(p, "_m0"));
  } else if (m0) {
    line(p, "%s _m0[_l] = _l < _nl;", lanes(p, true));
  }
  for (int i = 0; i < p->K->cross.n; i++) {
    Obj *o = p->K->cross.v[i];
    const char *cn = cname(o);
    /* restrict: a warp's per-thread storage is reached through this pointer
     * only, so the C compiler may keep it in registers across loops */
    if (p->bw)   /* the whole block's values, not warp 0's row */
      line(p, "%s = (%s)%s_all;", ty_decl(ptr_to(warp_type(o)->base), xfmt("restrict %s", cn)),
           ty_decl(ptr_to(warp_type(o)->base), ""), cn);
    else
      line(p, "%s = %s_all[_w];", ty_decl(ptr_to(warp_type(o)->base), xfmt("restrict %s", cn)), cn);
    if (fast && lo(o)->aff) line(p, "%s = %s[0];", ty_decl(o->ty, xfmt("%s_b", cn)), cn);
    if (hw && lo(o)->aff) {
      line(p, "%s;", ty_decl(o->ty, xfmt("%s_b[%d]", cn, nr)));
      line(p, "for (int _r = 0; _r < %d; _r++) %s_b[_r] = %s[_r * %d];", nr, cn, cn, hw);
    }
  }
  for (int i = 0; p->R && i < p->R->wcopy.n; i++) wc_copy(p, p->R->wcopy.v[i], "", "_wci_", true);
  p->fast = fast;
  p->hw = hw;
  p->nr = nr;
  p->inwarp = true;
}

void p_warp_close(P *p, Ver *v, bool m0) {
  if (v->rend_used) line(p, "_rend%d: ;", v->rend);
  /* (parked threads keep their flags: only lanes live at the head exit) */
  /* (a pair of warps' 64 flags: warp _w's row and the next, through a
   * plain pointer, for gcc bounds loops by the arrays they index) */
  const char *ex = p->pair ? "((unsigned char *)_ex)[_w * 32u + _l]" : "_ex[_w][_l]";
  /* (a fast version runs in a block with no flag set, every lane live: only
   * a return of its region's clears a lane of _m0) */
  bool marks = v->k == VK_GEN || !p->R || p->R->flags;
  if (p->K->park && marks) line(p, "%s %s |= !_m0[_l] && !%s;", lanes(p, true), ex, ex);
  else if (p->K->exits && marks) line(p, "%s %s = !_m0[_l];", lanes(p, true), ex);
  for (int i = 0; p->R && i < p->R->wcopy.n; i++) wc_copy(p, p->R->wcopy.v[i], "_wco_", "", false);
  line(p, m0 ? "(void)_m0; (void)_nl;" : "(void)_nl;");
  for (int i = 0; i < p->K->cross.n; i++) line(p, "(void)%s;", cname(p->K->cross.v[i]));
  p->fast = false;
  p->hw = 0;
  p->bw = false;
  p->pair = 0;
  p->inwarp = false;
  p->ind--;
  line(p, "}");
}

void p_warp_open(P *p, Ver *v, bool m0) {
  if (p->K->wco)   /* the warps this call runs (runtime/src/warps.c: one a coroutine) */
    line(p, "for (unsigned _wi = _B->wself; _wi < _B->wend; _wi++) {");
  else line(p, "for (unsigned _wi = 0; _wi < _B->nwarps; _wi++) {");
  p->ind++;
  line(p, "const unsigned _w = _B->worder ? _B->worder[_wi] : _wi;   /* CUCC_SCHEDULE=shuffle */");
  warp_head(p, v, m0);
}

/* ---- bounds over a block's threads (bound.c) ----
 * A GNU statement expression: each node's lowest and highest value over
 * the block, _blN and _bhN (long long; every one within 2^61, so sums do
 * not overflow, products through cu_bmul), _bo cleared where one leaves
 * its type's range; then the comparisons. */
static int64_t bn_const(Bn *n, bool *ok) {
  *ok = n->k == BN_VAL && (!n->x || bare(n->x)->k == N_NUM);
  return !*ok ? 0 : n->x ? bare(n->x)->ival : n->c;
}

static void bound_n(P *p, Buf *b, Bn *n) {
  if (n->a) bound_n(p, b, n->a);
  if (n->b) bound_n(p, b, n->b);
  int i = n->id, a = n->a ? n->a->id : 0, c = n->b ? n->b->id : 0;
  /* (each computed only while every bound before it fits its type: then
   * no sum or product here overflows) */
#define BD(lo, hi, ...) buf_printf(b, " const long long _bl%d = _bo ? " lo " : 0, _bh%d = _bo ? " hi " : 0;", __VA_ARGS__)
  switch (n->k) {
  case BN_VAL:
    if (n->x) buf_printf(b, " const long long _bl%d = (long long)(%s), _bh%d = _bl%d;", i, p_exs(p, n->x, false), i, i);
    else buf_printf(b, " const long long _bl%d = %lldll, _bh%d = _bl%d;", i, (long long)n->c, i, i);
    break;
  case BN_TID:
    buf_printf(b, " const long long _bl%d = 0, _bh%d = (long long)_bdm.%c - 1;", i, i, "xyz"[n->dim]);
    break;
  case BN_CAST: buf_printf(b, " const long long _bl%d = _bl%d, _bh%d = _bh%d;", i, a, i, a); break;
  case BN_SPAN: buf_printf(b, " const long long _bl%d = _bl%d, _bh%d = _bh%d;", i, a, i, c); break;
  case BN_ADD: BD("_bl%d + _bl%d", "_bh%d + _bh%d", i, a, c, i, a, c); break;
  case BN_SUB: BD("_bl%d - _bh%d", "_bh%d - _bl%d", i, a, c, i, a, c); break;
  case BN_NEG: BD("-_bh%d", "-_bl%d", i, a, i, a); break;
  case BN_MUL: {
    bool k_ok;
    long long k = (long long)bn_const(n->b, &k_ok);
    if (k_ok && k > -(INT64_C(1) << 31) && k < (INT64_C(1) << 31) && n->a->tmin >= -(INT64_C(1) << 32) &&
        n->a->tmax <= (INT64_C(1) << 32)) {
      /* (by a constant below 2^31, of a value within 2^32: the products fit
       * in long long, the constant's sign picks the ends) */
      BD("_b%c%d * %lldll", "_b%c%d * %lldll", i, k >= 0 ? 'l' : 'h', a, k, i, k >= 0 ? 'h' : 'l', a, k);
    } else
      buf_printf(b, " long long _bl%d = 0, _bh%d = 0; if (_bo) cu_bmul(_bl%d, _bh%d, _bl%d, _bh%d, &_bl%d, &_bh%d);", i, i, a, a, c,
                 c, i, i);
    break;
  }
  case BN_DIV: BD("_bl%d / %lldll", "_bh%d / %lldll", i, a, (long long)n->c, i, a, (long long)n->c); break;
  case BN_SHR: BD("_bl%d >> %lld", "_bh%d >> %lld", i, a, (long long)n->c, i, a, (long long)n->c); break;
  case BN_MOD:   /* (C's remainder takes the sign of the dividend) */
    buf_printf(b, " const long long _bl%d = _bl%d < 0 ? -%lldll : 0, _bh%d = _bh%d < 0 ? 0 : _bh%d < %lldll ? _bh%d : %lldll;", i, a,
               (long long)n->c - 1, i, a, a, (long long)n->c - 1, a, (long long)n->c - 1);
    break;
  case BN_AND:   /* (a mask not negative keeps a value within [0, mask]) */
    buf_printf(b, " const long long _bl%d = 0, _bh%d = _bl%d >= 0 && _bh%d < %lldll ? _bh%d : %lldll;", i, i, a, a, (long long)n->c,
               a, (long long)n->c);
    break;
  case BN_CMP: {
    const char *t = n->op == OP_LT ? "_bh%d < _bl%d" : n->op == OP_LE ? "_bh%d <= _bl%d" : n->op == OP_GT ? "_bl%d > _bh%d"
                    : n->op == OP_GE ? "_bl%d >= _bh%d" : NULL;
    buf_printf(b, " const int _bc%d = ", i);
    if (t) buf_printf(b, t, a, c);
    else buf_printf(b, "(_bh%d < _bl%d || _bl%d > _bh%d)", a, c, a, c);   /* != : apart */
    if (n->uns) buf_printf(b, " && _bl%d >= 0 && _bl%d >= 0", a, c);
    buf_printf(b, ";");
    return;
  }
  case BN_ALL: buf_printf(b, " const int _bc%d = _bc%d && _bc%d;", i, a, c); return;
  case BN_ANY: buf_printf(b, " const int _bc%d = _bc%d || _bc%d;", i, a, c); return;
  }
#undef BD
  buf_printf(b, " _bo &= _bl%d >= %lldll && _bh%d <= %lldll;", i, (long long)n->tmin, i, (long long)n->tmax);
}

char *p_bound_x(P *p, Bn *t) {
  Buf b = {0};
  buf_printf(&b, "({ int _bo = 1;");
  bound_n(p, &b, t);
  buf_printf(&b, " _bo && _bc%d; })", t->id);
  return b.s;
}

/* A region, its versions in turn: each fast version is printed on its own
 * first; a checked build keeps one only if no access in it is checked lane
 * by lane, for lane by lane the fast versions are slower than the general
 * one (measured: the t % (2*stride) reduction 3x, the tile-16 matmul 1.6x). */
void p_region(P *p, Region *r) {
  /* (of the prologue's copy _bdm, not _B->blockDim: the C compiler then
   * tests a block's shape once, where each region read it again after the
   * calls between them) */
  static const char *const conds[] = {
    [VK_BW] = "CU_TAKE(_pf, CU_MODE_NO_BW) && _bdm.x %% 32u == 0 && _bdm.y == 1 && _bdm.z == 1%s) {   /* 1-D block: one loop over its threads */",
    [VK_ROW] = "CU_TAKE(_pf, CU_MODE_NO_ROW) && _bdm.x %% 32u == 0%s) {   /* whole-row warps: threadIdx.x = _tx0 + lane (_pf: see prologue) */",
    [VK_HROW] = "CU_TAKE(_pf, CU_MODE_NO_HROW) && _bdm.x == 16u && _bdm.y %% 2u == 0%s) {   /* half rows: lane = 16 * _r + threadIdx.x */",
  };
  p->R = r;
  if (r->btn.n) {   /* (bound.c) */
    line(p, "{");
    p->ind++;
    for (int i = 0; i < r->btn.n; i++)
      line(p, "const int _bt%d = %s;   /* every thread: %s */", i + 1, p_bound_x(p, r->btn.v[i]), p_exs(p, r->btc.v[i], false));
  }
  if (r->wcopy.n) {
    line(p, "{   /* per-warp copies of the uniform values this region stores to */");
    p->ind++;
    for (int i = 0; i < r->wcopy.n; i++) {
      wc_copy(p, r->wcopy.v[i], "_wci_", "", true);
      wc_copy(p, r->wcopy.v[i], "_wco_", "", true);
    }
  }
  /* which versions are kept decides whether any reads _m0 */
  int nv = r->vers.n;
  bool *kept = xcalloc(nv, sizeof *kept);
  bool m0 = p->K->exits;
  kept[nv - 1] = true;
  for (int i = 0; i + 1 < nv; i++) kept[i] = !((Ver *)r->vers.v[i])->nlck;
  for (int i = 0; i < nv; i++) m0 |= kept[i] && ((Ver *)r->vers.v[i])->reads_m0;
  int nk = 0;
  /* a kernel with exit flags: the fast versions where no thread of the
   * block has returned or is parked (the usual case: a block-level if
   * whose threads agree, the tiled matmul's `if (row < n && col < n)`
   * around its loop); they run with no mask */
  const char *clean = "";
  bool anyfast = false;
  for (int i = 0; i + 1 < nv; i++) anyfast |= kept[i];
  if (p->K->exits && anyfast) {
    line(p, "{");
    p->ind++;
    if (p->K->wco) line(p, "const int _clean = !_exd || !cu_any_n(32 * (int)(_B->wend - _B->wself), _ex[_B->wself]);   /* no thread of these warps returned */");
    else line(p, "const int _clean = !_exd || !cu_any_n(32 * (int)_B->nwarps, &_ex[0][0]);   /* no thread returned or parked */");
    clean = " && _clean";
  }
  /* the half-row version two warps at a time (version.c, lw_jam): in rows
   * of 32 (four rows of 16) where the block's rows allow; first, before
   * whole rows take a block 32 wide */
  for (int i = 0; i + 1 < nv; i++) {
    Ver *v = r->vers.v[i];
    if (!kept[i] || !v->pair) continue;
    for (int pw_ = 32; pw_ >= 16; pw_ -= 16) {
      line(p, "%sif (CU_TAKE(_pf, %s | CU_MODE_NO_PAIR) && _bdm.x == %du && _bdm.y %% %du == 0%s) {   /* %s, two warps a step: lane = %d * _r + threadIdx.x */",
           nk++ ? "} else " : "", pw_ == 32 ? "CU_MODE_NO_ROW" : "CU_MODE_NO_HROW", pw_, 64 / pw_, clean,
           pw_ == 32 ? "whole rows" : "half rows", pw_);
      p->ind++;
      line(p, "unsigned _ty0 = 0, _tz0 = 0;");
      line(p, "for (unsigned _w = 0; _w < _B->nwarps; _w += 2, cu_rows_next(_B, &_ty0, &_tz0, %du)) {", 64u / pw_);
      p->ind++;
      p->pair = pw_;
      warp_head(p, v, m0);
      pw(p, v->body);
      p_warp_close(p, v, m0);
      p->ind--;
    }
  }
  for (int i = 0; i + 1 < nv; i++) {
    Ver *v = r->vers.v[i];
    if (!kept[i]) continue;
    line(p, "%sif (%s", nk++ ? "} else " : "", xfmt(conds[v->k], clean));
    p->ind++;
    if (v->k == VK_BW) {
      line(p, "const unsigned _w = 0, _tx0 = 0, _ty0 = 0, _tz0 = 0;");
      line(p, "(void)_w; (void)_tx0; (void)_ty0; (void)_tz0;");
      line(p, "{");
    } else if (p->K->wco) {   /* the warps this call runs */
      line(p, v->k == VK_ROW ? "unsigned _tx0, _ty0, _tz0;" : "unsigned _ty0, _tz0;");
      line(p, v->k == VK_ROW ? "cu_row_at(_B, _B->wself, &_tx0, &_ty0, &_tz0);" : "cu_hrow_at(_B, _B->wself, &_ty0, &_tz0);");
      line(p, "for (unsigned _w = _B->wself; _w < _B->wend; _w++, %s) {",
           v->k == VK_ROW ? "cu_row_next(_B, &_tx0, &_ty0, &_tz0)" : "cu_hrow_next(_B, &_ty0, &_tz0)");
    } else {
      line(p, v->k == VK_ROW ? "unsigned _tx0 = 0, _ty0 = 0, _tz0 = 0;" : "unsigned _ty0 = 0, _tz0 = 0;");
      line(p, "for (unsigned _w = 0; _w < _B->nwarps; _w++, %s) {",
           v->k == VK_ROW ? "cu_row_next(_B, &_tx0, &_ty0, &_tz0)" : "cu_hrow_next(_B, &_ty0, &_tz0)");
    }
    p->ind++;
    warp_head(p, v, m0);
    pw(p, v->body);
    p_warp_close(p, v, m0);
    p->ind--;
  }
  if (nk) {
    line(p, "} else {");
    p->ind++;
  }
  Ver *g = r->vers.v[nv - 1];
  p_warp_open(p, g, m0);
  pw(p, g->body);
  p_warp_close(p, g, m0);
  if (nk) {
    p->ind--;
    line(p, "}");
  }
  if (*clean) {
    p->ind--;
    line(p, "}");
  }
  if (r->wcopy.n) {
    for (int i = 0; i < r->wcopy.n; i++) wc_copy(p, r->wcopy.v[i], "", "_wco_", false);
    p->ind--;
    line(p, "}");
  }
  if (p->K->exits && r->flags) line(p, "_exd = 1;");
  if (r->btn.n) {
    p->ind--;
    line(p, "}");
  }
  p->R = NULL;
  free(kept);
}
