/* emit.c: IR -> warp-vectorized C.
 *
 * A kernel becomes a warp function run once per warp of a block. Inside it
 * every varying value is an array of 32 lanes and every statement that
 * touches one is a lane loop:
 *     for (int _l = 0; _l < 32; _l++) if (_m3[_l]) { x[_l] = a[i[_l]]; }
 * Uniform values stay scalars and uniform control flow stays C control
 * flow. Divergent if/loop/switch get a lane mask of their own; divergent
 * break/continue/return clear lanes from the masks they leave (see Lv).
 * While no lane has left, the function-level mask is just "lanes below
 * _nl" and lane loops need no test at all (Em.full).
 * Device functions are printed as plain scalar C and called per lane.
 *
 * Names we introduce start with '_' (or cu_), which user code cannot use at
 * file scope and in practice does not use for locals; user names that do
 * start with '_' are renamed. */
#include "cucc.h"

typedef struct Lv {      /* one mask in the chain of enclosing masks */
  const char *m;
  Node *owner;           /* the loop/switch/if that made it (NULL: _m0) */
  bool iter;             /* a loop's per-iteration mask (continue clears it) */
} Lv;

typedef struct Em {
  Buf *o;
  int ind;
  Obj *fn;
  int nid;
  bool lane;             /* printing inside a lane loop */
  bool full;             /* current mask == lanes < _nl */
  bool uctx;             /* no enclosing construct has a lane mask */
  Vec chain;             /* Lv*, outermost first; top is the current mask */
  const char *rend;      /* label ending the current region's warp */
  bool rend_used;
  bool exits;            /* kernel keeps per-thread "returned" flags */
  Vec cross;             /* Obj*: varying variables kept per thread */
  Vec remat;             /* Obj*: varying variables recomputed per region */
  int maxrreg;           /* -maxrregcount */
  bool fast;             /* printing the whole-row version of a region */
  bool bw;               /* printing the block-wide version: one "warp" of
                            blockDim.x lanes (1-D blocks, no collectives) */
  const char *lo, *hi;   /* lanes of an unmasked lane loop: [lo, hi) */
  const char *step;      /* ... every step-th of them ("1": all) */
  Node *ctrue;           /* a ?: known to take its first arm in every lane */
  char *pend;            /* a lane loop's header whose closing brace is not
                            printed yet (the next statement may join it) */
  int pend_ind;
  int hw;                /* printing the half-row version: rows of hw lanes
                            (lane _l = hw * sub-row _r + column _x); else 0 */
  bool subrow;           /* ... inside a sub-row loop of its own: a lane
                            loop is over the columns _x only */
  bool inwarp;           /* printing inside a region's warp loop */
  unsigned ck;           /* cucc --check: CU_CK_* (only general versions) */
  bool skipck;           /* the next expression is an lvalue's own part
                            (address-of, member base): no check of its own */
  int acc;               /* the next expression is accessed as CU_RD/CU_WR */
  Buf sites;             /* cu_site table of checked accesses */
  Vec *rrd, *rwr;        /* collecting one statement's range checks (reads,
                            writes) instead of checking lane by lane */
  bool rbad;             /* ... an access that is not a range */
  Obj *rk;               /* ... the whole loop over k (rng_loop): only
                            addresses affine in k, no shared writes */
  bool rnoloop;          /* printing a loop whose test failed: no retry */
  int rcond;             /* ... printing under ?: or && / ||: some lanes only */
  int nlck;              /* accesses checked lane by lane in a fast version */
  int cold;              /* ... not counting code that runs rarely: a failed
                            range test's lanes, a grid's last partial warp */
  int nsites;
  Vec psites;            /* Node*: the kernel's divergent branch sites */
  const char *kn;        /* the kernel's C name */
  bool noprof;           /* printing code of ours, not the program's: not counted */
  Vec wcopy;             /* Obj*: uniform variables from outside the region
                            that it stores to: a copy per warp (wcopies) */
} Em;

/* The lanes of a run-forming condition: `cnt` of them, from `at` (NULL:
 * from lane 0 for <, <=, to the last lane for >, >=), every `step`-th. */
typedef struct Run {
  char *cnt, *at, *step;
  bool prefix, point;
} Run;

/* checkers (cucc_rt.h's CU_CK_*, CU_RD/CU_WR, CU_SP_*) */
enum { CK_MEM = 1, CK_RACE = 2, CK_SYNC = 4, CK_INIT = 8 };
enum { ACC_RD = 1, ACC_WR = 2 };
enum { SP_ANY, SP_SHARED, SP_OBJ };

/* lanes in a lane array: a warp's, or a block's in the block-wide version */
static const char *LN(Em *e) { return e->bw ? "1024" : "32"; }

/* The header of a lane loop: over every lane of the lane arrays (all), or
 * over the live lanes [lo, hi). In the half-row version it is two loops,
 * sub-row _r x column _x, so that a row's lanes are an inner loop with unit
 * stride (bounded by _l: gcc unrolls a loop of constant count 16 before it
 * could vectorize it); in the block-wide version the lanes are the block's
 * threads, _nl of them. The inner loop carries CU_LANES too: without it gcc
 * tested, at run time, whether shared memory overlaps the global arrays a
 * tile is copied from, and the tile-16 matmul ran 1.6x slower. */
static const char *lanes(Em *e, bool all) {
  if (e->subrow) return xfmt("CU_LANES for (int _x = 0, _l = _r * %d; _l < _r * %d + %d; _x++, _l++)", e->hw, e->hw, e->hw);
  if (e->hw)
    return xfmt("for (int _r = 0; _r < %d; _r++) CU_LANES for (int _x = 0, _l = _r * %d; _l < _r * %d + %d; _x++, _l++)",
                32 / e->hw, e->hw, e->hw, e->hw);
  if (!all && strcmp(e->step, "1")) return xfmt("CU_LANES for (int _l = %s; _l < %s; _l += %s)", e->lo, e->hi, e->step);
  return xfmt("CU_LANES for (int _l = %s; _l < %s; _l++)", all ? "0" : e->lo, all ? (e->bw ? "_nl" : "32") : e->hi);
}

/* "is any lane of mask m set?" */
static const char *any(Em *e, const char *m) { return e->bw ? xfmt("cu_any_n(_nl, %s)", m) : xfmt("cu_any(%s)", m); }

static const char *cur(Em *e) { return ((Lv *)e->chain.v[e->chain.n - 1])->m; }

static void line(Em *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void close_pend(Em *e) {
  if (!e->pend) return;
  for (int i = 0; i < e->pend_ind; i++) buf_puts(e->o, "  ");
  buf_puts(e->o, "}\n");
  e->pend = NULL;
}

static void line(Em *e, const char *fmt, ...) {
  close_pend(e);
  for (int i = 0; i < e->ind; i++) buf_puts(e->o, "  ");
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(e->o, fmt, ap);   /* (any length: a range test's line is long) */
  va_end(ap);
  buf_puts(e->o, "\n");
}

/* ---- cucc --check and CUCC_PROFILE ---- */

/* The linear thread id of the current lane, for reports. Uniform code runs
 * once per warp (its first active lane) or once per block (thread 0). */
static const char *cur(Em *e);
/* the lane uniform code runs as: the first active one (a run's first) */
static const char *lane0(Em *e) {
  if (e->full) return strcmp(e->lo, "0") ? xfmt("(unsigned)(%s)", e->lo) : "0u";
  return e->bw ? "0u" : xfmt("cu_lane0(%s)", cur(e));
}
static const char *tid_expr(Em *e) {
  if (!e->fn->is_kernel) return "cu_tid3(_B, _tx, _ty, _tz)";
  if (!e->inwarp) return "0u";
  if (e->lane) return "(_w * 32u + (unsigned)_l)";
  const char *l = lane0(e);
  return strcmp(l, "0u") ? xfmt("(_w * 32u + %s)", l) : "(_w * 32u)";
}

/* a new entry of the cu_site table: the access n at its source line */
static int site(Em *e, Node *n, int acc, int space) {
  buf_printf(&e->sites, "  {\"%s\", %d, %lld, %d, %d, %d},\n", n->file, n->line, (long long)n->ty->size,
             n->ty->align > 0 ? n->ty->align : 1, acc, space);
  return e->nsites++;
}

/* Counting for CUCC_PROFILE happens in kernels' general versions only. */
static bool prof_here(Em *e) { return e->fn->is_kernel && e->inwarp && !e->fast && !e->hw && !e->bw && !e->noprof; }

/* how many lanes run the current statement */
static const char *act_count(Em *e) { return e->full ? "(unsigned)_nl" : xfmt("cu_count(%s)", cur(e)); }

/* a divergent branch site evaluated by a warp: `taken` of `active` lanes
 * went the first way (a split when neither none nor all) */
static void prof_branch(Em *e, Node *n, const char *taken, const char *active) {
  if (!prof_here(e)) return;
  vec_push(&e->psites, n);
  line(e, "if (_pf & 1) { _pbr++; if (%s && %s != %s) { _pdv++; __atomic_fetch_add(&%s_psplit[%d], 1, __ATOMIC_RELAXED); } }",
       taken, taken, active, e->kn, e->psites.n - 1);
}

/* ---- types ---- */

static const char *base_name(Type *t) {
  switch (t->kind) {
  case TY_VOID: return "void";
  case TY_BOOL: return "_Bool";
  case TY_CHAR: return "char";
  case TY_SCHAR: return "signed char";
  case TY_UCHAR: return "unsigned char";
  case TY_SHORT: return "short";
  case TY_USHORT: return "unsigned short";
  case TY_INT: return "int";
  case TY_UINT: return "unsigned int";
  case TY_LONG: return "long";
  case TY_ULONG: return "unsigned long";
  case TY_LLONG: return "long long";
  case TY_ULLONG: return "unsigned long long";
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_LDOUBLE: return "long double";
  case TY_RECORD: return xfmt("%s %s", t->rec->is_union ? "union" : "struct", t->rec->cname);
  default: return "?";
  }
}

/* C declarator of `name` with type t. Top-level const is dropped: the
 * lowering assigns variables lane by lane after declaring them. */
static char *decl(Type *t, const char *name, bool top) {
  switch (t->kind) {
  case TY_PTR: {
    char *q = xfmt("*%s%s%s", t->is_volatile ? "volatile " : "", (!top && t->is_const) ? "const " : "", name);
    if (t->base->kind == TY_ARRAY) q = xfmt("(%s)", q);
    return decl(t->base, q, false);
  }
  case TY_ARRAY:
    return decl(t->base, t->len < 0 ? xfmt("%s[]", name) : xfmt("%s[%lld]", name, (long long)t->len), top);
  default:
    return xfmt("%s%s%s%s%s", (!top && t->is_const) ? "const " : "", t->is_volatile ? "volatile " : "",
                base_name(t), *name ? " " : "", name);
  }
}

char *ty_decl(Type *t, const char *name) { return decl(t, name, true); }

static void records(Em *e, Prog *p) {
  for (int i = 0; i < p->records.n; i++) {
    Record *r = p->records.v[i];
    buf_printf(e->o, "%s %s {\n", r->is_union ? "union" : "struct", r->cname);
    if (!r->fields.n) buf_puts(e->o, "  char cu_empty;\n");
    for (int j = 0; j < r->fields.n; j++) {
      Field *f = r->fields.v[j];
      buf_printf(e->o, "  %s;\n", decl(f->ty, f->name, true));
    }
    buf_printf(e->o, "} __attribute__((aligned(%d)));\n", r->align);
    buf_printf(e->o, "_Static_assert(sizeof(%s %s) == %lld, \"layout of %s\");\n\n",
               r->is_union ? "union" : "struct", r->cname, (long long)r->size, r->cname);
  }
}

/* ---- names ---- */

static bool c_only_keyword(const char *s) {
  static const char *const kw[] = {"restrict", "_Bool", "_Complex", "_Imaginary", "_Alignas",
                                   "_Alignof", "_Atomic", "_Generic", "_Noreturn", "_Static_assert",
                                   "_Thread_local", NULL};
  for (int i = 0; kw[i]; i++)
    if (!strcmp(s, kw[i])) return true;
  return false;
}

/* One C name per local of the function: two variables of one name in
 * sibling scopes may both be kept at block level (barrier kernels). */
static void name_locals(Obj *fn) {
  for (int i = 0; i < fn->locals.n; i++) {
    Obj *o = fn->locals.v[i];
    char *b = o->name[0] == '_' || c_only_keyword(o->name) || !strncmp(o->name, "cu_", 3) ? xfmt("u%s", o->name) : o->name;
    o->cname = b;
    for (int j = 0, k = 1; j < i; j++)
      if (!strcmp(((Obj *)fn->locals.v[j])->cname, o->cname)) {
        o->cname = xfmt("%s_%d", b, k++);
        j = -1;
      }
  }
}

/* ---- expressions ---- */

static void ex(Em *e, Node *n);

static bool is_decay(Node *n) {
  return n->k == N_CAST && n->implicit && n->a->ty->kind == TY_ARRAY && n->ty->kind == TY_PTR;
}

/* Element-major per-lane array `a[i][j][_l]`: the variable at the root of
 * an index chain, or NULL. */
static Obj *emaj_root(Node *n) {
  if (n->k == N_INDEX && is_decay(n->a)) return emaj_root(n->a->a);
  if (n->k == N_VAR && n->var->vary && !n->var->addr_taken && n->var->ty->kind == TY_ARRAY &&
      !n->var->is_shared)
    return n->var;
  return NULL;
}

static void emaj(Em *e, Node *n) {
  int acc = e->acc;   /* how the element is accessed: each index's check says so */
  if (n->k == N_VAR) { buf_puts(e->o, n->var->cname); return; }
  emaj(e, n->a->a);
  e->acc = ACC_RD;
  buf_puts(e->o, "[");
  if (e->ck & CK_MEM) {   /* a local array overrun */
    int id = site(e, n, acc, SP_OBJ);
    buf_printf(e->o, "cu_ck_index(_B, %s, (long long)(", tid_expr(e));
    ex(e, n->b);
    buf_printf(e->o, "), %lld, &_cs[%d])", (long long)n->a->a->ty->len, id);
  } else ex(e, n->b);
  buf_puts(e->o, "]");
}

static char *exs(Em *e, Node *n, bool lane);
static Type *ptr_to(Type *base);
static bool rowu(Node *n);
static bool aff_e(Node *n);
static bool pure(Node *n);

/* no memory access and no effect: computable before a lane loop */
static bool no_access(Node *n) {
  if (!n) return true;
  if ((n->k == N_INDEX && n->ty->kind != TY_ARRAY) || (n->k == N_UN && !strcmp(n->op, "*")) ||
      (n->k == N_MEMBER && n->post) || (n->k == N_VAR && n->var->is_shared && n->ty->kind != TY_ARRAY) ||
      n->k == N_CALL || !pure(n))
    return false;
  if (!no_access(n->a) || !no_access(n->b) || !no_access(n->c) || !no_access(n->d)) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!no_access(n->list.v[i])) return false;
  return true;
}

/* A checked access of a statement printed with range checks (rng_print):
 * a[base + lane] over the loop's lanes [lo, hi) is one range of hi - lo
 * elements from lane lo's; an element whose address is the same in every
 * lane of the row (As[ty][k], s[0]) is one element read by all of them.
 * Anything else (a gather, an access some lanes skip) marks the statement
 * for lane-by-lane checks. */
typedef struct Rng { char *tid, *tstep, *addr, *cnt, *step, *obj, *objn; int id; } Rng;

static bool kaff(Node *n, Obj *k);

static void rng_access(Em *e, Node *n, Node *c, int space, int acc) {
  Obj *root = c->k == N_VAR ? c->var : NULL;
  char *addr, *step;
  if (e->rcond || (space == SP_OBJ && root->vary) ||
      (e->rk && (!kaff(n->a, e->rk) || !kaff(n->b, e->rk) || (space == SP_SHARED && acc != ACC_RD && (e->ck & CK_RACE))))) {
    e->rbad = true;
    return;
  }
  bool z = !strcmp(e->lo, "0"), st = strcmp(e->step, "1");   /* st: every step-th lane */
  if (n->k == N_INDEX && rowu(n->a) && aff_e(n->b) && no_access(n->a) && no_access(n->b)) {
    addr = xfmt(z ? "&(%s)[%s]" : "&(%s)[%s + (%s)]", exs(e, n->a, false), exs(e, n->b, false), e->lo);
    step = xfmt(st ? "(%2$s) * sizeof (%1$s)[0]" : "sizeof (%1$s)[0]", exs(e, n->a, false), e->step);
  } else if (((n->k == N_INDEX && rowu(n->a) && rowu(n->b)) || (n->k == N_UN && rowu(n->a)) ||
              (n->k == N_VAR && n->var->is_shared)) && no_access(n->k == N_VAR ? NULL : n->a) &&
             no_access(n->b)) {
    e->skipck = true;   /* the address only (ck_access cleared the flag) */
    addr = xfmt("&%s", exs(e, n, false));
    step = xstrdup("0");
  } else {
    e->rbad = true;
    return;
  }
  int id = site(e, n, acc, space);
  char *obj = xstrdup("0"), *objn = xstrdup("0");
  if (space == SP_OBJ) {
    char *r = exs(e, c, false);
    obj = xfmt("&%s", r);
    objn = xfmt("sizeof %s", r);
  }
  char *tid = e->hw ? xfmt("_w * 32u + (unsigned)_r * %du", e->hw)
              : z ? xstrdup("_w * 32u") : xfmt("_w * 32u + (unsigned)(%s)", e->lo);
  char *cnt = e->hw ? xfmt("%d", e->hw)
              : st ? xfmt("((long)(%s) - (long)(%s) + (%s) - 1) / (%s)", e->hi, e->lo, e->step, e->step)
              : z ? xstrdup(e->hi) : xfmt("(long)(%s) - (long)(%s)", e->hi, e->lo);
  Rng *r = xcalloc(1, sizeof *r);
  *r = (Rng){tid, st ? xfmt("(unsigned)(%s)", e->step) : "1u", addr, cnt, step, obj, objn, id};
  vec_push(acc == ACC_RD ? e->rrd : e->rwr, r);
}

/* cucc --check: an access to memory (an element, a member reached through
 * an index or a pointer, a __shared__ variable) is printed as
 *     (*(T *)cu_ck(_B, tid, (void *)&(lvalue), &_cs[site], obj, objsize))
 * once for the whole lvalue; its indices and pointers are checked on their
 * own. Where the source names the object (a local or __device__ array, a
 * __shared__ variable) the check is against it. Returns false for
 * anything else, which ex() prints as usual. */
static bool ck_access(Em *e, Node *n) {
  bool skip = e->skipck;
  int acc = e->acc ? e->acc : ACC_RD;   /* (0: nothing printed yet in this function) */
  e->skipck = false;
  e->acc = ACC_RD;
  if (skip || !(e->ck & (CK_MEM | CK_RACE | CK_INIT)) || n->ty->kind == TY_ARRAY || n->ty->size <= 0) return false;
  if (!(n->k == N_INDEX || n->k == N_MEMBER || (n->k == N_UN && !strcmp(n->op, "*")) ||
        (n->k == N_VAR && n->var->is_shared)))
    return false;
  if (e->lane && emaj_root(n)) {   /* cu_ck_index in emaj() */
    e->acc = acc;
    e->rbad |= e->rk != NULL;   /* a loop printed unchecked would lose it */
    return false;
  }
  bool idx = false;
  Node *c = n;
  for (;;) {
    if (c->k == N_INDEX) {
      idx = true;
      if (is_decay(c->a)) { c = c->a->a; continue; }
    } else if (c->k == N_MEMBER && !c->post) { c = c->a; continue; }
    break;
  }
  Obj *root = c->k == N_VAR ? c->var : NULL;
  bool viaptr = c->k == N_INDEX || c->k == N_MEMBER || c->k == N_UN;
  if (!root && !viaptr) return false;             /* a member of a value */
  if (root && !root->is_shared && !idx) return false;   /* a variable or its member */
  int space = !root ? SP_ANY : root->is_shared ? SP_SHARED : SP_OBJ;
  if (e->rrd) {
    rng_access(e, n, c, space, acc);
    e->skipck = true;   /* the access itself runs unchecked */
    ex(e, n);
    return true;
  }
  int id = site(e, n, acc, space);
  char *obj = xstrdup("0"), *objn = xstrdup("0");
  if (space == SP_OBJ) {
    char *r = exs(e, c, e->lane);
    obj = xfmt("&%s", r);
    objn = xfmt("sizeof %s", r);
  }
  /* lane by lane in a lane loop; and in the block-wide version any access
   * of uniform code, which runs there once per block as thread 0 (once per
   * warp in the others: a race between warps would go unseen) */
  e->nlck += ((e->fast || e->bw || e->hw) && e->lane && !e->cold) || (e->bw && !e->lane);
  buf_printf(e->o, "(*(%s)cu_ck(_B, %s, (void *)&(", ty_decl(ptr_to(n->ty), ""), tid_expr(e));
  e->skipck = true;
  ex(e, n);
  buf_printf(e->o, "), &_cs[%d], %s, %s))", id, obj, objn);
  return true;
}

static void num(Em *e, Node *n) {
  long long v = n->ival;
  switch (n->ty->kind) {
  case TY_UINT: buf_printf(e->o, "%lluu", (unsigned long long)(unsigned)v); break;
  case TY_LONG: case TY_LLONG:
    if (v == INT64_MIN) buf_puts(e->o, "(-9223372036854775807ll-1)");
    else buf_printf(e->o, "%lldll", v);
    break;
  case TY_ULONG: case TY_ULLONG: buf_printf(e->o, "%lluull", (unsigned long long)v); break;
  case TY_PTR: buf_printf(e->o, "((%s)%lld)", ty_decl(n->ty, ""), v); break;
  case TY_INT:
    if (v == INT32_MIN) buf_puts(e->o, "(-2147483647-1)");
    else buf_printf(e->o, "%lld", v);
    break;
  case TY_FLOAT: case TY_DOUBLE: buf_printf(e->o, "%lld.0", v); break;
  default: buf_printf(e->o, "((%s)%lld)", ty_decl(n->ty, ""), v); break;
  }
}

static void fnum(Em *e, Node *n) {
  double v = n->fval;
  bool f = n->ty->kind == TY_FLOAT;
  if (v != v) { buf_puts(e->o, f ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")"); return; }
  if (v == 1.0 / 0.0) { buf_puts(e->o, f ? "__builtin_inff()" : "__builtin_inf()"); return; }
  if (v == -1.0 / 0.0) { buf_puts(e->o, f ? "(-__builtin_inff())" : "(-__builtin_inf())"); return; }
  char s[64];
  snprintf(s, sizeof s, f ? "%.9g" : "%.17g", v);
  if (!strpbrk(s, ".e")) strcat(s, ".0");
  buf_printf(e->o, "%s%s", s, f ? "f" : "");
}

static void args(Em *e, Node *n) {
  buf_puts(e->o, "(");
  int k = 0;
  /* a checked callee's accesses from uniform code of the block-wide
   * version would run once per block (as ck_access's, that drops it) */
  e->nlck += n->ck == C_FUNC && e->ck && e->bw && !e->lane;
  if (n->ck == C_FUNC && n->fn->uses_tid && e->ck && e->fn->is_kernel && !e->lane) {
    /* checked: every callee takes them; uniform code's thread (tid_expr) */
    const char *l = e->inwarp ? lane0(e) : NULL;
    buf_puts(e->o, !l ? "_B, 0u, 0u, 0u"
                     : e->hw ? xfmt("_B, %s %% 16u, _ty0 + %s / 16u, _tz0", l, l)
                     : e->fast ? xfmt("_B, _tx0 + %s, _ty0, _tz0", l)
                     : xfmt("_B, _tx[%s], _ty[%s], _tz[%s]", l, l, l));
    k++;
  } else if (n->ck == C_FUNC && n->fn->uses_tid)
    buf_printf(e->o, e->hw ? "_B, _x, _ty0 + _r, _tz0"
                     : e->fast ? (e->lane ? "_B, _tx0 + _l, _ty0, _tz0" : "_B, _tx0, _ty0, _tz0")
                             : e->lane ? "_B, _tx[_l], _ty[_l], _tz[_l]" : "_B, _tx, _ty, _tz"), k++;
  for (int i = 0; i < n->list.n; i++) {
    if (k++) buf_puts(e->o, ", ");
    ex(e, n->list.v[i]);
  }
  buf_puts(e->o, ")");
}

static void init_list(Em *e, Node *n) {
  buf_puts(e->o, "{");
  for (int i = 0; i < n->list.n; i++) {
    if (i) buf_puts(e->o, ", ");
    ex(e, n->list.v[i]);
  }
  buf_puts(e->o, "}");
}

static void var(Em *e, Obj *o) {
  if (e->hw && o->aff) {
    buf_printf(e->o, e->lane && o->aff == AF_LANE ? "(%s_b[_r] + _x)" : "%s_b[_r]", o->cname);
    return;
  }
  if (e->fast && o->aff) {
    buf_printf(e->o, e->lane && o->aff == AF_LANE ? "(%s_b + _l)" : "%s_b", o->cname);
    return;
  }
  if (o->is_shared) {
    if (o->ty->kind == TY_ARRAY) buf_puts(e->o, o->cname);
    else buf_printf(e->o, "(*%s)", o->cname);
    return;
  }
  if (o->prom && e->lane) {
    buf_printf(e->o, "_s_%s", o->cname);
    return;
  }
  buf_puts(e->o, o->cname);
  if (o->vary && e->lane) buf_puts(e->o, "[_l]");
}

static bool is_arith(Type *t) { return t->kind >= TY_BOOL && t->kind <= TY_LDOUBLE; }

/* clang's implicit conversions are C's too; print only those that change
 * signedness or width between integers (C compilers warn about those), and
 * int <-> floating conversions, so the generated C says what happens. */
static bool visible_conv(Node *n) {
  Type *to = n->ty, *from = n->a->ty;
  if (!is_arith(to) || !is_arith(from) || to->kind == from->kind) return false;
  if (to->kind == TY_BOOL) return false;
  if (to->kind == TY_INT && from->size < 4) return false;   /* integer promotion */
  if (n->a->k == N_NUM || n->a->k == N_FNUM) return false;
  if (to->kind >= TY_FLOAT && from->kind >= TY_FLOAT) return to->size < from->size;
  return true;
}

static bool aff_e(Node *n);
static bool rowu(Node *n);
static bool is_intty(Type *t);
static char *exs(Em *e, Node *n, bool lane);

static void ex(Em *e, Node *n) {
  Buf *o = e->o;
  if (ck_access(e, n)) return;
  switch (n->k) {
  case N_NUM: num(e, n); break;
  case N_FNUM: fnum(e, n); break;
  case N_STR: buf_puts(o, n->str); break;
  case N_VAR: var(e, n->var); break;
  case N_BUILTIN: {
    const char *xyz = n->dim == 0 ? "x" : n->dim == 1 ? "y" : "z";
    switch (n->bk) {
    case B_TID:
      if (e->hw) buf_puts(o, n->dim == 2 ? "_tz0" : n->dim == 1 ? "(_ty0 + _r)" : e->lane ? "(unsigned)_x" : "0u");
      else if (e->fast) buf_printf(o, n->dim ? "_t%s0" : e->lane ? "(_tx0 + _l)" : "_tx0", xyz);
      else buf_printf(o, e->lane ? "_t%s[_l]" : "_t%s", xyz);
      break;
    case B_BID: buf_printf(o, "_B->blockIdx.%s", xyz); break;
    case B_BDIM: buf_printf(o, "_B->blockDim.%s", xyz); break;
    case B_GDIM: buf_printf(o, "_B->gridDim.%s", xyz); break;
    case B_WSIZE: buf_puts(o, "32"); break;
    }
    break;
  }
  case N_BIN:
    /* unsigned 32-bit / and % by a uniform divisor inside a lane loop */
    if (e->lane && (!strcmp(n->op, "/") || !strcmp(n->op, "%")) && !n->b->vary && n->ty->kind == TY_UINT &&
        n->a->ty->kind == TY_UINT && n->b->ty->kind == TY_UINT) {
      buf_printf(o, "%s(", n->op[0] == '/' ? "cu_udiv" : "cu_umod");
      ex(e, n->a);
      buf_puts(o, ", ");
      ex(e, n->b);
      buf_puts(o, ")");
      break;
    }
    /* fall through */
  case N_LOG: case N_ASSIGN:
    buf_puts(o, "(");
    if (n->k == N_ASSIGN) e->acc = strcmp(n->op, "=") ? ACC_RD | ACC_WR : ACC_WR;
    ex(e, n->a);
    buf_printf(o, " %s ", n->op);
    e->rcond += n->k == N_LOG;   /* the right side runs in some lanes only */
    ex(e, n->b);
    e->rcond -= n->k == N_LOG;
    buf_puts(o, ")");
    break;
  case N_COMMA:
    buf_puts(o, "(");
    ex(e, n->a);
    buf_puts(o, ", ");
    ex(e, n->b);
    buf_puts(o, ")");
    break;
  case N_UN:
    buf_printf(o, "(%s", n->op);
    e->skipck = !strcmp(n->op, "&");   /* an address, no access */
    ex(e, n->a);
    buf_puts(o, ")");
    break;
  case N_INCDEC:
    buf_puts(o, "(");
    if (!n->post) buf_puts(o, n->op);
    e->acc = ACC_RD | ACC_WR;
    ex(e, n->a);
    if (n->post) buf_puts(o, n->op);
    buf_puts(o, ")");
    break;
  case N_COND:
    buf_puts(o, "(");
    if (n == e->ctrue) {
      ex(e, n->b);
      buf_puts(o, ")");
      break;
    }
    ex(e, n->a);
    buf_puts(o, " ? ");
    e->rcond++;   /* each arm runs in some lanes only */
    ex(e, n->b);
    buf_puts(o, " : ");
    ex(e, n->c);
    e->rcond--;
    buf_puts(o, ")");
    break;
  case N_CAST:
    if (n->implicit && !visible_conv(n)) { ex(e, n->a); break; }
    if (n->ty->kind == TY_RECORD) { ex(e, n->a); break; }
    buf_printf(o, "((%s)", ty_decl(n->ty, ""));
    ex(e, n->a);
    buf_puts(o, ")");
    break;
  case N_CALL:
    if (n->ck == C_WARP) {
      if (!n->hname) {
        errorat(n->file, n->line, n->col, "internal error: warp collective not hoisted");
        break;
      }
      buf_printf(o, e->lane ? "%s[_l]" : "%s[0]", n->hname);
      break;
    }
    if (n->ck == C_LDG) {
      buf_puts(o, "(*");
      ex(e, n->list.v[0]);
      buf_puts(o, ")");
      break;
    }
    if ((e->ck & (CK_SYNC | CK_RACE)) && n->ck == C_BUILTIN && !strcmp(n->name, "cu_syncwarp") && e->inwarp &&
        e->fn->is_kernel) {
      /* once per lane, or once per warp (a uniform mask): its first lane */
      const char *a = e->full ? "cu_bits_nl(_nl)" : xfmt("cu_bits(%s)", cur(e));
      buf_printf(o, "cu_ck_syncwarp(_B, %s, ", e->lane ? tid_expr(e) : xfmt("(_w * 32u + (unsigned)__builtin_ctz(%s))", a));
      if (n->list.n) ex(e, n->list.v[0]);
      else buf_puts(o, "0xffffffffu");
      buf_printf(o, ", %s, \"%s\", %d)", a, n->file, n->line);
      break;
    }
    buf_puts(o, n->ck == C_FUNC ? n->fn->cname : n->name);
    args(e, n);
    break;
  case N_INDEX:
    if (e->lane && emaj_root(n)) {
      emaj(e, n);
      buf_puts(o, "[_l]");
      break;
    }
    if ((e->fast || e->hw) && e->lane && rowu(n->a) && aff_e(n->b)) {
      /* a[base + lane]: the row's first element's address, then [_l] (or
       * [_x]), so the C compiler sees a unit-stride access it can
       * vectorize (assumes a warp's indices do not wrap around between
       * lanes) */
      buf_puts(o, "(&");
      ex(e, n->a);
      buf_printf(o, "[%s])[%s]", exs(e, n->b, false), e->hw ? "_x" : "_l");
      break;
    }
    ex(e, n->a);
    buf_puts(o, "[");
    ex(e, n->b);
    buf_puts(o, "]");
    break;
  case N_MEMBER:
    e->skipck = !n->post;   /* the struct is part of this lvalue */
    ex(e, n->a);
    buf_printf(o, "%s%s", n->post ? "->" : ".", n->field->name);
    break;
  case N_INIT:
    if (n->ty->kind == TY_RECORD) buf_printf(o, "(%s)", ty_decl(n->ty, ""));
    init_list(e, n);
    break;
  case S_SYNC:
    errorat(n->file, n->line, n->col,
            "unsupported: __syncthreads_%s() inside an expression (assign its result to a variable)", n->op);
    break;
  default:
    buf_puts(o, "/* ? */0");
  }
}

static char *exs(Em *e, Node *n, bool lane) {
  Buf b = {0};
  Buf *save = e->o;
  bool sl = e->lane;
  e->o = &b;
  e->lane = lane;
  ex(e, n);
  e->o = save;
  e->lane = sl;
  return buf_take(&b);
}

/* ---- lane loops ---- */

/* Consecutive statements under one mask may share a lane loop (join): each
 * lane runs them in order, which CUDA allows for the same reason as
 * CU_LANES (no lane may rely on another's progress between two statements
 * without a __syncwarp), and a kernel of a hundred statements compiles in a
 * tenth of the time. Not statements with volatile accesses: warp-synchronous
 * code (`v[t] += v[t + 16]; v[t] += v[t + 8]; ...`) relies on each
 * statement finishing in every lane before the next. */
static char *lane_head(Em *e) {
  return e->full ? xfmt("%s {", lanes(e, false)) : xfmt("%s if (%s[_l]) {", lanes(e, true), cur(e));
}

static void lane_open_(Em *e, bool join) {
  char *h = lane_head(e);
  if (join && e->pend && e->pend_ind == e->ind && !strcmp(e->pend, h)) {
    e->pend = NULL;   /* joins the open loop */
    e->ind++;
    return;
  }
  if (prof_here(e)) line(e, "if (_pf & 1) { _pst++; _pln += %s; }", act_count(e));
  line(e, "%s", h);
  e->ind++;
}

static void lane_close_(Em *e, bool join) {
  e->ind--;
  if (!join) {
    line(e, "}");
    return;
  }
  close_pend(e);
  e->pend = lane_head(e);
  e->pend_ind = e->ind;
}

static void lane_open(Em *e) { lane_open_(e, false); }
static void lane_close(Em *e) { lane_close_(e, false); }

static char *newmask(Em *e, const char *tag) { return xfmt("_%s%d", tag, ++e->nid); }

static void push_lv(Em *e, const char *m, Node *owner, bool iter) {
  Lv *lv = xcalloc(1, sizeof *lv);
  lv->m = m;
  lv->owner = owner;
  lv->iter = iter;
  vec_push(&e->chain, lv);
}

/* ---- warp collectives ----
 * A collective needs every lane's argument before any lane has its result,
 * so it cannot run inside one statement's lane loop: it is hoisted out.
 * Its arguments are gathered lane by lane into arrays, one helper computes
 * all 32 results (the lanes executing it are the current mask), and the
 * statement reads its lane's result from the array. */
static const char *act(Em *e) { return e->full ? "cu_bits_nl(_nl)" : xfmt("cu_bits(%s)", cur(e)); }

static void lane_open(Em *e);
static void lane_close(Em *e);

static void hoist(Em *e, Node *n, bool cond) {
  if (!n) return;
  if (n->k == N_COND) {
    hoist(e, n->a, cond);
    hoist(e, n->b, true);
    hoist(e, n->c, true);
    return;
  }
  if (n->k == N_LOG) {
    hoist(e, n->a, cond);
    hoist(e, n->b, true);
    return;
  }
  hoist(e, n->a, cond);
  hoist(e, n->b, cond);
  hoist(e, n->c, cond);
  for (int i = 0; i < n->list.n; i++) hoist(e, n->list.v[i], cond);
  if (n->k != N_CALL || n->ck != C_WARP) return;
  if (!e->fn->is_kernel) {
    errorat(n->file, n->line, n->col, "unsupported: warp collective in a __device__ function (call it from the kernel)");
    return;
  }
  if (cond) {
    errorat(n->file, n->line, n->col,
            "unsupported: warp collective inside ?:, && or || (compute it in a statement of its own)");
    return;
  }
  int id = ++e->nid;
  n->hname = xfmt("_w%d", id);
  const char *op = n->op;
  Vec *a = &n->list;
  char *A = xfmt("_act%d", id);
  line(e, "%s = {0};", ty_decl(n->ty, xfmt("%s[32]", n->hname)));
  line(e, "const unsigned %s = %s;", A, act(e));
  if (!strcmp(op, "activemask")) {
    line(e, "%s %s[_l] = %s;", lanes(e, true), n->hname, A);
    return;
  }
  /* arguments, lane by lane: a[0] is the mask, a[1] the value */
  Node *val = a->n > 1 ? a->v[1] : NULL;
  char *V = xfmt("_v%d", id), *K = xfmt("_k%d", id), *S = xfmt("_s%d", id), *Q = xfmt("_q%d", id);
  bool shfl = !strncmp(op, "shfl", 4), vote = !strcmp(op, "ballot") || !strncmp(op, "vote", 4);
  if (vote) line(e, "int %s[32] = {0};", V);
  else line(e, "%s = {0};", ty_decl(val->ty, xfmt("%s[32]", V)));
  line(e, "unsigned %s[32] = {0};", K);
  if (shfl) line(e, "int %s[32] = {0};", S);
  if (!strcmp(op, "match_all")) line(e, "int *%s[32] = {0};", Q);
  lane_open(e);
  line(e, "%s[_l] = %s;", K, exs(e, a->v[0], true));
  line(e, "%s[_l] = %s;", V, vote ? xfmt("(%s) != 0", exs(e, val, true)) : exs(e, val, true));
  if (shfl) line(e, "%s[_l] = %s;", S, exs(e, a->v[2], true));
  if (!strcmp(op, "match_all")) line(e, "%s[_l] = %s;", Q, exs(e, a->v[2], true));
  lane_close(e);
  if (e->ck & CK_SYNC) line(e, "cu_ck_mask(_B, _w, %s, %s, \"%s\", %d);", K, A, n->file, n->line);
  if (shfl) {
    Node *w = a->n > 3 ? a->v[3] : NULL;
    if (w && w->vary)
      errorat(w->file, w->line, w->col, "unsupported: a shuffle width that differs between lanes");
    line(e, "%s(%s, %s, %s, %s, %s);", n->name, n->hname, V, S, w ? exs(e, w, false) : "32", A);
  } else if (!strcmp(op, "match_any")) {
    line(e, "%s(%s, %s, %s);", n->name, n->hname, V, A);
  } else if (!strcmp(op, "match_all")) {
    line(e, "%s(%s, %s, %s, %s);", n->name, n->hname, V, Q, A);
  } else if (vote) {
    line(e, "cu_%s(%s, %s, %s, %s);", !strcmp(op, "ballot") ? "ballot" : op, n->hname, V, K, A);
  } else {
    line(e, "%s(%s, %s, %s, %s);", n->name, n->hname, V, K, A);
  }
}

/* ---- statements ---- */

static void st(Em *e, Node *n);

static void init_elems(Em *e, Obj *o, Type *t, Node *init, const char *path) {
  /* arrays of a varying variable: one assignment per element */
  if (t->kind == TY_ARRAY) {
    for (int64_t i = 0; i < t->len; i++) {
      Node *el = init && init->k == N_INIT && i < init->list.n ? init->list.v[i] : NULL;
      init_elems(e, o, t->base, el, xfmt("%s[%lld]", path, (long long)i));
    }
    return;
  }
  char *v = init ? exs(e, init, true) : xstrdup(t->kind == TY_RECORD ? "{0}" : "0");
  if (!init && t->kind == TY_RECORD) v = xfmt("(%s){0}", ty_decl(t, ""));
  if (o->addr_taken) line(e, "%s[_l]%s = %s;", o->cname, path, v);
  else line(e, "%s%s[_l] = %s;", o->cname, path, v);
}

/* whole-row version: an affine variable is set by its base; half-row
 * version: by one base per sub-row */
static void aff_set(Em *e, Obj *o, Node *val, bool decl) {
  if (e->hw) {
    int R = 32 / e->hw;
    if (decl && !o->cross) line(e, "%s;", ty_decl(o->ty, xfmt("%s_b[%d]", o->cname, R)));
    line(e, "for (int _r = 0; _r < %d; _r++) %s_b[_r] = %s;", R, o->cname, exs(e, val, false));
    if (o->cross)
      line(e, "%s %s[_l] = %s_b[_r]%s;", lanes(e, true), o->cname, o->cname, o->aff == AF_LANE ? " + _x" : "");
    return;
  }
  char *b = exs(e, val, false);
  if (decl && !o->cross) line(e, "%s = %s;", ty_decl(o->ty, xfmt("%s_b", o->cname)), b);
  else line(e, "%s_b = %s;", o->cname, b);
  if (o->cross)
    line(e, "%s %s[_l] = %s_b%s;", lanes(e, true), o->cname, o->cname, o->aff == AF_LANE ? " + _l" : "");
}

static bool aff_run(Em *e, Node *c, int id, Run *r);
static bool aff_cmp(Node *c);
static bool pure(Node *n);

static bool has_volatile(Node *n) {
  if (!n) return false;
  if ((n->k == N_VAR && n->var->ty->is_volatile) || ((n->k == N_UN || n->k == N_INDEX || n->k == N_MEMBER) && n->ty->is_volatile))
    return true;
  if (has_volatile(n->a) || has_volatile(n->b) || has_volatile(n->c) || has_volatile(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_volatile(n->list.v[i])) return true;
  return false;
}

/* The first `lane value CMP row value ? x : y` in n, outside other ?:s. */
static Node *run_cond(Node *n) {
  if (!n || n->k >= S_BLOCK) return NULL;
  if (n->k == N_COND) return aff_cmp(n->a) && pure(n->a) ? n : NULL;
  Node *r;
  if ((r = run_cond(n->a)) || (r = run_cond(n->b)) || (r = run_cond(n->c)) || (r = run_cond(n->d))) return r;
  for (int i = 0; i < n->list.n; i++)
    if ((r = run_cond(n->list.v[i]))) return r;
  return NULL;
}

/* cucc --check in the whole-row and block-wide versions: a statement over
 * the unmasked lanes [lo, hi) whose every checked access is a range or a
 * broadcast (rng_access) is tested once per access before its lane loop,
 * reads first (a warp loads before it stores), and then runs unchecked, so
 * it vectorizes as the unchecked build does. If any test fails the lanes
 * run checked one by one instead, and that reports; what the tests
 * recorded already is recorded again, which changes nothing. */
/* one statement `pre x;` in a lane loop of its own (join: or in the open one) */
static void lane_stmt(Em *e, const char *pre, const char *x, bool join) {
  lane_open_(e, join);
  line(e, "%s%s;", pre, x);
  lane_close_(e, join);
}

static bool rng_print_(Em *e, const char *pre, Node *x);
static bool rng_print(Em *e, const char *pre, Node *x) {
  if (!(e->ck & (CK_MEM | CK_RACE | CK_INIT)) || !(e->fast || e->bw || e->hw) || !e->full) return false;
  /* half rows: a sub-row's lanes are a range, the tests go inside its loop */
  e->subrow = e->hw;
  bool r = rng_print_(e, pre, x);
  e->subrow = false;
  return r;
}

static bool rng_print_(Em *e, const char *pre, Node *x) {
  Vec rd = {0}, wr = {0};
  e->rrd = &rd;
  e->rwr = &wr;
  e->rbad = false;
  e->rcond = 0;
  char *fast = exs(e, x, true);
  e->rrd = e->rwr = NULL;
  if (e->rbad || rd.n + wr.n == 0 || rd.n + wr.n > 8) return false;   /* (8: the lines stay short) */
  if (e->hw) {
    line(e, "for (int _r = 0; _r < %d; _r++) {", 32 / e->hw);
    e->ind++;
  }
  Buf c = {0};
  for (int i = 0; i < rd.n + wr.n; i++) {
    Rng *r = i < rd.n ? rd.v[i] : wr.v[i - rd.n];
    buf_printf(&c, "%scu_ck_rng(_B, %s, %s, %s, %s, %s, &_cs[%d], %s, %s)", i ? xfmt(" &&\n%*s", 2 * e->ind + 4, "") : "",
               r->tid, r->tstep, r->addr, r->cnt, r->step, r->id, r->obj, r->objn);
  }
  line(e, "if (%s) {", c.s);
  e->ind++;
  lane_stmt(e, pre, fast, false);
  e->ind--;
  line(e, "} else {");
  e->ind++;
  e->cold++;
  lane_stmt(e, pre, exs(e, x, true), false);
  e->cold--;
  e->ind--;
  line(e, "}");
  if (e->hw) {
    e->ind--;
    line(e, "}");
  }
  return true;
}

/* `pre x;` with range tests where they apply, else as it is */
static void lane_one(Em *e, const char *pre, Node *x, bool join) {
  if (!rng_print(e, pre, x)) lane_stmt(e, pre, exs(e, x, true), join);
}

/* `pre x;` in a lane loop. A bounds test as in `s[t] = i < n ? in[i] : 0`
 * becomes masked loads, 2.3x slower than plain ones (gcc, Zen 4): where
 * every lane takes the first arm (every warp but the last), the statement
 * is printed with that arm alone. */
static void lane_print(Em *e, const char *pre, Node *x) {
  Node *c = (e->fast || e->bw) && e->full && !e->ctrue ? run_cond(x) : NULL;
  if (c) {
    Run r;
    aff_run(e, c->a, ++e->nid, &r);
    line(e, "if (%s == _nl) {", r.cnt);
    e->ind++;
    e->ctrue = c;
    lane_one(e, pre, x, false);
    e->ctrue = NULL;
    e->ind--;
    line(e, "} else {");
    e->ind++;
  }
  bool join = !c && !has_volatile(x);
  e->cold += c != NULL;   /* the warp whose lanes do not all take the first arm */
  lane_one(e, pre, x, join);
  e->cold -= c != NULL;
  if (c) {
    e->ind--;
    line(e, "}");
  }
}

static void st_decl_(Em *e, Node *n);
static void st_decl(Em *e, Node *n) {
  bool np = e->noprof;
  e->noprof |= n->recomputed;
  st_decl_(e, n);
  e->noprof = np;
}

static void st_decl_(Em *e, Node *n) {
  Obj *o = n->var;
  if ((e->fast || e->hw) && o->aff && n->a) {
    aff_set(e, o, n->a, true);
    return;
  }
  hoist(e, n->a, false);
  if (!o->vary) {
    /* a uniform variable used by several regions lives at block level */
    if (o->cross) {
      if (n->a && n->a->k == N_INIT) {
        /* a record's init list already prints as a compound literal */
        const char *ty = n->a->ty->kind == TY_RECORD ? "" : xfmt("(%s)", ty_decl(o->ty, ""));
        line(e, "memcpy(&%s, &%s%s, sizeof %s);", o->cname, ty, exs(e, n->a, false), o->cname);
      }
      else if (n->a) line(e, "%s = %s;", o->cname, exs(e, n->a, false));
      return;
    }
    if (n->a) line(e, "%s = %s;", ty_decl(o->ty, o->cname), exs(e, n->a, false));
    else line(e, "%s;", ty_decl(o->ty, o->cname));
    return;
  }
  if (o->cross) {
    /* kept per thread: declared at block level, set here */
  } else if (o->ty->kind == TY_ARRAY && !o->addr_taken)
    line(e, "%s[32];", ty_decl(o->ty, o->cname));     /* element-major */
  else
    line(e, "%s;", ty_decl(o->ty, xfmt("%s[%s]", o->cname, LN(e))));
  if (!n->a) return;
  if (o->ty->kind == TY_ARRAY) {
    lane_open(e);
    init_elems(e, o, o->ty, n->a, "");
    lane_close(e);
  } else lane_print(e, xfmt("%s[_l] = ", o->cname), n->a);
}

static void st_expr(Em *e, Node *x) {
  if ((e->fast || e->hw) && x->k == N_ASSIGN && !strcmp(x->op, "=") && x->a->k == N_VAR && x->a->var->aff) {
    aff_set(e, x->a->var, x->b, false);
    return;
  }
  hoist(e, x, false);
  if (!x->vary && e->uctx) {
    line(e, "%s;", exs(e, x, false));
    return;
  }
  if (!x->vary) {
    /* uniform effect under a partial mask: once, if any lane is here */
    line(e, "if (%s) %s;", any(e, cur(e)), exs(e, x, false));
    return;
  }
  lane_print(e, "", x);
}

/* A divergent jump: the lanes here leave every mask up to its target. */
static void st_jump(Em *e, Node *n) {
  if (!n->masked) {
    if (n->k == S_RETURN) {
      line(e, "goto %s;", e->rend);
      e->rend_used = true;
    }
    else line(e, n->k == S_BREAK ? "break;" : "continue;");
    return;
  }
  const char *m = cur(e);
  Buf b = {0};
  for (int i = e->chain.n - 1; i >= 0; i--) {
    Lv *lv = e->chain.v[i];
    if (lv->m != m) buf_printf(&b, "%s[_l] = 0; ", lv->m);
    if (n->k == S_BREAK && lv->owner == n->target && !lv->iter) break;
    if (n->k == S_CONTINUE && lv->owner == n->target && lv->iter) break;
  }
  line(e, "%s if (%s[_l]) { %s%s[_l] = 0; }", lanes(e, true), m, b.s ? b.s : "", m);
  free(b.s);
}

static void st_list(Em *e, Vec *v) {
  for (int i = 0; i < v->n; i++) {
    Node *s = v->v[i];
    st(e, s);
    if (s->has_jump) {
      e->full = false;
      /* uniform context: the only mask is _m0; once every lane has
       * returned, nothing of the warp is left to run */
      if (e->uctx && i + 1 < v->n && e->fn->is_kernel) {
        line(e, "if (!%s) goto %s;", any(e, "_m0"), e->rend);
        e->rend_used = true;
      }
    }
  }
}

static void block(Em *e, Node *n) {
  line(e, "{");
  e->ind++;
  if (n->k == S_BLOCK) st_list(e, &n->list);
  else st(e, n);
  e->ind--;
  line(e, "}");
}

/* Code that can be printed twice (once for "every lane", once under a
 * mask) at bounded cost: no jumps, no divergent loops or switches, and
 * divergent ifs only while the statements involved stay few (each level
 * of nested ifs doubles what is printed). */
static bool dual_ok(Node *n, int *budget) {
  if (!n) return true;
  if (--*budget < 0) return false;
  switch (n->k) {
  case S_BREAK: case S_CONTINUE: case S_RETURN: case S_SYNC: return false;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH:
    if (n->vary || n->masked) return false;
    break;
  case S_IF:
    if (n->vary) *budget -= 20;
    break;
  default: break;
  }
  if (n->k < S_BLOCK) return true;   /* expressions: no statements inside */
  if (!dual_ok(n->a, budget) || !dual_ok(n->b, budget) || !dual_ok(n->c, budget) || !dual_ok(n->d, budget))
    return false;
  for (int i = 0; i < n->list.n; i++)
    if (!dual_ok(n->list.v[i], budget)) return false;
  return true;
}

/* In a whole-row warp, base + lane compared with a row value holds in a
 * run of lanes whose length is known without looking at each lane:
 * `t < stride` holds in clamp(stride - t_b, 0, 32) lanes. Assumes, as
 * unit-stride accesses do, that lane values do not wrap around between
 * lanes. */
/* `lane value OP row value`, either way round, OP one of < <= > >= == on
 * 32-bit integers: the lanes where it holds form a run (for ==, of at most
 * one lane: `if (t == 0)`; its else-branch would be two runs). */
static bool aff_cmp(Node *c) {
  if (c->k != N_BIN || !is_intty(c->a->ty) || c->a->ty->size > 4) return false;
  if (strcmp(c->op, "<") && strcmp(c->op, "<=") && strcmp(c->op, ">") && strcmp(c->op, ">=") &&
      strcmp(c->op, "=="))
    return false;
  return (aff_e(c->a) && rowu(c->b)) || (aff_e(c->b) && rowu(c->a));
}

/* `lane value % row value == 0`, either way round: the lanes where it
 * holds are every u-th from the first (the lecture's divergent reduction,
 * `t % (2 * stride) == 0`). Its else-branch would not be a run. */
static Node *aff_mod(Node *c) {
  if (c->k != N_BIN || strcmp(c->op, "==") || !is_intty(c->a->ty) || c->a->ty->size > 4) return NULL;
  Node *m = c->b->k == N_NUM && c->b->ival == 0 ? c->a : c->a->k == N_NUM && c->a->ival == 0 ? c->b : NULL;
  if (!m || m->k != N_BIN || strcmp(m->op, "%") || m->ty->size > 4) return NULL;
  return aff_e(m->a) && rowu(m->b) ? m : NULL;
}

static bool aff_run(Em *e, Node *c, int id, Run *r) {
  *r = (Run){0};
  const char *n = e->bw ? "_nl" : "32";
  Node *m = aff_mod(c);
  if (m) {
    line(e, "int _f%d, _s%d;", id, id);
    r->cnt = xfmt("cu_lanes_divisible((long long)(%s), (long long)(%s), %s, &_f%d, &_s%d)", exs(e, m->a, false),
                  exs(e, m->b, false), n, id, id);
    r->at = xfmt("_f%d", id);
    r->step = xfmt("_s%d", id);
    return true;
  }
  if (!aff_cmp(c)) return false;
  const char *op = c->op;
  Node *a = c->a, *u = c->b;
  bool swap = !(aff_e(a) && rowu(u));
  if (swap) {
    a = c->b;
    u = c->a;
  }
  /* normalize to "aff OP u" */
  if (swap) op = !strcmp(op, "<") ? ">" : !strcmp(op, ">") ? "<" : !strcmp(op, "<=") ? ">=" : !strcmp(op, ">=") ? "<=" : op;
  char *d = xfmt("(long long)(%s) - (long long)(%s)", exs(e, u, false), exs(e, a, false));
  /* the lanes that hold are a prefix (<, <=) or a suffix (>, >=) */
  r->prefix = op[0] == '<';
  if (!strcmp(op, "==")) {
    r->point = true;
    r->at = xfmt("cu_lanes_below(%s, %s)", d, n);
    r->cnt = xfmt("cu_lanes_below(%s + 1, %s) - %s", d, n, r->at);
  } else if (!strcmp(op, "<")) r->cnt = xfmt("cu_lanes_below(%s, %s)", d, n);
  else if (!strcmp(op, "<=")) r->cnt = xfmt("cu_lanes_below(%s + 1, %s)", d, n);
  else if (!strcmp(op, ">")) r->cnt = xfmt("%s - cu_lanes_below(%s + 1, %s)", n, d, n);
  else r->cnt = xfmt("%s - cu_lanes_below(%s, %s)", n, d, n);   /* >= */
  return true;
}

/* An expression that can be evaluated twice: no stores, no calls but to
 * the math library and __ldg, no volatile reads. */
static bool pure(Node *n) {
  if (!n) return true;
  switch (n->k) {
  case N_ASSIGN: case N_INCDEC: return false;
  case N_CALL: if (n->ck != C_LIBM && n->ck != C_LDG) return false; break;
  case N_VAR: if (n->var->ty->is_volatile) return false; break;
  case N_UN: case N_INDEX: case N_MEMBER: if (n->ty->is_volatile) return false; break;
  default: break;
  }
  if (!pure(n->a) || !pure(n->b) || !pure(n->c) || !pure(n->d)) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!pure(n->list.v[i])) return false;
  return true;
}

static bool has_warp(Node *n);

/* Code that can run over a run of lanes with no mask: straight code with
 * no divergent ifs and no warp collectives. */
static bool has_vary_if(Node *n) {
  if (!n || n->k < S_BLOCK) return false;
  if (n->k == S_IF && n->vary) return true;
  if (has_vary_if(n->a) || has_vary_if(n->b) || has_vary_if(n->c) || has_vary_if(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_vary_if(n->list.v[i])) return true;
  return false;
}

static bool runs_ok(Node *n) {
  int budget = 1 << 20;
  return dual_ok(n, &budget) && !has_warp(n) && !has_vary_if(n);
}

/* ---- blends ----
 * Every 2nd, 4th or 8th lane of a run (`t % (2*stride) == 0` at small
 * strides) is too dense for a strided scalar loop, which stores one lane
 * per cycle at best. A branch of stores to unit-stride __shared__ elements
 * runs instead as a unit-stride loop over the run's span in which the other
 * lanes store back the value they read: `s[t] = on ? s[t] + x : s[t]`,
 * which the C compiler vectorizes as a blend. Safe because shared memory
 * belongs to one block, which one worker runs (no other thread can store
 * in between), and because every address the span touches lies between
 * those of its first and last lanes, which the program itself accesses:
 * so the right-hand sides may read only unit-stride lane elements, lane
 * variables and uniform values, and must not divide integers (a lane that
 * is off could divide by zero). */
static bool blend_rhs(Node *n) {
  if (!n->vary) return pure(n);
  switch (n->k) {
  case N_NUM: case N_FNUM: case N_BUILTIN: return true;
  case N_VAR: return !n->var->ty->is_volatile;
  case N_CAST: return blend_rhs(n->a);
  case N_UN: return strcmp(n->op, "*") && strcmp(n->op, "&") && blend_rhs(n->a);
  case N_BIN:
    if (is_intty(n->ty) && (!strcmp(n->op, "/") || !strcmp(n->op, "%"))) return false;
    return blend_rhs(n->a) && blend_rhs(n->b);
  case N_COND: return blend_rhs(n->a) && blend_rhs(n->b) && blend_rhs(n->c);
  case N_INDEX: return !n->ty->is_volatile && rowu(n->a) && aff_e(n->b) && n->ty->kind != TY_ARRAY;
  default: return false;
  }
}

static bool shared_root(Node *n) {
  while (n->k == N_INDEX || n->k == N_MEMBER || n->k == N_CAST) n = n->a;
  return n->k == N_VAR && n->var->is_shared;
}

static bool blend_ok(Node *n) {
  if (!n) return true;
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++)
      if (!blend_ok(n->list.v[i])) return false;
    return n->list.n > 0;
  }
  if (n->k != S_EXPR || n->a->k != N_ASSIGN) return false;
  Node *x = n->a, *l = x->a;
  if (!strcmp(x->op, "<<=") || !strcmp(x->op, ">>=") || !strcmp(x->op, "/=") || !strcmp(x->op, "%=")) return false;
  return l->k == N_INDEX && rowu(l->a) && aff_e(l->b) && shared_root(l->a) && !l->ty->is_volatile &&
         (is_intty(l->ty) || l->ty->kind == TY_FLOAT || l->ty->kind == TY_DOUBLE) && blend_rhs(x->b);
}

static void blend_st(Em *e, Node *n, const char *on) {
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++) blend_st(e, n->list.v[i], on);
    return;
  }
  /* the right-hand side is read in every lane of the span, not under
   * the condition: a conditional load became a masked one that gcc
   * carried through the stack from one iteration to the next */
  Node *x = n->a;
  char *l = exs(e, x->a, true);
  line(e, "{");
  line(e, "  const %s = %s;", ty_decl(x->b->ty, "_v"), exs(e, x->b, true));
  if (!strcmp(x->op, "=")) line(e, "  %s = %s ? _v : %s;", l, on, l);
  else line(e, "  %s = %s ? %s %.*s _v : %s;", l, on, l, (int)strlen(x->op) - 1, x->op, l);
  line(e, "}");
}

/* A divergent if computes its masks and counts the lanes that take each
 * way. When every live lane of a full warp agrees (the common case: a
 * bounds test, `t < stride` away from the boundary), the taken branch runs
 * as unmasked lane loops that vectorize; the masked version is only for
 * warps that really split. */
static void st_if(Em *e, Node *n) {
  /* in whole-row and block-wide warps a row value (threadIdx.y == 1) is
   * the same in every lane: a uniform branch */
  /* (checked: not when the condition reads memory, which every lane
   * does and a race check must see) */
  if (!n->vary || ((e->fast || e->bw) && !n->has_jump && rowu(n->a) && (!e->ck || no_access(n->a)))) {
    /* under a mask that may be empty (every lane left by continue or
     * break) no lane evaluates the condition */
    line(e, e->full ? "if (%s)" : "if (%2$s && (%1$s))", exs(e, n->a, false), e->full ? "" : any(e, cur(e)));
    block(e, n->b);
    if (n->c) {
      line(e, "else");
      block(e, n->c);
    }
    return;
  }
  hoist(e, n->a, false);
  const char *m = cur(e);
  int id = ++e->nid;
  char *mt = xfmt("_mt%d", id), *me = n->c ? xfmt("_me%d", id) : NULL;
  char *nt = xfmt("_nt%d", id), *ne = xfmt("_ne%d", id);
  int budget = 300;
  bool dual = e->full && dual_ok(n->b, &budget) && dual_ok(n->c, &budget);
  line(e, "{");
  e->ind++;
  if (dual && pure(n->a)) {
    /* count first (compares and adds only); the masks only if it splits */
    Run r;
    char *cnt = (e->fast || e->bw) && aff_run(e, n->a, id, &r) ? r.cnt : NULL;
    if (cnt) line(e, "int %s = %s;", nt, cnt);
    else {
      line(e, "int %s = 0;", nt);
      line(e, "%s %s += (%s) != 0;", lanes(e, false), nt, exs(e, n->a, true));
    }
    prof_branch(e, n, nt, "_nl");
    line(e, "if (%s == _nl)", nt);
    block(e, n->b);
    if (me) {
      line(e, "else if (%s == 0)", nt);
      block(e, n->c);
    }
    if (cnt && !strcmp(e->lo, "0") && runs_ok(n->b) && runs_ok(n->c) && !(r.at && me)) {
      /* the lanes that take the branch are a run: [0, count),
       * [_nl - count, _nl), for == [at, at + 1), for % every step-th
       * from at; each branch runs over its lanes with no mask */
      line(e, "else if (%s) {", me ? "1" : nt);
      e->ind++;
      line(e, "const int _cut%d = %s;", id, r.at ? r.at : r.prefix ? nt : xfmt("_nl - %s", nt));
      const char *cut = xfmt("_cut%d", id);
      e->lo = r.prefix && !r.at ? "0" : cut;
      e->hi = r.point ? xfmt("%s + 1", cut) : r.prefix && !r.at ? cut : "_nl";
      if (r.step) e->step = r.step;
      /* (not in checked builds: the blend's accesses would be checked
       * lane by lane; the run's are tested as ranges) */
      bool blend = r.step && !me && blend_ok(n->b) && !(e->ck & (CK_MEM | CK_RACE | CK_INIT));
      if (blend) {
        line(e, "if (!(%s & (%s - 1)) && %s <= 8) {   /* a dense run: blend over its span */", r.step, r.step, r.step);
        e->ind++;
        line(e, "const int _e%d = %s + (%s - 1) * %s + 1;", id, cut, nt, r.step);
        line(e, "CU_LANES for (int _l = %s; _l < _e%d; _l++) {", cut, id);
        e->ind++;
        line(e, "const int _on = ((_l - %s) & (%s - 1)) == 0;", cut, r.step);
        bool lane = e->lane;
        e->lane = true;
        blend_st(e, n->b, "_on");
        e->lane = lane;
        e->ind--;
        line(e, "}");
        e->ind--;
        line(e, "} else");
      }
      block(e, n->b);
      if (me) {
        e->lo = r.prefix ? cut : "0";
        e->hi = r.prefix ? "_nl" : cut;
        block(e, n->c);
      }
      e->lo = "0";
      e->hi = "_nl";
      e->step = "1";
      e->ind--;
      line(e, "}");
      /* every count is covered: no lane takes the branch, nothing to do */
      e->ind--;
      line(e, "}");
      return;
    }
    line(e, "else {");
    e->ind++;
    line(e, "unsigned char %s[%s]%s%s%s;", mt, LN(e), me ? ", " : "", me ? me : "", me ? xfmt("[%s]", LN(e)) : "");
    line(e, "%s {", lanes(e, true));
    line(e, "  int _c = _l < _nl && (%s);", exs(e, n->a, true));
    line(e, "  %s[_l] = _c;", mt);
    if (me) line(e, "  %s[_l] = _l < _nl && !_c;", me);
    line(e, "}");
    if (me) line(e, "int %s = _nl - %s;", ne, nt);
  } else {
    line(e, "unsigned char %s[%s]%s%s%s;", mt, LN(e), me ? ", " : "", me ? me : "", me ? xfmt("[%s]", LN(e)) : "");
    line(e, "int %s = 0%s%s%s;", nt, me ? ", " : "", me ? ne : "", me ? " = 0" : "");
    line(e, "%s {", lanes(e, true));
    if (e->full) line(e, "  int _c = _l < _nl && (%s);", exs(e, n->a, true));
    else line(e, "  int _c = %s[_l] && (%s);", m, exs(e, n->a, true));
    line(e, "  %s[_l] = _c;", mt);
    line(e, "  %s += _c;", nt);
    if (me) {
      line(e, "  %s[_l] = %s && !_c;", me, e->full ? "_l < _nl" : xfmt("%s[_l]", m));
      line(e, "  %s += %s[_l];", ne, me);
    }
    line(e, "}");
    prof_branch(e, n, nt, act_count(e));
    if (dual) {
      /* every lane one way: that branch alone, with no mask */
      line(e, "if (%s == _nl)", nt);
      block(e, n->b);
      if (me) {
        line(e, "else if (%s == 0)", nt);
        block(e, n->c);
      }
      line(e, "else {");
      e->ind++;
    }
  }
  bool full = e->full, uctx = e->uctx;
  e->full = false;
  e->uctx = false;
  line(e, "if (%s)", nt);
  push_lv(e, mt, n, false);
  block(e, n->b);
  e->chain.n--;
  if (me) {
    line(e, "if (%s)", ne);
    push_lv(e, me, n, false);
    block(e, n->c);
    e->chain.n--;
  }
  e->full = full;
  e->uctx = uctx;
  if (dual) {
    e->ind--;
    line(e, "}");
  }
  e->ind--;
  line(e, "}");
}

/* for-init that is a group of uniform scalar declarations */
static char *uniform_init(Em *e, Node *init) {
  if (!init) return xstrdup("");
  if (init->k == S_EXPR && !init->a->vary) return exs(e, init->a, false);
  if (init->k != S_BLOCK || init->list.n != 1) return NULL;
  Node *d = init->list.v[0];
  if (d->k != S_DECL || d->var->vary) return NULL;
  return d->a ? xfmt("%s = %s", ty_decl(d->var->ty, d->var->cname), exs(e, d->a, false))
              : ty_decl(d->var->ty, d->var->cname);
}

/* ---- uniform loops inside lane loops ----
 * A uniform loop whose body only has per-lane effects (the matmul's
 * `for (k...) acc += As[ty][k] * Bs[k][tx]`) runs inside one lane loop
 * instead of around lane loops: each lane runs the whole loop in its own
 * order, which CUDA allows (threads of a warp are not ordered between
 * barriers), and the C compiler vectorizes across lanes with the
 * accumulators in registers. */
static bool has_warp(Node *n) {
  if (!n) return false;
  if (n->k == N_CALL && n->ck == C_WARP) return true;
  if (has_warp(n->a) || has_warp(n->b) || has_warp(n->c) || has_warp(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_warp(n->list.v[i])) return true;
  return false;
}

static bool lane_loop_ok(Node *n);

/* the variable a store (=, op=, ++, --) writes, or NULL */
static Obj *stored_var(Node *n) {
  if (n->k != N_ASSIGN && n->k != N_INCDEC) return NULL;
  Node *t = n->a;
  while (t->k == N_CAST && t->implicit) t = t->a;
  return t->k == N_VAR ? t->var : NULL;
}

static bool stores_aff(Node *n) {
  if (!n) return false;
  Obj *v = stored_var(n);
  if (v && v->aff) return true;
  if (stores_aff(n->a) || stores_aff(n->b) || stores_aff(n->c) || stores_aff(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (stores_aff(n->list.v[i])) return true;
  return false;
}

static bool lane_ok(Node *n, bool *work) {
  if (!n) return true;
  switch (n->k) {
  case S_NULL: return true;
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++)
      if (!lane_ok(n->list.v[i], work)) return false;
    return true;
  case S_EXPR:   /* (a lane-affine variable is a base, not per lane: st_expr sets it) */
    if (!n->a->vary || has_warp(n->a) || stores_aff(n->a)) return false;
    *work = true;
    return true;
  case S_DECL:
    return !n->var->vary && !n->var->cross && n->a && n->a->k != N_INIT && pure(n->a);
  case S_IF: return !n->vary && pure(n->a) && lane_ok(n->b, work) && lane_ok(n->c, work);
  case S_FOR: return lane_loop_ok(n) && lane_ok(n->d, work);
  default: return false;
  }
}

/* for (T k = init; pure cond; k++ / k += c / k = ...) */
static bool lane_loop_ok(Node *n) {
  if (n->k != S_FOR || n->vary || n->masked || !n->a || !n->b || !n->c) return false;
  if (n->a->k != S_BLOCK || n->a->list.n != 1) return false;
  Node *d = n->a->list.v[0];
  if (d->k != S_DECL || d->var->vary || d->var->cross || !d->a || d->a->k == N_INIT || !pure(d->a)) return false;
  if (!pure(n->b) || has_warp(n->b)) return false;
  Node *c = n->c;
  if ((c->k != N_INCDEC && c->k != N_ASSIGN) || c->a->k != N_VAR || c->a->var != d->var) return false;
  return c->k == N_INCDEC || pure(c->b);
}

static void lane_st(Em *e, Node *n) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK:
    if (n->post) {   /* a declaration group: no scope of its own */
      for (int i = 0; i < n->list.n; i++) lane_st(e, n->list.v[i]);
      break;
    }
    line(e, "{");
    e->ind++;
    for (int i = 0; i < n->list.n; i++) lane_st(e, n->list.v[i]);
    e->ind--;
    line(e, "}");
    break;
  case S_EXPR: line(e, "%s;", exs(e, n->a, true)); break;
  case S_DECL: line(e, "%s = %s;", ty_decl(n->var->ty, n->var->cname), exs(e, n->a, true)); break;
  case S_IF:
    line(e, "if (%s)", exs(e, n->a, true));
    lane_st(e, n->b);
    if (n->c) {
      line(e, "else");
      lane_st(e, n->c);
    }
    break;
  case S_FOR: {
    Node *d = n->a->list.v[0];
    line(e, "for (%s = %s; %s; %s)", ty_decl(d->var->ty, d->var->cname), exs(e, d->a, true), exs(e, n->b, true),
         exs(e, n->c, true));
    e->ind++;
    lane_st(e, n->d);
    e->ind--;
    break;
  }
  default: break;
  }
}

/* Constant trip count of `for (T k = a; k < b; ++k)` with literal a and b,
 * else -1. */
static long long trips(Node *n) {
  Node *d = n->a->list.v[0], *c = n->b, *st = n->c;
  Node *a = d->a;
  while (a->k == N_CAST) a = a->a;
  if (a->k != N_NUM || c->k != N_BIN || strcmp(c->op, "<") || c->a->k != N_VAR || c->a->var != d->var) return -1;
  Node *b = c->b;
  while (b->k == N_CAST) b = b->a;
  if (b->k != N_NUM || st->k != N_INCDEC || strcmp(st->op, "++")) return -1;
  return b->ival - a->ival;
}

/* The per-lane scalars a uniform loop inside a lane loop uses, marked
 * `prom` (prom_st: those it stores to). Each is read into a scalar
 * `_s_NAME` before the loop and written back after it: per-lane storage
 * lives in the block's lane buffer, which gcc cannot tell apart from shared
 * memory, so `acc[_l] += As[ty][k] * Bs[k][tx]` stored acc back at every k
 * (20% of the tile-16 matmul). */
static void prom_vars(Em *e, Node *n, Vec *v, bool store) {
  if (!n) return;
  if (n->k == N_VAR) {
    Obj *o = n->var;
    bool aff = (e->fast || e->hw) && o->aff;
    if (o->vary && !aff && !o->is_shared && !o->addr_taken && !o->ty->is_volatile && is_arith(o->ty)) {
      if (!o->prom) {
        o->prom = true;
        o->prom_st = false;
        vec_push(v, o);
      }
      o->prom_st |= store;
    }
    return;
  }
  bool st = n->k == N_ASSIGN || n->k == N_INCDEC || (n->k == N_CAST && n->implicit && store);
  prom_vars(e, n->a, v, st);
  prom_vars(e, n->b, v, (n->k == N_COND || n->k == N_COMMA) && store);
  prom_vars(e, n->c, v, n->k == N_COND && store);
  prom_vars(e, n->d, v, false);
  for (int i = 0; i < n->list.n; i++) prom_vars(e, n->list.v[i], v, false);
}

/* ---- a checked loop tested as a whole ----
 * In a checked build's fast versions, a uniform loop `for (k = a; k < b;
 * k += c)` whose body is lane statements whose every checked access is a
 * range or a broadcast at an address affine in k (`acc += As[ty][k] *
 * Bs[k][tx]`) is tested once before it: each access is n lanes in t rows,
 * one per iteration, the address's step in k apart (cu_ck_rng2). Then the
 * loop runs as the unchecked build prints it, its accumulators in
 * registers; if a test fails it runs with each statement tested
 * (rng_print), which reports. With racecheck the body may not write
 * shared memory: between its reads the order of the tests would matter. */
static bool uses_var(Node *n, Obj *v) {
  if (!n) return false;
  if (n->k == N_VAR) return n->var == v;
  if (uses_var(n->a, v) || uses_var(n->b, v) || uses_var(n->c, v) || uses_var(n->d, v)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (uses_var(n->list.v[i], v)) return true;
  return false;
}

static Node *strip_casts(Node *n) {
  while (n->k == N_CAST && is_intty(n->ty) && is_intty(n->a->ty) && n->ty->size >= n->a->ty->size) n = n->a;
  return n;
}

/* an integer or an address affine in k (or free of it) */
static bool kaff(Node *n, Obj *k) {
  if (!n || !uses_var(n, k)) return true;
  switch (n->k) {
  case N_VAR: return n->var == k;
  case N_CAST:
    return ((is_intty(n->ty) && is_intty(n->a->ty) && n->ty->size >= n->a->ty->size) ||
            (n->ty->kind == TY_PTR && (n->a->ty->kind == TY_PTR || n->a->ty->kind == TY_ARRAY))) &&
           kaff(n->a, k);
  case N_BIN:
    if (!strcmp(n->op, "+") || !strcmp(n->op, "-")) return kaff(n->a, k) && kaff(n->b, k);
    if (!strcmp(n->op, "*")) return uses_var(n->a, k) ? !uses_var(n->b, k) && kaff(n->a, k) : kaff(n->b, k);
    if (!strcmp(n->op, "<<")) return !uses_var(n->b, k) && kaff(n->a, k);
    return false;
  case N_UN: return !strcmp(n->op, "-") && kaff(n->a, k);
  case N_INDEX: return n->ty->kind == TY_ARRAY && kaff(n->a, k) && kaff(n->b, k);   /* an address */
  default: return false;
  }
}

/* lane statements with no calls but to the math library, and no stores to
 * a variable an address could use: uniform ones (k among them) and the
 * lane-affine ones (`i = i + 32`): the test takes them as fixed */
static bool rng_expr_ok(Node *n) {
  if (!n) return true;
  if (n->k == N_CALL && n->ck != C_LIBM) return false;
  Obj *v = stored_var(n);
  if (v && (!v->vary || v->aff)) return false;
  if (!rng_expr_ok(n->a) || !rng_expr_ok(n->b) || !rng_expr_ok(n->c) || !rng_expr_ok(n->d)) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!rng_expr_ok(n->list.v[i])) return false;
  return true;
}

static bool rng_body(Node *n, Vec *x) {
  if (n->k == S_NULL) return true;
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++)
      if (!rng_body(n->list.v[i], x)) return false;
    return true;
  }
  if (n->k != S_EXPR || !n->a->vary || has_warp(n->a) || has_volatile(n->a) || !rng_expr_ok(n->a)) return false;
  vec_push(x, n->a);
  return true;
}

static void st_loop(Em *e, Node *n);

static bool rng_loop(Em *e, Node *n) {
  if (e->rnoloop || !(e->ck & (CK_MEM | CK_RACE | CK_INIT)) || !(e->fast || e->bw || e->hw) || !e->full ||
      !lane_loop_ok(n))
    return false;
  Vec xs = {0};
  Node *d = n->a->list.v[0], *c = n->b, *inc = n->c;
  Obj *k = d->var;
  if (!is_intty(k->ty) || !rng_body(n->d, &xs) || !xs.n || !no_access(d->a)) return false;
  /* k < b or k <= b; k++, ++k or k += literal */
  if (c->k != N_BIN || (strcmp(c->op, "<") && strcmp(c->op, "<=")) || strip_casts(c->a)->k != N_VAR ||
      strip_casts(c->a)->var != k || uses_var(c->b, k) || !no_access(c->b))
    return false;
  long long step = 1;
  if (inc->k == N_ASSIGN) {
    Node *v = strip_casts(inc->b);
    if (strcmp(inc->op, "+=") || v->k != N_NUM || v->ival <= 0) return false;
    step = v->ival;
  } else if (strcmp(inc->op, "++")) return false;
  Vec rd = {0}, wr = {0};
  e->rrd = &rd;
  e->rwr = &wr;
  e->rbad = false;
  e->rcond = 0;
  e->rk = k;
  for (int i = 0; i < xs.n; i++) exs(e, xs.v[i], true);
  e->rrd = e->rwr = NULL;
  e->rk = NULL;
  if (e->rbad || rd.n + wr.n == 0 || rd.n + wr.n > 8) return false;
  int id = ++e->nid;
  line(e, "{");
  e->ind++;
  line(e, "int _lk%d = 1;   /* the loop's accesses, tested as ranges before it */", id);
  /* reads, then writes: in the half-row version every sub-row's reads
   * before any sub-row's writes (a write marks the bytes it initializes
   * for all the loop's iterations) */
  for (int w = 0; w < 2; w++) {
    Vec *v = w ? &wr : &rd;
    if (!v->n) continue;
    if (e->hw) {
      line(e, "for (int _r = 0; _r < %d && _lk%d; _r++) {", 32 / e->hw, id);
      e->ind++;
    } else {
      line(e, "{");
      e->ind++;
    }
    line(e, "%s = %s;", ty_decl(k->ty, k->cname), exs(e, d->a, false));
    /* iterations, counted in the comparison's own types */
    char *span = xfmt("(long long)(%s)(%s) - (long long)(%s)%s", ty_decl(c->b->ty, ""), exs(e, c->b, false),
                      ty_decl(c->a->ty, ""), exs(e, c->a, false));
    char *nit = !strcmp(c->op, "<=") ? xfmt("%s + 1", step > 1 ? xfmt("(%s) / %lld", span, step) : span)
                : step > 1 ? xfmt("(%s + %lld) / %lld", span, step - 1, step) : span;
    line(e, "const long long _lt%d = %s ? %s : 0;", id, exs(e, c, false), nit);
    Buf p = {0}, t = {0};
    for (int i = 0; i < v->n; i++) buf_printf(&p, "%s(const char *)(%s)", i ? ", " : "", ((Rng *)v->v[i])->addr);
    line(e, "const char *_lp%d[%d] = {%s};", id, v->n, p.s);
    line(e, "%s;", exs(e, inc, false));
    for (int i = 0; i < v->n; i++) {
      Rng *r = v->v[i];
      buf_printf(&t, " &&\n%*scu_ck_rng2(_B, %s, %s, _lp%d[%d], %s, %s, _lt%d, (const char *)(%s) - _lp%d[%d], &_cs[%d], %s, %s)",
                 2 * e->ind + 6, "", r->tid, r->tstep, id, i, r->cnt, r->step, id, r->addr, id, i, r->id, r->obj, r->objn);
    }
    line(e, "_lk%d = _lk%d%s;", id, id, t.s);
    e->ind--;
    line(e, "}");
  }
  line(e, "if (_lk%d) {", id);
  e->ind++;
  unsigned ck = e->ck;
  e->ck = 0;
  st_loop(e, n);
  e->ck = ck;
  e->ind--;
  line(e, "} else {");
  e->ind++;
  e->rnoloop = true;
  st_loop(e, n);
  e->rnoloop = false;
  e->ind--;
  line(e, "}");
  e->ind--;
  line(e, "}");
  return true;
}

static void st_loop(Em *e, Node *n) {
  bool work = false;
  if (rng_loop(e, n)) return;
  /* Only short constant loops, in the whole- and half-row versions: gcc
   * unrolls them inside the lane loop and vectorizes that; a long loop
   * inside a lane loop stays scalar, while around lane loops gcc keeps
   * 32 lanes of accumulators in registers by itself. */
  long long nt = lane_loop_ok(n) ? trips(n) : -1;
  if ((e->fast || e->hw) && !e->ck && nt > 0 && nt <= 16 && lane_ok(n->d, &work) && work) {
    Vec pv = {0};
    prom_vars(e, n, &pv, false);
    lane_open(e);
    for (int i = 0; i < pv.n; i++) {
      Obj *o = pv.v[i];
      line(e, "%s = %s[_l];", ty_decl(o->ty, xfmt("_s_%s", o->cname)), o->cname);
    }
    lane_st(e, n);
    for (int i = 0; i < pv.n; i++) {
      Obj *o = pv.v[i];
      o->prom = false;
      if (o->prom_st) line(e, "%s[_l] = _s_%s;", o->cname, o->cname);
    }
    lane_close(e);
    return;
  }
  if (!n->vary && !n->masked) {
    char *ui = n->k == S_FOR ? uniform_init(e, n->a) : xstrdup("");
    bool wrap = !ui;
    if (wrap) {
      line(e, "{");
      e->ind++;
      st(e, n->a);
      ui = xstrdup("");
    }
    char *c = n->b ? exs(e, n->b, false) : xstrdup("");
    if (n->k == S_FOR) line(e, "for (%s; %s; %s)", ui, c, n->c ? exs(e, n->c, false) : "");
    else if (n->k == S_WHILE) line(e, "while (%s)", c);
    else line(e, "do");
    block(e, n->d);
    if (n->k == S_DO) line(e, "while (%s);", c);
    if (wrap) {
      e->ind--;
      line(e, "}");
    }
    return;
  }
  /* divergent loop: lanes leave one by one; the loop ends when none is left */
  const char *m = cur(e);
  char *ml = newmask(e, "ml"), *mi = n->has_cont ? newmask(e, "mi") : NULL;
  line(e, "{");
  e->ind++;
  if (n->a) st(e, n->a);
  line(e, "unsigned char %s[%s];", ml, LN(e));
  line(e, "memcpy(%s, %s, sizeof %s);", ml, m, ml);
  bool full = e->full, uctx = e->uctx;
  e->full = false;
  e->uctx = false;
  push_lv(e, ml, n, false);
  line(e, "for (;;) {");
  e->ind++;
  if (n->b && n->k != S_DO) {
    hoist(e, n->b, false);
    char *pa = n->b->vary && prof_here(e) ? xfmt("_pa%d", ++e->nid) : NULL;   /* lanes before the test */
    if (pa) line(e, "const unsigned %s = (_pf & 1) ? cu_count(%s) : 0;", pa, ml);
    if (n->b->vary) line(e, "%s if (%s[_l]) %s[_l] = (%s) != 0;", lanes(e, true), ml, ml, exs(e, n->b, true));
    else line(e, "if (!%s || !(%s)) break;", any(e, ml), exs(e, n->b, false));   /* no lane left: no test */
    if (pa) prof_branch(e, n, xfmt("cu_count(%s)", ml), pa);
  }
  if (n->k != S_DO) line(e, "if (!%s) break;", any(e, ml));
  if (mi) {
    line(e, "unsigned char %s[%s];", mi, LN(e));
    line(e, "memcpy(%s, %s, sizeof %s);", mi, ml, mi);
    push_lv(e, mi, n, true);
  }
  if (n->d->k == S_BLOCK) {
    line(e, "{");
    e->ind++;
    st_list(e, &n->d->list);
    e->ind--;
    line(e, "}");
  } else st(e, n->d);
  if (mi) e->chain.n--;
  if (n->c) {
    hoist(e, n->c, false);
    if (n->c->vary) {
      lane_open(e);
      line(e, "%s;", exs(e, n->c, true));
      lane_close(e);
    } else line(e, "if (%s) %s;", any(e, ml), exs(e, n->c, false));
  }
  if (n->k == S_DO) {
    hoist(e, n->b, false);
    if (n->b->vary) line(e, "%s if (%s[_l]) %s[_l] = (%s) != 0;", lanes(e, true), ml, ml, exs(e, n->b, true));
    else line(e, "if (!%s || !(%s)) break;", any(e, ml), exs(e, n->b, false));
    line(e, "if (!%s) break;", any(e, ml));
  }
  e->ind--;
  line(e, "}");
  e->chain.n--;
  e->full = full;
  e->uctx = uctx;
  e->ind--;
  line(e, "}");
}

static void st_switch(Em *e, Node *n) {
  Vec *items = &n->d->list;
  if (!n->vary && !n->masked) {
    if (!e->full) line(e, "if (%s)", any(e, cur(e)));   /* (as st_if) */
    line(e, "switch (%s) {", exs(e, n->a, false));
    for (int i = 0; i < items->n; i++) {
      Node *s = items->v[i];
      if (s->k == S_CASE) line(e, "case %lld: ;", (long long)s->ival);
      else if (s->k == S_DEFAULT) line(e, "default: ;");
      else {
        e->ind++;
        st(e, s);
        e->ind--;
      }
    }
    line(e, "}");
    return;
  }
  /* divergent switch: lanes enter at their case label and fall through
   * with the running mask until they break */
  const char *m = cur(e);
  char *ms = newmask(e, "ms"), *sv = xfmt("_sv%d", e->nid);
  bool has_def = false;
  Buf cases = {0};
  for (int i = 0; i < items->n; i++) {
    Node *s = items->v[i];
    if (s->k == S_DEFAULT) has_def = true;
    if (s->k == S_CASE) buf_printf(&cases, " || %s == %lld", n->vary ? xfmt("%s[_l]", sv) : sv, (long long)s->ival);
  }
  line(e, "{");
  e->ind++;
  hoist(e, n->a, false);
  char *svt = ty_decl(n->a->ty, n->vary ? xfmt("%s[%s]", sv, LN(e)) : sv);
  if (n->vary) {
    line(e, "%s;", svt);
    line(e, "%s if (%s[_l]) %s[_l] = %s;", lanes(e, true), m, sv, exs(e, n->a, true));
  } else {
    line(e, "%s = %s;", svt, exs(e, n->a, false));
  }
  line(e, "unsigned char %s[%s] = {0};", ms, LN(e));
  char *md = NULL;
  if (has_def) {
    md = xfmt("_md%d", e->nid);
    line(e, "unsigned char %s[%s];", md, LN(e));
    line(e, "%s %s[_l] = %s[_l] && !(0%s);", lanes(e, true), md, m, cases.s ? cases.s : "");
  }
  bool full = e->full, uctx = e->uctx;
  e->full = false;
  e->uctx = false;
  push_lv(e, ms, n, false);
  for (int i = 0; i < items->n; i++) {
    Node *s = items->v[i];
    if (s->k == S_CASE)
      line(e, "%s %s[_l] |= %s[_l] && %s == %lld;", lanes(e, true), ms, m,
           n->vary ? xfmt("%s[_l]", sv) : sv, (long long)s->ival);
    else if (s->k == S_DEFAULT)
      line(e, "%s %s[_l] |= %s[_l];", lanes(e, true), ms, md);
    else st(e, s);
  }
  e->chain.n--;
  e->full = full;
  e->uctx = uctx;
  e->ind--;
  line(e, "}");
}

static void st(Em *e, Node *n) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK:
    if (n->post) st_list(e, &n->list);   /* a declaration group */
    else block(e, n);
    break;
  case S_DECL: st_decl(e, n); break;
  case S_EXPR: st_expr(e, n->a); break;
  case S_IF: st_if(e, n); break;
  case S_FOR: case S_WHILE: case S_DO: st_loop(e, n); break;
  case S_SWITCH: st_switch(e, n); break;
  case S_BREAK: case S_CONTINUE: st_jump(e, n); break;
  case S_RETURN:
    if (!e->fn->is_kernel) {
      if (n->a) line(e, "return %s;", exs(e, n->a, false));
      else line(e, "return;");
    } else st_jump(e, n);
    break;
  case S_NULL: break;
  case S_SYNC:
    errorat(n->file, n->line, n->col,
            e->fn->is_kernel ? "unsupported: __syncthreads() here"
                             : "unsupported: __syncthreads() in a __device__ function (call it from the kernel)");
    break;
  default:
    errorat(n->file, n->line, n->col, "internal error: statement kind %d", n->k);
  }
}

/* ---- functions ---- */

static char *params_decl(Obj *f) {
  Buf b = {0};
  int k = 0;
  if (f->uses_tid) {
    buf_puts(&b, "const cu_block *_B, unsigned _tx, unsigned _ty, unsigned _tz");
    k++;
  }
  for (int i = 0; i < f->params.n; i++) {
    Obj *o = f->params.v[i];
    buf_printf(&b, "%s%s", k++ ? ", " : "", ty_decl(o->ty, o->cname));
  }
  if (!k) buf_puts(&b, "void");
  return buf_take(&b);
}

static void device_fn(Em *e, Obj *f, bool proto) {
  name_locals(f);
  /* -rdc: a device function with external linkage (the frontend gives it
   * its mangled name as key, and uses_tid) is cu_dev_<key> for the linker,
   * defined here or in another file's object */
  char *sig = xfmt("%s%s(%s)", f->key ? "" : "static ", ty_decl(f->ty, f->cname), params_decl(f));
  if (proto) {
    line(e, "%s%s;", sig, f->key ? xfmt(" __asm__(\"cu_dev_%s\")", f->key) : "");
    return;
  }
  if (f->key && !f->has_body) return;
  line(e, "/* __device__ %s, %s:%d */", f->name, f->file, f->line);
  line(e, "%s", sig);
  e->fn = f;
  e->lane = false;
  e->uctx = true;
  e->full = true;
  e->chain.n = 0;
  push_lv(e, "_m0", NULL, false);
  block(e, f->body);
  line(e, "%s", "");
}

static int64_t align_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

/* ---- affine values ----
 * When blockDim.x is a multiple of 32, every warp is part of one row:
 * threadIdx.x = _tx0 + lane and threadIdx.y, .z are the same in all lanes.
 * Then a varying integer assigned only values of the form row + tid.x
 * (i = blockIdx.x * blockDim.x + threadIdx.x) holds base + lane in lane l
 * (AF_LANE), and one computed from threadIdx.y/z and uniform values only
 * (row = blockIdx.y * T + threadIdx.y) holds the same value in every lane
 * (AF_ROW). The whole-row version of a region keeps just the base (`i_b`)
 * and prints `(i_b + _l)` or `row_b`, so a[i] is a contiguous vector access
 * and As[row][k] one broadcast instead of 32 gathered loads. */
static bool is_intty(Type *t) { return t->kind >= TY_SHORT && t->kind <= TY_ULLONG && t->size >= 4; }

/* the same value in every lane of a whole-row warp (or uniform) */
static bool rowu(Node *n) {
  if (!n->vary) return true;
  switch (n->k) {
  case N_BUILTIN: return n->bk == B_TID && n->dim > 0;
  case N_VAR: return n->var->aff == AF_ROW;
  case N_CAST: return rowu(n->a);
  case N_UN: return strcmp(n->op, "*") && strcmp(n->op, "&") && rowu(n->a);
  case N_BIN: case N_LOG: return rowu(n->a) && rowu(n->b);
  case N_COND: return rowu(n->a) && rowu(n->b) && rowu(n->c);
  case N_INDEX: return n->ty->kind == TY_ARRAY && rowu(n->a) && rowu(n->b);   /* an address, no load */
  default: return false;
  }
}

/* base + lane in lane l of a whole-row warp */
static bool aff_e(Node *n) {
  switch (n->k) {
  case N_BUILTIN: return n->bk == B_TID && n->dim == 0;
  case N_VAR: return n->var->aff == AF_LANE;
  case N_CAST: return is_intty(n->ty) && is_intty(n->a->ty) && aff_e(n->a);
  case N_BIN:
    if (!strcmp(n->op, "+")) return (aff_e(n->a) && rowu(n->b)) || (rowu(n->a) && aff_e(n->b));
    if (!strcmp(n->op, "-")) return aff_e(n->a) && rowu(n->b);
    return false;
  default: return false;
  }
}

static bool aff_ok(Obj *o, Node *v) { return o->aff == AF_ROW ? rowu(v) : aff_e(v); }

/* Candidates: varying local integers, never address-taken, assigned only
 * by declarations or plain top-level `=` outside divergent control. */
typedef struct Aff { bool bad; } Aff;

static void aff_bad_stores(Node *n) {   /* stores anywhere else disqualify */
  if (!n) return;
  Obj *v = stored_var(n);
  if (v) v->aff = 0;
  aff_bad_stores(n->a);
  aff_bad_stores(n->b);
  aff_bad_stores(n->c);
  for (int i = 0; i < n->list.n; i++) aff_bad_stores(n->list.v[i]);
}

static bool aff_walk(Node *n, bool div) {   /* returns: something changed */
  if (!n) return false;
  bool ch = false;
  switch (n->k) {
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) ch |= aff_walk(n->list.v[i], div);
    break;
  case S_DECL:
    if (n->var->aff && (div || !n->a || !aff_ok(n->var, n->a))) { n->var->aff = 0; ch = true; }
    break;
  case S_EXPR: {
    Node *x = n->a;
    if (x->k == N_ASSIGN && !strcmp(x->op, "=") && x->a->k == N_VAR && x->a->var->aff) {
      if (div || !aff_ok(x->a->var, x->b)) { x->a->var->aff = 0; ch = true; }
    }
    break;
  }
  case S_IF:
    ch |= aff_walk(n->b, div || n->vary);
    ch |= aff_walk(n->c, div || n->vary);
    break;
  case S_FOR: case S_WHILE: case S_DO:
    ch |= aff_walk(n->a, div);
    ch |= aff_walk(n->d, div || n->vary || n->masked);
    break;
  case S_SWITCH: ch |= aff_walk(n->d, div || n->vary || n->masked); break;
  default: break;
  }
  return ch;
}

static void aff_strip_assign_stores(Node *n);

/* Row values first (lane values may be built on them), then lane values
 * among the rest; each is the largest set consistent with its stores. */
static void affine(Obj *k) {
  for (int kind = AF_ROW; kind >= AF_LANE; kind--) {
    for (int i = 0; i < k->locals.n; i++) {
      Obj *o = k->locals.v[i];
      if (o->aff == AF_ROW) continue;
      o->aff = o->vary && !o->is_param && !o->is_shared && !o->addr_taken && is_intty(o->ty) ? kind : 0;
    }
    aff_strip_assign_stores(k->body);
    while (aff_walk(k->body, false)) {}
  }
}

/* Stores other than a top-level `x = ...` statement or a declaration. */
static void aff_strip_assign_stores(Node *n) {
  if (!n) return;
  if (n->k == S_EXPR) {
    Node *x = n->a;
    if (x->k == N_ASSIGN && !strcmp(x->op, "=") && x->a->k == N_VAR) {
      aff_bad_stores(x->b);
      return;
    }
    aff_bad_stores(x);
    return;
  }
  if (n->k == S_DECL) { aff_bad_stores(n->a); return; }
  if (n->k >= N_NUM && n->k <= N_INIT) { aff_bad_stores(n); return; }
  aff_strip_assign_stores(n->a);
  aff_strip_assign_stores(n->b);
  aff_strip_assign_stores(n->c);
  aff_strip_assign_stores(n->d);
  for (int i = 0; i < n->list.n; i++) aff_strip_assign_stores(n->list.v[i]);
}

static bool uses_aff(Node *n) {
  if (!n) return false;
  if (n->k == N_VAR && n->var->aff) return true;
  if (n->k == S_DECL && n->var->aff) return true;
  if (n->k == N_BUILTIN && n->bk == B_TID) return true;
  if (uses_aff(n->a) || uses_aff(n->b) || uses_aff(n->c) || uses_aff(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (uses_aff(n->list.v[i])) return true;
  return false;
}

/* ---- regions ----
 * __syncthreads() splits a kernel into regions: maximal runs of statements
 * without a barrier. A region runs for every warp of the block before the
 * next one starts, so each barrier is simply the end of a warp loop. The
 * statements that contain barriers stay at block level as C control flow,
 * which must be uniform across the block: a condition that varies between
 * threads is evaluated for every thread, and if the threads disagree the
 * barrier is divergent and reported. */

static bool mark_sync(Node *n) {
  if (!n) return false;
  bool r = n->k == S_SYNC;
  switch (n->k) {
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) r |= mark_sync(n->list.v[i]);
    break;
  case S_IF:   /* both sides are marked: no short-circuit */
    r |= mark_sync(n->b);
    r |= mark_sync(n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH:
    r |= mark_sync(n->a);
    r |= mark_sync(n->d);
    break;
  default: break;
  }
  n->sync = r;
  return r;
}

/* break/continue out of a loop with barriers is block-level control flow:
 * the statements around it must be block level too */
static bool mark_exits(Node *n) {
  if (!n) return false;
  bool r = false;
  switch (n->k) {
  case S_BREAK: case S_CONTINUE:
    r = n->target && n->target->sync;
    if (r && n->masked)
      errorat(n->file, n->line, n->col,
              "unsupported: %s that only some threads take, out of a loop containing __syncthreads()",
              n->k == S_BREAK ? "break" : "continue");
    break;
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) r |= mark_exits(n->list.v[i]);
    break;
  case S_IF:
    r = mark_exits(n->b);
    r |= mark_exits(n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO: case S_SWITCH: r = mark_exits(n->d); break;
  default: break;
  }
  if (r) n->sync = true;
  return r;
}

static void note(Obj *o, int r) {
  if (o->use_rgn < 0) o->use_rgn = r;
  else if (o->use_rgn != r) o->cross = true;
  if (o->rgn != r) o->cross = true;
}

static void uses(Node *n, int r) {
  if (!n) return;
  if (n->k == N_VAR && !n->var->is_shared && !n->var->is_global) note(n->var, r);
  if (n->k == S_DECL) {
    n->var->rgn = r;
    note(n->var, r);
  }
  uses(n->a, r);
  uses(n->b, r);
  uses(n->c, r);
  uses(n->d, r);
  for (int i = 0; i < n->list.n; i++) uses(n->list.v[i], r);
}

static int nrgn;

static bool uniform_stmt(Node *n) {
  if (!n) return true;
  if (n->k == S_EXPR) return !n->a->vary;
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++)
      if (!uniform_stmt(n->list.v[i])) return false;
    return true;
  }
  if (n->k == S_DECL) return !n->var->vary;
  return false;
}

/* A statement with no varying part and no jump out of it, which stores to
 * a variable declared outside it (a parameter, a block-level local):
 * every thread does the same, so it runs once per block, between the warp
 * loops of the region around it, not once per warp (`out += blockIdx.x *
 * 64` moved the pointer once per warp). Splitting the region there is a
 * legal schedule: each thread still runs its statements in order. */
static bool all_uniform(Node *n) {
  if (!n) return true;
  if (n->vary || n->masked) return false;
  switch (n->k) {
  case S_BREAK: case S_CONTINUE: case S_RETURN: case S_SYNC: return false;
  case S_DECL: if (n->var->vary) return false; break;
  case N_CALL: if (n->ck != C_LIBM) return false; break;
  default: break;
  }
  if (!all_uniform(n->a) || !all_uniform(n->b) || !all_uniform(n->c) || !all_uniform(n->d)) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!all_uniform(n->list.v[i])) return false;
  return true;
}

static bool decl_in(Node *n, Obj *o) {
  if (!n) return false;
  if (n->k == S_DECL && n->var == o) return true;
  if (decl_in(n->a, o) || decl_in(n->b, o) || decl_in(n->c, o) || decl_in(n->d, o)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (decl_in(n->list.v[i], o)) return true;
  return false;
}

static bool stores_outer(Node *n, Node *top) {
  if (!n) return false;
  if ((n->k == N_ASSIGN || n->k == N_INCDEC) && n->a->k == N_VAR && !n->a->var->is_shared && !decl_in(top, n->a->var))
    return true;
  if (stores_outer(n->a, top) || stores_outer(n->b, top) || stores_outer(n->c, top) || stores_outer(n->d, top))
    return true;
  for (int i = 0; i < n->list.n; i++)
    if (stores_outer(n->list.v[i], top)) return true;
  return false;
}

static bool block_stmt(Node *n) { return n->k >= S_BLOCK && all_uniform(n) && stores_outer(n, n); }

/* ---- recomputed values ----
 * A varying variable set once, at the top level of the kernel, from thread
 * and block indices, constants and unchanging parameters (`t = threadIdx.x`,
 * `i = blockIdx.x * blockDim.x + t`) is recomputed at the start of every
 * region that uses it instead of kept per thread: a few instructions (one
 * base in whole-row warps) instead of a store per thread before a barrier
 * and a load after (14% of the lecture's reduction). */
static bool stores(Node *n, Obj *o) {
  if (!n) return false;
  if ((n->k == N_ASSIGN || n->k == N_INCDEC) && n->a->k == N_VAR && n->a->var == o) return true;
  if (stores(n->a, o) || stores(n->b, o) || stores(n->c, o) || stores(n->d, o)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (stores(n->list.v[i], o)) return true;
  return false;
}

static bool remat_e(Node *n, Node *body) {
  switch (n->k) {
  case N_NUM: return true;
  case N_BUILTIN: return n->bk != B_WSIZE;
  case N_VAR:
    if (n->var->remat) return true;
    /* parameters, and uniform variables at block level, set once */
    return (n->var->is_param || n->var->cross) && !n->var->vary && !n->var->is_shared && !n->var->addr_taken &&
           is_intty(n->var->ty) && !stores(body, n->var);
  case N_CAST: return is_intty(n->ty) && remat_e(n->a, body);
  case N_UN: return strcmp(n->op, "*") && strcmp(n->op, "&") && remat_e(n->a, body);
  case N_BIN: return remat_e(n->a, body) && remat_e(n->b, body);
  default: return false;
  }
}

static void remat_decl(Em *e, Node *d, Node *body) {
  Obj *o = d->var;
  if (d->k != S_DECL || !o->cross || !o->vary || o->is_param || o->addr_taken || !is_intty(o->ty) || !d->a ||
      !remat_e(d->a, body))
    return;
  /* the declaration is its only store */
  o->remat = d;
  if (stores(body, o)) {
    o->remat = NULL;
    return;
  }
  o->cross = false;
  vec_push(&e->remat, o);
}

static void remat(Em *e, Node *body) {
  e->remat.n = 0;
  for (int i = 0; i < body->list.n; i++) {
    Node *s = body->list.v[i];
    if (s->k == S_BLOCK && s->post)
      for (int j = 0; j < s->list.n; j++) remat_decl(e, s->list.v[j], body);
    else remat_decl(e, s, body);
  }
}

static bool reads_var(Node *n, Obj *o) {
  if (!n) return false;
  if (n->k == N_VAR && n->var == o) return true;
  if (reads_var(n->a, o) || reads_var(n->b, o) || reads_var(n->c, o) || reads_var(n->d, o)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (reads_var(n->list.v[i], o)) return true;
  return false;
}

/* Is d statement s, or one of its declaration group? */
static bool declares(Node *s, Node *d) {
  if (s == d) return true;
  if (s->k == S_BLOCK && s->post)
    for (int i = 0; i < s->list.n; i++)
      if (s->list.v[i] == d) return true;
  return false;
}

/* stmts[from, to) with, in front, the declarations of the recomputed
 * variables it reads but does not declare (and of those they read). */
static Vec *with_remat(Em *e, Vec *stmts, int from, int to) {
  Vec *v = xcalloc(1, sizeof *v);
  bool *need = xcalloc(e->remat.n + 1, sizeof *need);
  for (int j = e->remat.n - 1; j >= 0; j--) {
    Obj *o = e->remat.v[j];
    bool here = false;
    for (int i = from; i < to; i++) {
      Node *s = stmts->v[i];
      here |= declares(s, o->remat);
      need[j] |= reads_var(s, o);
    }
    for (int k = j + 1; k < e->remat.n; k++) need[j] |= need[k] && reads_var(((Obj *)e->remat.v[k])->remat->a, o);
    if (here) need[j] = false;
  }
  for (int j = 0; j < e->remat.n; j++)
    if (need[j]) {
      Node *d = memcpy(xcalloc(1, sizeof(Node)), ((Obj *)e->remat.v[j])->remat, sizeof(Node));
      d->recomputed = true;
      vec_push(v, d);
    }
  for (int i = from; i < to; i++) vec_push(v, stmts->v[i]);
  free(need);
  return v;
}

/* In a warp loop of its own (a block-level condition), the declarations
 * of the recomputed variables expression x reads. */
static void st_decl(Em *e, Node *n);
static void remat_for(Em *e, Node *x) {
  Vec one = {0};
  vec_push(&one, x);
  Vec *v = with_remat(e, &one, 0, 1);
  for (int i = 0; i + 1 < v->n; i++) st_decl(e, v->v[i]);
}

/* Number the regions of block-level statement n, noting variable uses. */
static void regions(Node *n) {
  switch (n->k) {
  case S_BLOCK: {
    int run = -1;
    for (int i = 0; i < n->list.n; i++) {
      Node *c = n->list.v[i];
      if (c->sync) {
        run = -1;
        regions(c);
      } else if (block_stmt(c)) {
        run = -1;
        uses(c, 0);
      } else {
        if (run < 0) run = ++nrgn;
        uses(c, run);
      }
    }
    break;
  }
  case S_IF:
    uses(n->a, n->a->vary ? ++nrgn : 0);
    regions(n->b);
    if (n->c) regions(n->c);
    break;
  case S_FOR: case S_WHILE: case S_DO:
    if (n->a) uses(n->a, uniform_stmt(n->a) ? 0 : ++nrgn);
    if (n->b) uses(n->b, n->b->vary ? ++nrgn : 0);
    if (n->c) uses(n->c, n->c->vary ? ++nrgn : 0);
    regions(n->d);
    break;
  case S_SWITCH:
    errorat(n->file, n->line, n->col, "unsupported: __syncthreads() inside a switch");
    break;
  case S_SYNC:
    if (n->a) uses(n->a, ++nrgn);
    if (n->var) note(n->var, 0);
    break;
  default: break;
  }
}

static Type *arr_of(Type *base, int64_t len) {
  Type *t = xcalloc(1, sizeof *t);
  t->kind = TY_ARRAY;
  t->base = base;
  t->len = len;
  t->size = base->size * len;
  t->align = base->align;
  return t;
}

static Type *ptr_to(Type *base) {
  Type *t = xcalloc(1, sizeof *t);
  t->kind = TY_PTR;
  t->base = base;
  t->size = 8;
  t->align = 8;
  return t;
}

/* The storage of one warp's copy of a varying variable, as a C type:
 * T[32] for scalars and lane-major arrays, T[..][32] for element-major. */
static Type *warp_type(Obj *o) {
  Type *t = o->ty;
  if (t->kind != TY_ARRAY || o->addr_taken) return arr_of(t, 32);
  Type *c = memcpy(xcalloc(1, sizeof *c), t, sizeof *t);
  Type *p = c;
  while (p->base->kind == TY_ARRAY) {
    p->base = memcpy(xcalloc(1, sizeof *p), p->base, sizeof *p);
    p = p->base;
  }
  p->base = arr_of(p->base, 32);
  return c;
}

/* Does code read the lanes' thread indices (directly or in a callee)? */
static bool reads_tid(Node *n) {
  if (!n) return false;
  if (n->k == N_BUILTIN && n->bk == B_TID) return true;
  if (n->k == N_CALL && (n->ck == C_FUNC ? n->fn->uses_tid : false)) return true;
  if (reads_tid(n->a) || reads_tid(n->b) || reads_tid(n->c) || reads_tid(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (reads_tid(n->list.v[i])) return true;
  return false;
}

/* The set-up of one warp in a region: its lanes, its mask, its per-thread
 * storage; the lanes' thread indices only if the region reads them. In the
 * whole-row version (fast) they are one scalar per dimension. */
static void warp_head(Em *e, bool tids, bool fast, int hw, bool bw) {
  e->bw = bw;   /* before the head: its lane arrays are block-sized too */
  if (bw) {
    line(e, "const int _nl = (int)_B->blockDim.x;   /* the block's threads as one row of lanes */");
  } else if (fast || hw) {
    line(e, "const int _nl = 32;   /* whole or half rows: every warp is full */");
  } else if (tids) {
    line(e, "unsigned _tx[32], _ty[32], _tz[32];");
    line(e, "const int _nl = cu_warp_ids(_B, _w, _tx, _ty, _tz);");
  } else {
    line(e, "const int _nl = cu_warp_nl(_B, _w);");
  }
  line(e, "unsigned char _m0[%s];", LN(e));
  if (e->exits) {
    line(e, "%s _m0[_l] = _l < _nl && !_ex[_w][_l];", lanes(e, true));
    line(e, "if (!%s) continue;", any(e, "_m0"));
  } else {
    line(e, "%s _m0[_l] = _l < _nl;", lanes(e, true));
  }
  for (int i = 0; i < e->cross.n; i++) {
    Obj *o = e->cross.v[i];
    /* restrict: a warp's per-thread storage is reached through this pointer
     * only, so the C compiler may keep it in registers across loops */
    if (bw)   /* the whole block's values, not warp 0's row */
      line(e, "%s = (%s)%s_all;", ty_decl(ptr_to(warp_type(o)->base), xfmt("restrict %s", o->cname)),
           ty_decl(ptr_to(warp_type(o)->base), ""), o->cname);
    else
      line(e, "%s = %s_all[_w];", ty_decl(ptr_to(warp_type(o)->base), xfmt("restrict %s", o->cname)), o->cname);
    if (fast && o->aff) line(e, "%s = %s[0];", ty_decl(o->ty, xfmt("%s_b", o->cname)), o->cname);
    if (hw && o->aff) {
      line(e, "%s;", ty_decl(o->ty, xfmt("%s_b[%d]", o->cname, 32 / hw)));
      line(e, "for (int _r = 0; _r < %d; _r++) %s_b[_r] = %s[_r * %d];", 32 / hw, o->cname, o->cname, hw);
    }
  }
  for (int i = 0; i < e->wcopy.n; i++) {
    Obj *o = e->wcopy.v[i];
    line(e, "%s = _wci_%s;", ty_decl(o->ty, o->cname), o->cname);
  }
  e->rend = xfmt("_rend%d", ++e->nid);
  e->rend_used = false;
  e->chain.n = 0;
  push_lv(e, "_m0", NULL, false);
  e->uctx = true;
  e->full = !e->exits;
  e->lane = false;
  e->fast = fast;
  e->hw = hw;
  e->inwarp = true;
}

static void warp_open_(Em *e, bool tids) {
  line(e, "for (unsigned _wi = 0; _wi < _B->nwarps; _wi++) {");
  e->ind++;
  line(e, "const unsigned _w = _B->worder ? _B->worder[_wi] : _wi;   /* CUCC_SCHEDULE=shuffle */");
  warp_head(e, tids, false, 0, false);
}

static void warp_open(Em *e) { warp_open_(e, true); }

static void warp_close(Em *e) {
  if (e->rend_used) line(e, "%s: ;", e->rend);
  if (e->exits) line(e, "%s _ex[_w][_l] = !_m0[_l];", lanes(e, true));
  for (int i = 0; i < e->wcopy.n; i++) line(e, "_wco_%s = %s;", ((Obj *)e->wcopy.v[i])->cname, ((Obj *)e->wcopy.v[i])->cname);
  line(e, "(void)_m0; (void)_nl;");
  for (int i = 0; i < e->cross.n; i++) line(e, "(void)%s;", ((Obj *)e->cross.v[i])->cname);
  e->fast = false;
  e->hw = 0;
  e->bw = false;
  e->inwarp = false;
  e->ind--;
  line(e, "}");
}

static void region_body(Em *e, Vec *stmts, int from, int to) {
  for (int i = from; i < to; i++) {
    Node *s = stmts->v[i];
    st(e, s);
    if (s->has_jump) {
      e->full = false;
      if (i + 1 < to) {
        line(e, "if (!%s) goto %s;", any(e, "_m0"), e->rend);
        e->rend_used = true;
      }
    }
  }
}

static void region_(Em *e, Vec *stmts, int from, int to);

/* ---- per-warp copies ----
 * A uniform variable that lives outside a region's warp loop (a parameter,
 * a block-level value) and that the region stores to, under uniform
 * control that also holds varying work (`if (pow2) { step <<= 1; ... }`):
 * run in the warp loop, the store would be applied once per warp. Each
 * warp works on a copy made from the value at the region's start, and the
 * last warp's copy is the value after it (every warp computes the same). */
static bool decl_within(Vec *stmts, int from, int to, Obj *o) {
  for (int i = from; i < to; i++)
    if (decl_in(stmts->v[i], o)) return true;
  return false;
}

static void wcopies_(Node *n, Vec *stmts, int from, int to, Vec *out) {
  if (!n) return;
  if (n->k == N_ASSIGN || n->k == N_INCDEC) {
    Node *v = n->a;
    while ((v->k == N_MEMBER && !v->post) || (v->k == N_INDEX && v->a->ty->kind == TY_ARRAY)) v = v->a;
    Obj *o = v->k == N_VAR ? v->var : NULL;
    if (o && !o->vary && !o->is_shared && !o->addr_taken && !o->is_global && o->ty->kind != TY_ARRAY &&
        !decl_within(stmts, from, to, o)) {
      bool seen = false;
      for (int i = 0; i < out->n; i++) seen |= out->v[i] == o;
      if (!seen) vec_push(out, o);
    }
  }
  wcopies_(n->a, stmts, from, to, out);
  wcopies_(n->b, stmts, from, to, out);
  wcopies_(n->c, stmts, from, to, out);
  wcopies_(n->d, stmts, from, to, out);
  for (int i = 0; i < n->list.n; i++) wcopies_(n->list.v[i], stmts, from, to, out);
}

static int count_str(const char *s, const char *w) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, w)); p += strlen(w)) n++;
  return n;
}

/* A region printed with its warps' _m0 masks dropped when nothing reads
 * them (no lane can leave): C compilers do not always remove the dead
 * 32-byte stores themselves. */
static void region(Em *e, Vec *stmts, int from, int to) {
  Buf b = {0}, *save = e->o;
  e->o = &b;
  Vec wc = {0};
  for (int i = from; i < to; i++) wcopies_(stmts->v[i], stmts, from, to, &wc);
  e->wcopy = wc;
  if (wc.n) {
    line(e, "{   /* per-warp copies of the uniform values this region stores to */");
    e->ind++;
    for (int i = 0; i < wc.n; i++) {
      Obj *o = wc.v[i];
      line(e, "%s = %s;", ty_decl(o->ty, xfmt("_wci_%s", o->cname)), o->cname);
      line(e, "%s = %s;", ty_decl(o->ty, xfmt("_wco_%s", o->cname)), o->cname);
    }
  }
  region_(e, stmts, from, to);
  close_pend(e);
  e->wcopy = (Vec){0};
  if (wc.n) {
    for (int i = 0; i < wc.n; i++) line(e, "%s = _wco_%s;", ((Obj *)wc.v[i])->cname, ((Obj *)wc.v[i])->cname);
    e->ind--;
    line(e, "}");
  }
  e->o = save;
  if (!b.s) return;
  static const char *const decl = "unsigned char _m0[32];\n",
                           *init = "CU_LANES for (int _l = 0; _l < 32; _l++) _m0[_l] = _l < _nl;\n",
                           *bdecl = "unsigned char _m0[1024];\n",
                           *binit = "CU_LANES for (int _l = 0; _l < _nl; _l++) _m0[_l] = _l < _nl;\n";
  int heads = count_str(b.s, decl) + count_str(b.s, bdecl);
  if (heads && count_str(b.s, "_m0") == 3 * heads && count_str(b.s, init) + count_str(b.s, binit) == heads) {
    Buf o = {0};
    for (char *p = b.s; *p;) {
      char *nl = strchr(p, '\n');
      size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
      char *q = p;
      while (*q == ' ') q++;
      if (strncmp(q, decl, strlen(decl)) && strncmp(q, init, strlen(init)) && strncmp(q, bdecl, strlen(bdecl)) &&
          strncmp(q, binit, strlen(binit))) {
        char *v = strstr(p, "(void)_m0; ");
        if (v && v < p + n) {
          buf_put(&o, p, (size_t)(v - p));
          buf_put(&o, v + 11, n - (size_t)(v + 11 - p));
        } else buf_put(&o, p, n);
      }
      p += n;
    }
    buf_puts(save, o.s ? o.s : "");
    free(o.s);
  } else buf_puts(save, b.s);
  free(b.s);
}

/* ---- block-wide regions ----
 * Between barriers, and without warp collectives, nothing a thread does can
 * observe how threads are grouped into warps. So for a 1-D block whose
 * warps are whole (blockDim.x % 32 == 0) a region may run as a single
 * "warp" of blockDim.x lanes: one lane loop over the block's threads
 * instead of a warp loop around 32-lane loops (`t < stride` in a reduction
 * becomes one loop of `stride` lanes). Not for regions with atomics, printf
 * or calls (the order between threads would change from the warp-by-warp
 * versions), nor kernels with per-thread exit flags or per-lane arrays; and
 * at most 16 per-lane variables (each is blockDim.x long on the stack). */
static bool bw_calls(Node *n) {
  if (!n) return false;
  if (n->k == N_CALL && (n->ck == C_WARP || n->ck == C_ATOMIC || n->ck == C_PRINTF || n->ck == C_FUNC)) return true;
  if (bw_calls(n->a) || bw_calls(n->b) || bw_calls(n->c) || bw_calls(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (bw_calls(n->list.v[i])) return true;
  return false;
}

static int bw_vars(Node *n) {
  if (!n) return 0;
  int k = n->k == S_DECL && n->var->vary && !n->var->cross;
  k += bw_vars(n->a) + bw_vars(n->b) + bw_vars(n->c) + bw_vars(n->d);
  for (int i = 0; i < n->list.n; i++) k += bw_vars(n->list.v[i]);
  return k;
}

/* Divergent control in a block-wide region only as ifs whose lanes form
 * runs (`lane value CMP row value`): other conditions would need masks and
 * lane-by-lane tests over the whole block, slower than warp by warp
 * (measured: the `t % (2*stride)` reduction, 1.5x slower without AVX-512). */
static bool bw_ctl(Node *n) {
  if (!n) return true;
  if (n->k < S_BLOCK) return true;
  if ((n->k == S_FOR || n->k == S_WHILE || n->k == S_DO || n->k == S_SWITCH) && (n->vary || n->masked)) return false;
  if (n->k == S_IF && n->vary &&
      (aff_mod(n->a) ? n->c != NULL : !aff_cmp(n->a) || (!strcmp(n->a->op, "==") && n->c)))
    return false;
  if (!bw_ctl(n->a) || !bw_ctl(n->b) || !bw_ctl(n->c) || !bw_ctl(n->d)) return false;
  for (int i = 0; i < n->list.n; i++)
    if (!bw_ctl(n->list.v[i])) return false;
  return true;
}

static bool bw_ok(Em *e, Vec *stmts, int from, int to) {
  if (e->exits || !e->fn->is_kernel) return false;
  for (int i = 0; i < e->fn->locals.n; i++) {
    Obj *o = e->fn->locals.v[i];
    if (o->vary && o->ty->kind == TY_ARRAY) return false;
  }
  int vars = 0;
  for (int i = from; i < to; i++) {
    if (bw_calls(stmts->v[i]) || !bw_ctl(stmts->v[i])) return false;
    vars += bw_vars(stmts->v[i]);
  }
  return vars <= 16;
}

/* a __syncwarp() in n: synccheck compares its mask with the lanes that
 * reach it, which the fast versions' runs of lanes do not keep */
static bool has_syncwarp(Node *n) {
  if (!n) return false;
  if (n->k == N_CALL && n->ck == C_BUILTIN && !strcmp(n->name, "cu_syncwarp")) return true;
  if (has_syncwarp(n->a) || has_syncwarp(n->b) || has_syncwarp(n->c) || has_syncwarp(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_syncwarp(n->list.v[i])) return true;
  return false;
}

static void region_(Em *e, Vec *stmts, int from, int to) {
  if (e->remat.n) {
    stmts = with_remat(e, stmts, from, to);
    from = 0;
    to = stmts->n;
  }
  bool tids = false, aff = false, sw = false;
  for (int i = from; i < to; i++) {
    tids |= reads_tid(stmts->v[i]);
    aff |= uses_aff(stmts->v[i]);
    sw |= e->ck && has_syncwarp(stmts->v[i]);
  }
  if ((!aff && !tids) || sw) {   /* checked, with __syncwarp(): the general version only */
    warp_open_(e, tids);
    region_body(e, stmts, from, to);
    warp_close(e);
    return;
  }
  /* three versions: warps that are whole rows, warps of two half rows
   * (16 x 2k blocks, the common 16 x 16 tile), and any block shape; and
   * before them, where it applies, the block-wide version. Each is printed
   * on its own first: a checked build keeps a fast version only if every
   * access in it is checked as a range (rng_print), for lane by lane the
   * fast versions are slower than the general one (measured: the
   * t % (2*stride) reduction 3x, the tile-16 matmul 1.6x). */
  static const char *const conds[] = {
    "!_pf && _B->blockDim.x % 32u == 0 && _B->blockDim.y == 1 && _B->blockDim.z == 1) {   /* 1-D block: one loop over its threads */",
    "!_pf && _B->blockDim.x % 32u == 0) {   /* whole-row warps: threadIdx.x = _tx0 + lane (_pf: see prologue) */",
    "!_pf && _B->blockDim.x == 16u && _B->blockDim.y % 2u == 0) {   /* half rows: lane = 16 * _r + threadIdx.x */",
  };
  const char *kept[3];
  char *body[3];
  int nk = 0;
  Buf *out = e->o;
  for (int v = 0; v < 3; v++) {
    if (v == 0 && !bw_ok(e, stmts, from, to)) continue;
    Buf b = {0};
    size_t nsb = e->sites.len;
    int nsites = e->nsites, nps = e->psites.n;
    close_pend(e);
    e->o = &b;
    e->nlck = 0;
    e->ind++;
    if (v == 0) {
      line(e, "const unsigned _w = 0, _tx0 = 0, _ty0 = 0, _tz0 = 0;");
      line(e, "(void)_w; (void)_tx0; (void)_ty0; (void)_tz0;");
      line(e, "{");
      e->ind++;
      warp_head(e, true, true, 0, true);
    } else {
      line(e, v == 1 ? "unsigned _tx0 = 0, _ty0 = 0, _tz0 = 0;" : "unsigned _ty0 = 0, _tz0 = 0;");
      line(e, "for (unsigned _w = 0; _w < _B->nwarps; _w++, %s) {",
           v == 1 ? "cu_row_next(_B, &_tx0, &_ty0, &_tz0)" : "cu_hrow_next(_B, &_ty0, &_tz0)");
      e->ind++;
      warp_head(e, true, v == 1, v == 2 ? 16 : 0, false);
    }
    region_body(e, stmts, from, to);
    warp_close(e);   /* closes the warp's brace and level */
    close_pend(e);
    e->ind--;
    e->o = out;
    if (e->ck && e->nlck) {   /* this version goes: its sites too */
      e->sites.len = nsb;
      if (e->sites.s) e->sites.s[nsb] = 0;
      e->nsites = nsites;
      e->psites.n = nps;
      free(b.s);
      continue;
    }
    kept[nk] = conds[v];
    body[nk++] = b.s;
  }
  for (int i = 0; i < nk; i++) {
    line(e, "%sif (%s", i ? "} else " : "", kept[i]);
    if (body[i]) buf_puts(e->o, body[i]);
    free(body[i]);
  }
  if (nk) {
    line(e, "} else {");
    e->ind++;
  }
  warp_open_(e, tids);
  region_body(e, stmts, from, to);
  warp_close(e);
  if (nk) {
    e->ind--;
    line(e, "}");
  }
}

static Node *first_sync(Node *n) {
  if (!n) return NULL;
  if (n->k == S_SYNC) return n;
  Node *r = NULL;
  if (!r) r = first_sync(n->a);
  if (!r) r = first_sync(n->b);
  if (!r) r = first_sync(n->c);
  if (!r) r = first_sync(n->d);
  for (int i = 0; !r && i < n->list.n; i++) r = first_sync(n->list.v[i]);
  return r;
}

/* Evaluate a varying condition of block-level control flow for every live
 * thread into the scalar `var`; report a divergent barrier if threads
 * disagree. `sync` is the barrier that only some threads would reach. */
static void block_cond(Em *e, Node *c, const char *var, Node *sync, const char *what) {
  line(e, "unsigned _nt = 0, _nc = 0, _td = 0;");
  warp_open(e);
  remat_for(e, c);
  hoist(e, c, false);
  line(e, "%s if (_m0[_l]) {", lanes(e, true));
  line(e, "  int _c = (%s) != 0;", exs(e, c, true));
  line(e, "  if (!_c && _nt == _nc) _td = _w * 32 + _l;");
  line(e, "  _nt++;");
  line(e, "  _nc += _c;");
  line(e, "}");
  warp_close(e);
  line(e, "if (_nc != 0 && _nc != _nt) {");
  line(e, "  cu_barrier_diverged(_B, _td, \"%s\", %d, \"%s\", %d, _nc, _nt, \"%s\");", c->file, c->line,
       sync ? sync->file : c->file, sync ? sync->line : c->line, what);
  line(e, "  return;");
  line(e, "}");
  line(e, "%s = _nc != 0;", var);
}

static void bst(Em *e, Node *n);

static void bst_list(Em *e, Vec *v) {
  for (int i = 0; i < v->n;) {
    Node *c = v->v[i];
    if (c->sync) {
      bst(e, c);
      i++;
      continue;
    }
    if (block_stmt(c)) {
      e->uctx = true;
      e->lane = false;
      st(e, c);
      i++;
      continue;
    }
    int j = i;
    while (j < v->n && !((Node *)v->v[j])->sync && !block_stmt(v->v[j])) j++;
    region(e, v, i, j);
    i = j;
  }
}

static void bst(Em *e, Node *n) {
  switch (n->k) {
  case S_BLOCK:
    if (n->post) { bst_list(e, &n->list); break; }
    line(e, "{");
    e->ind++;
    bst_list(e, &n->list);
    e->ind--;
    line(e, "}");
    break;
  case S_SYNC:
    if (n->grid) {   /* once per block, between block barriers */
      if (e->ck) line(e, "cu_ck_sync(_B);");   /* a barrier of the block too */
      line(e, "CU_BARRIER(_B);   /* grid.sync(): %s:%d */", n->file, n->line);
      line(e, "cu_grid_sync(_B);");
      line(e, "CU_BARRIER(_B);");
      break;
    }
    if (!n->op) {
      if (e->ck) line(e, "cu_ck_sync(_B);");
      line(e, "CU_BARRIER(_B);   /* __syncthreads(): %s:%d */", n->file, n->line);
      break;
    }
    /* __syncthreads_count/and/or: count the predicate over live threads */
    line(e, "/* __syncthreads_%s(): %s:%d */", n->op, n->file, n->line);
    line(e, "{");
    e->ind++;
    line(e, "unsigned _nt = 0, _nc = 0;");
    warp_open(e);
    remat_for(e, n->a);
    hoist(e, n->a, false);
    line(e, "%s if (_m0[_l]) {", lanes(e, true));
    line(e, "  _nt++;");
    line(e, "  _nc += (%s) != 0;", exs(e, n->a, true));
    line(e, "}");
    warp_close(e);
    if (n->var && n->var->vary)
      errorat(n->file, n->line, n->col, "unsupported: __syncthreads_%s() result stored in a per-thread variable", n->op);
    else if (n->var)
      line(e, "%s = %s;", n->var->cname,
           !strcmp(n->op, "count") ? "_nc" : !strcmp(n->op, "and") ? "_nc == _nt" : "_nc != 0");
    line(e, "(void)_nt;");
    if (e->ck) line(e, "cu_ck_sync(_B);");
    line(e, "CU_BARRIER(_B);");
    e->ind--;
    line(e, "}");
    break;
  case S_IF: {
    line(e, "{");
    e->ind++;
    const char *c;
    if (n->a->vary) {
      line(e, "int _bc;");
      block_cond(e, n->a, "_bc", first_sync(n->b) ? first_sync(n->b) : first_sync(n->c), "if");
      c = "_bc";
    } else {
      c = exs(e, n->a, false);
    }
    line(e, "if (%s) {", c);
    e->ind++;
    if (n->b->sync) bst(e, n->b);
    else { Vec one = {0}; vec_push(&one, n->b); region(e, &one, 0, 1); }
    e->ind--;
    line(e, "}");
    if (n->c) {
      line(e, "else {");
      e->ind++;
      if (n->c->sync) bst(e, n->c);
      else { Vec one = {0}; vec_push(&one, n->c); region(e, &one, 0, 1); }
      e->ind--;
      line(e, "}");
    }
    e->ind--;
    line(e, "}");
    break;
  }
  case S_FOR: case S_WHILE: case S_DO: {
    line(e, "{");
    e->ind++;
    if (n->a) {
      if (uniform_stmt(n->a)) {
        e->uctx = true;
        e->lane = false;
        st(e, n->a);
      } else {
        Vec one = {0};
        vec_push(&one, n->a);
        region(e, &one, 0, 1);
      }
    }
    n->id = ++e->nid;
    line(e, "for (;;) {");
    e->ind++;
    if (n->b && n->k != S_DO) {
      if (n->b->vary) {
        line(e, "int _lc;");
        block_cond(e, n->b, "_lc", first_sync(n->d), "loop");
        line(e, "if (!_lc) break;");
      } else line(e, "if (!(%s)) break;", exs(e, n->b, false));
    }
    bst(e, n->d);
    if (n->has_cont) line(e, "_cont%d: ;", n->id);
    if (n->c) {
      if (n->c->vary) {
        Node *x = xcalloc(1, sizeof *x);
        x->k = S_EXPR;
        x->a = n->c;
        Vec one = {0};
        vec_push(&one, x);
        region(e, &one, 0, 1);
      } else line(e, "%s;", exs(e, n->c, false));
    }
    if (n->k == S_DO) {
      if (n->b->vary) {
        line(e, "int _lc;");
        block_cond(e, n->b, "_lc", first_sync(n->d), "loop");
        line(e, "if (!_lc) break;");
      } else line(e, "if (!(%s)) break;", exs(e, n->b, false));
    }
    e->ind--;
    line(e, "}");
    e->ind--;
    line(e, "}");
    break;
  }
  case S_BREAK: line(e, "break;"); break;
  case S_CONTINUE:
    line(e, "goto _cont%d;", n->target->id);
    n->target->has_cont = true;
    break;
  default:
    errorat(n->file, n->line, n->col, "internal error: block-level statement kind %d", n->k);
  }
}

static bool has_return(Node *n) {
  if (!n) return false;
  if (n->k == S_RETURN) return true;
  if (has_return(n->a) || has_return(n->b) || has_return(n->c) || has_return(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (has_return(n->list.v[i])) return true;
  return false;
}

/* Registers per thread, estimated from the lowered kernel the way a GPU
 * compiler would spend them: each live scalar of a thread takes one 32-bit
 * register per 4 bytes (varying and uniform alike: on a GPU every thread
 * holds its own copy), small local arrays stay in registers (larger ones go
 * to local memory), plus a base for thread indices, addresses and
 * temporaries. Capped by -maxrregcount; __launch_bounds__ caps it at run
 * time against the modelled register file. */
static int estimate_regs(Obj *k, int maxrreg) {
  int r = 10;
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    if (o->is_shared) continue;
    int64_t words = (o->ty->size + 3) / 4;
    if (o->ty->kind == TY_ARRAY && o->ty->size > 64) words = 1;   /* local memory */
    r += (int)words;
  }
  if (k->has_sync) r += 2;
  if (r > 255) r = 255;
  if (maxrreg > 0 && r > maxrreg) r = maxrreg;
  return r;
}

static void kernel(Em *e, Obj *k, int idx) {
  name_locals(k);
  k->nregs = estimate_regs(k, e->maxrreg);
  char *kn = xfmt("cu_k%d_%s", idx, k->name);
  /* parameters: packed by the runtime at these offsets */
  int64_t off = 0;
  int palign = 8;
  Buf po = {0}, ps = {0};
  for (int i = 0; i < k->params.n; i++) {
    Obj *p = k->params.v[i];
    int a = p->ty->align > 0 ? p->ty->align : 1;
    if (a > palign) palign = a;
    off = align_up(off, a);
    p->smem_off = off;
    buf_printf(&po, "%s%lld", i ? ", " : "", (long long)off);
    buf_printf(&ps, "%s%lld", i ? ", " : "", (long long)p->ty->size);
    off += p->ty->size;
  }
  int64_t pbytes = off;
  /* static shared memory */
  int64_t soff = 0;
  for (int i = 0; i < k->shared.n; i++) {
    Obj *s = k->shared.v[i];
    if (s->is_extern_shared) continue;
    int a = s->ty->align > 16 ? s->ty->align : 16;
    soff = align_up(soff, a);
    s->smem_off = soff;
    soff += s->ty->size;
  }
  k->smem_static = soff;

  /* regions and what crosses them */
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    o->rgn = 0;
    o->use_rgn = -1;
    o->cross = false;
    o->remat = NULL;
  }
  nrgn = 0;
  affine(k);
  mark_sync(k->body);
  mark_exits(k->body);
  if (k->body->sync) regions(k->body);
  e->remat.n = 0;
  if (k->body->sync) remat(e, k->body);
  e->cross.n = 0;
  e->exits = false;
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    if (!k->body->sync) o->cross = false;
    if (o->is_param && o->vary) o->cross = k->body->sync;   /* copied per thread once */
    if (o->is_param && !o->vary) o->cross = false;
    if (o->cross && o->vary) vec_push(&e->cross, o);
  }
  int64_t lane_bytes = 0;
  for (int i = 0; i < e->cross.n; i++) lane_bytes += ((Obj *)e->cross.v[i])->ty->size;
  e->exits = k->body->sync && has_return(k->body);
  if (e->exits) lane_bytes += 1;

  /* the function goes to a buffer first: its profile sites come before it */
  Buf fb = {0}, *out = e->o;
  e->o = &fb;
  e->kn = kn;
  e->psites.n = 0;
  line(e, "/* __global__ %s, %s:%d */", k->pretty, k->file, k->line);
  line(e, "static void %s(const cu_block *restrict _B, const char *restrict _P)", kn);
  line(e, "{");
  e->ind++;
  /* CUCC_PROFILE / CUCC_SCHEDULE=shuffle: every region takes its general
   * version, which counts (divergent branches, active lanes) and runs the
   * warps in B->worder's order; the cost when off is this load and a test
   * per region */
  line(e, "const unsigned _pf = cu_rt_mode;");
  line(e, "unsigned long long _pln = 0, _pst = 0, _pbr = 0, _pdv = 0;");
  if (e->ck) line(e, "cu_ck_block(_B);");
  for (int i = 0; i < k->params.n; i++) {
    Obj *p = k->params.v[i];
    const char *nm = p->vary ? xfmt("_p_%s", p->cname) : p->cname;
    if (p->ty->kind == TY_RECORD) {
      line(e, "%s;", ty_decl(p->ty, nm));
      line(e, "memcpy(&%s, _P + %lld, sizeof %s);", nm, (long long)p->smem_off, nm);
    } else {
      line(e, "%s = *(%s)(_P + %lld);", ty_decl(p->ty, nm), ty_decl(p->ty, "const *"), (long long)p->smem_off);
    }
  }
  for (int i = 0; i < k->shared.n; i++) {
    Obj *s = k->shared.v[i];
    Type *pt = ptr_to(s->ty->kind == TY_ARRAY ? s->ty->base : s->ty);
    char *at = s->is_extern_shared ? xstrdup("cu_dyn_smem_off(_B->kernel)") : xfmt("%lld", (long long)s->smem_off);
    line(e, "%s = (%s)(_B->smem + %s);", ty_decl(pt, s->cname), ty_decl(pt, ""), at);
  }
  /* uniform values used by several regions: block-level scalars */
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    if (o->cross && !o->vary && !o->is_param) line(e, "%s;", ty_decl(o->ty, o->cname));
  }
  /* varying values used by several regions: kept per thread */
  if (e->cross.n || e->exits) line(e, "char *_lp = _B->lanes;");
  for (int i = 0; i < e->cross.n; i++) {
    Obj *o = e->cross.v[i];
    Type *wt = warp_type(o);
    line(e, "%s = (%s)_lp;", ty_decl(ptr_to(wt), xfmt("%s_all", o->cname)), ty_decl(ptr_to(wt), ""));
    line(e, "_lp += sizeof(%s) * _B->nwarps;", ty_decl(wt, ""));
  }
  if (e->exits) {
    line(e, "unsigned char (*_ex)[32] = (unsigned char (*)[32])_lp;");
    line(e, "memset(_ex, 0, 32 * _B->nwarps);");
  }
  e->fn = k;
  /* varying parameters start as the argument in every lane */
  Vec pinit = {0};
  for (int i = 0; i < k->params.n; i++) {
    Obj *p = k->params.v[i];
    if (!p->vary) continue;
    Node *d = xcalloc(1, sizeof *d);
    d->k = S_DECL;
    d->var = p;
    d->a = xcalloc(1, sizeof(Node));
    d->a->k = N_STR;
    d->a->str = xfmt("_p_%s", p->cname);
    d->a->ty = p->ty;
    vec_push(&pinit, d);
  }
  if (k->body->sync) {
    if (pinit.n) region(e, &pinit, 0, pinit.n);
    bst(e, k->body);
  } else {
    Vec all = {0};
    for (int i = 0; i < pinit.n; i++) vec_push(&all, pinit.v[i]);
    if (k->body->k == S_BLOCK)
      for (int i = 0; i < k->body->list.n; i++) vec_push(&all, k->body->list.v[i]);
    else vec_push(&all, k->body);
    region(e, &all, 0, all.n);
  }
  line(e, "if (_pf & 1) cu_prof_add(&%s_prof, _pln, _pst, _pbr, _pdv);", kn);
  line(e, "(void)_P;");
  e->ind--;
  line(e, "}");
  line(e, "%s", "");
  e->o = out;
  int np = e->psites.n;
  Buf pf = {0}, pl = {0};
  for (int i = 0; i < np; i++) {
    Node *b = e->psites.v[i];
    buf_printf(&pf, "\"%s\", ", b->file);
    buf_printf(&pl, "%d, ", b->line);
  }
  line(e, "static unsigned long long %s_psplit[%d];", kn, np ? np : 1);
  line(e, "static const char *const %s_pfile[] = {%s0};", kn, pf.s ? pf.s : "");
  line(e, "static const int %s_pline[] = {%s0};", kn, pl.s ? pl.s : "");
  line(e, "static cu_prof %s_prof = {0, 0, 0, 0, %d, %s_pfile, %s_pline, %s_psplit};", kn, np, kn, kn, kn);
  buf_puts(e->o, fb.s);
  free(fb.s);
  if (k->params.n) {
    line(e, "static const unsigned %s_po[] = {%s};", kn, po.s);
    line(e, "static const unsigned %s_ps[] = {%s};", kn, ps.s);
  }
  line(e, "static const cu_kernel %s_desc = {", kn);
  line(e, "  .name = \"%s\",", k->key);
  line(e, "  .pretty = \"%s\",", k->pretty);
  line(e, "  .fn = %s,", kn);
  line(e, "  .nparams = %d,", k->params.n);
  line(e, "  .param_off = %s,", k->params.n ? xfmt("%s_po", kn) : "0");
  line(e, "  .param_size = %s,", k->params.n ? xfmt("%s_ps", kn) : "0");
  line(e, "  .param_bytes = %lld,", (long long)pbytes);
  line(e, "  .param_align = %d,", palign);
  line(e, "  .smem_static = %lld,", (long long)k->smem_static);
  line(e, "  .lane_bytes = %lld,", (long long)lane_bytes);
  line(e, "  .nregs = %d,", k->nregs);
  line(e, "  .max_threads = %d,", k->max_threads);
  line(e, "  .file = \"%s\",", k->file);
  line(e, "  .line = %d,", k->line);
  line(e, "  .barriers = %d,", k->body->sync ? 1 : 0);
  line(e, "  .prof = &%s_prof,", kn);
  line(e, "};");
  line(e, "%s", "");
}

void lw_emit(Prog *p, const CuOpts *o, Buf *out) {
  Em e = {0};
  e.o = out;
  e.lo = "0";
  e.step = "1";
  e.hi = "_nl";
  e.maxrreg = o->maxrreg;
  buf_printf(out, "/* Generated by cucc %s from %s: device code, warp-vectorized.\n"
                  " * Each kernel runs as warps of 32 lanes; per-lane values are [32] arrays. */\n"
                  "#include <cucc_dev.h>\n\n", CUCC_VERSION, p->path);
  records(&e, p);
  for (int i = 0; i < p->globals.n; i++) {
    Obj *g = p->globals.v[i];
    if (g->is_static) {   /* read through a pointer bound at start-up (cu_bind_static_symbol) */
      line(&e, "static %s;  /* %s:%d */", decl(ptr_to(g->ty), xfmt("cu_gp%d", i), false), g->file, g->line);
      g->cname = xfmt("(*cu_gp%d)", i);
    } else
      line(&e, "extern %s __asm__(\"%s\");  /* %s:%d */", decl(g->ty, g->cname, false), g->key, g->file, g->line);
  }
  /* the symbols to register, by linker name only (types may not be C) */
  for (int i = 0; i < p->syms.n; i++)
    if (!((Obj *)p->syms.v[i])->is_static)
      line(&e, "extern char cu_sym%d[] __asm__(\"%s\");", i, ((Obj *)p->syms.v[i])->key);
  if (p->globals.n || p->syms.n) line(&e, "%s", "");
  /* checked: functions go to a buffer, after the table of their sites */
  Buf body = {0};
  e.ck = o->check;
  if (e.ck) e.o = &body;
  for (int i = 0; i < p->funcs.n && e.ck; i++) ((Obj *)p->funcs.v[i])->uses_tid = true;   /* for reports */
  /* functions with barriers, warp collectives or __shared__ data were inlined (frontend/inline.c) */
  for (int i = 0; i < p->funcs.n; i++)
    if (!fn_inlined(p->funcs.v[i])) device_fn(&e, p->funcs.v[i], true);
  if (p->funcs.n) line(&e, "%s", "");
  for (int i = 0; i < p->funcs.n; i++)
    if (!fn_inlined(p->funcs.v[i])) device_fn(&e, p->funcs.v[i], false);
  for (int i = 0; i < p->kernels.n; i++) kernel(&e, p->kernels.v[i], i);
  e.o = out;
  if (e.ck) {
    buf_printf(out, "static const cu_site _cs[] = {\n%s  {0, 0, 0, 0, 0, 0}\n};\n\n", e.sites.s ? e.sites.s : "");
    buf_puts(out, body.s ? body.s : "");
  }
  line(&e, "static void __attribute__((constructor)) cu_register_device(void)");
  line(&e, "{");
  if (e.ck) line(&e, "  cu_check_init(%u);   /* cucc --check */", e.ck);
  if (p->kernels.n) {
    line(&e, "  static const cu_kernel *const ks[] = {");
    for (int i = 0; i < p->kernels.n; i++)
      line(&e, "    &cu_k%d_%s_desc,", i, ((Obj *)p->kernels.v[i])->name);
    line(&e, "  };");
    line(&e, "  cu_register_kernels(ks, %d);", p->kernels.n);
  }
  for (int i = 0; i < p->syms.n; i++) {
    Obj *g = p->syms.v[i];
    if (!g->is_static) line(&e, "  cu_register_symbol(cu_sym%d, %lld, \"%s\");", i, (long long)g->smem_off, g->name);
  }
  for (int i = 0; i < p->globals.n; i++) {
    Obj *g = p->globals.v[i];
    if (g->is_static) line(&e, "  cu_bind_static_symbol(\"%s\", (void **)&cu_gp%d);", g->key, i);
  }
  for (int i = 0; i < p->globals.n && e.ck; i++) {   /* after the bindings: a static one is reached through its pointer */
    Obj *g = p->globals.v[i];
    line(&e, "  cu_ck_object(&%s, sizeof %s, \"%s\");", g->cname, g->cname, g->name);
  }
  line(&e, "  cu_set_arch(%d);   /* -arch=sm_%d: the default device model */", o->arch ? o->arch : 75, o->arch ? o->arch : 75);
  line(&e, "}");
}
