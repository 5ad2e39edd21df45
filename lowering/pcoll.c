/* pcoll.c: warp collectives (W_WARPOP). The lanes' arguments gathered
 * into arrays, then one call of the runtime's helper (cucc_dev.h) for the
 * warp; a whole warp's shuffle by a uniform offset is a lane loop of its
 * own over a padded copy of the value, or a permutation. The expressions
 * that named the collective read its results (_wN) lane by lane. */
#include "print.h"

/* a whole warp's shuffle by a uniform offset d of width w, through a
 * padded copy of the value (V: 32..63 the lanes, the rest readable) */
static void p_shfl_pad(P *p, W *w, const char *H, const char *V, const char *D, const char *W, Node *wd) {
  Node *n = w->n, *val = n->list.v[1];
  line(p, "%s;", ty_decl(val->ty, xfmt("%s[96]", V)));
  line(p, "%s %s[32 + _l] = %s;", lanes(p, false), V, p_exs(p, val, true));
  /* lanes past a partial warp's last thread read 0, as on a GPU */
  line(p, "if (_nl < 32) __builtin_memset(&%s[32 + _nl], 0, (32 - _nl) * sizeof *%s);", V, V);
  size_t vs = val->ty->size;
  bool perm = (vs == 4 || vs == 8) && is_arith(val->ty);   /* (cu_*_perm: vectors of 4- or 8-byte values) */
  if (!wd && !perm && (n->coll == CO_SHFL_DOWN || n->coll == CO_SHFL_UP)) {
    /* the whole warp: both loads unconditional, then a select (a select
     * between two loads does not vectorize: gcc masks the load whose
     * index it cannot bound); 64..95 are set so the other lanes' load
     * reads defined values */
    bool dn = n->coll == CO_SHFL_DOWN;
    line(p, "CU_LANES for (int _l = 0; _l < 32; _l++) %s[%s + _l] = %s[32 + _l];", V, dn ? "64" : "0", V);
    line(p, "CU_LANES for (int _l = 0; _l < 32; _l++) {");
    line(p, "  const %s = %s[32 + _l %c %s];", ty_decl(val->ty, "_x"), V, dn ? '+' : '-', D);
    line(p, "  const %s = %s[32 + _l];", ty_decl(val->ty, "_y"), V);
    line(p, "  %s[_l] = %s ? _x : _y;", H, dn ? xfmt("_l + %s < 32", D) : xfmt("_l >= %s", D));
    line(p, "}");
    return;
  }
  bool els = false;   /* the lane loop below is a fast path's else */
  if (perm && (n->coll == CO_SHFL_DOWN || n->coll == CO_SHFL_UP)) {
    /* a permutation of pieces and a blend with the lane's own value
     * (a width that is not a power of two: the lane loop below) */
    const char *f = xfmt("cu_%s_perm%d", n->coll == CO_SHFL_DOWN ? "down" : "up", (int)vs);
    if (wd) line(p, "if (!(%s & (%s - 1))) %s(%s, &%s[32], %s, (unsigned)%s);", W, W, f, H, V, D, W);
    else {
      line(p, "%s(%s, &%s[32], %s, 32u);", f, H, V, D);
      return;
    }
    line(p, "else");
    p->ind++;
    els = true;
  }
  if (!wd && n->coll == CO_SHFL_XOR) {   /* (lane ^ d is a lane of the warp for every lane, or for none) */
    if (perm) line(p, "if ((unsigned)%s < 32u) cu_xor_perm(%s, &%s[32], (unsigned)%s, sizeof *%s);", D, H, V, D, H);
    else line(p, "if ((unsigned)%s < 32u) CU_LANES for (int _l = 0; _l < 32; _l++) %s[_l] = %s[32 + (_l ^ %s)];", D, H, V, D);
    line(p, "else CU_LANES for (int _l = 0; _l < 32; _l++) %s[_l] = %s[32 + _l];", H, V);
    return;
  }
  if (perm && n->coll == CO_SHFL_XOR) {
    /* lane ^ d stays in the lane's group of `width` lanes when d is below
     * a width that is a power of two: a permutation of the warp */
    line(p, "if ((unsigned)%s < (unsigned)%s && !(%s & (%s - 1))) cu_xor_perm(%s, &%s[32], (unsigned)%s, sizeof *%s);", D, W, W, W,
         H, V, D, H);
    line(p, "else");
    p->ind++;
    els = true;
  }
  const char *sel = n->coll == CO_SHFL ? xfmt("%s[32 + ((_l & ~(%s - 1)) | (%s & (%s - 1)))]", V, W, D, W)
                    : n->coll == CO_SHFL_UP ? xfmt("(unsigned)(_l & (%s - 1)) >= %s ? %s[32 + _l - (int)%s] : %s[32 + _l]", W, D, V, D, V)
                    : n->coll == CO_SHFL_DOWN ? xfmt("(unsigned)(_l & (%s - 1)) + %s < (unsigned)%s ? %s[32 + _l + %s] : %s[32 + _l]", W, D, W, V, D, V)
                    : xfmt("(_l ^ %s) >= 0 && (_l ^ %s) < 32 && (_l ^ %s) < ((_l | (%s - 1)) + 1) ? %s[32 + ((_l ^ %s) & 31)] : %s[32 + _l]",
                           D, D, D, W, V, D, V);
  line(p, "CU_LANES for (int _l = 0; _l < _nl; _l++) %s[_l] = %s;", H, sel);
  if (els) p->ind--;
}

void p_warpop(P *p, W *w) {
  Node *n = w->n;
  Vec *a = &n->list;
  int id = w->id;
  char *H = w->fwd ? "_ret" : xfmt("_w%d", id), *A = xfmt("_act%d", id);
  if (!w->fwd) {
    vec_push(&p->hn, n);
    vec_push(&p->hid, H);
    line(p, "%s;", ty_decl(n->ty, xfmt("%s[32]", H)));
  }
  /* arguments, lane by lane: a[0] is the mask, a[1] the value */
  Node *val = a->n > 1 ? a->v[1] : NULL;
  if (w->fastsh) {
    /* every lane of the warp, by a uniform offset: the values at 32..63 of
     * a padded array, so that the lane loop reads two elements at constant
     * offsets and selects (the C compiler vectorizes it) */
    Node *wd = a->n > 3 ? a->v[3] : NULL;
    char *V = xfmt("_v%d", id), *D = xfmt("_d%d", id);
    int64_t c;
    if (wd && ev_int(wd, &c) && c == 32) wd = NULL;   /* (the whole warp) */
    const char *W = wd ? xfmt("_ww%d", id) : "32";
    if (wd) line(p, "const int %s = cu_shfl_width(%s);", W, p_exs(p, wd, false));
    if (n->coll == CO_SHFL || n->coll == CO_SHFL_XOR) line(p, "const int %s = %s;", D, p_exs(p, a->v[2], false));
    else if (!wd) line(p, "const int %s = (int)cu_shfl_off(%s);", D, p_exs(p, a->v[2], false));   /* (int: gcc sees a unit stride) */
    else line(p, "const unsigned %s = cu_shfl_off(%s);", D, p_exs(p, a->v[2], false));
    Obj *xo = w->xdir ? bare(val)->var : NULL;
    if (xo) {
      /* lane ^ d within the warp's 32 lanes: a permutation of the lane
       * array itself (lanes past a partial warp: the copy below) */
      line(p, "if (_nl == 32 && (unsigned)%s < (unsigned)%s && !(%s & (%s - 1))) cu_xor_perm(%s, %s%s, (unsigned)%s, sizeof *%s);",
           D, W, W, W, H, p->jam && p_promoted(p, xo) ? "_s_" : "", cname(xo), D, H);
      line(p, "else {");
      p->ind++;
    }
    p_shfl_pad(p, w, H, V, D, W, wd);
    if (xo) {
      p->ind--;
      line(p, "}");
    }
    return;
  }
  line(p, "const unsigned %s = %s;", A, w->act ? xfmt("cu_bits(%s)", mname(w->act)) : "cu_bits_nl(_nl)");
  if (n->coll == CO_ACTIVEMASK) {
    line(p, "%s %s[_l] = %s;", lanes(p, true), H, A);
    return;
  }
  char *V = xfmt("_v%d", id), *K = xfmt("_k%d", id), *S = xfmt("_s%d", id), *Q = xfmt("_q%d", id);
  bool shfl = coll_shfl(n->coll), vote = coll_vote(n->coll);
  /* (not initialized: a helper reads the lanes it runs and the sources
   * they name, a source lane outside them gives what CUDA leaves undefined) */
  if (vote) line(p, "int %s[32];", V);
  else line(p, "%s;", ty_decl(val->ty, xfmt("%s[32]", V)));
  line(p, "unsigned %s[32];", K);
  char *WD = xfmt("_wd%d", id);
  Node *wd = shfl && a->n > 3 ? a->v[3] : NULL;
  if (shfl) line(p, "int %s[32], %s[32];", S, WD);
  if (n->coll == CO_MATCH_ALL) line(p, "int *%s[32];", Q);
  p_lane_open(p);
  line(p, "%s[_l] = %s;", K, p_exs(p, a->v[0], true));
  line(p, "%s[_l] = %s;", V, vote ? xfmt("(%s) != 0", p_exs(p, val, true)) : p_exs(p, val, true));
  if (shfl) line(p, "%s[_l] = %s;", S, p_exs(p, a->v[2], true));
  /* a width per lane: a parameter of a warp version may be a lane array */
  if (shfl) line(p, "%s[_l] = %s;", WD, wd ? p_exs(p, wd, true) : "32");
  if (n->coll == CO_MATCH_ALL) line(p, "%s[_l] = %s;", Q, p_exs(p, a->v[2], true));
  p_lane_close(p);
  if (p->ck & CK_SYNC) line(p, "cu_ck_mask(_B, _w, %s, %s, \"%s\", %d);", K, A, n->file, n->line);
  if (w->bcast) {
    /* the source lane's value (0 from a lane not taking part, as the
     * helper gives) in every lane of the warp; in half rows, of the
     * sub-row (its base, shape.c, may be the sub-row's own) */
    line(p, "%s{", p->hw ? xfmt("for (int _r = 0; _r < %d; _r++) ", p->nr) : "");
    p->ind++;
    p->rbase = p->hw != 0;
    line(p, "const int _sb = (int)(%s) & 31;", p_exs(p, a->v[2], false));
    p->rbase = false;
    line(p, "const %s = %s >> _sb & 1 ? %s[_sb] : (%s)0;", ty_decl(val->ty, "_vb"), A, V, ty_decl(val->ty, ""));
    if (p->hw) line(p, "CU_LANES for (int _x = 0; _x < %d; _x++) %s[_r * %d + _x] = _vb;", p->hw, H, p->hw);
    else line(p, "CU_LANES for (int _l = 0; _l < 32; _l++) %s[_l] = _vb;", H);
    p->ind--;
    line(p, "}");
  } else if (shfl && rowu(n) && (p->fast || p->hw)) {
    /* (a shuffle from one lane that must take the helper, --check's: its
     * result, read from the run's first lane, shape.c, is the first
     * active lane's, in each sub-row of half rows) */
    line(p, "%s(%s, %s, %s, %s, %s);", n->name, H, V, S, WD, A);
    int run = p->hw ? p->hw : 32;
    line(p, "for (int _r = 0; _r < %d; _r++) {", 32 / run);
    line(p, "  const unsigned _ra = %s >> (_r * %d) & %s;", A, run, run == 32 ? "0xffffffffu" : "0xffffu");
    line(p, "  const int _f = _r * %d + (_ra ? __builtin_ctz(_ra) : 0);", run);
    line(p, "  CU_LANES for (int _x = 0; _x < %d; _x++) %s[_r * %d + _x] = %s[_f];", run, H, run, H);
    line(p, "}");
  } else if (shfl) {
    line(p, "%s(%s, %s, %s, %s, %s);", n->name, H, V, S, WD, A);
  } else if (n->coll == CO_MATCH_ANY) {
    line(p, "%s(%s, %s, %s);", n->name, H, V, A);
  } else if (n->coll == CO_MATCH_ALL) {
    line(p, "%s(%s, %s, %s, %s);", n->name, H, V, Q, A);
  } else if (vote) {
    line(p, "cu_%s(%s, %s, %s, %s);", coll_str[n->coll], H, V, K, A);
  } else {
    line(p, "%s(%s, %s, %s, %s);", n->name, H, V, K, A);
  }
}
