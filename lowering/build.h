/* build.h: what the files building the lowered form share (build.c and
 * the concerns cut out of it, bloop.c and bprefetch.c; lw.h is what every
 * pass sees): their state Bc; the helpers that make warp statements and
 * masks, small enough to be each file's own (static inline); and the
 * functions one file defines and another builds with, named b_*. */
#ifndef BUILD_H
#define BUILD_H
#include "lw.h"

typedef struct Lv { Mask *m; Node *owner; bool iter; } Lv;

typedef struct Bc {
  Lw *L;
  Kern *K;              /* NULL in a device function */
  Obj *fn;
  Ver *v;               /* the version being built (NULL at block level) */
  Region *R;            /* the region being built (NULL: none) */
  bool fast, bw, inwarp;
  int hw;
  bool full, uctx;
  bool wret;            /* in a branch the whole warp takes or not: a return is the warp's */
  Vec chain;            /* Lv*, outermost first; top is the current mask */
  Lanes ls;             /* lanes of unmasked lane loops */
  int cold;
  bool noprof;
  int subrun;           /* in the body of a loop over a prefix run (its id): IFD_SUB */
  unsigned ck;
  bool rnoloop;         /* building a loop whose test failed: no retry */
  Vec *out;             /* W*: where statements go */
  Obj *ret;             /* a warp version's result lanes */
  Node *lastcall;       /* the warp-version call hoisted last */
  Node *dcall;          /* a call after which dvar's lanes are dead (`v =
                           f(v)`), or with tail set every local's (`return
                           f(v)`): v may be passed to f as it is, changed */
  Obj *dvar;
  bool tail;
  bool bpf_done;        /* a region prefetched the next block's slice */
} Bc;

/* ---- masks and warp statements ---- */
static inline Mask *mask(MaskKind k, int id) {
  Mask *m = xcalloc(1, sizeof *m);
  m->k = k;
  m->id = id;
  return m;
}

static inline Mask *cur(Bc *b) { return ((Lv *)b->chain.v[b->chain.n - 1])->m; }

/* the printed code reads mask m */
static inline void use(Bc *b, Mask *m) {
  if (m && m->k == MK_0 && b->v) b->v->reads_m0 = true;
}

static inline void push_lv(Bc *b, Mask *m, Node *owner, bool iter) {
  Lv *lv = xcalloc(1, sizeof *lv);
  *lv = (Lv){m, owner, iter};
  vec_push(&b->chain, lv);
}

static inline Hdr hdr(Bc *b) { return (Hdr){b->full, cur(b), b->ls}; }

static inline W *wmk(Bc *b, WKind k, Node *n) {
  W *w = xcalloc(1, sizeof *w);
  w->k = k;
  w->n = n;
  w->h = hdr(b);
  w->noprof = b->noprof;
  w->cold = b->cold > 0;
  w->psite = -1;   /* (prof.c) */
  return w;
}

static inline W *wadd(Bc *b, WKind k, Node *n) {
  W *w = wmk(b, k, n);
  vec_push(b->out, w);
  return w;
}

/* a lane loop's header reads the mask unless it runs over the live lanes */
static inline void use_hdr(Bc *b, Hdr *h) {
  if (!h->full) use(b, h->m);
}

static inline bool prof_here(Bc *b) {
  return b->fn->is_kernel && b->inwarp && !b->fast && !b->hw && !b->bw && !b->noprof;
}

/* statements into a new list */
#define INTO(b, w, body) do { Vec *save_ = (b)->out; (b)->out = &(w)->ws; body; (b)->out = save_; } while (0)

static inline W *seq(bool brace) {
  W *w = xcalloc(1, sizeof *w);
  w->k = W_SEQ;
  w->brace = brace;
  return w;
}

/* build.c: statements, lane statements, the warp versions of calls */
void b_st(Bc *b, Node *n);
void b_list(Bc *b, Vec *v);
W *b_block(Bc *b, Node *n);                      /* { n } */
void b_hoist(Bc *b, Node *n, bool cond);         /* n's collectives and warp calls, first */
void b_lane(Bc *b, Obj *dst, Node *x);           /* `dst[_l] = x` (or `x`) in a lane loop */
void b_affset(Bc *b, Obj *o, Node *st, bool decl);   /* an affine variable's base(s) set */
Obj *b_affstore(Bc *b, Node *x);                 /* the affine variable x stores, in a fast version */
bool b_affrun(Node *c, int id, Run *r);          /* the lanes where c holds as a run */
bool b_wcall(Node *n, void *L);                  /* a call of a function that needs its warp version */

bool lane_flat(Obj *dst, Node *x);
bool sub_if(Node *n);                            /* an if over a prefix inside a prefix run loop */
bool runs_sub_ok(Node *n, bool *sub);            /* runs_ok but for such ifs */   /* build.c: the same code in every sub-row of half rows */

/* bloop.c: loops */
void b_loop(Bc *b, Node *n);

/* bprefetch.c: reads prefetched ahead */
void b_rpf(Node *loop, Obj *av, W *w);           /* a grid-stride loop's next iteration (W_LOOPRUN) */
int b_bpf(Bc *b, Vec *stmts, int from, int to);  /* the next block's slice (W_BPF): how many reads */
void b_lpf(Bc *b, Blk *x);                       /* a block-level loop's next iteration (W_LPF) */

#endif
