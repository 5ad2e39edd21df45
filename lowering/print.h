/* print.h: what the printer's files share (print.c says which file
 * prints what): their state P; line() and the names of lowered things,
 * small enough to be each file's own (static inline); and the functions
 * one file defines and another prints with, named p_* (pw: a warp
 * statement, W). */
#ifndef PRINT_H
#define PRINT_H
#include "lw.h"

typedef struct P {
  Lw *L;
  Buf *o;
  int ind;
  Obj *fn;
  Kern *K;
  Region *R;
  /* the version being printed */
  bool fast, bw, inwarp, subrow;
  int hw;              /* half rows: a sub-row's lanes (16) */
  int nr;              /* half rows: sub-rows a step (2; 4 for a pair of warps) */
  int pair;            /* printing a half-row version for two warps at a
                          time, in rows of this many lanes (16 or 32) */
  /* the statement's context */
  bool lane, full, noprof;
  bool novol;          /* a warp-synchronous statement: volatile read as plain (p_simt) */
  bool rbase;          /* half rows: printing sub-row _r's base (p_affset) */
  int bshift;          /* W_BPF: blockIdx.x moved this far */
  bool bsub;           /* W_BPF, W_LPF: variables as their bdef */
  Vec *ivn;            /* W_LPF: induction variables at their next values */
  Mask *m;
  Lanes ls;
  Node *ctrue;         /* a ?: printed as its first arm */
  Node *cfalse;        /* a ?: printed as its second arm */
  Vec prom;            /* Obj*: held in _s_NAME (W_LOOPL) */
  bool jam;            /* ... as _s_NAME[_l]: the loop outside its lanes */
  Vec *own;            /* ... but these, the loop body's own, as _s_NAME */
  Vec hn, hid;         /* hoisted collectives and calls, and their arrays' names */
  /* --check */
  unsigned ck;
  bool skipck;         /* the next expression is an lvalue's own part */
  bool rngfast;        /* printing a statement whose accesses were tested as ranges */
  int acc;             /* the next expression is accessed as ACC_RD/ACC_WR */
  int cold, nlck;
  Buf sites;
  Buf pads;            /* --check: the sites' maps of a record's data bytes */
  int nsites;
} P;

static inline void line(P *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void line(P *p, const char *fmt, ...) {
  for (int i = 0; i < p->ind; i++) buf_puts(p->o, "  ");
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(p->o, fmt, ap);   /* (any length: a range test's line is long) */
  va_end(ap);
  buf_puts(p->o, "\n");
}

/* ---- names of lowered things ---- */

static inline const char *mname(Mask *m) {
  static const char *const tag[] = {"0", "t", "e", "l", "i", "s", "d", "a"};
  return m->k == MK_0 ? "_m0" : xfmt("_m%s%d", tag[m->k], m->id);
}

static inline const char *LN(P *p) { return p->bw ? "1024" : p->pair ? "64" : "32"; }   /* (a pair: two warps) */
static inline const char *lo_s(Lanes *l) { return l->lo ? xfmt("_cut%d", l->lo) : "0"; }
static inline const char *hi_s(Lanes *l) {
  return l->hik == HI_NL ? "_nl" : l->hik == HI_CUT ? xfmt("_cut%d", l->hi) : xfmt("_cut%d + 1", l->hi);
}
static inline const char *step_s(Lanes *l) { return l->step ? xfmt("_s%d", l->step) : "1"; }

/* The header of a lane loop: over every lane of the lane arrays (all), or
 * over the live lanes [lo, hi). In the half-row version it is two loops,
 * sub-row _r x column _x, so that a row's lanes are an inner loop with unit
 * stride (bounded by _l: gcc unrolls a loop of constant count 16 before it
 * could vectorize it); in the block-wide version the lanes are the block's
 * threads, _nl of them. The inner loop carries CU_LANES too: without it gcc
 * tested, at run time, whether shared memory overlaps the global arrays a
 * tile is copied from, and the tile-16 matmul ran 1.6x slower. */
static inline const char *lanes(P *p, bool all) {
  if (p->subrow) return xfmt("CU_LANES for (int _x = 0, _l = _r * %d; _l < _r * %d + %d; _x++, _l++)", p->hw, p->hw, p->hw);
  if (p->hw)
    return xfmt("for (int _r = 0; _r < %d; _r++) CU_LANES for (int _x = 0, _l = _r * %d; _l < _r * %d + %d; _x++, _l++)",
                p->nr, p->hw, p->hw, p->hw);
  if (!all && p->ls.step) return xfmt("CU_LANES for (int _l = %s; _l < %s; _l += %s)", lo_s(&p->ls), hi_s(&p->ls), step_s(&p->ls));
  return xfmt("CU_LANES for (int _l = %s; _l < %s; _l++)", all ? "0" : lo_s(&p->ls), all ? (p->bw ? "_nl" : LN(p)) : hi_s(&p->ls));
}

/* every lane of the lane arrays in one loop (half rows too: code the same
 * in every sub-row, W.flat) */
static inline const char *lanes_flat(P *p) {
  return p->hw ? xfmt("CU_LANES for (int _l = 0; _l < %d; _l++)", p->nr * p->hw) : lanes(p, true);
}

/* "is any lane of mask m set?" */
static inline const char *any(P *p, const char *m) {
  return p->bw ? xfmt("cu_any_n(_nl, %s)", m) : p->pair ? xfmt("cu_any_n(64, %s)", m) : xfmt("cu_any(%s)", m);
}

static inline void ctx(P *p, Hdr *h) {
  p->full = h->full;
  p->m = h->m;
  p->ls = h->ls;
}

/* the fields of a range test of access r over the current lanes */
typedef struct RngS { char *tid, *tstep, *addr, *cnt, *step, *obj, *objn; int id; } RngS;

/* print.c: expressions; --check's sites and CUCC_PROFILE's counts */
char *p_exs(P *p, Node *n, bool lane);     /* expression n as a string (in a lane loop: lane) */
char *p_stx(P *p, Node *n, bool lane);     /* ... as an expression statement */
bool p_promoted(P *p, Obj *o);             /* held in _s_NAME (p->prom) */
Type *p_unvol(Type *t);
const char *p_soa_f(Obj *o, int i);        /* a record kept per field (soa.c): field i's lane array */
Field *p_soa_fld(Obj *o, int i);
char *p_soa_store(Obj *o, const char *v);
char *p_row_base(Node *b, char *x);
int p_site(P *p, Node *n, int acc, int space);
bool p_prof_here(P *p);
const char *p_act_count(P *p);
void p_prof_branch(P *p, int ps, const char *taken, const char *active);

/* plane.c: lane loops and what runs in them */
char *p_run_diff(P *p, Node *u, Node *a);
char *p_run_cnt(P *p, Run *r, char **at);  /* a run's count of lanes */
void p_run_decl(P *p, Run *r);
char *p_pre_s(P *p, W *w);                 /* a lane item's `dst[_l] = ` */
char *p_item_s(P *p, W *w);                /* ... and its expression */
void p_lane_open(P *p);                    /* a lane loop of its own */
void p_lane_close(P *p);
void p_lane_stmt(P *p, const char *pre, const char *x);
char *p_ahead_x(P *p, Node *rj, Node *wx);
RngS *p_rng_all(P *p, Vec *rd, Vec *wr);
void p_lanes(P *p, W *w);                  /* W_LANES */
void p_one_rng(P *p, W *w);                /* W_ONE, range-tested */
void p_affset(P *p, W *w);                 /* W_AFFSET */
void p_loopl(P *p, W *w);                  /* W_LOOPL */

void p_warpop(P *p, W *w);                 /* pcoll.c: W_WARPOP */
void pw(P *p, W *w);                       /* pstmt.c: a warp statement, each kind */

/* pregion.c: regions and their versions, each a loop over the warps */
void p_warp_open(P *p, Ver *v, bool m0);
void p_warp_close(P *p, Ver *v, bool m0);
char *p_bound_x(P *p, Bn *t);              /* bound.c's test, over the block's threads */
void p_region(P *p, Region *r);

/* pfunc.c: device functions */
void p_callw(P *p, W *w);                  /* W_CALLW: a call of a warp version */
char *p_fn_sig(P *p, Obj *f);

#endif
