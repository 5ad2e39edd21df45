/* lw.h: the lowering's own types.
 *
 * lower.c runs the passes in order; each reads the IR (cucc.h) and what
 * the passes before it wrote, and writes its own part below:
 *   side tables (tab.c)   what is known of each IR node and object
 *   the lowered form      a kernel as block-level items (Blk) around
 *                         regions (Region), each region in versions (Ver),
 *                         each version a tree of warp statements (W) with
 *                         their lane sets and masks as data
 * print.c (and its files, p*.c) turn the lowered form into C and decide
 * nothing. */
#ifndef LW_H
#define LW_H
#include "cucc.h"

/* ---- side tables (tab.c) ---- */
enum { AF_YES = 1, AF_TOP = 2 };   /* LObj.aff (shape.c): affine; not known yet */

typedef struct LNode {
  bool vary;           /* uniform.c: expression differs between lanes;
                          if/loop/switch: its condition does */
  bool masked;         /* uniform.c: jump clears lanes instead of a C jump;
                          loop/switch runs under its own lane mask */
  bool has_jump;       /* uniform.c: contains a masked jump that leaves it */
  bool has_cont;       /* uniform.c: loop targeted by a masked continue */
  bool sync;           /* region.c: statement contains a barrier (or a jump
                          out of a loop that does): block level */
  bool bcont;          /* region.c: block-level loop with a continue */
  bool seam;           /* seam.c: a region starts here, with no barrier
                          before it (a kernel's body: it has seams) */
  int lid;             /* build.c: block-level loop's label number */
  int park;            /* region.c: block-level if whose threads may disagree:
                          the bit (1..7) of the per-thread flags that parks the
                          threads not taking a side (0: they must agree) */
  bool recomputed;     /* region.c: a copy recomputing a value in a later
                          region, not the program's own statement */
  bool ckbad;          /* check.c scratch */
  bool batch;          /* batch.c: an atomicAdd whose result is read, done
                          for a block's warps at once (runtime/src/warps.c) */
  struct Bn *bt;       /* bspec.c: B_BALL, the test over the block's threads
                          (bound.c) of btc, the guards it stands for, and bu,
                          guards of parameters (NULL: none) */
  Node *btc, *bu;
} LNode;

typedef struct LObj {
  bool vary;           /* uniform.c: per-lane storage */
  bool esc;            /* uniform.c: its address escapes (& or an array
                          decayed to a pointer): lane-major storage */
  bool uses_tid;       /* uniform.c, functions: reads thread indices */
  bool impure;         /* uniform.c, functions: has side effects */
  bool waits;          /* uniform.c, functions: waits for other warps
                          (cu_warp_wait), itself or in a callee; region.c:
                          a kernel of batched atomics too */
  bool batch;          /* batch.c: a function has batched atomics, itself or
                          in a callee; a kernel reaches one where many of a
                          block's warps may */
  unsigned char tdims; /* version.c, functions: 1 + bits of the thread
                          index components read (1 << dim), callees too */
  int vdecl;           /* uniform.c: divergent constructs around its declaration */
  bool warpfn;         /* a function: a warp version's clone (warpfn) */
  char wcoll;          /* a function: has warp collectives, itself or in a
                          callee (build.c, lw_warp_only): 0 not known, 1 no, 2 yes */
  Node *dloop;         /* uniform.c: the loop whose init declares it */
  unsigned char aff;   /* shape.c: AF_YES: affine in the fast versions,
                          lane l holds base + sx * l (sx 0: every lane the same) */
  int64_t sx;
  Obj *su;             /* shape.c: the stride is sx * su, a uniform value
                          kept where the variable is declared (NULL: sx) */
  Node *sun;           /* ... the expression su holds */
  bool nou;            /* shape.c: no uniform stride (kept across regions) */
  bool sal, snn;       /* shape.c: its base a multiple of the run, not negative */
  bool split;          /* shape.c: a warp split out of a lane value (whole-row
                          and half-row versions only, not block-wide) */
  int rgn, use_rgn;    /* region.c: region declaring it (0: block level),
                          a region using it (-1: none yet) */
  bool cross;          /* region.c: used outside its region: per thread
                          (varying) or at block level (uniform) */
  bool soa;            /* soa.c: a varying record kept as one lane array
                          per field (_fldN_NAME) */
  Node *lfor;          /* bound.c: the for loop it counts, between bounds
                          of the loop's start and end (lw_ranges) */
  Node *bdef;          /* bprefetch.c: its one definition, an expression of the
                          block's and thread's indices, parameters and other
                          such variables (a block's next slice, W_BPF; bound.c's
                          bounds) */
  Node *remat;         /* region.c: recomputed in each region from this
                          declaration instead of kept per thread */
  int64_t off;         /* layout.c: parameter or static shared offset */
  char *cname;         /* layout.c: a local's C name; print.c: a static
                          global's pointer */
} LObj;

LNode *ln(Node *n);
LObj *lo(Obj *o);
void tab_reset(void);
Node *lw_copy(Node *n);   /* a shallow copy with a copy of n's entry */
const char *cname(Obj *o);

/* ---- walk.c: one walker for the IR (walk, any_node: cucc.h) ---- */
bool stmts_any(Vec *v, int from, int to, bool (*p)(Node *, void *), void *ctx);
/* walk with a value for each subtree, where n's operands go on under
 * values of their own (batch.c: reached by a few threads only, below a
 * condition): f sees n with cx, the value it was walked with, and may
 * change kid[], the values of n's operands a, b, c, d and of its list
 * (cx each to start with); it returns W_GO or W_SKIP */
typedef int WalkCxFn(Node *n, int cx, int kid[5], void *ctx);
void walk_cx(Node *n, int cx, WalkCxFn *f, void *ctx);
/* small predicates shared by passes */
Node *bare(Node *n);           /* without clang's implicit casts */
bool same_x(Node *a, Node *b);  /* structurally the same expression */
bool in_vec(Vec *v, void *p);  /* is p an element of v */
Node *one_return(Obj *f);      /* a function's e, where its body is `return e;` */
typedef struct Cpx {           /* copy_x's hooks */
  Node *(*pre)(Node *n, void *c);
  void (*post)(Node *copy, Node *n, void *c);
  void *c;
} Cpx;
Node *copy_x(Cpx *k, Node *n);  /* walk.c: a copy of n, each node once */
bool is_decay(Node *n);        /* implicit array-to-pointer cast */
bool is_syncwarp(Node *n);     /* a __syncwarp() call (the builtin cu_syncwarp) */
bool pure_h(Node *n);          /* pure once its warp collectives are hoisted */
bool is_warp_wait(Node *n);    /* a wait for other warps (the builtins cu_warp_wait, cu_warp_yield) */
bool is_intty(Type *t);        /* an integer of 4 bytes or more */
bool is_arith(Type *t);
bool pure_builtin(const char *name);   /* walk.c: __builtin_ffs, _popcount...: no effect */
bool pure(Node *n);            /* evaluable twice: no stores, no calls but
                                  to libm and __ldg, no volatile reads */
bool spec_ok(Node *n);         /* evaluable where the source would not: no
                                  stores, calls, loads or trapping division */
bool has_warp(Node *n);        /* a warp collective */
bool shared_atomic(Node *n);   /* an atomic on the block's own shared memory */
bool runs_ok(Node *n);         /* build.c: a body the runs of lanes may run unmasked */
bool run_loop_ok(Node *n);     /* bloop.c: a loop over the run of lanes its condition keeps */
bool has_volatile(Node *n);
bool reads_var(Node *n, Obj *o);
bool stores(Node *n, Obj *o);  /* = or ++/-- straight to o */
bool decl_in(Node *n, Obj *o);
Obj *stored_var(Node *n);      /* the variable a store writes, or NULL */
Type *arr_of(Type *base, int64_t len);
Type *ptr_to(Type *base);

/* ---- passes on a function's IR ---- */
void lw_fold(Obj *fn);         /* fold.c: constant conditions, the side taken */
void lw_canon(Obj *fn);        /* canon.c: loops declare their own variables */
bool lw_bspec(Obj *k);         /* bspec.c: a copy for the blocks where tests hold */
void lw_uniform(Obj *fn);      /* uniform.c: vary, masked, jumps, effects */
void lw_shape(Obj *k);         /* shape.c: affine values (LObj.aff) */
void lw_shape_cross(Obj *k);   /* shape.c: again, with no uniform stride across regions */
bool lw_batch_fn(Obj *fn);     /* batch.c: a device function's atomics a block's warps combine */
void lw_batch_fns(Vec *funcs); /* batch.c: ... every function's, callees' included */
void lw_batch(Obj *k);         /* batch.c: a kernel's, where many warps reach them (LObj.batch) */
bool rowu(Node *n);            /* shape.c: same in every lane of a whole-row warp */
bool aff_e(Node *n);           /* shape.c: base + lane in a whole-row warp */
bool aff_stride(Node *n, int64_t *s);   /* shape.c: an integer's lane stride */
bool aff_ustride(Node *n, int64_t *s, Node **u);   /* shape.c: ... or s times a uniform u */
bool uses_split(Node *n);      /* shape.c: relies on a warp split out of a lane value */
bool aff_cmp(Node *c);         /* shape.c: lane value CMP row value */
Op op_mirror(Op op);           /* shape.c: a OP b as b OP' a (< >, <= >=) */
Node *aff_mod(Node *c);        /* shape.c: lane value % row value == 0 */

/* ---- the lowered form ---- */
typedef struct W W;
typedef struct Ver Ver;
typedef struct Region Region;
typedef struct Blk Blk;

/* A lane mask: `_m0` (the warp's live lanes) or one of a construct's. */
typedef enum { MK_0, MK_T, MK_E, MK_L, MK_I, MK_S, MK_D, MK_A } MaskKind;
typedef struct Mask { MaskKind k; int id; } Mask;

/* The lanes of an unmasked lane loop: [lo, hi), every step-th. lo is
 * lane 0 or a cut; hi is _nl, a cut or a cut + 1; step 1 or _sN. */
typedef enum { HI_NL, HI_CUT, HI_CUT1 } HiKind;
typedef struct Lanes { int lo, hi, step; HiKind hik; } Lanes;   /* ids; 0: none */
/* every lane below _nl: no cut at either end, no step */
static inline bool lanes_all(Lanes l) { return !l.lo && l.hik == HI_NL && !l.step; }

/* Where a lane loop runs: over the live lanes (full: lanes below _nl, or
 * the run `ls`), or over every lane under mask m. */
typedef struct Hdr { bool full; Mask *m; Lanes ls; } Hdr;

/* A run of lanes where a condition holds (shape.c's aff_cmp/aff_mod):
 * counted in O(1). */
typedef struct Run {
  Node *c;             /* the condition */
  Node *m;             /* aff_mod: the `%` node, else NULL */
  Node *a, *u;         /* aff_cmp: the lane value and the row value */
  Op op;               /* normalized: a op u */
  int id;              /* numbers _fN, _sN */
  bool prefix, point;  /* lanes from 0 (< <=); one lane (==) */
  bool at, step;       /* from a lane other than the first; every step-th */
  /* a conjunction (`t == 0 && blockIdx.x == 0`, `i > 0 && i < n - 1 &&
   * j > 0`): its terms the same in every lane (g), tested once when some
   * lane passes the comparisons; a second comparison, the lower bound of
   * an interval [_cutN, _cutN2) whose upper bound is (a, u, op) */
  Vec g;
  bool gneg;           /* the row terms negated: the run of a disjunction's
                          complement (`if (i >= n || j >= m) return;`) */
  Node *a2, *u2;
  Op op2;
  int id2;
} Run;
bool run_ok(Node *c, bool els);   /* build.c: c's lanes are a run (with an else-branch: one for it too) */

/* A checked access tested as a range (check.c). */
typedef struct Rng { Node *n, *root; int space, acc, seq; } Rng;   /* seq: order of visit */

typedef enum {
  W_SEQ,      /* ws, in braces if brace */
  W_EXPR,     /* uniform x; guard: under a mask that may be empty */
  W_UDECL,    /* uniform declaration o = x */
  W_VDECL,    /* per-lane storage of o */
  W_AFFSET,   /* an affine variable's base(s): o = x (decl) */
  W_LANES,    /* a lane loop over hdr running ws (W_ONE, W_INIT) */
  W_ONE,      /* dst[_l] = x, or x: one lane statement (maybe range-tested) */
  W_INIT,     /* per-lane array o's initializer x, element by element */
  W_SPLIT,    /* run split of a lane statement: if (count == _nl) a else b */
  W_WARPOP,   /* a warp collective x gathered and computed: _wN */
  W_IFU,      /* uniform if */
  W_IFD,      /* divergent if */
  W_LOOPU,    /* uniform loop */
  W_LOOPD,    /* divergent loop */
  W_LOOPL,    /* a short uniform loop inside one lane loop */
  W_LOOPR,    /* checked: a loop whose accesses are tested before it */
  W_LOOPRUN,  /* a loop over the run of lanes its condition keeps (run) */
  W_SWU, W_SWD, /* switch */
  W_CASE,     /* a case or default label in a uniform switch (x: NULL for default) */
  W_SWLABEL,  /* a case or default label in a divergent switch */
  W_JUMP,     /* break, continue, return */
  W_EXITCHK,  /* no lane left in the warp: to the region's end */
  W_RETURN,   /* a device function's return */
  W_CALLW,    /* a call of a device function's warp version, hoisted: _fN */
  W_ARM,      /* the lanes that take an arm of ?:, && or || (mt): cond x, sense */
  W_NARROW,   /* `if (c) return;` whose remaining lanes are a prefix (run): the
                 rest of the region (body) with _nl that run's length */
  W_BPF,      /* the block's next-but-one slice of its first reads (pf),
                 prefetched */
  W_LPF,      /* a block-level loop's next iteration: its reads (pf) at the
                 induction variables' next values (ivs), prefetched */
  W_ERROR,    /* nothing: an error was reported */
} WKind;

struct W {
  WKind k;
  Node *n;             /* the IR statement or expression */
  Node *x;             /* the expression (W_EXPR, W_ONE, ...) */
  Obj *o;              /* the variable (W_UDECL, W_VDECL, W_AFFSET, W_ONE's
                          destination, W_INIT) */
  Vec ws;              /* W*: W_SEQ, W_LANES */
  bool brace;
  Mask *guard;         /* W_EXPR, W_IFU, W_SWU: run if any lane of guard */
  Hdr h;               /* lane loops */
  bool join;           /* W_ONE: may share a lane loop with its neighbours */
  bool sense;          /* W_ARM: the arm taken when x holds (else when not) */
  bool fastsh;         /* W_WARPOP: a whole warp's shuffle, as one lane loop */
  bool xdir;           /* ... an xor shuffle of a lane array as it stands:
                          permuted from it, not from a padded copy */
  bool sparse;         /* W_LANES under a mask, with an atomic (no lane
                          loop of it vectorizes): over the mask's set bits */
  bool mblend;         /* W_LANES: each item stores a lane's own scalar a
                          value every lane may compute (build.c, sel_item):
                          under a mask, selects by it in every lane */
  bool flat;           /* W_LANES (its items), W_LOOPD (its test): reads no
                          thread index or affine value, the same code in
                          every sub-row of half rows: one loop of the lanes */
  bool bcast;          /* W_WARPOP: a shuffle from one lane (shape.c's
                          coll_shape) in whole or half rows: its value to
                          every lane */
  Vec ahead, ahead_w;  /* W_ONE (simt), W_IFD (blend): Node*, the index of
                          each read of a stored array and of its store that
                          a test once per warp lets run as one lane loop
                          (build.c nb_ahead); empty: none */
  bool simt;           /* W_ONE: a warp-synchronous store: every lane's value
                          first, then every lane's store (as one instruction) */
  bool agg;            /* W_ONE: an atomic at one address for the warp's lanes,
                          its result unused: the lanes' values combined, then
                          one atomic (build.c, agg_atomic) */
  bool ctrue;          /* W_ONE: printed with the split's ?: taking its first arm */
  bool cold;           /* W_ONE: code that runs rarely (not counted by --check) */
  int sel;             /* W_ONE: an assignment of a divergent if's arm, run in
                          every lane as a select on its condition _selN
                          (build.c, sel_arm); sneg: the else arm's, on its
                          negation; shead: the condition itself (x), once */
  bool sneg, shead;
  bool decl;           /* W_AFFSET: declares the base */
  bool noprof;         /* recomputed: not counted by CUCC_PROFILE */
  Vec rd, wr;          /* W_ONE: range tests (Rng*), when rng */
  bool rng;
  Node *cond;          /* W_SPLIT: the ?: its condition comes from; c and d:
                          unchecked builds, a prefix or suffix run: the first
                          arm over its lanes, the second over the others */
  Run run;             /* W_SPLIT, W_IFD */
  int id;              /* W_WARPOP _wN; W_IFD; W_LOOPD; W_SWD */
  Mask *act;           /* W_WARPOP: the executing lanes (NULL: lanes < _nl) */
  W *a, *b, *c, *d;    /* sub-statements, see each kind */
  /* W_IFD */
  int mode;            /* IFD_*, below */
  int psite;           /* CUCC_PROFILE branch site, or -1 */
  int bt;              /* IFD_COUNT, IFD_RUN: the region's test _btN that
                          every thread takes it (every lane counted); W_SPLIT:
                          ... the first arm (then a, with no count); or 0 */
  Mask *mt, *me, *m;   /* then/else masks; the mask around */
  W *tall, *eall;      /* every lane one way */
  W *trun, *erun;      /* the lanes of a run */
  bool blend;          /* trun is a blend over the run's span */
  bool ckc;            /* IFD_COLD in a checked build: the mask made while
                          counting (the condition tested once) */
  W *tm, *em;          /* masked */
  /* W_LOOPD */
  Mask *ml, *mi;
  W *init, *ch, *body, *ih, *inc, *dh;   /* init, hoists of cond, body,
                                           hoists of inc, inc, do-cond hoists */
  int pa;              /* profile: lanes before the test (_paN), 0: none */
  bool mall;           /* its condition read in every lane (spec_ok): the
                          mask and-ed with it, no branch per lane */
  bool uinit;          /* W_LOOPU: init printed in the for header */
  /* W_LOOPL (and W_LOOPU with jam) */
  Vec prom;            /* Obj*: per-lane scalars held in _s_NAME */
  Vec prom_st;         /* the same, stored back after the loop */
  Vec own;             /* those a lane-by-lane loop's body declares: the
                          lane's own, neither read before nor stored after */
  bool jam;            /* a uniform loop over every lane of a whole- or
                          half-row version: the loop outside its lanes
                          (version.c, lw_jam); W_LOOPU: its lane loops'
                          scalars (prom) kept in arrays of the lanes
                          across it */
  /* W_LOOPRUN */
  Node *pstep;         /* the induction variable's uniform step: the body's
                          unit-stride reads at it (pf) are prefetched one
                          iteration ahead */
  Vec pf;              /* Node*: those reads (N_INDEX); W_BPF, W_LPF: the
                          reads prefetched */
  Vec ivs;             /* W_LPF: Node*, each induction variable's next
                          value (`m + 1`: N_BIN of the N_VAR and its step) */
  /* W_LOOPR */
  Obj *kv;             /* the loop counter */
  Node *kinit;         /* ... its initial value */
  long long kstep;
  /* W_JUMP */
  Vec clear;           /* Mask*: masks the lanes leave */
  int rend;            /* return: the region's end label */
  bool wret;           /* return: the whole warp's (under a condition the
                          same in every lane): a C jump, no mask */
  /* W_CALLW */
  struct WarpFn *wf;
  unsigned long long direct;   /* bit i: argument i, a lane array the callee
                                  only reads, passed as it is (no copy) */
  bool fwd;            /* `return f(...)` (W_CALLW, W_WARPOP): the results
                          written into the function's own _ret (no _fN or
                          _wN, no copy) */
  /* W_SWD */
  Mask *ms, *md;
  int sv;
  W *sw;               /* hoists of the switch value */
  bool has_def;
};

/* IFD_COLD: a failed assert's report (Node.cold) in unmasked lanes: the
 * lanes' failures counted with no mask; the mask only when one fails */
enum { IFD_COUNT, IFD_RUN, IFD_MASK, IFD_MASKDUAL, IFD_COLD, IFD_SUB };

typedef enum { VK_BW, VK_ROW, VK_HROW, VK_GEN } VerKind;

/* One version of a region: a loop over the block's warps (or, VK_BW, one
 * "warp" of all its threads), the warp's set-up, and its statements. */
struct Ver {
  VerKind k;
  bool tids;           /* reads thread indices */
  int rend;            /* label of the warp's end */
  bool rend_used;
  bool reads_m0;       /* a statement reads _m0 */
  int nlck;            /* --check: accesses checked lane by lane (check.c) */
  bool pair;           /* VK_HROW: also printed for two warps at a time
                          (version.c, lw_jam) */
  W *body;
};

/* bound.c: bounds over a block's threads of an integer (lowest _blN,
 * highest _bhN, each checked to fit the type of its node), and conditions
 * shown to hold in every thread by them */
typedef enum {
  BN_VAL,      /* x, the same in every thread (x NULL: the constant c) */
  BN_TID,      /* threadIdx.dim: 0 .. blockDim.dim - 1 */
  BN_CAST,     /* a, converted: the same bounds */
  BN_ADD, BN_SUB, BN_MUL, BN_NEG,
  BN_DIV, BN_MOD, BN_SHR, BN_AND,   /* a by the constant c */
  BN_SPAN,     /* a loop's variable: from a's lowest to b's highest */
  BN_CMP,      /* a op b in every thread */
  BN_ALL, BN_ANY,   /* a && b, a || b */
} BnKind;
typedef struct Bn {
  BnKind k;
  int id;
  Node *x;
  Op op;
  int dim;
  int64_t c;
  int64_t tmin, tmax;  /* its type's range */
  bool uns;            /* BN_CMP: an unsigned comparison */
  struct Bn *a, *b;
} Bn;

/* Statements between barriers. */
struct Region {
  Vec stmts;           /* Node*: with the recomputed declarations in front */
  Vec wcopy;           /* Obj*: uniform outer variables it stores to (per-warp copies) */
  Vec vers;            /* Ver*: in the order tried (block-wide, rows, half rows), general last */
  bool keep_m0;        /* false: no statement of any version reads _m0 */
  bool flags;          /* may set a thread's exit flag (has a return) */
  Vec btc, btn;        /* Node*, Bn*: conditions inside it every thread of the
                          block passes where test _btN (N = index + 1),
                          evaluated once at its top, holds (bound.c) */
};

typedef enum {
  BK_SEQ,      /* items (in braces if brace) */
  BK_REGION,   /* a region */
  BK_UNI,      /* a uniform statement run once per block */
  BK_SYNC,     /* a barrier (n: S_SYNC); with a predicate, counted by warp w */
  BK_IF,       /* a barrier inside: cond n->a (warp w if it varies) */
  BK_LOOP,     /* a loop with a barrier inside */
  BK_BREAK, BK_CONT,
} BlkKind;

struct Blk {
  BlkKind k;
  Node *n;
  bool brace;
  Vec items;           /* Blk*: BK_SEQ */
  Region *r;           /* BK_REGION */
  W *w;                /* BK_UNI: the statement */
  Ver *cw;             /* BK_SYNC predicate, BK_IF/BK_LOOP varying condition:
                          a warp loop counting it (body: hoists) */
  Ver *dw;             /* BK_LOOP: a do-while's varying condition */
  Bn *bt;              /* BK_IF: a test that every thread takes it (bound.c) */
  Blk *init, *then, *els, *body, *inc;
  W *uinit;            /* BK_LOOP: uniform init statement (once per block) */
  int lid;             /* BK_LOOP: label number */
};

/* A kernel's layout and lowered body. */
typedef struct Kern Kern;
struct Kern {
  Obj *k;
  char *cn;            /* its C name */
  Vec cross;           /* Obj*: varying values kept per thread */
  bool exits;          /* per-thread exit flags */
  bool park;           /* some block-level if parks threads (region.c) */
  bool wco;            /* its warps wait for each other (region.c): each
                          warp a coroutine (runtime/src/warps.c), the block
                          function runs warps _B->wself to _B->wend - 1 (one
                          a call), the general and row versions only */
  bool wb;             /* ... only at batched atomics (batch.c): the runtime
                          runs them as coroutines where that pays, else the
                          block's warps in one call */
  int64_t pbytes, lane_bytes;
  int palign;
  Blk *body;
  Vec psites;          /* Node*: divergent branch sites (CUCC_PROFILE) */
};

/* A device function printed as scalar C. */
typedef struct Dfn { Obj *f; W *body; } Dfn;

/* A warp version of a device function (build.c): its statements run for
 * all the caller's active lanes one after another, as on a GPU, with the
 * caller's lane geometry (version kind) and lanes (all, or a mask), each
 * parameter uniform (a scalar), affine (its base) or varying (a lane
 * array), as at the call. */
typedef enum { EN_FULL, EN_MASK } EntryKind;
enum { PS_UNI, PS_AFF, PS_VARY };
typedef struct WarpFn {
  Obj *f, *c;          /* the function; its clone for this version */
  VerKind k;
  EntryKind en;
  int *ksh;            /* per parameter: its shape at the call (PS_*) */
  int *sh;             /* ... and in the version (a uniform one written in
                          a divergent branch inside is varying there) */
  int64_t *sx;         /* ... and a PS_AFF one's stride */
  Obj *ret;            /* the lane array of its result (NULL: void) */
  unsigned long long mod;   /* bit i: parameter i's lanes may change in it
                               (stored, or passed as it is to a callee's
                               that may change) */
  bool building;       /* (its body being built: a recursive call sees
                          every parameter as changed) */
  struct Kern *K;      /* its lowered form: one warp (K->body unused) */
  Ver *v;
} WarpFn;

/* ---- passes building the lowered form ---- */
typedef struct Lw Lw;
void lw_regions(Lw *L, Kern *K);               /* region.c: sync, regions, cross, remat */
Bn *lw_bound(Obj *k, Node *c, Vec *rstmts);   /* bound.c: every thread of the block passes c */
Bn *lw_bound_any(Obj *k, Node *c, bool sized);   /* bound.c: ... tested at the kernel's top */
void lw_bdefs(Obj *k);         /* bprefetch.c: variables of one definition (LObj.bdef) */
void lw_ranges(Obj *k);        /* bound.c: loops' variables of known bounds (LObj.lfor) */
int lw_bound_region(Obj *k, Region *r, Node *c);   /* bound.c: ... tested at r's top: _btN, or 0 */
void lw_layout(Kern *K, int maxrreg);          /* layout.c: names, offsets, registers */
void lw_lanes(Kern *K);                        /* layout.c: lane storage */
void lw_versions(Obj *k, bool exits, unsigned ck, Region *r, bool *tids);   /* version.c */
void lw_jam(Kern *K);   /* version.c: jammed loops, half rows in pairs of warps */
void lw_jam_wf(struct WarpFn *w);   /* version.c: jammed loops of a warp version */
void w_each(W *w, void (*f)(W *, void *), void *c);   /* walk.c: the lowered form's statements */
void lw_name_locals(Obj *fn);                  /* layout.c */
Type *warp_type(Obj *o);                       /* layout.c */
bool block_stmt(Node *n);                      /* region.c */
bool lw_seams(Obj *k);                         /* seam.c: regions ended without a barrier */
bool uniform_stmt(Node *n);                    /* region.c */
Vec *with_remat(Vec *remat, Vec *stmts, int from, int to);   /* region.c */
void wcopies(Vec *stmts, int from, int to, Vec *out);       /* region.c */
bool reads_tid(Node *n);                       /* version.c */
unsigned tid_dims(Obj *fn);                    /* version.c */
bool uses_aff(Node *n);                        /* version.c */
bool bw_ok(Obj *k, bool exits, Vec *stmts, int from, int to);   /* version.c */
bool has_syncwarp(Node *n);                    /* version.c */

/* build.c: the lowered form of one function */
struct Lw {
  const CuOpts *o;
  unsigned ck;         /* --check: CK_* */
  int nid;             /* numbers of names, program-wide, in print order */
  Vec remat;           /* Obj*: the kernel's recomputed variables */
  Vec wfs;             /* WarpFn*: warp versions built */
  Vec wnew;            /* ... not printed yet, callees first */
  Vec rec;             /* Obj*: functions in a call cycle (scalar calls only) */
  struct P *pr;        /* the printer's state (print.h) */
  Buf *out, body;      /* the device C; checked: the functions, after the sites */
};
void lw_build_kernel(Lw *L, Kern *K);
Dfn *lw_build_dfn(Lw *L, Obj *f);

/* check.c: --check range tests */
enum { CK_MEM = 1, CK_RACE = 2, CK_SYNC = 4, CK_INIT = 8 };
enum { ACC_RD = 1, ACC_WR = 2 };
enum { SP_ANY, SP_SHARED, SP_OBJ };
typedef struct RngCtx {
  unsigned ck;
  bool lane, fast, hw, bw;
  Obj *rk;             /* a whole loop over k: addresses affine in k */
  Node *ctrue;         /* a ?: printed as its first arm */
} RngCtx;
/* Collect x's checked accesses (ranges and broadcasts) into rd/wr; false
 * if one is neither (it is then checked lane by lane). */
bool rng_scan(RngCtx *c, Node *x, Vec *rd, Vec *wr);
bool kaff(Node *n, Obj *k);
bool no_access(Node *n);
Node *strip_casts(Node *n);
Obj *emaj_root(Node *n);
Obj *emaj_access(Node *n);  /* ... or a field of its element (check.c) */
void lw_check_ver(unsigned ck, Ver *v);
bool ck_target(Node *n, Node **c, int *space);

void lw_dump_kernel(Lw *L, Kern *K, Buf *o);    /* dump.c: --dump-lir */
void lw_dump_dfn(Dfn *f, Buf *o);
void lw_dump_warpfn(Lw *L, WarpFn *w, Buf *o);
int lw_valid(Lw *L, Obj *fn);                   /* valid.c: errors, once */
void lw_prof(Kern *K);                          /* prof.c: branch sites */
void lw_soa(Kern *K);                           /* soa.c: records kept per field */

/* print.c */
void lw_name_globals(Prog *p);
void lw_print_begin(Lw *L, Prog *p, Buf *out);
void lw_print_dfn(Lw *L, Dfn *d);                /* pfunc.c */
void lw_print_kernel(Lw *L, Kern *K);            /* pblock.c */
void lw_print_warpfn(Lw *L, WarpFn *wf);         /* pfunc.c */
Obj *lw_clone_fn(Obj *f, const char *cname);   /* clone.c */
bool simt_store(Node *x);                       /* build.c: a warp-synchronous store */
bool nb_ahead(Node *x, Vec *rd);                /* build.c: its reads of the stored array, ahead */
bool kernelish(Obj *fn);                        /* build.c: a kernel or a warp version */
bool lw_warp_only(Lw *L, Obj *f);               /* build.c: runs only as a warp */
void lw_print_end(Lw *L, Prog *p);

#endif
