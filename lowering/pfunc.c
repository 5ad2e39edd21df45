/* pfunc.c: device functions as C. A scalar one (Dfn) is a C function of
 * its own, a small one inlined into the lane loops that call it; a warp
 * version (WarpFn) runs for its caller's warp, with the caller's lanes,
 * its varying arguments and its results as lane arrays, called by a
 * hoisted W_CALLW (p_callw). */
#include "print.h"

static char *params_decl(Obj *f) {
  Buf b = {0};
  int k = 0;
  if (lo(f)->uses_tid) {
    buf_puts(&b, "const cu_block *_B, unsigned _tx, unsigned _ty, unsigned _tz");
    k++;
  }
  for (int i = 0; i < f->params.n; i++) {
    Obj *o = f->params.v[i];
    buf_printf(&b, "%s%s", k++ ? ", " : "", ty_decl(o->ty, cname(o)));
  }
  if (!k) buf_puts(&b, "void");
  return buf_take(&b);
}

/* -rdc: a device function with external linkage (the frontend gives it
 * its mangled name as key) is cu_dev_<key> for the linker, defined here or
 * in another file's object */
/* A small device function called lane by lane is inlined into its lane
 * loops, as nvcc inlines device functions: a call the C compiler keeps
 * (one storing through its parameters, called from several versions) would
 * stop the loop's vectorization. Not recursive ones, nor -rdc's external
 * ones (a fixed ABI). */
static int nodes_f(Node *n, void *c) {
  (void)n;
  ++*(int *)c;
  return W_GO;
}
static bool small_fn_(P *p, Obj *f, int most) {
  if (f->key || in_vec(&p->L->rec, f) || !f->body) return false;
  int k = 0;
  walk(f->body, nodes_f, &k);
  return k <= most;
}
static bool small_fn(P *p, Obj *f) { return small_fn_(p, f, 400); }
char *p_fn_sig(P *p, Obj *f) {
  return xfmt("%s%s(%s)", f->key ? "" : small_fn(p, f) ? "static inline __attribute__((always_inline)) " : "static ",
              ty_decl(f->ty, f->cname), params_decl(f));
}

static void device_fn(P *p, Dfn *d) {
  Obj *f = d->f;
  line(p, "/* __device__ %s, %s:%d */", f->name, f->file, f->line);
  line(p, "%s", p_fn_sig(p, f));
  p->fn = f;
  p->lane = false;
  p->inwarp = false;
  pw(p, d->body);
  line(p, "%s", "");
}

void lw_print_dfn(Lw *L, Dfn *d) { device_fn(L->pr, d); }

static const char *vname_[] = {[VK_BW] = "block-wide", [VK_ROW] = "rows", [VK_HROW] = "half rows", [VK_GEN] = "general"};

/* the thread indices a warp version takes, in its caller's geometry */
static const char *tid_params(WarpFn *wf, bool decl) {
  if (!lo(wf->f)->uses_tid) return "";
  if (wf->k == VK_ROW) return decl ? ", unsigned _tx0, unsigned _ty0, unsigned _tz0" : ", _tx0, _ty0, _tz0";
  if (wf->k == VK_HROW) return decl ? ", unsigned _ty0, unsigned _tz0" : ", _ty0, _tz0";
  return decl ? ", const unsigned *_tx, const unsigned *_ty, const unsigned *_tz" : ", _tx, _ty, _tz";
}

/* A call of a warp version: its varying arguments gathered lane by lane,
 * the caller's lanes as a mask where they are not all the warp's, the
 * results into _fN. */
void p_callw(P *p, W *w) {
  WarpFn *wf = w->wf;
  Node *n = w->n;
  Obj *c = wf->c;
  int id = w->id;
  if (wf->ret && !w->fwd) line(p, "%s;", ty_decl(n->ty, xfmt("_f%d[32]", id)));
  const char *mc = NULL;
  if (wf->en == EN_MASK) {
    if (!p->full) mc = mname(p->m);
    else {   /* a run of lanes [lo, hi), every step-th */
      mc = xfmt("_mc%d", id);
      line(p, "unsigned char %s[32];", mc);
      line(p, "CU_LANES for (int _l = 0; _l < 32; _l++) %s[_l] = _l >= %s && _l < %s%s;", mc, lo_s(&p->ls), hi_s(&p->ls),
           p->ls.step ? xfmt(" && (_l - %s) %% %s == 0", lo_s(&p->ls), step_s(&p->ls)) : "");
    }
  }
  bool vary = false;
#define DIRECT(i) ((i) < 64 && (w->direct >> (i) & 1))
  for (int i = 0; i < c->params.n; i++)
    if (wf->sh[i] == PS_VARY && !DIRECT(i)) {
      line(p, "%s;", ty_decl(((Obj *)c->params.v[i])->ty, xfmt("_a%d_%d[32]", id, i)));
      vary = true;
    }
  if (vary) {
    p_lane_open(p);
    for (int i = 0; i < c->params.n; i++)
      if (wf->sh[i] == PS_VARY && !DIRECT(i)) line(p, "_a%d_%d[_l] = %s;", id, i, p_exs(p, n->list.v[i], true));
    p_lane_close(p);
  }
  for (int i = 0; i < c->params.n && p->hw; i++)   /* (half rows: an affine one's base per sub-row) */
    if (wf->sh[i] == PS_AFF) {
      line(p, "%s;", ty_decl(((Obj *)c->params.v[i])->ty, xfmt("_a%d_%d[%d]", id, i, p->nr)));
      line(p, "for (int _r = 0; _r < %d; _r++) _a%d_%d[_r] = %s;", p->nr, id, i, p_exs(p, n->list.v[i], false));
    }
  Buf a = {0};
  buf_printf(&a, "_B, _w%s%s%s", wf->k == VK_ROW || wf->k == VK_HROW ? "" : ", _nl", tid_params(wf, false),
             mc ? xfmt(", %s", mc) : "");
  for (int i = 0; i < c->params.n; i++)
    buf_printf(&a, ", %s", DIRECT(i)                 ? cname(((Node *)n->list.v[i])->var)
                           : wf->sh[i] == PS_VARY || (wf->sh[i] == PS_AFF && p->hw) ? xfmt("_a%d_%d", id, i)
                                                                                    : p_exs(p, n->list.v[i], false));
#undef DIRECT
  if (wf->ret) buf_printf(&a, w->fwd ? ", _ret" : ", _f%d", id);
  line(p, "%s(%s);", c->cname, a.s);
  if (w->fwd) return;
  vec_push(&p->hn, n);
  vec_push(&p->hid, xfmt("_f%d", id));
}

/* a warp version: its caller's warp (_w, _nl, lanes _mc or all of them),
 * thread indices, arguments (scalar, base or lane array), results _ret */
void lw_print_warpfn(Lw *L, WarpFn *wf) {
  P *p = L->pr;
  Obj *f = wf->f, *c = wf->c;
  Ver *v = wf->v;
  Buf a = {0};
  /* (whole or half rows: every warp is full, _nl a constant, so that lane
   * loops have a known count: copies of lane arrays are not memcpy calls) */
  bool full = wf->k == VK_ROW || wf->k == VK_HROW;
  buf_printf(&a, "const cu_block *restrict _B, const unsigned _w%s%s%s", full ? "" : ", const int _nl",
             tid_params(wf, true), wf->en == EN_MASK ? ", const unsigned char *_mc" : "");
  for (int i = 0; i < c->params.n; i++) {
    Obj *o = c->params.v[i];
    buf_printf(&a, ", %s", wf->sh[i] == PS_VARY ? ty_decl(ptr_to(o->ty), xfmt("restrict %s", cname(o)))
                           : wf->sh[i] == PS_AFF ? ty_decl(wf->k == VK_HROW ? arr_of(o->ty, 2) : o->ty, xfmt("%s_b", cname(o)))
                                                 : ty_decl(o->ty, cname(o)));
  }
  if (wf->ret) buf_printf(&a, ", %s", ty_decl(ptr_to(wf->ret->ty), "restrict _ret"));
  line(p, "/* __device__ %s, %s:%d: a warp version (%s, %s) */", f->name, f->file, f->line, vname_[wf->k],
       wf->en == EN_MASK ? "its caller's lanes _mc" : "every lane below _nl");
  /* (a small one `inline`: gcc then inlines it, so its lane arrays stay
   * where the caller's are and a butterfly's steps unroll; measured: a
   * __shfl_down_sync reduction in a helper 2.3x faster. A hint, not
   * always_inline: forcing every warp version inline made CUB's block
   * primitives take gcc 5x as long to compile, the hint 1.2x) */
  line(p, "static %svoid %s(%s)", small_fn_(p, f, 60) ? "inline " : "", c->cname, a.s);
  line(p, "{");
  p->ind++;
  p->K = wf->K;
  p->fn = c;
  p->R = NULL;
  line(p, "const cu_idx3 _bid = _B->blockIdx, _bdm = _B->blockDim, _gdm = _B->gridDim;");
  line(p, "(void)_bid; (void)_bdm; (void)_gdm;");
  if (full) line(p, "const int _nl = 32;");
  if (wf->en == EN_MASK) {
    line(p, "unsigned char _m0[32];");
    line(p, "memcpy(_m0, _mc, sizeof _m0);");
  } else if (v->reads_m0) {
    line(p, "unsigned char _m0[32];");
    line(p, "CU_LANES for (int _l = 0; _l < 32; _l++) _m0[_l] = _l < _nl;");
  }
  p->fast = v->k == VK_ROW;
  p->hw = v->k == VK_HROW ? 16 : 0;
  p->nr = 2;
  p->bw = false;
  p->inwarp = true;
  p->ls = (Lanes){0};
  pw(p, v->body);
  if (v->rend_used) line(p, "_rend%d: ;", v->rend);
  line(p, "(void)_nl; (void)_w;");
  p->fast = false;
  p->hw = 0;
  p->inwarp = false;
  p->ind--;
  line(p, "}");
  line(p, "%s", "");
}
