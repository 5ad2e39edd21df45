/* print.c: the lowered form as C. Each node kind has one way to be
 * printed; what to print was decided by the passes before.
 *
 * A kernel becomes a block function `cu_kN_name(_B, _P)`: its parameters
 * read from the parameter buffer, its __shared__ variables as pointers
 * into the block's shared memory, then its block-level items. A region is
 * a loop over the block's warps (its versions chosen by the block's shape
 * at run time); inside, a varying value is an array of lanes `x[32]` and a
 * lane loop is
 *     CU_LANES for (int _l = 0; _l < _nl; _l++) { x[_l] = a[i[_l]]; }
 * or, under a mask, `for (_l = 0; _l < 32; _l++) if (_mt3[_l]) { ... }`.
 * Names we introduce start with '_' (or cu_), which user code cannot use at
 * file scope and in practice does not use for locals (layout.c renames
 * those that do). */
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
  int nsites;
} P;

static void line(P *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(P *p, const char *fmt, ...) {
  for (int i = 0; i < p->ind; i++) buf_puts(p->o, "  ");
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(p->o, fmt, ap);   /* (any length: a range test's line is long) */
  va_end(ap);
  buf_puts(p->o, "\n");
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

static void records(P *p, Prog *g) {
  for (int i = 0; i < g->records.n; i++) {
    Record *r = g->records.v[i];
    buf_printf(p->o, "%s %s {\n", r->is_union ? "union" : "struct", r->cname);
    if (!r->fields.n) buf_puts(p->o, "  char cu_empty;\n");
    for (int j = 0; j < r->fields.n; j++) {
      Field *f = r->fields.v[j];
      buf_printf(p->o, "  %s;\n", decl(f->ty, f->name, true));
    }
    buf_printf(p->o, "} __attribute__((aligned(%d)));\n", r->align);
    buf_printf(p->o, "_Static_assert(sizeof(%s %s) == %lld, \"layout of %s\");\n\n",
               r->is_union ? "union" : "struct", r->cname, (long long)r->size, r->cname);
  }
}

/* ---- names of lowered things ---- */

static const char *mname(Mask *m) {
  static const char *const tag[] = {"0", "t", "e", "l", "i", "s", "d", "a"};
  return m->k == MK_0 ? "_m0" : xfmt("_m%s%d", tag[m->k], m->id);
}

static const char *LN(P *p) { return p->bw ? "1024" : p->pair ? "64" : "32"; }   /* (a pair: two warps) */
static const char *lo_s(Lanes *l) { return l->lo ? xfmt("_cut%d", l->lo) : "0"; }
static const char *hi_s(Lanes *l) {
  return l->hik == HI_NL ? "_nl" : l->hik == HI_CUT ? xfmt("_cut%d", l->hi) : xfmt("_cut%d + 1", l->hi);
}
static const char *step_s(Lanes *l) { return l->step ? xfmt("_s%d", l->step) : "1"; }

/* The header of a lane loop: over every lane of the lane arrays (all), or
 * over the live lanes [lo, hi). In the half-row version it is two loops,
 * sub-row _r x column _x, so that a row's lanes are an inner loop with unit
 * stride (bounded by _l: gcc unrolls a loop of constant count 16 before it
 * could vectorize it); in the block-wide version the lanes are the block's
 * threads, _nl of them. The inner loop carries CU_LANES too: without it gcc
 * tested, at run time, whether shared memory overlaps the global arrays a
 * tile is copied from, and the tile-16 matmul ran 1.6x slower. */
static const char *lanes(P *p, bool all) {
  if (p->subrow) return xfmt("CU_LANES for (int _x = 0, _l = _r * %d; _l < _r * %d + %d; _x++, _l++)", p->hw, p->hw, p->hw);
  if (p->hw)
    return xfmt("for (int _r = 0; _r < %d; _r++) CU_LANES for (int _x = 0, _l = _r * %d; _l < _r * %d + %d; _x++, _l++)",
                p->nr, p->hw, p->hw, p->hw);
  if (!all && p->ls.step) return xfmt("CU_LANES for (int _l = %s; _l < %s; _l += %s)", lo_s(&p->ls), hi_s(&p->ls), step_s(&p->ls));
  return xfmt("CU_LANES for (int _l = %s; _l < %s; _l++)", all ? "0" : lo_s(&p->ls), all ? (p->bw ? "_nl" : LN(p)) : hi_s(&p->ls));
}

/* "is any lane of mask m set?" */
static const char *any(P *p, const char *m) {
  return p->bw ? xfmt("cu_any_n(_nl, %s)", m) : p->pair ? xfmt("cu_any_n(64, %s)", m) : xfmt("cu_any(%s)", m);
}

static char *lane_head(P *p) {
  return p->full ? xfmt("%s {", lanes(p, false)) : xfmt("%s if (%s[_l]) {", lanes(p, true), mname(p->m));
}

static void ctx(P *p, Hdr *h) {
  p->full = h->full;
  p->m = h->m;
  p->ls = h->ls;
}

/* ---- --check and CUCC_PROFILE ---- */

/* The linear thread id of the current lane, for reports. Uniform code runs
 * once per warp (its first active lane) or once per block (thread 0). */
static const char *lane0(P *p) {
  if (p->full) return p->ls.lo ? xfmt("(unsigned)(%s)", lo_s(&p->ls)) : "0u";
  return p->bw ? "0u" : xfmt("cu_lane0(%s)", mname(p->m));
}
static const char *tid_expr(P *p) {
  if (!kernelish(p->fn)) return "cu_tid3(_B, _tx, _ty, _tz)";
  if (!p->inwarp) return "0u";
  if (p->lane) return "(_w * 32u + (unsigned)_l)";
  const char *l = lane0(p);
  return strcmp(l, "0u") ? xfmt("(_w * 32u + %s)", l) : "(_w * 32u)";
}

/* a new entry of the cu_site table: the access n at its source line */
static int site(P *p, Node *n, int acc, int space) {
  buf_printf(&p->sites, "  {\"%s\", %d, %lld, %d, %d, %d},\n", n->file, n->line, (long long)n->ty->size,
             n->ty->align > 0 ? n->ty->align : 1, acc, space);
  return p->nsites++;
}

/* Counting for CUCC_PROFILE happens in kernels' general versions only. */
static bool prof_here(P *p) { return p->fn->is_kernel && p->inwarp && !p->fast && !p->hw && !p->bw && !p->noprof; }

/* how many lanes run the current statement */
static const char *act_count(P *p) { return p->full ? "(unsigned)_nl" : xfmt("cu_count(%s)", mname(p->m)); }

/* a divergent branch site evaluated by a warp: `taken` of `active` lanes
 * went the first way (a split when neither none nor all) */
static void prof_branch(P *p, int ps, const char *taken, const char *active) {
  if (ps < 0) return;
  line(p, "if (_pf & 1) { _pbr++; if (%s && %s != %s) { _pdv++; __atomic_fetch_add(&%s_psplit[%d], 1, __ATOMIC_RELAXED); } }",
       taken, taken, active, p->K->cn, ps);
}

/* ---- expressions ---- */

static void ex(P *p, Node *n);

static char *exs(P *p, Node *n, bool lane) {
  Buf b = {0};
  Buf *save = p->o;
  bool sl = p->lane;
  p->o = &b;
  p->lane = lane;
  ex(p, n);
  p->o = save;
  p->lane = sl;
  return buf_take(&b);
}

/* An expression statement: a value computed for its effects only is cast to
 * void (a call returning a reference prints as a dereference; a hoisted call
 * as its temporary), which device C built with -Werror needs under clang. */
static char *stx(P *p, Node *n, bool lane) {
  char *s = exs(p, n, lane);
  /* (a record kept per field is stored by a statement expression, whose
   * value clang would call unused) */
  bool soa = n->k == N_ASSIGN && n->a->k == N_VAR && lo(n->a->var)->soa;
  if ((n->k == N_ASSIGN && !soa) || n->k == N_INCDEC || n->ty->kind == TY_VOID) return s;
  return xfmt("(void)%s", s);
}

static void emaj(P *p, Node *n) {
  int acc = p->acc;   /* how the element is accessed: each index's check says so */
  if (n->k == N_VAR) { buf_puts(p->o, cname(n->var)); return; }
  emaj(p, n->a->a);
  p->acc = ACC_RD;
  buf_puts(p->o, "[");
  if (p->ck & CK_MEM) {   /* a local array overrun */
    int id = site(p, n, acc, SP_OBJ);
    buf_printf(p->o, "cu_ck_index(_B, %s, (long long)(", tid_expr(p));
    ex(p, n->b);
    buf_printf(p->o, "), %lld, &_cs[%d])", (long long)n->a->a->ty->len, id);
  } else ex(p, n->b);
  buf_puts(p->o, "]");
}

/* cucc --check: an access to memory (an element, a member reached through
 * an index or a pointer, a __shared__ variable) is printed as
 *     (*(T *)cu_ck(_B, tid, (void *)&(lvalue), &_cs[site], obj, objsize))
 * once for the whole lvalue; its indices and pointers are checked on their
 * own. Where the source names the object (a local or __device__ array, a
 * __shared__ variable) the check is against it. Returns false for
 * anything else, which ex() prints as usual. */
static bool ck_access(P *p, Node *n) {
  bool skip = p->skipck;
  int acc = p->acc ? p->acc : ACC_RD;   /* (0: nothing printed yet in this function) */
  p->skipck = false;
  p->acc = ACC_RD;
  if (skip || !(p->ck & (CK_MEM | CK_RACE | CK_INIT)) || n->ty->kind == TY_ARRAY || n->ty->size <= 0) return false;
  if (!(n->k == N_INDEX || n->k == N_MEMBER || (n->k == N_UN && n->op == OP_DEREF) ||
        (n->k == N_VAR && n->var->is_shared)))
    return false;
  if (p->lane && emaj_access(n)) {   /* cu_ck_index in emaj() */
    p->acc = acc;
    return false;
  }
  Node *c;
  int space;
  if (!ck_target(n, &c, &space)) return false;
  if (p->rngfast) return false;   /* tested as a range before the statement */
  int id = site(p, n, acc, space);
  char *obj = xstrdup("0"), *objn = xstrdup("0");
  if (space == SP_OBJ) {
    char *r = exs(p, c, p->lane);
    obj = xfmt("&%s", r);
    objn = xfmt("sizeof %s", r);
  }
  /* lane by lane in a lane loop; and in the block-wide version any access
   * of uniform code, which runs there once per block as thread 0 (once per
   * warp in the others: a race between warps would go unseen) */
  p->nlck += ((p->fast || p->bw || p->hw) && p->lane && !p->cold) || (p->bw && !p->lane);
  buf_printf(p->o, "(*(%s)cu_ck(_B, %s, (void *)&(", ty_decl(ptr_to(n->ty), ""), tid_expr(p));
  p->skipck = true;
  ex(p, n);
  buf_printf(p->o, "), &_cs[%d], %s, %s))", id, obj, objn);
  return true;
}

static void num(P *p, Node *n) {
  long long v = n->ival;
  switch (n->ty->kind) {
  case TY_UINT: buf_printf(p->o, "%lluu", (unsigned long long)(unsigned)v); break;
  case TY_LONG: case TY_LLONG:
    if (v == INT64_MIN) buf_puts(p->o, "(-9223372036854775807ll-1)");
    else buf_printf(p->o, "%lldll", v);
    break;
  case TY_ULONG: case TY_ULLONG: buf_printf(p->o, "%lluull", (unsigned long long)v); break;
  case TY_PTR: buf_printf(p->o, "((%s)%lld)", ty_decl(n->ty, ""), v); break;
  case TY_INT:
    if (v == INT32_MIN) buf_puts(p->o, "(-2147483647-1)");
    else buf_printf(p->o, "%lld", v);
    break;
  case TY_FLOAT: case TY_DOUBLE: buf_printf(p->o, "%lld.0", v); break;
  default: buf_printf(p->o, "((%s)%lld)", ty_decl(n->ty, ""), v); break;
  }
}

static void fnum(P *p, Node *n) {
  double v = n->fval;
  bool f = n->ty->kind == TY_FLOAT;
  if (v != v) { buf_puts(p->o, f ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")"); return; }
  if (v == 1.0 / 0.0) { buf_puts(p->o, f ? "__builtin_inff()" : "__builtin_inf()"); return; }
  if (v == -1.0 / 0.0) { buf_puts(p->o, f ? "(-__builtin_inff())" : "(-__builtin_inf())"); return; }
  char s[64];
  snprintf(s, sizeof s, f ? "%.9g" : "%.17g", v);
  if (!strpbrk(s, ".e")) strcat(s, ".0");
  buf_printf(p->o, "%s%s", s, f ? "f" : "");
}

/* the calling thread's index in its block, where a per-thread call
 * (C_LAUNCH, C_DRT: in a lane loop, or in a device function, which then
 * takes the thread parameters: uniform.c) is printed */
static const char *p_thread(P *p) {
  if (p->hw && p->lane && kernelish(p->fn)) return xfmt("(_w * 32u + (unsigned)_r * %du + (unsigned)_x)", p->hw);
  return tid_expr(p);
}

/* k<<<g, b, smem, s>>>(args) in device code, for one thread (C_LAUNCH):
 * the configuration and the arguments into temporaries of the kernel's
 * parameter types, whose addresses the runtime copies from as a host
 * launch's (cu_dlaunch, runtime/src/cdp.c: the child grid runs after this
 * grid's blocks). The kernel is found by its key, so one defined in
 * another file (-rdc) is launched alike. */
static void p_launch(P *p, Node *n) {
  Obj *k = n->fn;
  buf_puts(p->o, "({ ");
  for (int i = 0; i < n->list.n; i++) {
    Node *a = n->list.v[i];
    buf_printf(p->o, "%s = ", ty_decl(i < 4 ? a->ty : ((Obj *)k->params.v[i - 4])->ty, xfmt("_dl%d", i)));
    ex(p, a);
    buf_puts(p->o, "; ");
  }
  buf_puts(p->o, "void *_dlv[] = {");
  for (int i = 4; i < n->list.n; i++) buf_printf(p->o, "&_dl%d, ", i);
  buf_printf(p->o, "0}; cu_dlaunch(_B, %s, \"%s\", (cu_idx3){_dl0.x, _dl0.y, _dl0.z}, "
                   "(cu_idx3){_dl1.x, _dl1.y, _dl1.z}, _dl2, (void *)_dl3, _dlv); })", p_thread(p), k->key);
}

/* the device runtime's cu_d_* (C_DRT): which thread calls (its last error
 * is its own) */
static void p_drt(P *p, Node *n) {
  buf_printf(p->o, "%s(_B, %s", n->name, p_thread(p));
  for (int i = 0; i < n->list.n; i++) {
    buf_puts(p->o, ", ");
    ex(p, n->list.v[i]);
  }
  buf_puts(p->o, ")");
}

static void args(P *p, Node *n) {
  buf_puts(p->o, "(");
  int k = 0;
  /* a checked callee's accesses from uniform code of the block-wide
   * version would run once per block (as ck_access's, that drops it) */
  p->nlck += n->ck == C_FUNC && p->ck && p->bw && !p->lane;
  bool tid = n->ck == C_FUNC && lo(n->fn)->uses_tid;
  if (tid && p->ck && kernelish(p->fn) && !p->lane) {
    /* checked: every callee takes them; uniform code's thread (tid_expr) */
    const char *l = p->inwarp ? lane0(p) : NULL;
    buf_puts(p->o, !l ? "_B, 0u, 0u, 0u"
                     : p->hw ? xfmt("_B, %s %% %du, _ty0 + %s / %du, _tz0", l, p->hw, l, p->hw)
                     : p->fast ? xfmt("_B, _tx0 + %s, _ty0, _tz0", l)
                     : xfmt("_B, _tx[%s], _ty[%s], _tz[%s]", l, l, l));
    k++;
  } else if (tid)
    buf_printf(p->o, p->hw ? (p->lane ? "_B, _x, _ty0 + _r, _tz0" : "_B, 0u, _ty0 + _r, _tz0")   /* (a sub-row's base) */
                     : p->fast ? (p->lane ? "_B, _tx0 + _l, _ty0, _tz0" : "_B, _tx0, _ty0, _tz0")
                             : p->lane ? "_B, _tx[_l], _ty[_l], _tz[_l]" : "_B, _tx, _ty, _tz"), k++;
  for (int i = 0; i < n->list.n; i++) {
    if (k++) buf_puts(p->o, ", ");
    ex(p, n->list.v[i]);
  }
  buf_puts(p->o, ")");
}

static void init_list(P *p, Node *n) {
  buf_puts(p->o, "{");
  for (int i = 0; i < n->list.n; i++) {
    if (i) buf_puts(p->o, ", ");
    ex(p, n->list.v[i]);
  }
  buf_puts(p->o, "}");
}

static bool promoted(P *p, Obj *o) {
  for (int i = 0; i < p->prom.n; i++)
    if (p->prom.v[i] == o) return true;
  return false;
}

/* t, or its elements', volatile */
static bool vol_elem(Type *t) {
  for (; t; t = t->kind == TY_ARRAY ? t->base : NULL)
    if (t->is_volatile) return true;
  return false;
}

/* t without volatile (itself and its elements, for an array) */
static Type *unvol(Type *t) {
  Type *u = calloc(1, sizeof *u);
  *u = *t;
  u->is_volatile = false;
  if (t->kind == TY_ARRAY) u->base = unvol(t->base);
  return u;
}

/* ---- records kept per field (soa.c) ---- */
static const char *soa_f(Obj *o, int i) { return xfmt("_fld%d_%s", i, cname(o)); }

static Field *soa_fld(Obj *o, int i) { return o->ty->rec->fields.v[i]; }

/* the record read whole: rebuilt from its lanes' fields */
static char *soa_read(P *p, Obj *o) {
  Buf b = {0};
  buf_printf(&b, "((%s){", ty_decl(o->ty, ""));
  for (int i = 0; i < o->ty->rec->fields.n; i++) buf_printf(&b, "%s%s[%s]", i ? ", " : "", soa_f(o, i), p->lane ? "_l" : "0");
  buf_puts(&b, "})");
  return buf_take(&b);
}

/* the record stored whole: v taken apart into its lane's fields */
static char *soa_store(Obj *o, const char *v) {
  Buf b = {0};
  buf_printf(&b, "({ %s = (%s); ", ty_decl(o->ty, "_rec"), v);
  for (int i = 0; i < o->ty->rec->fields.n; i++) buf_printf(&b, "%s[_l] = _rec.%s; ", soa_f(o, i), soa_fld(o, i)->name);
  buf_puts(&b, "_rec; })");
  return buf_take(&b);
}

static void var(P *p, Obj *o) {
  LObj *l = lo(o);
  const char *cn = cname(o);
  if (l->soa) {
    buf_puts(p->o, soa_read(p, o));
    return;
  }
  if ((p->hw || p->fast) && l->aff) {   /* its base, plus the lane times its stride */
    const char *b = p->hw ? xfmt("%s_b[_r]", cn) : xfmt("%s_b", cn), *x = p->hw ? "_x" : "_l";
    if (!p->lane || !l->sx) buf_puts(p->o, b);
    else if (l->su && l->sx == 1) buf_printf(p->o, "(%s + %s * %s)", b, cname(l->su), x);
    else if (l->su) buf_printf(p->o, "(%s + (%lld) * %s * %s)", b, (long long)l->sx, cname(l->su), x);
    else if (l->sx == 1) buf_printf(p->o, "(%s + %s)", b, x);
    else buf_printf(p->o, "(%s + (%lld) * %s)", b, (long long)l->sx, x);
    return;
  }
  if (p->novol && (o->ty->kind == TY_PTR || o->ty->kind == TY_ARRAY) && vol_elem(o->ty->base)) {
    /* (p_simt) the pointer or array as it prints, cast to its elements
     * without volatile */
    Type *pt = calloc(1, sizeof *pt);
    *pt = *o->ty;
    pt->kind = TY_PTR, pt->size = 8, pt->align = 8, pt->len = 0, pt->is_const = pt->is_volatile = false;
    pt->base = unvol(o->ty->base);
    Buf b = {0};
    Buf *save = p->o;
    p->o = &b;
    p->novol = false;
    var(p, o);
    p->novol = true;
    p->o = save;
    buf_printf(p->o, "((%s)%s)", ty_decl(pt, ""), buf_take(&b));
    return;
  }
  if (o->is_shared) {
    if (o->ty->kind == TY_ARRAY) buf_puts(p->o, cn);
    else buf_printf(p->o, "(*%s)", cn);
    return;
  }
  if (p->lane && promoted(p, o)) {   /* (jammed: the lanes' array; a body's own variable: the lane's scalar) */
    buf_printf(p->o, p->jam && !in_vec(p->own, o) ? "_s_%s[_l]" : "_s_%s", cn);
    return;
  }
  buf_puts(p->o, cn);
  if (l->vary && p->lane) buf_puts(p->o, "[_l]");
}

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

/* the array a hoisted collective's or call's results are held in (_wN, _fN) */
static const char *hoisted(P *p, Node *n) {
  for (int i = p->hn.n - 1; i >= 0; i--)
    if (p->hn.v[i] == n) return p->hid.v[i];
  return NULL;
}

/* An lvalue inside a __shared__ variable: elements of arrays (not of
 * pointers) and members, down to the variable. */
static bool in_shared(Node *n) {
  for (;;) {
    n = bare(n);
    if (n->k == N_INDEX && is_decay(n->a)) n = n->a->a;
    else if (n->k == N_MEMBER && !n->post) n = n->a;
    else return n->k == N_VAR && n->var->is_shared;
  }
}

/* An atomic on the block's own shared memory (&s[i], &s.f, a shared
 * array): a plain read-modify-write (cucc_dev.h, cu_satomic*); a block runs
 * on one worker thread. Not in checked builds (they report each access). */
static bool shared_atomic(Node *n) {
  if (!n->list.n || strncmp(n->name, "cu_atomic", 9)) return false;
  Node *a0 = n->list.v[0], *a = bare(a0);
  if (a->k == N_UN && a->op == OP_ADDR) return in_shared(a->a);
  return is_decay(a0) && in_shared(a0->a);
}

/* a row access's base index x (the first lane's index): of unsigned int
 * type, it may have wrapped below zero where the active lanes' have not */
static char *row_base(Node *b, char *x) {
  return b->ty->kind == TY_UINT ? xfmt("cu_ubase(%s)", x) : x;
}

static void ex(P *p, Node *n) {
  Buf *o = p->o;
  if (ck_access(p, n)) return;
  switch (n->k) {
  case N_NUM: num(p, n); break;
  case N_FNUM: fnum(p, n); break;
  case N_STR: buf_puts(o, n->str); break;
  case N_VAR:
    for (int i = 0; p->ivn && i < p->ivn->n; i++) {
      Node *nx = p->ivn->v[i];
      if (nx->a->var != n->var) continue;
      Vec *save = p->ivn;   /* (W_LPF: `(m + 1)`, the variable itself inside) */
      p->ivn = NULL;
      ex(p, nx);
      p->ivn = save;
      return;
    }
    if (p->bsub && !n->var->is_param && lo(n->var)->bdef) {   /* (W_BPF, W_LPF: its definition, where it may not be set) */
      buf_puts(o, "(");
      ex(p, lo(n->var)->bdef);
      buf_puts(o, ")");
      break;
    }
    var(p, n->var);
    break;
  case N_BUILTIN: {
    const char *xyz = n->dim == 0 ? "x" : n->dim == 1 ? "y" : "z";
    switch (n->bk) {
    case B_TID:
      if (p->hw) buf_puts(o, n->dim == 2 ? "_tz0" : n->dim == 1 ? "(_ty0 + _r)" : p->lane ? "(unsigned)_x" : "0u");
      else if (p->fast) buf_printf(o, n->dim ? "_t%s0" : p->lane ? "(_tx0 + _l)" : "_tx0", xyz);
      else buf_printf(o, p->lane ? "_t%s[_l]" : "_t%s", xyz);
      break;
    /* in a kernel: its block-level copies (a store through any pointer
     * might change *_B as far as the C compiler knows: read there, a
     * uniform index was loaded again in every lane) */
    case B_BID:
      if (p->bshift && n->dim == 0) buf_printf(o, "(_bid.x + %du)", p->bshift);
      else buf_printf(o, kernelish(p->fn) ? "_bid.%s" : "_B->blockIdx.%s", xyz);
      break;
    case B_BDIM: buf_printf(o, kernelish(p->fn) ? "_bdm.%s" : "_B->blockDim.%s", xyz); break;
    case B_GDIM: buf_printf(o, kernelish(p->fn) ? "_gdm.%s" : "_B->gridDim.%s", xyz); break;
    case B_WSIZE: buf_puts(o, "32"); break;
    }
    break;
  }
  case N_BIN:
    /* unsigned 32-bit / and % by a uniform divisor inside a lane loop */
    if (p->lane && (n->op == OP_DIV || n->op == OP_MOD) && !ln(n->b)->vary && n->ty->kind == TY_UINT &&
        n->a->ty->kind == TY_UINT && n->b->ty->kind == TY_UINT) {
      buf_printf(o, "%s(", n->op == OP_DIV ? "cu_udiv" : "cu_umod");
      ex(p, n->a);
      buf_puts(o, ", ");
      ex(p, n->b);
      buf_puts(o, ")");
      break;
    }
    /* fall through */
  case N_LOG:
    if (n->k == N_LOG && p->lane && spec_ok(n->b)) {
      /* a lane's && or || as & or |: no branch in the lane loop, which
       * then vectorizes (a count's, a mask's, an interval's test) */
      buf_puts(o, "(!!");
      ex(p, n->a);
      buf_printf(o, " %s !!", n->op == OP_LAND ? "&" : "|");
      ex(p, n->b);
      buf_puts(o, ")");
      break;
    }
    /* fall through */
  case N_ASSIGN:
    if (n->k == N_ASSIGN && n->a->k == N_VAR && lo(n->a->var)->soa) {
      buf_puts(o, soa_store(n->a->var, exs(p, n->b, p->lane)));
      break;
    }
    buf_puts(o, "(");
    if (n->k == N_ASSIGN) p->acc = n->op == OP_ASSIGN ? ACC_WR : ACC_RD | ACC_WR;
    ex(p, n->a);
    buf_printf(o, " %s ", op_str[n->op]);
    ex(p, n->b);
    buf_puts(o, ")");
    break;
  case N_COMMA:
    buf_puts(o, "(");
    ex(p, n->a);
    buf_puts(o, ", ");
    ex(p, n->b);
    buf_puts(o, ")");
    break;
  case N_UN:
    if (n->op == OP_ADDR && n->a->k == N_BUILTIN && n->a->bk == B_BID) {
      buf_printf(o, "(&_B->blockIdx.%s)", n->a->dim == 0 ? "x" : n->a->dim == 1 ? "y" : "z");   /* the block itself (cu_assert_fail) */
      break;
    }
    buf_printf(o, "(%s", op_str[n->op]);
    p->skipck = n->op == OP_ADDR;   /* an address, no access */
    ex(p, n->a);
    buf_puts(o, ")");
    break;
  case N_INCDEC:
    buf_puts(o, "(");
    if (!n->post) buf_puts(o, op_str[n->op]);
    p->acc = ACC_RD | ACC_WR;
    ex(p, n->a);
    if (n->post) buf_puts(o, op_str[n->op]);
    buf_puts(o, ")");
    break;
  case N_COND:
    buf_puts(o, "(");
    if (n == p->ctrue || n == p->cfalse) {
      ex(p, n == p->ctrue ? n->b : n->c);
      buf_puts(o, ")");
      break;
    }
    ex(p, n->a);
    buf_puts(o, " ? ");
    ex(p, n->b);
    buf_puts(o, " : ");
    ex(p, n->c);
    buf_puts(o, ")");
    break;
  case N_CAST:
    if (n->implicit && !visible_conv(n)) { ex(p, n->a); break; }
    if (n->ty->kind == TY_RECORD) { ex(p, n->a); break; }
    buf_printf(o, "((%s)", ty_decl(n->ty, ""));
    ex(p, n->a);
    buf_puts(o, ")");
    break;
  case N_CALL:
    if (n->ck == C_WARP || hoisted(p, n)) {
      const char *h = hoisted(p, n);
      if (!h) {   /* (valid.c) */
        errorat(n->file, n->line, n->col, "internal error: warp collective not hoisted");
        break;
      }
      buf_printf(o, p->lane ? "%s[_l]" : "%s[0]", h);
      break;
    }
    if (n->ck == C_LAUNCH || n->ck == C_DRT) {
      (n->ck == C_LAUNCH ? p_launch : p_drt)(p, n);
      break;
    }
    if (n->ck == C_LDG) {
      buf_puts(o, "(*");
      ex(p, n->list.v[0]);
      buf_puts(o, ")");
      break;
    }
    if ((p->ck & (CK_SYNC | CK_RACE)) && is_syncwarp(n) && p->inwarp &&
        kernelish(p->fn)) {
      /* once per lane, or once per warp (a uniform mask): its first lane */
      const char *a = p->full ? "cu_bits_nl(_nl)" : xfmt("cu_bits(%s)", mname(p->m));
      buf_printf(o, "cu_ck_syncwarp(_B, %s, ", p->lane ? tid_expr(p) : xfmt("(_w * 32u + (unsigned)__builtin_ctz(%s))", a));
      if (n->list.n) ex(p, n->list.v[0]);
      else buf_puts(o, "0xffffffffu");
      buf_printf(o, ", %s, \"%s\", %d)", a, n->file, n->line);
      break;
    }
    if ((p->ck & (CK_SYNC | CK_RACE)) && is_syncwarp(n) && !kernelish(p->fn)) {
      /* a scalar device function's (a tile's sync(), called once per
       * lane or per warp): counted for its thread's warp; its lanes are
       * not known here, so its mask is taken as the active one */
      const char *m = n->list.n ? exs(p, n->list.v[0], p->lane) : "0xffffffffu";
      buf_printf(o, "cu_ck_syncwarp(_B, cu_tid3(_B, _tx, _ty, _tz), %s, %s, \"%s\", %d)", m, m, n->file, n->line);
      break;
    }
    if (n->ck == C_ATOMIC && !p->ck && shared_atomic(n)) buf_printf(o, "cu_s%s", n->name + 3);
    else buf_puts(o, n->ck == C_FUNC ? cname(n->fn) : n->name);
    args(p, n);
    break;
  case N_INDEX:
    if (p->lane && emaj_root(n)) {
      emaj(p, n);
      buf_puts(o, "[_l]");
      break;
    }
    if ((p->fast || p->hw) && p->lane && rowu(n->a) && aff_e(n->b)) {
      /* a[base + lane]: the row's first element's address, then [_l] (or
       * [_x]), so the C compiler sees a unit-stride access it can
       * vectorize (assumes a warp's indices do not wrap around between
       * lanes) */
      buf_puts(o, "(&");
      ex(p, n->a);
      buf_printf(o, "[%s])[%s]", row_base(n->b, exs(p, n->b, false)), p->hw ? "_x" : "_l");
      break;
    }
    ex(p, n->a);
    buf_puts(o, "[");
    ex(p, n->b);
    buf_puts(o, "]");
    break;
  case N_MEMBER:
    if (!n->post && n->a->k == N_VAR && lo(n->a->var)->soa) {
      Obj *r = n->a->var;
      for (int i = 0; i < r->ty->rec->fields.n; i++)
        if (soa_fld(r, i) == n->field || !strcmp(soa_fld(r, i)->name, n->field->name)) {
          buf_printf(o, "%s[%s]", soa_f(r, i), p->lane ? "_l" : "0");
          break;
        }
      break;
    }
    p->skipck = !n->post;   /* the struct is part of this lvalue */
    ex(p, n->a);
    buf_printf(o, "%s%s", n->post ? "->" : ".", n->field->name);
    break;
  case N_INIT:
    if (n->ty->kind == TY_RECORD) buf_printf(o, "(%s)", ty_decl(n->ty, ""));
    init_list(p, n);
    break;
  default:   /* (S_SYNC: valid.c) */
    buf_puts(o, "/* ? */0");
  }
}

/* ---- runs of lanes ---- */

/* the count of a run's lanes (and for % its first lane and step) */
/* u - a for a run's count: 32-bit integers widened; 64-bit ones (size_t
 * indices) by a difference that saturates instead of wrapping */
static char *run_diff(P *p, Node *u, Node *a) {
  Type *t = a->ty;
  if (t->size <= 4) return xfmt("(long long)(%s) - (long long)(%s)", exs(p, u, false), exs(p, a, false));
  bool uns = t->kind == TY_ULONG || t->kind == TY_ULLONG;
  return xfmt("cu_ldiff_%c(%s, %s)", uns ? 'u' : 's', exs(p, u, false), exs(p, a, false));
}

static char *run_cnt(P *p, Run *r, char **at) {
  /* (in a whole-row warp 32, or fewer after a return that cut it; in half
   * rows a sub-row's, _r's: build.c counts there only where no lane left) */
  const char *n = p->hw ? xfmt("%d", p->hw) : "_nl";
  *at = NULL;
  if (r->m) {
    *at = xfmt("_f%d", r->id);
    return xfmt("cu_lanes_divisible((long long)(%s), (long long)(%s), %s, &_f%d, &_s%d)", exs(p, r->m->a, false),
                exs(p, r->m->b, false), n, r->id, r->id);
  }
  char *d = run_diff(p, r->u, r->a), *c;
  switch (r->op) {
  case OP_EQ:
    *at = xfmt("cu_lanes_below(%s, %s)", d, n);
    c = xfmt("cu_lanes_below(%s + 1, %s) - %s", d, n, *at);
    break;
  case OP_LT: c = xfmt("cu_lanes_below(%s, %s)", d, n); break;
  case OP_LE: c = xfmt("cu_lanes_below(%s + 1, %s)", d, n); break;
  case OP_GT: c = xfmt("%s - cu_lanes_below(%s + 1, %s)", n, d, n); break;
  default: c = xfmt("%s - cu_lanes_below(%s, %s)", n, d, n); break;   /* >= */
  }
  if (r->a2) {   /* an interval: from the lower bound's first lane to the upper bound's end */
    char *d2 = run_diff(p, r->u2, r->a2);
    *at = xfmt("cu_lanes_below(%s%s, %s)", d2, r->op2 == OP_GT ? " + 1" : "", n);
    c = xfmt("cu_run_len(%s, %s)", *at, c);
  }
  if (r->g.n) {   /* the row terms, tested once where some lane passes the comparisons */
    char *g = "";
    for (int i = 0; i < r->g.n; i++) g = xfmt("%s%s%s(%s)", g, i ? " && " : "", r->gneg ? "!" : "", exs(p, r->g.v[i], false));
    c = xfmt("({ const int _k = %s; _k && !(%s) ? 0 : _k; })", c, g);
  }
  return c;
}

static void run_decl(P *p, Run *r) {
  if (r->m) line(p, "int _f%d, _s%d;", r->id, r->id);
}

/* ---- statements ---- */

static void pw(P *p, W *w);

static char *pre_s(P *p, W *w) {
  if (!w->o || lo(w->o)->soa) return xstrdup("");
  return xfmt(p->jam && promoted(p, w->o) && !in_vec(p->own, w->o) ? "_s_%s[_l] = " : "%s[_l] = ", cname(w->o));
}

/* an arm's assignment as a select in every lane (build.c, sel_arm):
 * `l = c ? l op v : l`, the right-hand side read first as C does */
static char *sel_s(P *p, W *w) {
  Node *x = w->x;
  if (w->shead) return xfmt("const int _sel%d = (%s) != 0", w->sel, exs(p, x, true));
  char *l = exs(p, x->a, true), *v = exs(p, x->b, true);
  const char *on = xfmt("%s_sel%d", w->sneg ? "!" : "", w->sel);
  if (x->op == OP_ASSIGN) return xfmt("({ const %s = %s; %s = %s ? _v : %s; })", ty_decl(x->b->ty, "_v"), v, l, on, l);
  return xfmt("({ const %s = %s; %s = %s ? %s %.*s _v : %s; })", ty_decl(x->b->ty, "_v"), v, l, on, l,
              (int)strlen(op_str[x->op]) - 1, op_str[x->op], l);
}

/* a lane item's expression: stored to its variable, or a statement */
static char *item_s(P *p, W *w) {
  if (w->sel) return sel_s(p, w);
  if (w->o && lo(w->o)->soa) return xfmt("(void)%s", soa_store(w->o, exs(p, w->x, true)));
  return w->o ? exs(p, w->x, true) : stx(p, w->x, true);
}

/* a lane loop of its own, its header after the profile's count */
static void lane_open(P *p) {
  if (prof_here(p)) line(p, "if (_pf & 1) { _pst++; _pln += %s; }", act_count(p));
  line(p, "%s", lane_head(p));
  p->ind++;
}

static void lane_close(P *p) {
  p->ind--;
  line(p, "}");
}

static void init_elems(P *p, Obj *o, Type *t, Node *init, const char *path) {
  /* arrays of a varying variable: one assignment per element */
  if (t->kind == TY_ARRAY) {
    for (int64_t i = 0; i < t->len; i++) {
      Node *el = init && init->k == N_INIT && i < init->list.n ? init->list.v[i] : NULL;
      init_elems(p, o, t->base, el, xfmt("%s[%lld]", path, (long long)i));
    }
    return;
  }
  char *v = init ? exs(p, init, true) : xstrdup(t->kind == TY_RECORD ? "{0}" : "0");
  if (!init && t->kind == TY_RECORD) v = xfmt("(%s){0}", ty_decl(t, ""));
  if (lo(o)->soa) line(p, "(void)%s;", soa_store(o, v));
  else if (lo(o)->esc) line(p, "%s[_l]%s = %s;", cname(o), path, v);
  else line(p, "%s%s[_l] = %s;", cname(o), path, v);
}

/* one item of a lane loop */
static void lane_item(P *p, W *w) {
  if (w->k == W_INIT) init_elems(p, w->o, w->o->ty, w->x, "");
  else line(p, "%s%s;", pre_s(p, w), item_s(p, w));
}

/* the read at index j is at or ahead of the store at index i: their
 * difference, small, in the indices' width and signed (an unsigned `t - k`
 * wraps in the first warp) */
static char *ahead_s(const char *j, const char *i, bool wide) {
  if (wide) return xfmt("(long long)((unsigned long long)(%s) - (unsigned long long)(%s)) >= 0", j, i);
  return xfmt("(int)((unsigned)(%s) - (unsigned)(%s)) >= 0", j, i);
}

/* the test that read index rj cannot reach the word any lane stores at wx
 * (build.c, nb_ahead): reading ahead with a constant stride; with a
 * uniform one, both strides the same and the distance not a multiple */
static char *ahead_x(P *p, Node *rj, Node *wx) {
  int64_t s, s2;
  Node *u, *u2;
  char *j = exs(p, rj, false), *i = exs(p, wx, false);
  if (!aff_ustride(wx, &s, &u) || !u || !aff_ustride(rj, &s2, &u2) || !u2)
    return ahead_s(j, i, wx->ty->size > 4 || rj->ty->size > 4);
  char *su = exs(p, u, false), *su2 = exs(p, u2, false);
  return xfmt("((long long)(%s) == (long long)(%s) && (long long)(%s) != 0 && ((long long)(%s) - (long long)(%s)) %% ((long long)(%lld) * (long long)(%s)) != 0)",
              su, su2, su, j, i, (long long)s, su);
}

/* a warp-synchronous store as one instruction: every lane's value, then
 * every lane's store; or, in the versions whose lanes are a run, where
 * each read of the stored array is at or ahead of the lane's store
 * (build.c, nb_ahead; tested here once per warp), one lane loop, whose
 * lanes in order do what the one instruction does */
static void p_simt(P *p, W *w) {
  Node *x = w->x;
  int id = w->id;
  /* Volatile accesses, read as plain memory between two compiler
   * barriers: each lane's word is loaded in the statement and stored
   * before it ends, as volatile asks (a warp's loads are one instruction
   * on a GPU too), and the lane loops vectorize (`volatile` alone keeps
   * them scalar: 2-3x slower warp-synchronous tails). Checked builds keep
   * volatile: their accesses are calls anyway. */
  bool nv = has_volatile(x) && !p->ck;
  char *ok = NULL;
  p->novol = nv;
  for (int i = 0; i < w->ahead.n; i++) {   /* (build.c: fast versions, not half rows, unchecked) */
    char *c = ahead_x(p, w->ahead.v[i], w->ahead_w.v[i]);
    ok = ok ? xfmt("%s && %s", ok, c) : c;
  }
  line(p, "{");
  p->ind++;
  if (nv) line(p, "__asm__ __volatile__(\"\" ::: \"memory\");");
  p->novol = nv;
  if (ok) {
    line(p, "if (%s) {   /* reading ahead, or no lane's read at another's store: one loop */", ok);
    p->ind++;
    lane_open(p);
    line(p, "%s;", stx(p, x, true));
    lane_close(p);
    p->ind--;
    line(p, "} else {");
    p->ind++;
  }
  line(p, "%s;", ty_decl(unvol(x->ty), xfmt("_sv%d[%s]", id, LN(p))));
  lane_open(p);
  if (x->op == OP_ASSIGN) line(p, "_sv%d[_l] = %s;", id, exs(p, x->b, true));
  else {
    char *l = exs(p, x->a, true);   /* (read here: checked as a read) */
    line(p, "_sv%d[_l] = %s %.*s %s;", id, l, (int)strlen(op_str[x->op]) - 1, op_str[x->op], exs(p, x->b, true));
  }
  lane_close(p);
  lane_open(p);
  p->acc = ACC_WR;
  line(p, "%s = _sv%d[_l];", exs(p, x->a, true), id);
  lane_close(p);
  if (ok) {
    p->ind--;
    line(p, "}");
  }
  if (nv) line(p, "__asm__ __volatile__(\"\" ::: \"memory\");");
  p->novol = false;
  p->ind--;
  line(p, "}");
}

/* an aggregated atomic (build.c, agg_atomic): the lanes' values combined
 * in _agN, then one atomic if any lane ran */
static void p_agg(P *p, W *w) {
  Node *c = bare(w->x), *v = c->list.v[1];
  const char *nm = c->name, *sfx = strrchr(nm, '_') + 1;
  int id = w->id;
  bool fl = !strcmp(sfx, "f") || !strcmp(sfx, "d"), wide = !strncmp(sfx, "ll", 2) || !strncmp(sfx, "ull", 3);
  bool mn = strstr(nm, "Min_") != NULL, mx = strstr(nm, "Max_") != NULL, sg = !strcmp(sfx, "i") || !strcmp(sfx, "ll");
  char *t = ty_decl(c->ty, "");
  /* sums and bit operations in an unsigned type (they wrap, as on the
   * GPU); floats from -0.0, the identity of IEEE addition */
  const char *u = fl || mn || mx ? t : wide ? "unsigned long long" : "unsigned";
  const char *id0 = fl ? (sfx[0] == 'f' ? "-0.0f" : "-0.0")
                    : mn ? (sg ? (wide ? "0x7fffffffffffffffll" : "2147483647") : (wide ? "~0ull" : "~0u"))
                    : mx ? (sg ? (wide ? "(-0x7fffffffffffffffll - 1)" : "(-2147483647 - 1)") : "0")
                    : strstr(nm, "And_") ? (wide ? "~0ull" : "~0u") : "0";
  const char *op = strstr(nm, "And_") ? "&" : strstr(nm, "Or_") ? "|" : strstr(nm, "Xor_") ? "^" : "+";
  const char *any_lane = !p->full ? any(p, mname(p->m)) : p->hw ? "1" : xfmt("(%s) > (%s)", hi_s(&p->ls), lo_s(&p->ls));
  line(p, "{");
  p->ind++;
  line(p, "%s _ag%d = %s;", u, id, id0);
  lane_open(p);
  char *x = exs(p, v, true);
  if (mn || mx) line(p, "{ %s _x = %s; if (_x %s _ag%d) _ag%d = _x; }", t, x, mn ? "<" : ">", id, id);
  else line(p, "_ag%d %s= (%s)(%s);", id, op, u, x);
  lane_close(p);
  /* (a float sum to global memory: the worker's pending reduction,
   * cucc_rt.h's cu_red; not in checked builds) */
  if (fl && *op == '+' && !shared_atomic(c) && !p->ck && strstr(nm, "Add_"))
    line(p, "if (%s) cu_red_add_%s(_B, %s, (%s)_ag%d);", any_lane, sfx, exs(p, c->list.v[0], false), t, id);
  else
    line(p, "if (%s) %s(%s, (%s)_ag%d);", any_lane, shared_atomic(c) ? xfmt("cu_s%s", nm + 3) : nm,
         exs(p, c->list.v[0], false), t, id);
  p->ind--;
  line(p, "}");
}

static void p_lanes(P *p, W *w) {
  if (w->ws.n == 1 && ((W *)w->ws.v[0])->simt) {
    p_simt(p, w->ws.v[0]);
    return;
  }
  if (w->ws.n == 1 && ((W *)w->ws.v[0])->agg) {
    p_agg(p, w->ws.v[0]);
    return;
  }
  lane_open(p);
  for (int i = 0; i < w->ws.n; i++) lane_item(p, w->ws.v[i]);
  lane_close(p);
}

/* the fields of a range test of access r over the current lanes */
typedef struct RngS { char *tid, *tstep, *addr, *cnt, *step, *obj, *objn; int id; } RngS;

static RngS rng_s(P *p, Rng *r) {
  Node *n = r->n, *c = r->root;
  Lanes *l = &p->ls;
  bool z = !l->lo, st = l->step != 0;   /* st: every step-th lane */
  RngS s = {0};
  if (n->k == N_INDEX && rowu(n->a) && aff_e(n->b) && no_access(n->a) && no_access(n->b)) {
    char *b = exs(p, n->b, false);
    s.addr = xfmt("&(%s)[%s]", exs(p, n->a, false), row_base(n->b, z ? b : xfmt("%s + (%s)", b, lo_s(l))));
    s.step = xfmt(st ? "(%2$s) * sizeof (%1$s)[0]" : "sizeof (%1$s)[0]", exs(p, n->a, false), step_s(l));
  } else {
    p->skipck = true;   /* the address only */
    s.addr = xfmt("&%s", exs(p, n, false));
    s.step = xstrdup("0");
  }
  s.id = site(p, n, r->acc, r->space);
  s.obj = xstrdup("0");
  s.objn = xstrdup("0");
  if (r->space == SP_OBJ) {
    char *x = exs(p, c, false);
    s.obj = xfmt("&%s", x);
    s.objn = xfmt("sizeof %s", x);
  }
  s.tid = p->hw ? xfmt("_w * 32u + (unsigned)_r * %du", p->hw)
          : z ? xstrdup("_w * 32u") : xfmt("_w * 32u + (unsigned)(%s)", lo_s(l));
  s.cnt = p->hw ? xfmt("%d", p->hw)
          : st ? xfmt("((long)(%s) - (long)(%s) + (%s) - 1) / (%s)", hi_s(l), lo_s(l), step_s(l), step_s(l))
          : z ? xstrdup(hi_s(l)) : xfmt("(long)(%s) - (long)(%s)", hi_s(l), lo_s(l));
  s.tstep = st ? xfmt("(unsigned)(%s)", step_s(l)) : "1u";
  return s;
}

/* the fields of all range tests rd + wr, each site taken in the order the
 * accesses were visited */
static RngS *rng_all(P *p, Vec *rd, Vec *wr) {
  int n = rd->n + wr->n;
  RngS *s = xcalloc(n + 1, sizeof *s);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < n; i++) {
      Rng *r = i < rd->n ? rd->v[i] : wr->v[i - rd->n];
      if (r->seq == q) s[i] = rng_s(p, r);
    }
  return s;
}

/* `pre x;` in a lane loop of its own */
static void lane_stmt(P *p, const char *pre, const char *x) {
  lane_open(p);
  line(p, "%s%s;", pre, x);
  lane_close(p);
}

/* A statement over the unmasked lanes whose every checked access is a
 * range or a broadcast: tested once per access before its lane loop, reads
 * first (a warp loads before it stores), then run unchecked, so it
 * vectorizes as the unchecked build does. If any test fails the lanes run
 * checked one by one instead, and that reports. */
static void p_one_rng(P *p, W *w) {
  p->subrow = p->hw != 0;   /* half rows: a sub-row's lanes are a range, the tests go inside its loop */
  if (p->hw) {
    line(p, "for (int _r = 0; _r < %d; _r++) {", p->nr);
    p->ind++;
  }
  Buf c = {0};
  RngS *all = rng_all(p, &w->rd, &w->wr);
  for (int i = 0; i < w->rd.n + w->wr.n; i++) {
    RngS s = all[i];
    buf_printf(&c, "%scu_ck_rng(_B, %s, %s, %s, %s, %s, &_cs[%d], %s, %s)", i ? xfmt(" &&\n%*s", 2 * p->ind + 4, "") : "",
               s.tid, s.tstep, s.addr, s.cnt, s.step, s.id, s.obj, s.objn);
  }
  char *pre = pre_s(p, w);
  p->rngfast = true;
  char *fast = item_s(p, w);
  p->rngfast = false;
  line(p, "if (%s) {", c.s);
  p->ind++;
  lane_stmt(p, pre, fast);
  p->ind--;
  line(p, "} else {");
  p->ind++;
  p->cold++;
  lane_stmt(p, pre, item_s(p, w));
  p->cold--;
  p->ind--;
  line(p, "}");
  if (p->hw) {
    p->ind--;
    line(p, "}");
  }
  p->subrow = false;
}

/* an affine variable's declaration or store: its base (one per sub-row in
 * half rows); kept per thread, the lanes' values too */
static void p_affset(P *p, W *w) {
  Obj *o = w->o;
  LObj *l = lo(o);
  const char *cn = cname(o);
  Node *st = w->n;
  const char *b = p->hw ? xfmt("%s_b[_r]", cn) : xfmt("%s_b", cn);
  char *set;
  if (w->decl || st->k == N_ASSIGN) set = xfmt("%s %s %s;", b, w->decl ? "=" : op_str[st->op], exs(p, w->x, false));
  else set = st->post ? xfmt("%s%s;", b, op_str[st->op]) : xfmt("%s%s;", op_str[st->op], b);
  if (l->su)   /* (shape.c: set only by this declaration, never kept across regions) */
    line(p, "const %s = (%s)(%s);", ty_decl(o->ty, cname(l->su)), ty_decl(o->ty, ""), exs(p, l->sun, false));
  if (p->hw) {
    int R = p->nr;
    if (w->decl && !l->cross) line(p, "%s;", ty_decl(o->ty, xfmt("%s_b[%d]", cn, R)));
    line(p, "for (int _r = 0; _r < %d; _r++) %s", R, set);
  } else if (w->decl && !l->cross) line(p, "%s = %s;", ty_decl(o->ty, xfmt("%s_b", cn)), exs(p, w->x, false));
  else line(p, "%s", set);
  if (l->cross) {
    const char *x = p->hw ? "_x" : "_l";
    const char *s = l->sx == 0 ? "" : l->sx == 1 ? xfmt(" + %s", x) : xfmt(" + (%lld) * %s", (long long)l->sx, x);
    line(p, "%s %s[_l] = %s%s;", lanes(p, true), cn, b, s);
  }
}

/* a whole warp's shuffle by a uniform offset d of width w, through a
 * padded copy of the value (V: 32..63 the lanes, the rest readable) */
static void p_shfl_pad(P *p, W *w, const char *H, const char *V, const char *D, const char *W, Node *wd) {
  Node *n = w->n, *val = n->list.v[1];
  line(p, "%s;", ty_decl(val->ty, xfmt("%s[96]", V)));
  line(p, "%s %s[32 + _l] = %s;", lanes(p, false), V, exs(p, val, true));
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

static void p_warpop(P *p, W *w) {
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
    if (wd) line(p, "const int %s = cu_shfl_width(%s);", W, exs(p, wd, false));
    if (n->coll == CO_SHFL || n->coll == CO_SHFL_XOR) line(p, "const int %s = %s;", D, exs(p, a->v[2], false));
    else if (!wd) line(p, "const int %s = (int)cu_shfl_off(%s);", D, exs(p, a->v[2], false));   /* (int: gcc sees a unit stride) */
    else line(p, "const unsigned %s = cu_shfl_off(%s);", D, exs(p, a->v[2], false));
    Obj *xo = w->xdir ? bare(val)->var : NULL;
    if (xo) {
      /* lane ^ d within the warp's 32 lanes: a permutation of the lane
       * array itself (lanes past a partial warp: the copy below) */
      line(p, "if (_nl == 32 && (unsigned)%s < (unsigned)%s && !(%s & (%s - 1))) cu_xor_perm(%s, %s%s, (unsigned)%s, sizeof *%s);",
           D, W, W, W, H, p->jam && promoted(p, xo) ? "_s_" : "", cname(xo), D, H);
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
  lane_open(p);
  line(p, "%s[_l] = %s;", K, exs(p, a->v[0], true));
  line(p, "%s[_l] = %s;", V, vote ? xfmt("(%s) != 0", exs(p, val, true)) : exs(p, val, true));
  if (shfl) line(p, "%s[_l] = %s;", S, exs(p, a->v[2], true));
  /* a width per lane: a parameter of a warp version may be a lane array */
  if (shfl) line(p, "%s[_l] = %s;", WD, wd ? exs(p, wd, true) : "32");
  if (n->coll == CO_MATCH_ALL) line(p, "%s[_l] = %s;", Q, exs(p, a->v[2], true));
  lane_close(p);
  if (p->ck & CK_SYNC) line(p, "cu_ck_mask(_B, _w, %s, %s, \"%s\", %d);", K, A, n->file, n->line);
  if (shfl) {
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
static void p_callw(P *p, W *w) {
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
    lane_open(p);
    for (int i = 0; i < c->params.n; i++)
      if (wf->sh[i] == PS_VARY && !DIRECT(i)) line(p, "_a%d_%d[_l] = %s;", id, i, exs(p, n->list.v[i], true));
    lane_close(p);
  }
  for (int i = 0; i < c->params.n && p->hw; i++)   /* (half rows: an affine one's base per sub-row) */
    if (wf->sh[i] == PS_AFF) {
      line(p, "%s;", ty_decl(((Obj *)c->params.v[i])->ty, xfmt("_a%d_%d[%d]", id, i, p->nr)));
      line(p, "for (int _r = 0; _r < %d; _r++) _a%d_%d[_r] = %s;", p->nr, id, i, exs(p, n->list.v[i], false));
    }
  Buf a = {0};
  buf_printf(&a, "_B, _w%s%s%s", wf->k == VK_ROW || wf->k == VK_HROW ? "" : ", _nl", tid_params(wf, false),
             mc ? xfmt(", %s", mc) : "");
  for (int i = 0; i < c->params.n; i++)
    buf_printf(&a, ", %s", DIRECT(i)                 ? cname(((Node *)n->list.v[i])->var)
                           : wf->sh[i] == PS_VARY || (wf->sh[i] == PS_AFF && p->hw) ? xfmt("_a%d_%d", id, i)
                                                                                    : exs(p, n->list.v[i], false));
#undef DIRECT
  if (wf->ret) buf_printf(&a, w->fwd ? ", _ret" : ", _f%d", id);
  line(p, "%s(%s);", c->cname, a.s);
  if (w->fwd) return;
  vec_push(&p->hn, n);
  vec_push(&p->hid, xfmt("_f%d", id));
}

static void blend_st(P *p, Node *n, const char *on) {
  if (n->k == S_BLOCK) {
    for (int i = 0; i < n->list.n; i++) blend_st(p, n->list.v[i], on);
    return;
  }
  /* the right-hand side is read in every lane of the span, not under
   * the condition: a conditional load became a masked one that gcc
   * carried through the stack from one iteration to the next */
  Node *x = n->a;
  char *l = exs(p, x->a, true);
  line(p, "{");
  line(p, "  const %s = %s;", ty_decl(x->b->ty, "_v"), exs(p, x->b, true));
  if (x->op == OP_ASSIGN) line(p, "  %s = %s ? _v : %s;", l, on, l);
  else line(p, "  %s = %s ? %s %.*s _v : %s;", l, on, l, (int)strlen(op_str[x->op]) - 1, op_str[x->op], l);
  line(p, "}");
}

/* the tests that the blended statements read ahead (build.c,
 * blend_simt, ahead_of), after " && ", or "" */
static char *blend_ahead(P *p, W *w) {
  char *s = "";
  for (int i = 0; i < w->ahead.n; i++) s = xfmt("%s && %s", s, ahead_x(p, w->ahead.v[i], w->ahead_w.v[i]));
  return s;
}

static void p_ifd(P *p, W *w) {
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
      line(p, "  int _c = (%s) != 0;", exs(p, n->a, true));
      line(p, "  %s[_l] = _c;", mt);
      line(p, "  %s += _c;", nt);
      line(p, "}");
    } else line(p, "%s %s += (%s) != 0;", lanes(p, false), nt, exs(p, n->a, true));
    prof_branch(p, w->psite, nt, act_count(p));
    line(p, "if (__builtin_expect(%s != 0, 0)) {", nt);
    p->ind++;
    if (!w->ckc) {
      line(p, "%s", mdecl);
      line(p, "%s", zero);
      line(p, "%s %s[_l] = (%s) != 0;", lanes(p, false), mt, exs(p, n->a, true));
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
    char *at = NULL, *cnt = r->c ? run_cnt(p, r, &at) : NULL;
    /* (where the block's bounds show that every thread takes it, every
     * lane: bound.c) */
    const char *bt = w->bt ? xfmt("_bt%d ? _nl : ", w->bt) : "";
    if (cnt && p->hw) {
      line(p, "int %s = %s0;", nt, bt);
      line(p, "%sfor (int _r = 0; _r < %d; _r++) %s += %s;", w->bt ? xfmt("if (!_bt%d) ", w->bt) : "", p->nr, nt, cnt);
    } else if (cnt) {
      run_decl(p, r);
      line(p, "int %s = %s%s;", nt, bt, cnt);
    } else {
      line(p, "int %s = %s0;", nt, bt);
      if (w->bt) line(p, "if (!_bt%d) {", w->bt);
      line(p, "%s%s %s += (%s) != 0;", w->bt ? "  " : "", lanes(p, false), nt, exs(p, n->a, true));
      if (w->bt) line(p, "}");
    }
    prof_branch(p, w->psite, nt, "_nl");
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
    line(p, "  int _c = _l < _nl && (%s);", exs(p, n->a, true));
    line(p, "  %s[_l] = _c;", mt);
    if (me) line(p, "  %s[_l] = _l < _nl && !_c;", me);
    line(p, "}");
    if (me) line(p, "int %s = _nl - %s;", ne, nt);
  } else {
    line(p, "unsigned char %s[%s]%s%s%s;", mt, LN(p), me ? ", " : "", me ? me : "", me ? xfmt("[%s]", LN(p)) : "");
    line(p, "int %s = 0%s%s%s;", nt, me ? ", " : "", me ? ne : "", me ? " = 0" : "");
    line(p, "%s {", lanes(p, true));
    if (p->full) line(p, "  int _c = _l < _nl && (%s);", exs(p, n->a, true));
    else line(p, "  int _c = %s[_l] && (%s);", mname(w->m), exs(p, n->a, true));
    line(p, "  %s[_l] = _c;", mt);
    line(p, "  %s += _c;", nt);
    if (me) {
      line(p, "  %s[_l] = %s && !_c;", me, p->full ? "_l < _nl" : xfmt("%s[_l]", mname(w->m)));
      line(p, "  %s += %s[_l];", ne, me);
    }
    line(p, "}");
    prof_branch(p, w->psite, nt, act_count(p));
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
  if (init->k == S_EXPR) return exs(p, init->a, false);
  Node *d = init->list.v[0];
  return d->a ? xfmt("%s = %s", ty_decl(d->var->ty, cname(d->var)), exs(p, d->a, false))
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
  char *c = n->b ? exs(p, n->b, false) : xstrdup("");
  if (n->k == S_FOR) line(p, "for (%s; %s; %s)", ui, c, n->c ? exs(p, n->c, false) : "");
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
    if (ln(n->b)->vary) line(p, "%s if (%s[_l]) %s[_l] = (%s) != 0;", lanes(p, true), ml, ml, exs(p, n->b, true));
    else line(p, "if (!%s || !(%s)) break;", any(p, ml), exs(p, n->b, false));   /* no lane left: no test */
    if (pa) prof_branch(p, w->psite, xfmt("cu_count(%s)", ml), pa);
  }
  if (n->k != S_DO) line(p, "if (!%s) break;", any(p, ml));
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
    else line(p, "if (%s) %s;", any(p, ml), exs(p, n->c, false));
  }
  if (n->k == S_DO) {
    pw(p, w->dh);
    ctx(p, &in);
    if (ln(n->b)->vary) line(p, "%s if (%s[_l]) %s[_l] = (%s) != 0;", lanes(p, true), ml, ml, exs(p, n->b, true));
    else line(p, "if (!%s || !(%s)) break;", any(p, ml), exs(p, n->b, false));
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
  char *d = run_diff(p, r->u, r->a);
  bool one = r->op == OP_LE || r->op == OP_GT;   /* <= and > count from d + 1 */
  line(p, "const int _c%d = cu_lanes_below(%s%s, %s);", id, d, one ? " + 1" : "", n);
  if (r->prefix) {
    line(p, "if (_c%d < _cut%d) _cut%d = _c%d;", id, id, id, id);
    line(p, "if (_cut%d <= %s) break;", id, lo_s(&in));
    /* the next iteration's lines of the body's unit-stride reads (build.c) */
    char *seen = "";
    for (int i = 0; i < w->pf.n; i++) {
      Node *x = w->pf.v[i];
      char *a = xfmt("&(%s)[%s]", exs(p, x->a, false), row_base(x->b, exs(p, x->b, false)));
      if (strstr(seen, xfmt("|%s|", a))) continue;
      seen = xfmt("%s|%s|", seen, a);
      line(p, "cu_prefetch_next(%s, (long long)(%s) * (long long)sizeof *%s, (long long)_cut%d * (long long)sizeof *%s);", a,
           exs(p, w->pstep, false), a, id, a);
    }
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

static Obj *loop_var(Node *n);

/* the statement of a short uniform loop inside a lane loop */
static void lane_st(P *p, Node *n) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK:
    if (n->post) {   /* a declaration group: no scope of its own */
      for (int i = 0; i < n->list.n; i++) lane_st(p, n->list.v[i]);
      break;
    }
    line(p, "{");
    p->ind++;
    for (int i = 0; i < n->list.n; i++) lane_st(p, n->list.v[i]);
    p->ind--;
    line(p, "}");
    break;
  case S_EXPR: line(p, "%s;", stx(p, n->a, true)); break;
  case S_DECL:   /* (a lane-by-lane loop's own variable: the lane's scalar) */
    line(p, "%s = %s;", ty_decl(n->var->ty, promoted(p, n->var) ? xfmt("_s_%s", cname(n->var)) : cname(n->var)),
         exs(p, n->a, true));
    break;
  case S_IF:
    line(p, "if (%s)", exs(p, n->a, true));
    p->ind += n->b->k != S_BLOCK;
    lane_st(p, n->b);
    p->ind -= n->b->k != S_BLOCK;
    if (n->c) {
      line(p, "else");
      p->ind += n->c->k != S_BLOCK;
      lane_st(p, n->c);
      p->ind -= n->c->k != S_BLOCK;
    }
    break;
  case S_FOR: {
    Obj *lv = loop_var(n);
    if (lv) {
      Node *d = n->a->list.v[0];
      /* (a varying loop's own variable, promoted: the lane's scalar) */
      const char *nm = promoted(p, lv) ? xfmt("_s_%s", cname(lv)) : cname(lv);
      line(p, "for (%s = %s; %s; %s)", ty_decl(lv->ty, nm), exs(p, d->a, true), exs(p, n->b, true), exs(p, n->c, true));
    } else line(p, "for (; %s; %s)", exs(p, n->b, true), exs(p, n->c, true));   /* (build.c: no init, or none but this) */
    p->ind++;
    lane_st(p, n->d);
    p->ind--;
    break;
  }
  case S_WHILE:   /* (its cursor, declared before it, is promoted: p_loopl) */
    line(p, "while (%s)", exs(p, n->b, true));
    p->ind++;
    lane_st(p, n->d);
    p->ind--;
    break;
  case S_DO:
    line(p, "do");
    p->ind++;
    lane_st(p, n->d);
    p->ind--;
    line(p, "while (%s);", exs(p, n->b, true));
    break;
  case S_BREAK: line(p, "break;"); break;   /* (of the lane's own loop: build.c's lane_ok) */
  case S_CONTINUE: line(p, "continue;"); break;
  case S_NULL: break;
  default:   /* (build.c's lane_ok and serial_loop_ok let only the above in) */
    errorat(n->file, n->line, n->col, "internal error: statement kind %d in a lane loop", n->k);
  }
}

/* the variable a loop declares (a varying loop's is promoted: declared by
 * the loop itself, neither read before nor stored after) */
static Obj *loop_var(Node *n) {
  return n->k == S_FOR && n->a && n->a->k == S_BLOCK && n->a->list.n == 1 && ((Node *)n->a->list.v[0])->k == S_DECL
             ? ((Node *)n->a->list.v[0])->var : NULL;
}

/* A jammed loop (version.c, lw_jam): the loop outside, the lanes inside,
 * the lanes' scalars in an array of a step's lanes. The arrays are copied
 * in and out fully unrolled: as loops gcc made them `rep movs`. */
static void p_loopl_jam(P *p, W *w) {
  Obj *lv = loop_var(w->n);
  Node *n = w->n, *d = n->a->list.v[0];
  line(p, "{");
  p->ind++;
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o == lv || in_vec(&w->own, o)) continue;
    line(p, "%s;", ty_decl(o->ty, xfmt("_s_%s[%s]", cname(o), LN(p))));
    line(p, "CU_UNROLL for (int _l = 0; _l < %s; _l++) _s_%s[_l] = %s[_l];", LN(p), cname(o), cname(o));
  }
  line(p, "for (%s = %s; %s; %s)", ty_decl(lv->ty, cname(lv)), exs(p, d->a, false), exs(p, n->b, false), exs(p, n->c, false));
  p->ind++;
  line(p, "%s", lane_head(p));
  p->ind++;
  p->prom = w->prom;
  p->jam = true;
  p->own = &w->own;
  lane_st(p, n->d);
  p->jam = false;
  p->own = NULL;
  p->prom = (Vec){0};
  lane_close(p);
  p->ind--;
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o != lv && !in_vec(&w->own, o) && promoted(&(P){.prom = w->prom_st}, o))
      line(p, "CU_UNROLL for (int _l = 0; _l < %s; _l++) %s[_l] = _s_%s[_l];", LN(p), cname(o), cname(o));
  }
  p->ind--;
  line(p, "}");
}

static void p_loopl(P *p, W *w) {
  if (w->jam) {
    p_loopl_jam(p, w);
    return;
  }
  lane_open(p);
  Obj *lv = loop_var(w->n);
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o != lv && !in_vec(&w->own, o)) line(p, "%s = %s[_l];", ty_decl(o->ty, xfmt("_s_%s", cname(o))), cname(o));
  }
  p->prom = w->prom;
  lane_st(p, w->n);
  p->prom = (Vec){0};
  for (int i = 0; i < w->prom.n; i++) {
    Obj *o = w->prom.v[i];
    if (o != lv && !in_vec(&w->own, o) && promoted(&(P){.prom = w->prom_st}, o))
      line(p, "%s[_l] = _s_%s;", cname(o), cname(o));
  }
  lane_close(p);
}

static void p_loopr(P *p, W *w) {
  Node *n = w->n, *c = n->b, *inc = n->c;
  Obj *k = w->kv;
  int id = w->id;
  long long step = w->kstep;
  /* the tests' fields, once (each takes a site) */
  RngS *rs = rng_all(p, &w->rd, &w->wr);
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
    line(p, "%s = %s;", ty_decl(k->ty, cname(k)), exs(p, w->kinit, false));   /* (its own: the loop's may be declared before it) */
    /* iterations, counted in the comparison's own types */
    char *span = xfmt("(long long)(%s)(%s) - (long long)(%s)%s", ty_decl(c->b->ty, ""), exs(p, c->b, false),
                      ty_decl(c->a->ty, ""), exs(p, c->a, false));
    char *nit = c->op == OP_LE ? xfmt("%s + 1", step > 1 ? xfmt("(%s) / %lld", span, step) : span)
                : step > 1 ? xfmt("(%s + %lld) / %lld", span, step - 1, step) : span;
    line(p, "const long long _lt%d = %s ? %s : 0;", id, exs(p, c, false), nit);
    Buf pb = {0}, t = {0};
    for (int i = 0; i < nv; i++) buf_printf(&pb, "%s(const char *)(%s)", i ? ", " : "", v[i].addr);
    line(p, "const char *_lp%d[%d] = {%s};", id, nv, pb.s ? pb.s : "");
    line(p, "%s;", stx(p, inc, false));
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
  line(p, "switch (%s) {", exs(p, n->a, false));
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
    line(p, "%s if (%s[_l]) %s[_l] = %s;", lanes(p, true), m, sv, exs(p, n->a, true));
  } else {
    line(p, "%s = %s;", svt, exs(p, n->a, false));
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

static void pw(P *p, W *w) {
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
    if (w->guard) line(p, "if (%s) %s;", any(p, mname(w->guard)), stx(p, w->x, false));
    else line(p, "%s;", stx(p, w->x, false));
    break;
  case W_UDECL: {
    Obj *o = w->o;
    const char *cn = cname(o);
    if (lo(o)->cross) {
      if (w->x->k == N_INIT) {
        /* a record's init list already prints as a compound literal */
        const char *ty = w->x->ty->kind == TY_RECORD ? "" : xfmt("(%s)", ty_decl(o->ty, ""));
        line(p, "memcpy(&%s, &%s%s, sizeof %s);", cn, ty, exs(p, w->x, false), cn);
      } else line(p, "%s = %s;", cn, exs(p, w->x, false));
    } else if (w->x) line(p, "%s = %s;", ty_decl(o->ty, cn), exs(p, w->x, false));
    else line(p, "%s;", ty_decl(o->ty, cn));
    break;
  }
  case W_VDECL:
    if (lo(w->o)->soa)
      for (int i = 0; i < w->o->ty->rec->fields.n; i++)
        line(p, "%s;", ty_decl(soa_fld(w->o, i)->ty, xfmt("%s[%s]", soa_f(w->o, i), LN(p))));
    else if (w->o->ty->kind == TY_ARRAY && !lo(w->o)->esc) line(p, "%s[32];", ty_decl(w->o->ty, cname(w->o)));   /* element-major */
    else line(p, "%s;", ty_decl(w->o->ty, xfmt("%s[%s]", cname(w->o), LN(p))));
    break;
  case W_AFFSET: p_affset(p, w); break;
  case W_LANES: p_lanes(p, w); break;
  case W_ONE:
    if (w->rng) p_one_rng(p, w);
    else lane_stmt(p, pre_s(p, w), item_s(p, w));
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
    char *cnt = run_cnt(p, &w->run, &at);
    run_decl(p, &w->run);
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
      char *a = exs(p, x->a, false), *ix = exs(p, x->b, false);
      line(p, "cu_prefetch_next(&%s[%s], 0, (long long)_nl * (long long)sizeof *%s);", a, ix, a);
    }
    p->bshift = 0;
    p->bsub = false;
    break;
  case W_LPF:
    /* the lines of the next iteration's reads, this warp's rows (build.c,
     * loop_prefetch): each read's lanes are a run of elements from the
     * row's base */
    p->bsub = true;
    p->ivn = &w->ivs;
    for (int i = 0; i < w->pf.n; i++) {
      Node *x = w->pf.v[i];
      char *a = exs(p, x->a, false), *ix = exs(p, x->b, false);
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
    char *cnt = run_cnt(p, &w->run, &at);
    line(p, "{");
    p->ind++;
    run_decl(p, &w->run);
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
    line(p, "%s %s[_l] = (%s) && %s(%s);", lanes(p, true), m, in, w->sense ? "" : "!", exs(p, w->x, true));
    break;
  }
  case W_IFU:
    if (w->guard) line(p, "if (%s && (%s))", any(p, mname(w->guard)), exs(p, w->n->a, false));
    else line(p, "if (%s)", exs(p, w->n->a, false));
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
    if (w->x) line(p, "return %s;", exs(p, w->x, false));
    else line(p, "return;");
    break;
  default: break;
  }
}

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

static void warp_close(P *p, Ver *v, bool m0) {
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

static void warp_open(P *p, Ver *v, bool m0) {
  if (p->K->wco) {   /* the one warp this call runs (runtime/src/warps.c) */
    line(p, "for (unsigned _wi = _B->wself; _wi == _B->wself; _wi++) {");
    p->ind++;
    line(p, "const unsigned _w = _wi;");
    warp_head(p, v, m0);
    return;
  }
  line(p, "for (unsigned _wi = 0; _wi < _B->nwarps; _wi++) {");
  p->ind++;
  line(p, "const unsigned _w = _B->worder ? _B->worder[_wi] : _wi;   /* CUCC_SCHEDULE=shuffle */");
  warp_head(p, v, m0);
}

/* A region, its versions in turn: each fast version is printed on its own
 * first; a checked build keeps one only if no access in it is checked lane
 * by lane, for lane by lane the fast versions are slower than the general
 * one (measured: the t % (2*stride) reduction 3x, the tile-16 matmul 1.6x). */
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
    if (n->x) buf_printf(b, " const long long _bl%d = (long long)(%s), _bh%d = _bl%d;", i, exs(p, n->x, false), i, i);
    else buf_printf(b, " const long long _bl%d = %lldll, _bh%d = _bl%d;", i, (long long)n->c, i, i);
    break;
  case BN_TID:
    buf_printf(b, " const long long _bl%d = 0, _bh%d = (long long)_bdm.%c - 1;", i, i, "xyz"[n->dim]);
    break;
  case BN_CAST: buf_printf(b, " const long long _bl%d = _bl%d, _bh%d = _bh%d;", i, a, i, a); break;
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

static char *bound_x(P *p, Bn *t) {
  Buf b = {0};
  buf_printf(&b, "({ int _bo = 1;");
  bound_n(p, &b, t);
  buf_printf(&b, " _bo && _bc%d; })", t->id);
  return b.s;
}

static void region(P *p, Region *r) {
  static const char *const conds[] = {
    [VK_BW] = "CU_TAKE(_pf, CU_MODE_NO_BW) && _B->blockDim.x %% 32u == 0 && _B->blockDim.y == 1 && _B->blockDim.z == 1%s) {   /* 1-D block: one loop over its threads */",
    [VK_ROW] = "CU_TAKE(_pf, CU_MODE_NO_ROW) && _B->blockDim.x %% 32u == 0%s) {   /* whole-row warps: threadIdx.x = _tx0 + lane (_pf: see prologue) */",
    [VK_HROW] = "CU_TAKE(_pf, CU_MODE_NO_HROW) && _B->blockDim.x == 16u && _B->blockDim.y %% 2u == 0%s) {   /* half rows: lane = 16 * _r + threadIdx.x */",
  };
  p->R = r;
  if (r->btn.n) {   /* (bound.c) */
    line(p, "{");
    p->ind++;
    for (int i = 0; i < r->btn.n; i++)
      line(p, "const int _bt%d = %s;   /* every thread: %s */", i + 1, bound_x(p, r->btn.v[i]), exs(p, r->btc.v[i], false));
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
    if (p->K->wco) line(p, "const int _clean = !_exd || !cu_any_n(32, _ex[_B->wself]);   /* no thread of this warp returned */");
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
      line(p, "%sif (CU_TAKE(_pf, %s | CU_MODE_NO_PAIR) && _B->blockDim.x == %du && _B->blockDim.y %% %du == 0%s) {   /* %s, two warps a step: lane = %d * _r + threadIdx.x */",
           nk++ ? "} else " : "", pw_ == 32 ? "CU_MODE_NO_ROW" : "CU_MODE_NO_HROW", pw_, 64 / pw_, clean,
           pw_ == 32 ? "whole rows" : "half rows", pw_);
      p->ind++;
      line(p, "unsigned _ty0 = 0, _tz0 = 0;");
      line(p, "for (unsigned _w = 0; _w < _B->nwarps; _w += 2, cu_rows_next(_B, &_ty0, &_tz0, %du)) {", 64u / pw_);
      p->ind++;
      p->pair = pw_;
      warp_head(p, v, m0);
      pw(p, v->body);
      warp_close(p, v, m0);
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
    } else if (p->K->wco) {   /* the one warp this call runs */
      line(p, v->k == VK_ROW ? "unsigned _tx0, _ty0, _tz0;" : "unsigned _ty0, _tz0;");
      line(p, v->k == VK_ROW ? "cu_row_at(_B, _B->wself, &_tx0, &_ty0, &_tz0);" : "cu_hrow_at(_B, _B->wself, &_ty0, &_tz0);");
      line(p, "for (unsigned _w = _B->wself; _w == _B->wself; _w++) {");
    } else {
      line(p, v->k == VK_ROW ? "unsigned _tx0 = 0, _ty0 = 0, _tz0 = 0;" : "unsigned _ty0 = 0, _tz0 = 0;");
      line(p, "for (unsigned _w = 0; _w < _B->nwarps; _w++, %s) {",
           v->k == VK_ROW ? "cu_row_next(_B, &_tx0, &_ty0, &_tz0)" : "cu_hrow_next(_B, &_ty0, &_tz0)");
    }
    p->ind++;
    warp_head(p, v, m0);
    pw(p, v->body);
    warp_close(p, v, m0);
    p->ind--;
  }
  if (nk) {
    line(p, "} else {");
    p->ind++;
  }
  Ver *g = r->vers.v[nv - 1];
  warp_open(p, g, m0);
  pw(p, g->body);
  warp_close(p, g, m0);
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

/* ---- block level ---- */

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
    line(p, "if (%s%s) {", p->K->exits ? "!_exd && " : "", bound_x(p, bt));
    line(p, "  _nt = _nc = _B->nthreads;   /* every thread: %s */", exs(p, c, false));
    line(p, "} else {");
    p->ind++;
  }
  warp_open(p, cw, true);
  pw(p, cw->body);
  ctx(p, &(Hdr){!p->K->exits, NULL, {0}});
  line(p, "%s if (_m0[_l]) {", lanes(p, true));
  line(p, "  int _c = (%s) != 0;", exs(p, c, true));
  line(p, "  if (!_c && _nt == _nc) _td = _w * 32 + _l;");
  if (park) {   /* park the threads not taking it; the first that does */
    line(p, "  if (_c && _nc == 0) _tt = _w * 32 + _l;");
    line(p, "  if (!_c) _ex[_w][_l] |= %du;", 1 << park);
  }
  line(p, "  _nt++;");
  line(p, "  _nc += _c;");
  line(p, "}");
  warp_close(p, cw, true);
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
  case BK_REGION: region(p, b->r); break;
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
    warp_open(p, b->cw, true);
    pw(p, b->cw->body);
    ctx(p, &(Hdr){!p->K->exits, NULL, {0}});
    line(p, "%s if (_m0[_l]) {", lanes(p, true));
    line(p, "  _nt++;");
    line(p, "  _nc += (%s) != 0;", exs(p, n->a, true));
    line(p, "}");
    warp_close(p, b->cw, true);
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
      c = exs(p, n->a, false);
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
      } else line(p, "if (!(%s)) break;", exs(p, n->b, false));
    }
    blk(p, b->body);
    if (ln(n)->bcont) line(p, "_cont%d: ;", b->lid);
    if (n->c) {
      if (b->inc) blk(p, b->inc);
      else line(p, "%s;", stx(p, n->c, false));
    }
    if (n->k == S_DO) {
      if (b->dw) {
        line(p, "int _lc;");
        block_cond(p, b->dw, n->b, "_lc", first_sync(n->d), "loop", 0, NULL);
        line(p, "if (!_lc) break;");
      } else line(p, "if (!(%s)) break;", exs(p, n->b, false));
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

/* ---- functions ---- */

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
static char *fn_sig(P *p, Obj *f) {
  return xfmt("%s%s(%s)", f->key ? "" : small_fn(p, f) ? "static inline __attribute__((always_inline)) " : "static ",
              ty_decl(f->ty, f->cname), params_decl(f));
}

static void device_fn(P *p, Dfn *d) {
  Obj *f = d->f;
  line(p, "/* __device__ %s, %s:%d */", f->name, f->file, f->line);
  line(p, "%s", fn_sig(p, f));
  p->fn = f;
  p->lane = false;
  p->inwarp = false;
  pw(p, d->body);
  line(p, "%s", "");
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
    line(p, K->wco ? "memset(_ex[_B->wself], 0, 32);" : "memset(_ex, 0, 32 * _B->nwarps);");
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
  if (K->wco) line(p, "  .wco = 1,");
  line(p, "  .prof = &%s_prof,", kn);
  line(p, "};");
  line(p, "%s", "");
}

/* a function-scope static's initializer at file scope (parse.c has
 * checked it is a constant): brace lists all the way down, as C wants
 * them there, not the compound literals of ex() */
static void const_init(P *p, Node *n) {
  switch (n->k) {
  case N_NUM: num(p, n); break;
  case N_FNUM: fnum(p, n); break;
  case N_STR: buf_puts(p->o, n->str); break;
  case N_CAST:
    buf_printf(p->o, "(%s)(", ty_decl(n->ty, ""));
    const_init(p, n->a);
    buf_puts(p->o, ")");
    break;
  case N_INIT:
    if (!n->list.n) { buf_puts(p->o, "{0}"); break; }
    buf_puts(p->o, "{");
    for (int i = 0; i < n->list.n; i++) {
      if (i) buf_puts(p->o, ", ");
      const_init(p, n->list.v[i]);
    }
    buf_puts(p->o, "}");
    break;
  default: buf_puts(p->o, "0"); break;
  }
}

/* names of globals, before anything is printed: a static one is read
 * through a pointer bound at start-up (cu_bind_static_symbol) */
void lw_name_globals(Prog *g) {
  for (int i = 0; i < g->globals.n; i++) {
    Obj *o = g->globals.v[i];
    if (o->is_static) lo(o)->cname = xfmt("(*cu_gp%d)", i);
  }
}

/* The printer's state lives with the pipeline: functions are printed one
 * at a time, each right after it is built. */
void lw_print_begin(Lw *L, Prog *g, Buf *out) {
  P *p = xcalloc(1, sizeof *p);
  *p = (P){.L = L, .o = out, .ck = L->ck};
  L->pr = p;
  L->out = out;
  buf_printf(out, "/* Generated by cucc %s from %s: device code, warp-vectorized.\n"
                  " * Each kernel runs as warps of 32 lanes; per-lane values are [32] arrays. */\n"
                  "#include <cucc_dev.h>\n\n", CUCC_VERSION, g->path);
  records(p, g);
  for (int i = 0; i < g->globals.n; i++) {
    Obj *o = g->globals.v[i];
    if (o->dev_def) {
      buf_printf(p->o, "static %s", decl(o->ty, o->cname, false));
      if (o->dev_init) {
        buf_puts(p->o, " = ");
        const_init(p, o->dev_init);
      }
      buf_printf(p->o, ";  /* %s:%d, static in a function */\n", o->file, o->line);
    } else if (o->is_static)
      line(p, "static %s;  /* %s:%d */", decl(ptr_to(o->ty), xfmt("cu_gp%d", i), false), o->file, o->line);
    else
      line(p, "extern %s __asm__(\"%s\");  /* %s:%d */", decl(o->ty, o->cname, false), o->key, o->file, o->line);
  }
  /* the symbols to register, by linker name only (types may not be C) */
  for (int i = 0; i < g->syms.n; i++)
    if (!((Obj *)g->syms.v[i])->is_static)
      line(p, "extern char cu_sym%d[] __asm__(\"%s\");", i, ((Obj *)g->syms.v[i])->key);
  if (g->globals.n || g->syms.n) line(p, "%s", "");
  /* checked: functions go to a buffer, after the table of their sites */
  if (p->ck) p->o = &L->body;
  /* prototypes of the device functions */
  for (int i = 0; i < g->funcs.n; i++) {
    Obj *f = g->funcs.v[i];
    if (fn_inlined(f) || lw_warp_only(L, f)) continue;
    lw_name_locals(f);
    line(p, "%s%s;", fn_sig(p, f), f->key ? xfmt(" __asm__(\"cu_dev_%s\")", f->key) : "");
  }
  if (g->funcs.n) line(p, "%s", "");
}

void lw_print_dfn(Lw *L, Dfn *d) { device_fn(L->pr, d); }

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
void lw_print_kernel(Lw *L, Kern *K) { kernel(L->pr, K); }

void lw_print_end(Lw *L, Prog *g) {
  P *p = L->pr;
  Buf *out = L->out;
  p->o = out;
  if (p->ck) {
    buf_printf(out, "static const cu_site _cs[] = {\n%s  {0, 0, 0, 0, 0, 0}\n};\n\n", p->sites.s ? p->sites.s : "");
    buf_puts(out, L->body.s ? L->body.s : "");
  }
  line(p, "static void __attribute__((constructor)) cu_register_device(void)");
  line(p, "{");
  if (p->ck) line(p, "  cu_check_init(%u);   /* cucc --check */", p->ck);
  if (g->kernels.n) {
    line(p, "  static const cu_kernel *const ks[] = {");
    for (int i = 0; i < g->kernels.n; i++) line(p, "    &cu_k%d_%s_desc,", i, ((Obj *)g->kernels.v[i])->name);
    line(p, "  };");
    line(p, "  cu_register_kernels(ks, %d);", g->kernels.n);
  }
  for (int i = 0; i < g->syms.n; i++) {
    Obj *o = g->syms.v[i];
    if (!o->is_static) line(p, "  cu_register_symbol(cu_sym%d, %lld, \"%s\");", i, (long long)o->sym_size, o->name);
  }
  for (int i = 0; i < g->globals.n; i++) {
    Obj *o = g->globals.v[i];
    if (o->is_static) line(p, "  cu_bind_static_symbol(\"%s\", (void **)&cu_gp%d);", o->key, i);
  }
  /* --check: the variables no kernel names are device memory too (one
   * reached through another's initializer, `__device__ int *p = t + 1;`) */
  for (int i = 0; i < g->syms.n && p->ck; i++) {
    Obj *o = g->syms.v[i];
    bool used = false;
    for (int j = 0; j < g->globals.n; j++) used |= g->globals.v[j] == o;
    if (!o->is_static && !used) line(p, "  cu_ck_object(cu_sym%d, %lld, \"%s\");", i, (long long)o->sym_size, o->name);
  }
  for (int i = 0; i < g->globals.n && p->ck; i++) {   /* after the bindings: a static one is reached through its pointer */
    Obj *o = g->globals.v[i];
    line(p, "  cu_ck_object(&%s, sizeof %s, \"%s\");", cname(o), cname(o), o->name);
  }
  int arch = L->o->arch ? L->o->arch : 75;
  line(p, "  cu_set_arch(%d);   /* -arch=sm_%d: the default device model */", arch, arch);
  line(p, "}");
}
