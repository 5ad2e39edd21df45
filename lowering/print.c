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
 * those that do).
 *
 * The printer's files, one concern each (print.h: what they share):
 *   print.c    C types, expressions, and the file around the functions
 *              (records, globals, prototypes; --check's sites, registration)
 *   pblock.c   a kernel's block function: block-level items, descriptor
 *   pregion.c  a region: its versions, each a loop over the block's warps
 *   pstmt.c    warp statements (W): control flow, one template per kind
 *   plane.c    lane loops and lane statements; runs of lanes
 *   pcoll.c    warp collectives
 *   pfunc.c    device functions: scalar ones and warp versions */
#include "print.h"

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
/* the bytes of a value of type t at off that hold data (not a record's
 * padding) */
static void data_bytes(Type *t, unsigned char *m, int64_t off) {
  if (t->kind == TY_RECORD && t->rec) {
    for (int i = 0; i < t->rec->fields.n; i++) {
      Field *f = t->rec->fields.v[i];
      data_bytes(f->ty, m, off + f->off);
    }
  } else if (t->kind == TY_ARRAY && t->base && t->len > 0 && t->base->size > 0) {
    for (int64_t i = 0; i < t->len; i++) data_bytes(t->base, m, off + i * t->base->size);
  } else if (t->size > 0) memset(m + off, 1, (size_t)t->size);
}

/* a record read's map of its data bytes, where it has padding: a
 * GPU copies a struct field by field, so initcheck looks at those only */
static const char *site_data(P *p, Type *t) {
  if (t->kind != TY_RECORD || t->size <= 0 || t->size > 4096) return "0";
  unsigned char *m = xcalloc((size_t)t->size, 1);
  data_bytes(t, m, 0);
  bool pad = memchr(m, 0, (size_t)t->size) != NULL;
  char *nm = xfmt("_cp%d", p->nsites);
  if (pad) {
    buf_printf(&p->pads, "static const unsigned char %s[] = {", nm);
    for (int64_t k = 0; k < t->size; k++) buf_printf(&p->pads, "%s%d", k ? "," : "", m[k]);
    buf_puts(&p->pads, "};\n");
  }
  free(m);
  return pad ? nm : "0";
}

int p_site(P *p, Node *n, int acc, int space) {
  buf_printf(&p->sites, "  {\"%s\", %d, %lld, %d, %d, %d, %s},\n", n->file, n->line, (long long)n->ty->size,
             n->ty->align > 0 ? n->ty->align : 1, acc, space, site_data(p, n->ty));
  return p->nsites++;
}

/* Counting for CUCC_PROFILE happens in kernels' general versions only. */
bool p_prof_here(P *p) { return p->fn->is_kernel && p->inwarp && !p->fast && !p->hw && !p->bw && !p->noprof; }

/* how many lanes run the current statement */
const char *p_act_count(P *p) { return p->full ? "(unsigned)_nl" : xfmt("cu_count(%s)", mname(p->m)); }

/* a divergent branch site evaluated by a warp: `taken` of `active` lanes
 * went the first way (a split when neither none nor all) */
void p_prof_branch(P *p, int ps, const char *taken, const char *active) {
  if (ps < 0) return;
  line(p, "if (_pf & 1) { _pbr++; if (%s && %s != %s) { _pdv++; __atomic_fetch_add(&%s_psplit[%d], 1, __ATOMIC_RELAXED); } }",
       taken, taken, active, p->K->cn, ps);
}

/* ---- expressions ---- */

static void ex(P *p, Node *n);

char *p_exs(P *p, Node *n, bool lane) {
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
char *p_stx(P *p, Node *n, bool lane) {
  char *s = p_exs(p, n, lane);
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
    int id = p_site(p, n, acc, SP_OBJ);
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
  int id = p_site(p, n, acc, space);
  char *obj = xstrdup("0"), *objn = xstrdup("0");
  if (space == SP_OBJ) {
    char *r = p_exs(p, c, p->lane);
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

bool p_promoted(P *p, Obj *o) {
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
Type *p_unvol(Type *t) {
  Type *u = calloc(1, sizeof *u);
  *u = *t;
  u->is_volatile = false;
  if (t->kind == TY_ARRAY) u->base = p_unvol(t->base);
  return u;
}

/* ---- records kept per field (soa.c) ---- */
const char *p_soa_f(Obj *o, int i) { return xfmt("_fld%d_%s", i, cname(o)); }

Field *p_soa_fld(Obj *o, int i) { return o->ty->rec->fields.v[i]; }

/* the record read whole: rebuilt from its lanes' fields */
static char *soa_read(P *p, Obj *o) {
  Buf b = {0};
  buf_printf(&b, "((%s){", ty_decl(o->ty, ""));
  for (int i = 0; i < o->ty->rec->fields.n; i++) buf_printf(&b, "%s%s[%s]", i ? ", " : "", p_soa_f(o, i), p->lane ? "_l" : "0");
  buf_puts(&b, "})");
  return buf_take(&b);
}

/* the record stored whole: v taken apart into its lane's fields */
char *p_soa_store(Obj *o, const char *v) {
  Buf b = {0};
  buf_printf(&b, "({ %s = (%s); ", ty_decl(o->ty, "_rec"), v);
  for (int i = 0; i < o->ty->rec->fields.n; i++) buf_printf(&b, "%s[_l] = _rec.%s; ", p_soa_f(o, i), p_soa_fld(o, i)->name);
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
    pt->base = p_unvol(o->ty->base);
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
  if (p->lane && p_promoted(p, o)) {   /* (jammed: the lanes' array; a body's own variable: the lane's scalar) */
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
/* a row access's base index x (the first lane's index): of unsigned int
 * type, it may have wrapped below zero where the active lanes' have not */
char *p_row_base(Node *b, char *x) {
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
    case B_BALL:   /* (bspec.c) */
      buf_puts(o, "(");
      if (ln(n)->bt) buf_puts(o, p_bound_x(p, ln(n)->bt));
      if (ln(n)->bt && ln(n)->bu) buf_puts(o, " && ");
      if (ln(n)->bu) ex(p, ln(n)->bu);
      buf_puts(o, ")");
      break;
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
      buf_puts(o, p_soa_store(n->a->var, p_exs(p, n->b, p->lane)));
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
      /* (out of a lane: a result the same in every lane, shape.c's
       * coll_shape; in half rows, the same in the sub-row's lanes) */
      if (p->lane) buf_printf(o, "%s[_l]", h);
      else if (p->rbase) buf_printf(o, "%s[_r * %d]", h, p->hw);
      else buf_printf(o, "%s[0]", h);
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
      const char *m = n->list.n ? p_exs(p, n->list.v[0], p->lane) : "0xffffffffu";
      buf_printf(o, "cu_ck_syncwarp(_B, cu_tid3(_B, _tx, _ty, _tz), %s, %s, \"%s\", %d)", m, m, n->file, n->line);
      break;
    }
    if (n->ck == C_ATOMIC && !p->ck && shared_atomic(n)) buf_printf(o, "cu_s%s", n->name + 3);
    else if (n->ck == C_ATOMIC && ln(n)->batch) buf_printf(o, "cu_wb_%s", n->name + 3);   /* (batch.c) */
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
      buf_printf(o, "[%s])[%s]", p_row_base(n->b, p_exs(p, n->b, false)), p->hw ? "_x" : "_l");
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
        if (p_soa_fld(r, i) == n->field || !strcmp(p_soa_fld(r, i)->name, n->field->name)) {
          buf_printf(o, "%s[%s]", p_soa_f(r, i), p->lane ? "_l" : "0");
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

/* ---- the file: what comes before the functions and after ---- */

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
    line(p, "%s%s;", p_fn_sig(p, f), f->key ? xfmt(" __asm__(\"cu_dev_%s\")", f->key) : "");
  }
  if (g->funcs.n) line(p, "%s", "");
}

void lw_print_end(Lw *L, Prog *g) {
  P *p = L->pr;
  Buf *out = L->out;
  p->o = out;
  if (p->ck) {
    buf_puts(out, p->pads.s ? p->pads.s : "");
    buf_printf(out, "static const cu_site _cs[] = {\n%s  {0, 0, 0, 0, 0, 0, 0}\n};\n\n", p->sites.s ? p->sites.s : "");
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
