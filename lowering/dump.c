/* dump.c: cucc --dump-lir, the lowered form as text (on stderr), for
 * people and for lowering tests that check decisions rather than C:
 *   kernel K (file:line)
 *     var i: varying, affine lane     what shape.c and region.c decided
 *     region 1 (file:line)            each region, its versions (kept or
 *       version rows                  dropped), and its warp statements
 *         lanes [0, _nl): s[t] = ...  with the lanes and masks they run on
 * Expressions are printed as the source spells them (IR names). */
#include "lw.h"

typedef struct D { Buf *o; int ind; } D;

static void dl(D *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dl(D *d, const char *fmt, ...) {
  for (int i = 0; i < d->ind; i++) buf_puts(d->o, "  ");
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(d->o, fmt, ap);
  va_end(ap);
  buf_puts(d->o, "\n");
}

/* ---- expressions, as the source spells them ---- */
static void dx_(Buf *b, Node *n);

static void dlist(Buf *b, Vec *v) {
  for (int i = 0; i < v->n; i++) {
    if (i) buf_puts(b, ", ");
    dx_(b, v->v[i]);
  }
}

static void dx_(Buf *b, Node *n) {
  if (!n) return;
  static const char *const bn[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
  switch (n->k) {
  case N_NUM: buf_printf(b, "%lld", (long long)n->ival); break;
  case N_FNUM: buf_printf(b, "%g", n->fval); break;
  case N_STR: buf_puts(b, n->str); break;
  case N_VAR: buf_puts(b, n->var->name); break;
  case N_BUILTIN:
    if (n->bk == B_WSIZE) buf_puts(b, "warpSize");
    else if (n->bk == B_BALL) {
      buf_puts(b, "every thread of the block: ");
      dx_(b, ln(n)->btc);
      if (ln(n)->btc && ln(n)->bu) buf_puts(b, " and ");
      dx_(b, ln(n)->bu);
    }
    else buf_printf(b, "%s.%c", bn[n->bk], "xyz"[n->dim]);
    break;
  case N_BIN: case N_LOG: case N_ASSIGN:
    buf_puts(b, "(");
    dx_(b, n->a);
    buf_printf(b, " %s ", op_str[n->op]);
    dx_(b, n->b);
    buf_puts(b, ")");
    break;
  case N_COMMA: buf_puts(b, "("); dx_(b, n->a); buf_puts(b, ", "); dx_(b, n->b); buf_puts(b, ")"); break;
  case N_UN: buf_printf(b, "%s", op_str[n->op]); dx_(b, n->a); break;
  case N_INCDEC:
    if (!n->post) buf_puts(b, op_str[n->op]);
    dx_(b, n->a);
    if (n->post) buf_puts(b, op_str[n->op]);
    break;
  case N_COND:
    buf_puts(b, "(");
    dx_(b, n->a);
    buf_puts(b, " ? ");
    dx_(b, n->b);
    buf_puts(b, " : ");
    dx_(b, n->c);
    buf_puts(b, ")");
    break;
  case N_CAST:
    if (n->implicit) dx_(b, n->a);
    else {
      buf_printf(b, "(%s)", ty_decl(n->ty, ""));
      dx_(b, n->a);
    }
    break;
  case N_CALL:
    buf_printf(b, "%s%s(", n->ck == C_FUNC ? n->fn->name : n->ck == C_WARP ? coll_str[n->coll] : n->name,
               ln(n)->batch ? "[batched]" : "");
    dlist(b, &n->list);
    buf_puts(b, ")");
    break;
  case N_INDEX:
    if (is_decay(n->a)) dx_(b, n->a->a);
    else dx_(b, n->a);
    buf_puts(b, "[");
    dx_(b, n->b);
    buf_puts(b, "]");
    break;
  case N_MEMBER: dx_(b, n->a); buf_printf(b, "%s%s", n->post ? "->" : ".", n->field->name); break;
  case N_INIT: buf_puts(b, "{"); dlist(b, &n->list); buf_puts(b, "}"); break;
  case S_SYNC: buf_printf(b, "__syncthreads_%s(", coll_str[n->coll]); dx_(b, n->a); buf_puts(b, ")"); break;
  default: buf_puts(b, "?"); break;
  }
}

static char *dx(Node *n) {
  Buf b = {0};
  dx_(&b, n);
  return b.s ? b.s : xstrdup("");
}

/* ---- lanes and masks ---- */
static const char *mn(Mask *m) {
  static const char *const tag[] = {"0", "t", "e", "l", "i", "s", "d", "a"};
  return !m ? "-" : m->k == MK_0 ? "_m0" : xfmt("_m%s%d", tag[m->k], m->id);
}

static const char *hs(Hdr *h) {
  if (!h->full) return xfmt("lanes under %s", mn(h->m));
  Lanes *l = &h->ls;
  const char *lo = l->lo ? xfmt("_cut%d", l->lo) : "0";
  const char *hi = l->hik == HI_NL ? "_nl" : l->hik == HI_CUT ? xfmt("_cut%d", l->hi) : xfmt("_cut%d + 1", l->hi);
  return l->step ? xfmt("lanes [%s, %s) step _s%d", lo, hi, l->step) : xfmt("lanes [%s, %s)", lo, hi);
}

static const char *run_s(Run *r) {
  if (!r->c) return "";
  if (r->m) return xfmt(", run: every _s%d-th lane from _f%d (%s)", r->id, r->id, dx(r->c));
  const char *s = r->a2 ? xfmt(", run: an interval (%s %s %s) and (%s %s %s)", dx(r->a2), op_str[r->op2], dx(r->u2), dx(r->a),
                               op_str[r->op], dx(r->u))
                  : xfmt(", run: %s (%s %s %s)", r->point ? "one lane" : r->prefix ? "a prefix" : "a suffix", dx(r->a),
                         op_str[r->op], dx(r->u));
  for (int i = 0; i < r->g.n; i++) s = xfmt("%s%s%s%s", s, i ? " && " : " where ", r->gneg ? "!" : "", dx(r->g.v[i]));
  return s;
}

/* a warp-synchronous store (build.c, simt_store, ahead_of) */
static const char *simt_s(W *w) {
  return w->ahead.n ? ", warp-synchronous: every lane's loads, then its stores (one loop where it reads "
                      "ahead or no lane reads another's word)"
                    : ", warp-synchronous: every lane's loads, then its stores";
}

static void dw(D *d, const char *label, W *w);

static void dsub(D *d, const char *label, W *w) {
  if (!w) return;
  d->ind++;
  dw(d, label, w);
  d->ind--;
}

static const char *lbl(const char *label) { return label ? xfmt("%s: ", label) : ""; }

/* a loop's reads prefetched ahead (bprefetch.c, b_rpf): a run loop's one
 * trip, a divergent loop's some (pstmt.c's pf_next) */
static void pf_line(D *d, const char *L, W *w) {
  if (!w->pf.n) return;
  char *s = "";
  for (int i = 0; i < w->pf.n; i++) s = xfmt("%s%s%s", s, i ? ", " : "", dx(w->pf.v[i]));
  dl(d, "%s  prefetched %s (%s) ahead: %s", L, w->k == W_LOOPD ? "some steps" : "one step", dx(w->pstep), s);
}

static void dw(D *d, const char *label, W *w) {
  if (!w) return;
  Node *n = w->n;
  const char *L = lbl(label);
  switch (w->k) {
  case W_SEQ:
    if (label) dl(d, "%s", xfmt("%s:", label));
    for (int i = 0; i < w->ws.n; i++) {
      d->ind += label != NULL;
      dw(d, NULL, w->ws.v[i]);
      d->ind -= label != NULL;
    }
    break;
  case W_EXPR: dl(d, "%suniform: %s%s", L, dx(w->x), w->guard ? xfmt("   (if any lane of %s)", mn(w->guard)) : ""); break;
  case W_UDECL: dl(d, "%suniform %s = %s%s", L, w->o->name, w->x ? dx(w->x) : "?", lo(w->o)->cross ? "   (block level)" : ""); break;
  case W_VDECL: dl(d, "%slane storage %s", L, w->o->name); break;
  case W_AFFSET: dl(d, "%saffine %s: base %s", L, w->o->name, w->decl ? w->x ? xfmt("= %s", dx(w->x)) : "declared" : dx(w->n)); break;
  case W_LANES:
    dl(d, "%s%s%s%s%s:", L, hs(&w->h), w->ws.n > 1 ? xfmt(", %d statements in one loop", w->ws.n) : "",
       w->ws.n == 1 && ((W *)w->ws.v[0])->agg ? ", the values combined, one atomic for the lanes" : "",
       w->ws.n == 1 && ((W *)w->ws.v[0])->simt ? simt_s(w->ws.v[0]) : w->sparse ? ", over the mask's set bits"
       : w->mblend && !w->h.full ? xfmt(", as selects by the mask in every lane%s", w->flat ? ", one loop in half rows" : "") : "");
    for (int i = 0; i < w->ws.n; i++) {
      W *o = w->ws.v[i];
      d->ind++;
      if (o->k == W_INIT) dl(d, "%s = %s", o->o->name, dx(o->x));
      else dl(d, "%s%s%s", o->o ? xfmt("%s = ", o->o->name) : "", dx(o->x),
              o->shead ? xfmt(": _sel%d, a condition once per lane", o->sel)
              : o->sel ? xfmt(", a select on %s_sel%d", o->sneg ? "!" : "", o->sel) : "");
      d->ind--;
    }
    break;
  case W_ONE:
    dl(d, "%s%s%s: %s%s", L, hs(&w->h), w->rng ? xfmt(", range-tested (%d reads, %d writes)", w->rd.n, w->wr.n) : "",
       w->o ? xfmt("%s = ", w->o->name) : "", dx(w->x));
    break;
  case W_BPF: {
    char *x = "";
    for (int i = 0; i < w->pf.n; i++) x = xfmt("%s%s%s", x, i ? ", " : "", dx(w->pf.v[i]));
    dl(d, "%sthe slice of block blockIdx.x + %d prefetched: %s", L, w->id, x);
    break;
  }
  case W_LPF: {
    char *x = "", *v = "";
    for (int i = 0; i < w->pf.n; i++) x = xfmt("%s%s%s", x, i ? ", " : "", dx(w->pf.v[i]));
    for (int i = 0; i < w->ivs.n; i++) v = xfmt("%s%s%s", v, i ? ", " : "", dx(w->ivs.v[i]));
    dl(d, "%sthe next iteration's reads prefetched, at %s: %s", L, v, x);
    break;
  }
  case W_NARROW:
    dl(d, "%sreturn where %s: the rest with _nl the lanes left%s", L, dx(n->a), run_s(&w->run));
    dsub(d, "rest", w->body);
    break;
  case W_SPLIT:
    dl(d, "%ssplit%s: first arm of %s in every lane, or not%s", L, run_s(&w->run), dx(w->cond->a),
       w->bt ? xfmt(" (every lane where the block's bounds show it: _bt%d)", w->bt) : "");
    dsub(d, "all take it", w->a);
    dsub(d, "else", w->b);
    dsub(d, "else the first arm over its run", w->c);
    dsub(d, "and the second over the other lanes", w->d);
    break;
  case W_WARPOP:
    dl(d, "%scollective %s = %s, under %s%s", L, w->fwd ? "_ret (the function's results)" : xfmt("_w%d", w->id), dx(n),
       w->act ? mn(w->act) : "the live lanes",
       w->xdir ? ", permuting the value's lane array itself" : w->bcast ? ", one lane's value to every lane" : "");
    break;
  case W_IFU:
    dl(d, "%sif uniform %s%s", L, dx(n->a), w->guard ? xfmt("   (if any lane of %s)", mn(w->guard)) : "");
    dsub(d, "then", w->a);
    dsub(d, "else", w->b);
    break;
  case W_IFD: {
    static const char *const md[] = {"counted", "counted, branches over runs", "masked", "masked, counted",
                                     "cold: counted, masked when taken", "over a prefix of the loop's run"};
    dl(d, "%sif divergent #%d %s: %s%s%s%s", L, w->id, md[w->mode], dx(n->a), run_s(&w->run), w->blend ? ", blend" : "",
       w->bt ? xfmt(", every lane where the block's bounds show it (_bt%d)", w->bt) : "");
    dsub(d, "every lane takes then", w->tall);
    dsub(d, "every lane takes else", w->eall);
    dsub(d, "then over the run", w->trun);
    dsub(d, "else over the rest", w->erun);
    dsub(d, xfmt("then under %s", mn(w->mt)), w->tm);
    dsub(d, xfmt("else under %s", mn(w->me)), w->em);
    break;
  }
  case W_LOOPU: {
    Buf b = {0};
    for (int i = 0; i < w->prom.n && w->jam; i++) buf_printf(&b, "%s%s", i ? ", " : "", ((Obj *)w->prom.v[i])->name);
    dl(d, "%sloop uniform: %s%s", L, n->b ? dx(n->b) : "(forever)", b.s ? xfmt(" (lanes' scalars kept across it: %s)", b.s) : "");
    dsub(d, "init", w->init);
    dsub(d, "body", w->body);
    break;
  }
  case W_LOOPD:
    dl(d, "%sloop divergent, lanes in %s%s: %s%s", L, mn(w->ml), w->mi ? xfmt(", this iteration %s", mn(w->mi)) : "",
       n->b ? dx(n->b) : "(forever)", w->mall ? xfmt("   (tested in every lane%s)", w->flat ? ", one loop in half rows" : "") : "");
    pf_line(d, L, w);
    dsub(d, "init", w->init);
    dsub(d, "body", w->body);
    dsub(d, "increment", w->inc);
    break;
  case W_LOOPL: {
    Buf b = {0};
    for (int i = 0; i < w->prom.n; i++) buf_printf(&b, "%s%s", i ? ", " : "", ((Obj *)w->prom.v[i])->name);
    dl(d, "%sloop %s, %s: %s%s", L,
       ln(n)->vary ? "lane by lane, each lane's own range"
       : w->jam    ? "jammed outside its lanes"
                   : "inside one lane loop",
       hs(&w->h), dx(n->b), b.s ? xfmt(" (scalars: %s)", b.s) : "");
    break;
  }
  case W_LOOPRUN:
    dl(d, "%sloop over a run of lanes%s: %s", L, run_s(&w->run), dx(n->b));
    pf_line(d, L, w);
    dsub(d, "init", w->init);
    dsub(d, xfmt("body, %s", w->run.prefix ? xfmt("lanes [%s, _cut%d)", w->h.ls.lo ? xfmt("_cut%d", w->h.ls.lo) : "0", w->id)
                                            : xfmt("lanes [_cut%d, ...)", w->id)), w->body);
    dsub(d, "increment", w->inc);
    break;
  case W_LOOPR:
    dl(d, "%sloop tested as a whole over %s (%d reads, %d writes): %s", L, w->kv->name, w->rd.n, w->wr.n, dx(n->b));
    dsub(d, "tests pass", w->a);
    dsub(d, "a test fails", w->b);
    break;
  case W_SWU: case W_SWD:
    dl(d, "%sswitch %s: %s", L, w->k == W_SWU ? "uniform" : xfmt("divergent, lanes in %s", mn(w->ms)), dx(n->a));
    d->ind++;
    for (int i = 0; i < w->ws.n; i++) dw(d, NULL, w->ws.v[i]);
    d->ind--;
    break;
  case W_CASE: case W_SWLABEL:
    dl(d, "%s", n->k == S_CASE ? xfmt("case %lld:", (long long)n->ival) : "default:");
    break;
  case W_JUMP:
    if (w->wret) dl(d, "%sreturn: the whole warp", L);
    else if (!ln(n)->masked) dl(d, "%s%s", L, n->k == S_BREAK ? "break" : n->k == S_CONTINUE ? "continue" : "return");
    else {
      Buf b = {0};
      for (int i = 0; i < w->clear.n; i++) buf_printf(&b, " %s", mn(w->clear.v[i]));
      dl(d, "%s%s: lanes of %s leave%s", L, n->k == S_BREAK ? "break" : n->k == S_CONTINUE ? "continue" : "return",
         mn(w->h.m), b.s ? b.s : "");
    }
    break;
  case W_EXITCHK: dl(d, "%sno lane left: to the region's end", L); break;
  case W_CALLW: {
    char *dir = "";
    for (int i = 0; i < n->list.n && i < 64; i++)
      if (w->direct >> i & 1)
        dir = xfmt("%s, %s as it is%s", dir, dx(n->list.v[i]), w->wf->mod >> i & 1 ? " (dead after: changed in it)" : "");
    dl(d, "%scall %s = %s, warp version %s, %s%s", L, w->fwd ? "_ret (the function's results)" : xfmt("_f%d", w->id), dx(n),
       w->wf->c->cname, w->wf->en == EN_MASK ? "under the lanes here as a mask" : "every lane", dir);
    break;
  }
  case W_RETURN: dl(d, "%sreturn %s", L, w->x ? dx(w->x) : ""); break;
  case W_ARM: dl(d, "%s%s: the lanes where %s%s", L, mn(w->mt), w->sense ? "" : "not ", dx(w->x)); break;
  default: dl(d, "%s?", L); break;
  }
}

/* a block's bounds test (bound.c), as the conditions it shows */
static char *bn_v(Bn *b) {
  switch (b->k) {
  case BN_VAL: return b->x ? dx(b->x) : xfmt("%lld", (long long)b->c);
  case BN_TID: return xfmt("threadIdx.%c", "xyz"[b->dim]);
  case BN_CAST: return bn_v(b->a);
  case BN_SPAN: return xfmt("[%s, %s]", bn_v(b->a), bn_v(b->b));
  case BN_NEG: return xfmt("-%s", bn_v(b->a));
  default: break;
  }
  static const char *const o[] = {[BN_ADD] = "+", [BN_SUB] = "-", [BN_MUL] = "*", [BN_DIV] = "/", [BN_MOD] = "%",
                                  [BN_SHR] = ">>", [BN_AND] = "&"};
  return xfmt("(%s %s %s)", bn_v(b->a), o[b->k], b->b ? bn_v(b->b) : xfmt("%lld", (long long)b->c));
}

static char *bn_s(Bn *b) {
  if (b->k == BN_ALL || b->k == BN_ANY) return xfmt("%s %s %s", bn_s(b->a), b->k == BN_ALL ? "and" : "or", bn_s(b->b));
  return xfmt("%s %s %s", bn_v(b->a), op_str[b->op], bn_v(b->b));
}

static const char *vname[] = {[VK_BW] = "block-wide", [VK_ROW] = "rows", [VK_HROW] = "half rows", [VK_GEN] = "general"};

static void dver(D *d, Ver *v, bool checked) {
  dl(d, "version %s%s%s%s", vname[v->k], v->nlck && v->k != VK_GEN && checked ? xfmt("   (dropped: %d accesses checked lane by lane)", v->nlck) : "",
     v->reads_m0 ? "" : "   (_m0 unread)", v->pair ? "   (also two warps at a time)" : "");
  d->ind++;
  for (int i = 0; i < v->body->ws.n; i++) dw(d, NULL, v->body->ws.v[i]);
  d->ind--;
}

static void dblk(D *d, Blk *b, bool checked) {
  if (!b) return;
  Node *n = b->n;
  switch (b->k) {
  case BK_SEQ:
    for (int i = 0; i < b->items.n; i++) dblk(d, b->items.v[i], checked);
    break;
  case BK_REGION: {
    Region *r = b->r;
    Node *f = NULL;   /* its first statement of the program's own */
    for (int i = 0; i < r->stmts.n && !f; i++)
      if (!ln(r->stmts.v[i])->recomputed) f = r->stmts.v[i];
    Buf wc = {0};
    for (int i = 0; i < r->wcopy.n; i++) buf_printf(&wc, "%s%s", i ? ", " : "", ((Obj *)r->wcopy.v[i])->name);
    dl(d, "region%s%s%s", f ? xfmt(" (line %d)", f->line) : "", f && ln(f)->seam ? ", after a seam (no barrier)" : "",
       wc.s ? xfmt(", per-warp copies of %s", wc.s) : "");
    d->ind++;
    for (int i = 0; i < r->btn.n; i++)
      dl(d, "once per block, _bt%d: every thread has %s where %s", i + 1, dx(r->btc.v[i]), bn_s(r->btn.v[i]));
    for (int i = 0; i < r->vers.n; i++) dver(d, r->vers.v[i], checked);
    d->ind--;
    break;
  }
  case BK_UNI:
    dl(d, "once per block (line %d):", n->line);
    d->ind++;
    dw(d, NULL, b->w);
    d->ind--;
    break;
  case BK_SYNC:
    dl(d, "%s (line %d)", n->grid ? "grid.sync()" : n->coll ? xfmt("__syncthreads_%s(%s)", coll_str[n->coll], dx(n->a)) : "__syncthreads()",
       n->line);
    break;
  case BK_IF:
    dl(d, "block-level if %s%s%s", dx(n->a), b->cw ? "   (varying: every thread's answer compared)" : "",
       b->bt ? xfmt(", none where the block's bounds show that every thread takes it (%s)", bn_s(b->bt)) : "");
    d->ind++;
    dl(d, "then:");
    d->ind++;
    dblk(d, b->then, checked);
    d->ind--;
    if (b->els) {
      dl(d, "else:");
      d->ind++;
      dblk(d, b->els, checked);
      d->ind--;
    }
    d->ind--;
    break;
  case BK_LOOP:
    dl(d, "block-level loop %s%s", n->b ? dx(n->b) : "(forever)", b->cw ? "   (varying: every thread's answer compared)" : "");
    d->ind++;
    if (b->uinit) dw(d, "init", b->uinit);
    if (b->init) dblk(d, b->init, checked);
    dblk(d, b->body, checked);
    if (b->inc) dblk(d, b->inc, checked);
    d->ind--;
    break;
  case BK_BREAK: dl(d, "break"); break;
  case BK_CONT: dl(d, "continue"); break;
  }
}

static const char *shape_s(Obj *o) {
  LObj *l = lo(o);
  if (o->is_shared) return "shared";
  if (!l->vary) return l->cross ? "uniform, block level" : "uniform";
  const char *s = !l->aff ? "varying" : l->sx == 0 ? "varying, the same in every lane of whole-row warps"
                  : l->su ? xfmt("varying, affine: base + %lld * %s * lane in whole-row warps (%s = %s where it is declared)",
                                 (long long)l->sx, l->su->name, l->su->name, dx(l->sun))
                  : l->sx == 1 ? "varying, affine: base + lane in whole-row warps"
                  : xfmt("varying, affine: base + %lld * lane in whole-row warps", (long long)l->sx);
  if (l->remat) return xfmt("%s, recomputed in each region", s);
  if (l->cross) return xfmt("%s, kept per thread across barriers", s);
  if (l->soa) return xfmt("%s, one lane array per field", s);
  return s;
}

void lw_dump_kernel(Lw *L, Kern *K, Buf *o) {
  D d = {o, 0};
  Obj *k = K->k;
  dl(&d, "kernel %s (%s:%d)", k->pretty, k->file, k->line);
  d.ind++;
  if (k->launch_1d) dl(&d, "launched by host code with 1-D blocks only");
  if (K->wb) dl(&d, "warps may run as coroutines: batched atomics (batch.c)");
  else if (K->wco) dl(&d, "warps run as coroutines: they wait for each other");
  for (int i = 0; i < k->locals.n; i++) {
    Obj *v = k->locals.v[i];
    dl(&d, "%s %s: %s", v->is_param ? "param" : "var", v->name, shape_s(v));
  }
  dblk(&d, K->body, L->ck != 0);
  d.ind--;
}

void lw_dump_warpfn(Lw *L, WarpFn *w, Buf *o) {
  (void)L;
  D d = {o, 0};
  Obj *c = w->c;
  dl(&d, "device function %s (%s:%d): warp version %s (%s, %s)", w->f->name, w->f->file, w->f->line, c->cname,
     vname[w->k], w->en == EN_MASK ? "its caller's lanes as a mask" : "every lane");
  d.ind++;
  for (int i = 0; i < c->locals.n; i++) {
    Obj *v = c->locals.v[i];
    dl(&d, "%s %s: %s", v->is_param ? "param" : "var", v->name, shape_s(v));
  }
  dver(&d, w->v, false);
}

void lw_dump_dfn(Dfn *f, Buf *o) {
  D d = {o, 0};
  dl(&d, "device function %s (%s:%d): scalar C, called once per lane", f->f->name, f->f->file, f->f->line);
  d.ind++;
  dw(&d, NULL, f->body);
}
