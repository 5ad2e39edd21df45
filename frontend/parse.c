/* parse.c: libclang cursors -> typed IR of device code.
 *
 * The TU is parsed once, in clang's CUDA host mode against cucc's own
 * headers (translate.c). Kernels and the device functions they reach are
 * walked here, cursor by cursor, into Nodes and Objs; nothing is pasted as
 * text except string literals. Anything we cannot model is reported at its
 * location as "unsupported" rather than guessed at. */
#include "cucc.h"
#include "fe.h"

/* Is cursor c written before the name of function fn (a qualifier)? */
static bool before_name(CXCursor c, CXCursor fn) {
  CXFile f1, f2;
  unsigned a, b;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f1, NULL, NULL, &a);
  clang_getExpansionLocation(clang_getCursorLocation(fn), &f2, NULL, NULL, &b);
  return f1 && f2 && clang_File_isEqual(f1, f2) && a < b;
}
#include <ctype.h>
#include <limits.h>

/* ---- small libclang helpers ---- */

char *cx_str(CXString s) {
  char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}


static enum CXChildVisitResult kids_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Kids *k = d;
  if (k->n == k->cap) {
    k->cap = k->cap ? k->cap * 2 : 8;
    k->v = xrealloc(k->v, sizeof(CXCursor) * k->cap);
  }
  k->v[k->n++] = c;
  return CXChildVisit_Continue;
}

Kids fe_kids(CXCursor c) {
  Kids k = {0};
  clang_visitChildren(c, kids_cb, &k);
  return k;
}
#define kids fe_kids

void cx_loc(CXCursor c, const char **file, int *line, int *col) {
  CXFile f;
  unsigned ln = 0, cl = 0, off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, &ln, &cl, &off);
  *file = f ? fe_intern(cx_str(clang_getFileName(f))) : "<unknown>";
  *line = ln;
  *col = f ? cdp_col(*file, ln, cl, off) : (int)cl;   /* the user's, past a launch cdp.c wrapped */
}

static void err_c(CXCursor c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void err_c(CXCursor c, const char *fmt, ...) {
  const char *f;
  int l, cl;
  cx_loc(c, &f, &l, &cl);
  Buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  char tmp[1024];
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  buf_puts(&b, tmp);
  errorat(f, l, cl, "%s", b.s);
  free(b.s);
}

bool cx_has_attr(CXCursor c, enum CXCursorKind a) {
  Kids k = kids(c);
  bool r = false;
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.v[i]) == a) r = true;
  free(k.v);
  return r;
}

static bool is_expr(CXCursor c) { return clang_isExpression(clang_getCursorKind(c)); }

/* ---- types ---- */

static Type *new_type(TyKind k, int64_t size, int align) {
  Type *t = xcalloc(1, sizeof *t);
  t->kind = k;
  t->size = size;
  t->align = align;
  return t;
}

static Record *mk_record(Fe *p, CXType ct, CXCursor where);
static bool cx_user_written(CXCursor f);

Type *mk_type(Fe *p, CXType t, CXCursor where) {
  CXType ct = clang_getCanonicalType(t);
  Type *ty = NULL;
  switch (ct.kind) {
  case CXType_Void: ty = new_type(TY_VOID, 1, 1); break;
  case CXType_Bool: ty = new_type(TY_BOOL, 1, 1); break;
  case CXType_Char_S: case CXType_Char_U: ty = new_type(TY_CHAR, 1, 1); break;
  case CXType_SChar: ty = new_type(TY_SCHAR, 1, 1); break;
  case CXType_UChar: ty = new_type(TY_UCHAR, 1, 1); break;
  case CXType_Short: ty = new_type(TY_SHORT, 2, 2); break;
  case CXType_UShort: ty = new_type(TY_USHORT, 2, 2); break;
  case CXType_Int: ty = new_type(TY_INT, 4, 4); break;
  case CXType_UInt: ty = new_type(TY_UINT, 4, 4); break;
  case CXType_Long: ty = new_type(TY_LONG, 8, 8); break;
  case CXType_ULong: ty = new_type(TY_ULONG, 8, 8); break;
  case CXType_LongLong: ty = new_type(TY_LLONG, 8, 8); break;
  case CXType_ULongLong: ty = new_type(TY_ULLONG, 8, 8); break;
  case CXType_Float: ty = new_type(TY_FLOAT, 4, 4); break;
  case CXType_Double: ty = new_type(TY_DOUBLE, 8, 8); break;
  case CXType_LongDouble: ty = new_type(TY_LDOUBLE, 16, 16); break;
  case CXType_NullPtr:
    ty = new_type(TY_PTR, 8, 8);
    ty->base = new_type(TY_VOID, 1, 1);
    break;
  case CXType_Pointer: {
    CXType pt = clang_getPointeeType(ct);
    CXType pc = clang_getCanonicalType(pt);
    if (pc.kind == CXType_FunctionProto || pc.kind == CXType_FunctionNoProto) {
      err_c(where, "unsupported in device code: function pointer type '%s'",
            cx_str(clang_getTypeSpelling(t)));
      return new_type(TY_INT, 4, 4);
    }
    ty = new_type(TY_PTR, 8, 8);
    /* a pointer to an incomplete class is a handle (cudaStream_t,
     * cudaEvent_t): C++ neither reads through it nor steps it */
    if (pc.kind == CXType_Record && clang_Type_getSizeOf(pc) < 0) ty->base = new_type(TY_VOID, 1, 1);
    else ty->base = mk_type(p, pt, where);
    break;
  }
  case CXType_LValueReference:
  case CXType_RValueReference: {
    /* const T & and T && become T by value: the same results unless the
     * referent changes while the reference lives, which device code
     * rarely does; T & becomes a pointer, so writes reach the referent */
    CXType pt = clang_getPointeeType(ct);
    Type *bt = mk_type(p, pt, where);
    /* ... except for a dynamic class, whose calls dispatch on the object
     * referred to, not a copy of its base part */
    bool dyn = bt->kind == TY_RECORD && fe_cls(p, bt->rec) && fe_cls(p, bt->rec)->dyn;
    if (!dyn && (ct.kind == CXType_RValueReference || (clang_isConstQualifiedType(pt) && !clang_isVolatileQualifiedType(pt))))
      return bt;
    ty = new_type(TY_PTR, 8, 8);
    ty->base = bt;
    ty->is_ref = true;
    break;
  }
  case CXType_ConstantArray:
    ty = new_type(TY_ARRAY, clang_Type_getSizeOf(ct), (int)clang_Type_getAlignOf(ct));
    ty->base = mk_type(p, clang_getArrayElementType(ct), where);
    ty->len = clang_getArraySize(ct);
    break;
  case CXType_IncompleteArray:
    ty = new_type(TY_ARRAY, -1, 1);
    ty->base = mk_type(p, clang_getArrayElementType(ct), where);
    ty->align = ty->base->align;
    ty->len = -1;
    break;
  case CXType_Enum:
    ty = mk_type(p, clang_getEnumDeclIntegerType(clang_getTypeDeclaration(ct)), where);
    break;
  case CXType_Record:
    ty = new_type(TY_RECORD, clang_Type_getSizeOf(ct), (int)clang_Type_getAlignOf(ct));
    ty->rec = mk_record(p, ct, where);
    break;
  default:
    err_c(where, "unsupported in device code: type '%s'", cx_str(clang_getTypeSpelling(t)));
    return new_type(TY_INT, 4, 4);
  }
  if (ty->kind != TY_ARRAY) {
    ty = memcpy(xcalloc(1, sizeof *ty), ty, sizeof *ty);
    ty->is_const = clang_isConstQualifiedType(ct);
    ty->is_volatile = clang_isVolatileQualifiedType(ct);
  }
  return ty;
}

typedef struct FieldCtx { Fe *p; Record *r; CXCursor where; } FieldCtx;

static enum CXVisitorResult field_cb(CXCursor c, CXClientData d) {
  FieldCtx *fc = d;
  if (clang_Cursor_isBitField(c)) {
    err_c(c, "unsupported in device code: bit-field '%s'", cx_str(clang_getCursorSpelling(c)));
    return CXVisit_Continue;
  }
  Field *f = xcalloc(1, sizeof *f);
  f->name = cx_str(clang_getCursorSpelling(c));
  f->ty = mk_type(fc->p, clang_getCursorType(c), c);
  f->off = clang_Cursor_getOffsetOfField(c) / 8;
  /* an anonymous struct or union member: libclang spells it
   * "S::(anonymous struct at file:line:col)" */
  if (!*f->name || strchr(f->name, '(') ||
      clang_Cursor_isAnonymousRecordDecl(clang_getTypeDeclaration(clang_getCursorType(c))))
    f->name = xfmt("cu_anon%d", fc->r->fields.n);
  vec_push(&fc->r->fields, f);
  return CXVisit_Continue;
}

static Record *mk_record(Fe *p, CXType ct, CXCursor where) {
  CXCursor decl = clang_getTypeDeclaration(ct);
  char *usr = cx_str(clang_getCursorUSR(decl));
  for (int i = 0; i < p->allrecs.n; i++) {
    Record *r = p->allrecs.v[i];
    if (!strcmp(r->usr, usr)) return r;
  }
  Record *r = xcalloc(1, sizeof *r);
  r->usr = usr;
  r->size = clang_Type_getSizeOf(ct);
  r->align = (int)clang_Type_getAlignOf(ct);
  r->is_union = clang_getCursorKind(decl) == CXCursor_UnionDecl;
  char *nm = cx_str(clang_getCursorSpelling(decl));
  if (!*nm || strchr(nm, ' ') || strchr(nm, '(')) nm = xstrdup("anon");
  r->cname = xfmt("cu_s_%s", nm);
  for (int i = 0; i < p->allrecs.n; i++)
    if (!strcmp(((Record *)p->allrecs.v[i])->cname, r->cname)) {
      r->cname = xfmt("cu_s_%s_%d", nm, p->allrecs.n);
      break;
    }
  vec_push(&p->allrecs, r);
  if (r->size < 0) {
    err_c(where, "unsupported in device code: incomplete type '%s'", cx_str(clang_getTypeSpelling(ct)));
    return r;
  }
  /* C++ classes: bases and the vptr are members before the class's own
   * (class.c) */
  fe_rec_bases(p, r, decl, where);
  FieldCtx fc = {p, r, where};
  clang_Type_visitFields(ct, field_cb, &fc);
  fe_rec_check(p, r, where);
  vec_push(&p->prog->records, r);  /* after its fields' records: definition order */
  return r;
}

/* ---- nodes ---- */

static Node *expr(Fe *p, CXCursor c);
static Node *stmt(Fe *p, CXCursor c);
static void dt_loop(Fe *p, Node *loop);

static Type *cty(Fe *p, CXCursor c) { return mk_type(p, clang_getCursorType(c), c); }

/* References: a use of one reads through it, a binding takes the address
 * of the lvalue it names. */
static Node *deref(Node *a) {
  if (a->ty->kind != TY_PTR || !a->ty->is_ref) return a;
  return ir_deref(ir_loc(a), a);
}

static bool effect_p(Node *n, void *c) {
  (void)c;
  return n->k == N_ASSIGN || n->k == N_INCDEC || n->k == N_CALL;
}

/* the variables an expression's ++, -- and assignments change */
static int changed_f(Node *n, void *c) {
  if ((n->k == N_ASSIGN || n->k == N_INCDEC) && n->a->k == N_VAR) vec_push(c, n->a->var);
  return W_GO;
}

static bool reads_p(Node *n, void *c) { return n->k == N_VAR && n->var == c; }

static Node *addr_of(Node *a, Type *pty) {
  while (a->k == N_CAST && a->implicit) a = a->a;
  if (a->k == N_UN && a->op == OP_DEREF) return a->a;
  /* C++'s lvalues C has no form for: `x = v` and `++x` are x, after them
   * (`(x = v, &x)`; x evaluated again, so only where it has no effects of
   * its own); `(e, x)` is x */
  if ((a->k == N_ASSIGN || (a->k == N_INCDEC && !a->post)) && !any_node(a->a, effect_p, NULL))
    return ir_comma(ir_loc(a), a, addr_of(fe_dup(a->a), pty));
  if (a->k == N_COMMA) return ir_comma(ir_loc(a->a), a->a, addr_of(a->b, pty));
  if (a->k == N_COND) {   /* c ? x : y as an lvalue: c ? &x : &y */
    Node *n = xcalloc(1, sizeof *n);
    *n = *a;
    n->ty = pty;
    n->b = addr_of(a->b, pty);
    n->c = addr_of(a->c, pty);
    return n;
  }
  /* a temporary object (`SharedMemory<T>()` whose conversion operator is
   * called): a record's N_INIT prints as a C compound literal, an lvalue */
  bool tmp = a->k == N_INIT && a->ty->kind == TY_RECORD;
  if (a->k != N_VAR && a->k != N_INDEX && a->k != N_MEMBER && !tmp) {
    errorat(a->file, a->line, a->col, "unsupported in device code: a non-const reference bound to a temporary");
    return a;
  }
  Node *n = ir_un(ir_loc(a), OP_ADDR, pty, a);
  if (a->k == N_VAR) a->var->addr_taken = true;
  return n;
}

/* The operand of an assignment, ++, -- or & that is such a C++ lvalue
 * (`(c ? a : b) = v`, `(a = b) += 5`, `++(++x)`): through its address,
 * `*(c ? &a : &b) = v` */
static Node *cxx_lvalue(Node *e) {
  Node *b = e;
  while (b->k == N_CAST && b->implicit) b = b->a;
  if (b->k != N_COND && b->k != N_ASSIGN && b->k != N_COMMA && !(b->k == N_INCDEC && !b->post)) return e;
  return ir_un(ir_loc(e), OP_DEREF, e->ty, addr_of(b, ir_ptr(e->ty)));
}

/* The object of a member call: a temporary one (CUB's
 * `BlockReduce(temp).Sum(x)`, a functor's `Op()(a, b)`) is first stored in
 * a local of the function, whose address `this` is. */
static Type *unconst(Type *t);

static Node *obj_addr(Fe *p, Node *a, Type *pty) {
  Node *b = a;
  while (b->k == N_CAST && b->implicit) b = b->a;
  if (b->ty->kind != TY_RECORD || b->k == N_VAR || b->k == N_INDEX || b->k == N_MEMBER || b->k == N_INIT ||
      (b->k == N_UN && b->op == OP_DEREF) || b->k == N_COND)
    return addr_of(a, pty);
  Obj *o = xcalloc(1, sizeof *o);
  o->name = xfmt("cu_tmp%d", p->fn->locals.n);
  o->file = a->file, o->line = a->line, o->col = a->col;
  o->ty = unconst(b->ty);
  o->addr_taken = true;
  vec_push(&p->fn->locals, o);
  vec_push(&p->tmps, o);
  Loc at = ir_loc(a);
  Node *v = ir_var(at, o);
  return ir_comma(at, ir_assign(at, v, b), addr_of(v, pty));   /* (of type pty) */
}

static bool is_int(Type *t) { return t->kind >= TY_BOOL && t->kind <= TY_ULLONG; }
static bool is_flt(Type *t) { return t->kind >= TY_FLOAT && t->kind <= TY_LDOUBLE; }

/* Fold a constant expression (literals, sizeof, enumerators, default args). */
static Node *eval(Fe *p, CXCursor c) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return NULL;
  Node *n = NULL;
  Type *ty = cty(p, c);
  switch (clang_EvalResult_getKind(r)) {
  case CXEval_Int:
    if (clang_EvalResult_isUnsignedInt(r))
      n = ir_num(ir_cloc(c), ty, (int64_t)clang_EvalResult_getAsUnsigned(r));
    else
      n = ir_num(ir_cloc(c), ty, clang_EvalResult_getAsLongLong(r));
    if (is_flt(ty)) { n->k = N_FNUM; n->fval = (double)n->ival; }
    break;
  case CXEval_Float:
    n = ir_node(N_FNUM, c);
    n->ty = ty;
    n->fval = clang_EvalResult_getAsDouble(r);
    if (is_int(ty)) { n->k = N_NUM; n->ival = (int64_t)n->fval; }
    break;
  default: break;
  }
  clang_EvalResult_dispose(r);
  return n;
}

/* Find the Obj of a variable declaration cursor. */
static Obj *find_var(Fe *p, CXCursor decl) {
  for (int i = p->vars.n - 1; i >= p->vars0; i--) {
    VarMap *m = p->vars.v[i];
    if (clang_equalCursors(m->c, decl)) return m->o;
  }
  return NULL;
}

/* A variable's own const (const int t = threadIdx.x; const float a[4]):
 * dropped, since lowering may keep the variable per thread and store it
 * lane by lane (clang has checked that the program never writes it). */
static Type *unconst(Type *t) {
  if (!t->is_const && t->kind != TY_ARRAY) return t;
  Type *u = memcpy(xcalloc(1, sizeof *u), t, sizeof *u);
  u->is_const = false;
  if (u->kind == TY_ARRAY) u->base = unconst(u->base);
  return u;
}

static Obj *new_var(Fe *p, CXCursor c) {
  Obj *o = xcalloc(1, sizeof *o);
  o->name = cx_str(clang_getCursorSpelling(c));
  if (!*o->name) o->name = xfmt("cu_unnamed%d", p->fn->locals.n);
  cx_loc(c, &o->file, &o->line, &o->col);
  o->ty = unconst(cty(p, c));
  VarMap *m = xcalloc(1, sizeof *m);
  m->c = c;
  m->o = o;
  vec_push(&p->vars, m);
  vec_push(&p->fn->locals, o);
  return o;
}

/* A namespace-scope variable as host code spells it from the end of its
 * file (anonymous namespaces need no qualifier there). */
static char *host_name(CXCursor d) {
  char *nm = cx_str(clang_getCursorSpelling(d));
  for (CXCursor s = clang_getCursorSemanticParent(d); clang_getCursorKind(s) == CXCursor_Namespace;
       s = clang_getCursorSemanticParent(s)) {
    char *ns = cx_str(clang_getCursorSpelling(s));
    if (*ns) nm = xfmt("%s::%s", ns, nm);
  }
  return nm;
}

/* Identity of a __device__/__constant__ variable: its linker name, or for
 * one with internal linkage (static, anonymous namespace) "file:name". */
static bool var_tmpl_inst(CXCursor d);

static char *global_key(CXCursor d) {
  enum CXLinkageKind l = clang_getCursorLinkage(d);
  if (l == CXLinkage_External) return cx_str(clang_Cursor_getMangling(d));
  /* (a static variable template's instances would share "file:name") */
  if (var_tmpl_inst(d)) return NULL;
  if (l != CXLinkage_Internal && l != CXLinkage_UniqueExternal) return NULL;
  const char *f;
  int line, col;
  cx_loc(d, &f, &line, &col);
  return xfmt("%s:%s", f, host_name(d));
}

/* A variable template's instance (`template <class T> __constant__ T
 * mask[4];` named as mask<float>): libclang shows it as an unexposed
 * declaration, with a variable's type, attributes and mangled name. */
static bool var_tmpl_inst(CXCursor d) {
  if (clang_getCursorKind(d) != CXCursor_UnexposedDecl) return false;
  enum CXTypeKind tk = clang_getCursorType(d).kind;
  if (tk == CXType_Invalid || tk == CXType_FunctionProto || tk == CXType_FunctionNoProto) return false;
  char *m = cx_str(clang_Cursor_getMangling(d));
  bool r = !strncmp(m, "_Z", 2);
  free(m);
  return r;
}

/* A __device__ or __constant__ variable at namespace scope. Memory is
 * unified, so the host unit's definition is the device object too; the
 * device C names it by its linker symbol. */
static Obj *global_var(Fe *p, CXCursor d) {
  if ((!cx_has_attr(d, CXCursor_CUDADeviceAttr) && !cx_has_attr(d, CXCursor_CUDAConstantAttr)) ||
      cx_has_attr(d, CXCursor_CUDASharedAttr))
    return NULL;
  char *key = global_key(d);
  if (!key) {
    if (var_tmpl_inst(d))
      err_c(d, "unsupported: variable template '%s' with internal linkage (static, or in an unnamed namespace)",
            cx_str(clang_getCursorSpelling(d)));
    else
      err_c(d, "unsupported: __device__/__constant__ variable '%s' with this linkage", cx_str(clang_getCursorSpelling(d)));
    return NULL;
  }
  for (int i = 0; i < p->prog->globals.n; i++) {
    Obj *o = p->prog->globals.v[i];
    if (!strcmp(o->key, key)) return o;
  }
  Obj *o = xcalloc(1, sizeof *o);
  o->name = cx_str(clang_getCursorSpelling(d));
  o->key = key;
  o->is_static = clang_getCursorLinkage(d) != CXLinkage_External;
  o->cname = xfmt("cu_g_%s", o->name);
  for (int i = 0; i < p->prog->globals.n; i++)
    if (!strcmp(((Obj *)p->prog->globals.v[i])->cname, o->cname)) o->cname = xfmt("cu_g%d_%s", i, o->name);
  o->ty = cty(p, d);
  o->is_global = true;
  o->is_tmpl_var = var_tmpl_inst(d);
  cx_loc(d, &o->file, &o->line, &o->col);
  vec_push(&p->prog->globals, o);
  return o;
}

/* A constant initializer C accepts at file scope: numbers, strings, casts
 * of them and brace lists of them. */
static bool const_init(Node *n) {
  if (!n) return true;
  switch (n->k) {
  case N_NUM: case N_FNUM: case N_STR: return true;
  case N_CAST: return const_init(n->a);
  case N_UN:   /* -2.0f: print.c folds the sign into the number */
    if (n->op != OP_NEG || (n->a->k != N_NUM && n->a->k != N_FNUM)) return false;
    n->k = n->a->k;
    n->ival = (int64_t)(0 - (uint64_t)n->a->ival);
    n->fval = -n->a->fval;
    n->a = NULL;
    return true;
  case N_INIT:
    for (int i = 0; i < n->list.n; i++)
      if (!const_init(n->list.v[i])) return false;
    return true;
  default: return false;
  }
}

/* A function-scope static of device code (`static const int t[4] = {...};`
 * a lookup table, `static __device__ int n;`): one object for the program,
 * as in C++, so a file-scope object of the device C, named after its
 * function (host code cannot name it, so the host unit has no part in it).
 * Made once per declaration (an instantiated template's body has
 * declarations of its own); C++ allows such a static only a constant
 * initializer in device code, which the device C then spells. */
static Obj *static_local(Fe *p, CXCursor v) {
  static Vec decls, objs;
  for (int i = 0; i < decls.n; i++)
    if (clang_equalCursors(*(CXCursor *)decls.v[i], v)) return objs.v[i];
  Obj *o = xcalloc(1, sizeof *o);
  o->name = cx_str(clang_getCursorSpelling(v));
  cx_loc(v, &o->file, &o->line, &o->col);
  o->ty = cty(p, v);
  o->is_global = o->dev_def = true;
  o->key = xfmt("%s:%d:%d:%s", o->file, o->line, o->col, o->name);
  o->cname = xfmt("cu_sl%d_%s_%s", p->prog->globals.n, p->fn->name, o->name);
  for (char *q = o->cname; *q; q++)   /* (an operator's or a lambda's name) */
    if (!isalnum((unsigned char)*q) && *q != '_') *q = '_';
  if (o->ty->kind == TY_ARRAY && o->ty->len < 0)
    err_c(v, "unsupported in device code: static local array '%s' of unknown size", o->name);
  if (!clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(v))) {
    Kids k = kids(v);
    for (int j = 0; j < k.n; j++)
      if (is_expr(k.v[j]) && !(o->dev_init = eval(p, k.v[j])))   /* (a scalar's constant expression folded) */
        o->dev_init = expr(p, k.v[j]);
    free(k.v);
    if (o->dev_init && o->dev_init->k == N_INIT && o->dev_init->post) o->dev_init = NULL;   /* trivial construction */
    if (!const_init(o->dev_init))
      err_c(v, "unsupported in device code: static local variable '%s' whose initializer is not a constant", o->name);
  }
  CXCursor *c = xcalloc(1, sizeof *c);
  *c = v;
  vec_push(&decls, c);
  vec_push(&objs, o);
  vec_push(&p->prog->globals, o);
  return o;
}

/* A __shared__ variable at namespace scope (`__shared__ float tile[64];`
 * outside any function): one object per block in every kernel that uses
 * it, as CUDA has it. It is made once (one Obj for the whole program, by
 * USR) and joins the shared variables and locals of each function that
 * names it; a device function with one is inlined into its callers
 * (inline.c), which keeps one copy per kernel. */
static Obj *file_shared(Fe *p, CXCursor d) {
  if (!cx_has_attr(d, CXCursor_CUDASharedAttr)) return NULL;
  static Vec usrs, objs;
  char *usr = cx_str(clang_getCursorUSR(d));
  Obj *o = NULL;
  for (int i = 0; i < usrs.n && !o; i++)
    if (!strcmp(usrs.v[i], usr)) o = objs.v[i];
  if (!o) {
    o = xcalloc(1, sizeof *o);
    o->name = cx_str(clang_getCursorSpelling(d));
    cx_loc(d, &o->file, &o->line, &o->col);
    o->ty = unconst(cty(p, d));
    o->is_shared = true;
    o->is_extern_shared = clang_Cursor_getStorageClass(d) == CX_SC_Extern;
    vec_push(&usrs, usr);
    vec_push(&objs, o);
  }
  bool have = false;
  for (int i = 0; i < p->fn->shared.n; i++) have |= p->fn->shared.v[i] == o;
  if (!have) {
    vec_push(&p->fn->shared, o);
    vec_push(&p->fn->locals, o);
  }
  return o;
}

/* A lambda's call operator is a function of its own: a variable of the
 * function around it that its body names becomes a hidden parameter
 * holding the variable's address (every capture acts by reference: the
 * same results unless a [=] capture changes between the lambda's creation
 * and its call). */
static bool is_lambda(CXCursor cls) {
  char *t = cx_str(clang_getTypeSpelling(clang_getCursorType(cls)));
  bool r = strstr(t, "(lambda at ") != NULL;
  free(t);
  return r;
}

static Obj *capture(Fe *p, CXCursor d) {
  Obj *f = p->fn;
  if (!f || !f->is_lambda || clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_TranslationUnit)
    return NULL;
  for (int i = 0; i < f->caps.n; i++)
    if (clang_equalCursors(*(CXCursor *)f->caps.v[i], d)) return f->params.v[f->params.n - f->caps.n + i];
  Obj *o = xcalloc(1, sizeof *o);
  o->name = cx_str(clang_getCursorSpelling(d));
  cx_loc(d, &o->file, &o->line, &o->col);
  Type *t = cty(p, d);
  if (t->is_ref) t = t->base;
  o->ty = new_type(TY_PTR, 8, 8);
  o->ty->base = t;
  o->ty->is_ref = true;
  o->is_param = true;
  vec_push(&f->params, o);
  vec_push(&f->locals, o);
  CXCursor *cp = xcalloc(1, sizeof *cp);
  *cp = d;
  vec_push(&f->caps, cp);
  return o;
}

/* Every __device__/__constant__ variable defined in the .cu itself, used by
 * a kernel or not: the device object registers each as a symbol for
 * cudaMemcpyToSymbol & co. (runtime/src/symbol.c). Only its linker name and
 * size are needed, so a type device code could not use is no error here. */
/* In the .cu or in a header of the user's own (not a system header, not
 * one of ours): where the program's own __device__ variables are defined. */
static bool user_loc(Fe *p, CXCursor c) {
  CXSourceLocation at = clang_getCursorLocation(c);
  if (clang_Location_isFromMainFile(at)) return true;
  if (clang_Location_isInSystemHeader(at)) return false;
  CXFile f;
  clang_getExpansionLocation(at, &f, NULL, NULL, NULL);
  if (!f) return false;
  char *path = cx_str(clang_getFileName(f));
  const char *inc = p->opts->incdir;
  size_t ni = inc ? strlen(inc) : 0;
  bool ours = ni && !strncmp(path, inc, ni) && path[ni] == '/';
  free(path);
  return !ours;
}

static enum CXChildVisitResult globals_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Fe *p = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (!user_loc(p, c)) return CXChildVisit_Continue;
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
  char *key;
  if ((k == CXCursor_VarDecl || var_tmpl_inst(c)) && clang_isCursorDefinition(c) &&
      (cx_has_attr(c, CXCursor_CUDADeviceAttr) || cx_has_attr(c, CXCursor_CUDAConstantAttr)) &&
      (key = global_key(c)) != NULL) {
    Obj *o = xcalloc(1, sizeof *o);
    o->name = cx_str(clang_getCursorSpelling(c));
    o->key = key;
    o->is_static = clang_getCursorLinkage(c) != CXLinkage_External;
    o->pretty = host_name(c);
    o->sym_size = clang_Type_getSizeOf(clang_getCursorType(c));
    o->is_tmpl_var = var_tmpl_inst(c);
    vec_push(&p->prog->syms, o);
  }
  return CXChildVisit_Continue;
}

void fe_globals(Fe *p) {
  clang_visitChildren(clang_getTranslationUnitCursor(p->tu), globals_cb, p);
}

static const char *builtin_var(CXCursor decl, Builtin *bk) {
  /* threadIdx & co. are declared in our cuda_runtime.h; recognize them by
   * name at file scope so a user variable named threadIdx in a function
   * is not mistaken for one. */
  char *nm = cx_str(clang_getCursorSpelling(decl));
  CXCursor sp = clang_getCursorSemanticParent(decl);
  if (clang_getCursorKind(sp) != CXCursor_TranslationUnit) return NULL;
  static const struct { const char *n; Builtin b; } t[] = {
    {"threadIdx", B_TID}, {"blockIdx", B_BID}, {"blockDim", B_BDIM},
    {"gridDim", B_GDIM}, {"warpSize", B_WSIZE},
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (!strcmp(nm, t[i].n)) { *bk = t[i].b; return t[i].n; }
  return NULL;
}

/* `this` in a member function or constructor */
/* the type of `this` in the member function a lambda is defined in (its
 * class's parent), NULL if it is defined elsewhere */
static Type *lambda_this(Fe *p, CXCursor c) {
  for (int i = 0; i < p->funcs.n; i++) {
    FnMap *m = p->funcs.v[i];
    if (m->o != p->fn) continue;
    CXCursor meth = clang_getCursorSemanticParent(clang_getCursorSemanticParent(m->c));
    enum CXCursorKind k = clang_getCursorKind(meth);
    if (k != CXCursor_CXXMethod && k != CXCursor_Constructor && k != CXCursor_Destructor) return NULL;
    Type *t = new_type(TY_PTR, 8, 8);
    t->base = mk_type(p, clang_getCursorType(clang_getCursorSemanticParent(meth)), c);
    return t;
  }
  return NULL;
}

static Node *this_ptr(Fe *p, CXCursor c) {
  Obj *s = p->fn->self;
  Type *lt = !s && p->fn->is_lambda ? lambda_this(p, c) : NULL;
  if (lt) {   /* [this] or [&] in a member function: the caller's this, a capture (a null cursor) */
    Obj *f = p->fn;
    Obj *o = NULL;
    for (int i = 0; i < f->caps.n && !o; i++)
      if (clang_Cursor_isNull(*(CXCursor *)f->caps.v[i])) o = f->params.v[f->params.n - f->caps.n + i];
    if (!o) {
      o = xcalloc(1, sizeof *o);
      o->name = "cu_this";
      cx_loc(c, &o->file, &o->line, &o->col);
      o->ty = lt;
      o->is_param = true;
      vec_push(&f->params, o);
      vec_push(&f->locals, o);
      CXCursor *cp = xcalloc(1, sizeof *cp);
      *cp = clang_getNullCursor();
      vec_push(&f->caps, cp);
    }
    return ir_var(ir_cloc(c), o);
  }
  if (!s) {
    err_c(c, "unsupported in device code: 'this' here");
    return ir_num(ir_cloc(c), ir_type(TY_INT), 0);
  }
  Node *n = ir_var(ir_cloc(c), s);
  if (!p->fn->self_val) return n;
  return addr_of(n, ir_ptr(s->ty));
}

static Node *member(Fe *p, CXCursor c) {
  Kids k = kids(c);
  CXCursor fd = clang_getCursorReferenced(c);
  CXCursor base = k.n ? k.v[0] : clang_getNullCursor();
  free(k.v);
  /* threadIdx.x and friends */
  CXCursor bb = base;
  while (!clang_Cursor_isNull(bb) && clang_getCursorKind(bb) == CXCursor_UnexposedExpr) {
    Kids kk = kids(bb);
    if (kk.n != 1) { free(kk.v); break; }
    bb = kk.v[0];
    free(kk.v);
  }
  if (!clang_Cursor_isNull(bb) && clang_getCursorKind(bb) == CXCursor_DeclRefExpr) {
    Builtin bk;
    if (builtin_var(clang_getCursorReferenced(bb), &bk)) {
      char *f = cx_str(clang_getCursorSpelling(fd));
      return ir_builtin(ir_cloc(c), bk, f[0] == 'x' ? 0 : f[0] == 'y' ? 1 : 2);
    }
  }
  if (clang_getCursorKind(fd) == CXCursor_VarDecl) {   /* a static data member */
    Node *v = eval(p, c);
    if (v) return v;
  }
  if (clang_getCursorKind(fd) != CXCursor_FieldDecl) {
    err_c(c, "unsupported in device code: member '%s' (only data members)",
          cx_str(clang_getCursorSpelling(fd)));
    return ir_num(ir_cloc(c), cty(p, c), 0);
  }
  Node *n = ir_node(N_MEMBER, c);
  n->a = clang_Cursor_isNull(base) ? this_ptr(p, c) : expr(p, base);   /* x means this->x */
  n->ty = cty(p, c);
  n->post = n->a->ty->kind == TY_PTR;  /* -> */
  Type *rt = n->post ? n->a->ty->base : n->a->ty;
  CXCursor owner = clang_getCursorSemanticParent(fd);
  if (rt->kind == TY_RECORD && clang_getCursorKind(owner) != CXCursor_UnionDecl) {
    /* a member of a base class: reached through the base's member */
    Type *ot = mk_type(p, clang_getCursorType(owner), c);
    if (ot->kind == TY_RECORD && fe_is_base(p, rt->rec, ot->rec)) {
      n->a = fe_upcast(p, n->a, ot->rec);
      n->post = n->a->ty->kind == TY_PTR;
      rt = ot;
    }
  }
  char *fname = cx_str(clang_getCursorSpelling(fd));
  if (rt->kind == TY_RECORD)
    for (int i = 0; i < rt->rec->fields.n; i++) {
      Field *f = rt->rec->fields.v[i];
      if (!strcmp(f->name, fname)) n->field = f;
    }
  if (!n->field && rt->kind == TY_RECORD) {
    /* a member of an anonymous struct or union inside (union { struct {
     * short lo, hi; }; int all; }): reached through the unnamed member */
    for (int i = 0; i < rt->rec->fields.n && !n->field; i++) {
      Field *a = rt->rec->fields.v[i];
      if (strncmp(a->name, "cu_anon", 7) || a->ty->kind != TY_RECORD) continue;
      for (int j = 0; j < a->ty->rec->fields.n; j++) {
        Field *f = a->ty->rec->fields.v[j];
        if (strcmp(f->name, fname)) continue;
        Node *in = ir_member(ir_cloc(c), n->a, a);
        in->post = n->post;
        n->a = in;
        n->post = false;
        n->field = f;
        break;
      }
    }
  }
  if (!n->field) {
    err_c(c, "unsupported in device code: member '%s'", fname);
    n->field = xcalloc(1, sizeof(Field));
    n->field->name = fname;
    return n;
  }
  if (n->field->ty->is_ref) {   /* a reference member */
    n->ty = n->field->ty;
    n = deref(n);
  }
  return n;
}

/* A special member written by the user (not implicit, not = default)? */
static bool cx_user_written(CXCursor f) {
  if (clang_CXXMethod_isDefaulted(f)) return false;
  CXCursor def = clang_getCursorDefinition(f);
  if (clang_Cursor_isNull(def)) return false;      /* implicit, never defined */
  CXSourceRange r = clang_getCursorExtent(def);
  CXSourceLocation b = clang_getRangeStart(r), e = clang_getRangeEnd(r);
  unsigned ob, oe;
  clang_getExpansionLocation(b, NULL, NULL, NULL, &ob);
  clang_getExpansionLocation(e, NULL, NULL, NULL, &oe);
  return !clang_equalLocations(clang_getCursorLocation(def), clang_getCursorLocation(clang_getCursorSemanticParent(def))) && oe > ob;
}


/* Suffix of cucc_dev.h's typed helpers for a value type. */
static const char *tsfx(Type *t) {
  switch (t->kind) {
  case TY_INT: return "i";
  case TY_UINT: return "u";
  case TY_LONG: case TY_LLONG: return "ll";
  case TY_ULONG: case TY_ULLONG: return "ull";
  case TY_FLOAT: return "f";
  case TY_DOUBLE: return "d";
  case TY_USHORT: return "us";
  default: return NULL;
  }
}

static Node *full_mask(CXCursor c) { return ir_num(ir_cloc(c), ir_type(TY_UINT), 0xffffffffu); }

/* Suffix of cucc_dev.h's warp collectives for a value type (shuffles and
 * match take every integer type of 4 or 8 bytes, float and double; the
 * bits of a small record go as an unsigned char or short: bits_union). */
static const char *coll_sfx(Type *t) {
  switch (t->kind) {
  case TY_LONG: return "l";
  case TY_ULONG: return "ul";
  case TY_UCHAR: return "uc";
  case TY_USHORT: return "us";
  default: return tsfx(t);
  }
}

/* ... of the helpers of 4- and 8-byte values (all collectives have them) */
static bool word_sfx(Type *t) { return coll_sfx(t) && (t->size == 4 || t->size == 8); }

/* The union through which a value of record type `t` becomes the unsigned
 * integer `it` of its size, or back (`to`): a compound literal initializes
 * its first member, so (union cu_bc_of_X){v}.b is v's bits and (union
 * cu_bc_to_X){b}.v the value with bits b: C's own type punning. */
static Type *bits_union(Fe *p, Type *t, Type *it, bool to) {
  char *nm = xfmt("cu_bc_%s_%s", to ? "to" : "of", t->rec->cname);
  for (int i = 0; i < p->bitrecs.n; i++) {
    Type *u = p->bitrecs.v[i];
    if (!strcmp(u->rec->cname, nm)) return u;
  }
  Record *r = xcalloc(1, sizeof *r);
  r->cname = nm;
  r->usr = nm;
  r->is_union = true;
  r->size = t->size;
  r->align = t->align > it->align ? t->align : it->align;
  Type *vt = new_type(TY_RECORD, t->size, t->align);
  vt->rec = t->rec;   /* (unqualified) */
  Field *fv = xcalloc(1, sizeof *fv), *fb = xcalloc(1, sizeof *fb);
  fv->name = "v", fv->ty = vt;
  fb->name = "b", fb->ty = it;
  vec_push(&r->fields, to ? fb : fv);
  vec_push(&r->fields, to ? fv : fb);
  vec_push(&p->prog->records, r);   /* after t's record */
  Type *u = new_type(TY_RECORD, r->size, r->align);
  u->rec = r;
  vec_push(&p->bitrecs, u);
  return u;
}

/* (union U){x}.f */
static Node *via_union(Node *x, Type *u, int f) {
  Node *i = ir_new(N_INIT, ir_loc(x));
  i->ty = u;
  vec_push(&i->list, x);
  return ir_member(ir_loc(x), i, u->rec->fields.v[f]);
}

/* Warp collectives: normalize the arguments to (mask, value, lane arg,
 * width) and name the typed helper. Returns NULL if `name` is not one,
 * else the collective: n itself, or for a shuffle of a record (__half,
 * __half2, __nv_bfloat16...: a trivially copyable type of 1, 2, 4 or 8
 * bytes, as CUDA's headers declare) n shuffling its bits as the unsigned
 * integer of its size, its bits read and written through unions. */
static Node *warp_call(Fe *p, CXCursor c, Node *n, const char *name) {
  static const struct { const char *name; Coll co; int legacy; } t[] = {
    {"__shfl_sync", CO_SHFL, 0}, {"__shfl_up_sync", CO_SHFL_UP, 0}, {"__shfl_down_sync", CO_SHFL_DOWN, 0},
    {"__shfl_xor_sync", CO_SHFL_XOR, 0}, {"__shfl", CO_SHFL, 1}, {"__shfl_up", CO_SHFL_UP, 1},
    {"__shfl_down", CO_SHFL_DOWN, 1}, {"__shfl_xor", CO_SHFL_XOR, 1}, {"__ballot_sync", CO_BALLOT, 0},
    {"__ballot", CO_BALLOT, 1}, {"__any_sync", CO_ANY, 0}, {"__any", CO_ANY, 1},
    {"__all_sync", CO_ALL, 0}, {"__all", CO_ALL, 1}, {"__activemask", CO_ACTIVEMASK, 0},
    {"__match_any_sync", CO_MATCH_ANY, 0}, {"__match_all_sync", CO_MATCH_ALL, 0},
    {"__reduce_add_sync", CO_RED_ADD, 0}, {"__reduce_min_sync", CO_RED_MIN, 0},
    {"__reduce_max_sync", CO_RED_MAX, 0}, {"__reduce_and_sync", CO_RED_AND, 0},
    {"__reduce_or_sync", CO_RED_OR, 0}, {"__reduce_xor_sync", CO_RED_XOR, 0},
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    if (strcmp(name, t[i].name)) continue;
    if (t[i].legacy) {   /* the pre-Volta forms act on the whole warp */
      Vec args = {0};
      vec_push(&args, full_mask(c));
      for (int k = 0; k < n->list.n; k++) vec_push(&args, n->list.v[k]);
      n->list = args;
    }
    Coll co = t[i].co;
    n->ck = C_WARP;
    n->coll = co;
    const char *sfx = "";
    Node *r = n;
    if (coll_shfl(co) && n->ty->kind == TY_RECORD && n->list.n > 1) {
      /* the value's bits, as an unsigned integer of its size */
      Type *rt = n->ty;
      int64_t sz = rt->size;
      Type *it = sz == 1 ? new_type(TY_UCHAR, 1, 1) : sz == 2 ? new_type(TY_USHORT, 2, 2)
                 : sz == 4 ? new_type(TY_UINT, 4, 4) : sz == 8 ? new_type(TY_ULLONG, 8, 8) : NULL;
      if (!it) {
        err_c(c, "unsupported in device code: %s of a type of %lld bytes", name, (long long)sz);
        it = new_type(TY_UINT, 4, 4);
      } else {
        n->list.v[1] = via_union(n->list.v[1], bits_union(p, rt, it, false), 1);
        n->ty = it;
        r = via_union(n, bits_union(p, rt, it, true), 1);
      }
    }
    if (coll_shfl(co) || coll_match(co) || coll_reduce(co)) {
      Node *v = n->list.n > 1 ? n->list.v[1] : NULL;
      while (v && v->k == N_CAST && v->implicit) v = v->a;
      if (v && !word_sfx(v->ty)) v = n->list.v[1];   /* (an implicit conversion to the overload's type) */
      Type *vt = coll_shfl(co) || coll_reduce(co) ? n->ty : v ? v->ty : n->ty;
      sfx = coll_reduce(co) ? tsfx(vt) : coll_sfx(vt);
      if (!sfx || (coll_reduce(co) && strcmp(sfx, "i") && strcmp(sfx, "u")) ||
          (!coll_shfl(co) && (!strcmp(sfx, "uc") || !strcmp(sfx, "us")))) {
        err_c(c, "unsupported in device code: %s on this type", name);
        sfx = "i";
      }
      if (coll_match(co) && v) n->list.v[1] = v;   /* compare the value as it is */
    }
    n->name = xfmt("cu_%s%s%s", coll_str[co], *sfx ? "_" : "", sfx);
    return r;
  }
  return NULL;
}

static Node *ret_ref(Node *n) {
  if (!n->fn->ty->is_ref) return n;
  n->ty = n->fn->ty;
  return deref(n);
}

/* A call's arguments for reference parameters are addresses, and a call
 * returning a reference is read through it. `first`: the parameter of the
 * first argument in n->list. */
static Node *bind(Node *n, int first) {
  for (int i = 0; i < n->list.n && first + i < n->fn->params.n; i++) {
    Type *pt = ((Obj *)n->fn->params.v[first + i])->ty;
    if (pt->is_ref) n->list.v[i] = addr_of(n->list.v[i], pt);
  }
  return ret_ref(n);
}

/* The in-class initializers of a class's fields (struct S { int n = 4; }):
 * with `fn`, each becomes an assignment to self in fn's body. Returns
 * whether there are any. */
typedef struct FI { Fe *p; Obj *fn; Node *body; bool any; Vec done; bool fields, pattern, inst; CXCursor cls; } FI;
static Node *assign_field(CXCursor at, Obj *self, CXCursor fd, Node *val);
/* Is expression e, a child of field f, its in-class initializer (after
 * `=` or `{`), not an array bound (`int v[5]`: after `[`) or a bit-field
 * width? libclang shows all of them as children alike. */
static bool field_init_expr(CXCursor f, CXCursor e) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(f);
  CXToken *t;
  unsigned nt, eo;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(e)), NULL, NULL, NULL, &eo);
  clang_tokenize(tu, clang_getCursorExtent(f), &t, &nt);
  bool init = false;
  for (unsigned i = 1; i < nt; i++) {
    unsigned o;
    clang_getSpellingLocation(clang_getTokenLocation(tu, t[i]), NULL, NULL, NULL, &o);
    if (o < eo) continue;
    char *prev = cx_str(clang_getTokenSpelling(tu, t[i - 1])), *at = cx_str(clang_getTokenSpelling(tu, t[i]));
    /* (`int b{x};`: libclang's list expression itself starts at the `{`) */
    init = !strcmp(prev, "=") || !strcmp(prev, "{") || (o == eo && !strcmp(at, "{"));
    free(prev);
    free(at);
    break;
  }
  clang_disposeTokens(tu, t, nt);
  return init;
}

/* Does an expression of a class template's pattern depend on its
 * parameters (a type `T`, a value `N`, an unresolved call)? */
static enum CXChildVisitResult dep_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  bool *dep = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  char *ts = cx_str(clang_getTypeSpelling(t));
  enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(c));
  *dep |= strstr(ts, "type-parameter-") != NULL || t.kind == CXType_Dependent || t.kind == CXType_Overload ||
          k == CXCursor_OverloadedDeclRef || rk == CXCursor_TemplateTypeParameter ||
          rk == CXCursor_NonTypeTemplateParameter || rk == CXCursor_TemplateTemplateParameter ||
          (is_expr(c) && t.kind == CXType_Invalid);
  free(ts);
  return *dep ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static Node *cast_to(Fe *p, CXCursor c, Node *sub, Type *t, bool implicit);

static bool dependent(CXCursor e) {
  bool dep = false;
  dep_cb(e, e, &dep);
  if (!dep) clang_visitChildren(e, dep_cb, &dep);
  return dep;
}

static bool needs_ctor(Fe *p, CXCursor cls);
static Node *default_ctor(Fe *p, CXCursor cls, CXCursor at);

/* arr[i], an element of an array member being initialized */
static Node *elem_at(Loc l, Node *arr, int64_t i) {
  Node *e = ir_new(N_INDEX, l);
  e->ty = arr->ty->base;
  e->a = arr;
  e->b = ir_num(l, ir_type(TY_INT), i);
  return e;
}

/* record r's field called name, or NULL */
static Field *field_named(Record *r, const char *name) {
  Field *fl = NULL;
  for (int i = 0; i < r->fields.n; i++)
    if (!strcmp(((Field *)r->fields.v[i])->name, name)) fl = r->fields.v[i];
  return fl;
}

/* dst = a default-constructed mc, or each element of an array dst so, as
 * statements of blk (at most 256 constructions) */
static bool ctor_elems(FI *fi, Loc l, Node *dst, CXCursor mc, CXCursor at, Node *blk, int *left) {
  if (dst->ty->kind != TY_ARRAY) {
    if (--*left < 0) return false;
    vec_push(&blk->list, ir_stmt(l, S_EXPR, ir_assign(l, dst, default_ctor(fi->p, mc, at))));
    return true;
  }
  for (int64_t i = 0; i < dst->ty->len; i++)
    if (!ctor_elems(fi, l, elem_at(l, dst, i), mc, at, blk, left)) return false;
  return dst->ty->len >= 0;
}

/* A member of a class type whose default construction does something
 * (`In a;` where In has `int n = 3;`), or an array of them, with no
 * initializer of its own: constructed by default before the constructor's
 * body, as C++ does (it was left as it was: zero, or garbage) */
static void member_ctor(FI *fi, CXCursor c) {
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  while (t.kind == CXType_ConstantArray) t = clang_getCanonicalType(clang_getArrayElementType(t));
  if (t.kind != CXType_Record) return;
  CXCursor mc = clang_getTypeDeclaration(t);
  if (clang_Cursor_isNull(mc) || !needs_ctor(fi->p, mc)) return;
  fi->any = true;
  if (!fi->fn) return;
  char *nm = cx_str(clang_getCursorSpelling(c));
  bool done = false;
  for (int j = 0; j < fi->done.n; j++) {   /* (a member initializer: by name) */
    char *dn = cx_str(clang_getCursorSpelling(*(CXCursor *)fi->done.v[j]));
    done |= !strcmp(dn, nm);
    free(dn);
  }
  Field *fl = field_named(fi->fn->self->ty->rec, nm);
  if (!done && fl) {
    Loc l = ir_cloc(c);
    Node *blk = ir_new(S_BLOCK, l);
    int left = 256;
    if (!ctor_elems(fi, l, ir_member(l, ir_var(l, fi->fn->self), fl), mc, c, blk, &left))
      err_c(c, "unsupported in device code: default construction of member '%s' (an array of more than 256, or of "
               "unknown size)", nm);
    vec_push(&fi->body->list, blk);
  }
  free(nm);
}

static enum CXChildVisitResult fi_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  FI *fi = d;
  if (clang_getCursorKind(c) != CXCursor_FieldDecl) return CXChildVisit_Continue;
  fi->fields = true;
  Kids k = kids(c);
  bool init = false;
  for (int i = 0; i < k.n; i++)
    if (is_expr(k.v[i]) && field_init_expr(c, k.v[i])) {
      init = true;
      fi->any = true;
      bool done = false;
      char *nm = cx_str(clang_getCursorSpelling(c));
      for (int j = 0; j < fi->done.n; j++) {
        CXCursor dc = *(CXCursor *)fi->done.v[j];
        char *dn = fi->pattern ? cx_str(clang_getCursorSpelling(dc)) : NULL;
        done |= fi->pattern ? !strcmp(dn, nm) : clang_equalCursors(dc, c);   /* (the pattern's field: by name) */
        free(dn);
      }
      if (fi->inst && !done) {   /* (the pattern's pass leaves it: by name) */
        CXCursor *cp = xcalloc(1, sizeof *cp);
        *cp = c;
        vec_push(&fi->done, cp);
      }
      if (fi->fn && !done && fi->pattern && dependent(k.v[i]))
        err_c(k.v[i], "unsupported in device code: default member initializer of '%s' that depends on the "
                      "parameters of class template '%s' (initialize it in a constructor)",
              nm, cx_str(clang_getTypeSpelling(clang_getCursorType(fi->cls))));
      else if (fi->fn && !done) {
        Node *v = expr(fi->p, k.v[i]);
        if (fi->pattern) {   /* (`T s = 0;`: the conversion to the instance's T is not in the pattern) */
          for (int j = 0; j < fi->fn->self->ty->rec->fields.n; j++) {
            Field *f = fi->fn->self->ty->rec->fields.v[j];
            if (!strcmp(f->name, nm) && f->ty->kind <= TY_PTR && v->ty->kind <= TY_PTR && !f->ty->is_ref)
              v = cast_to(fi->p, k.v[i], v, f->ty, true);
          }
        }
        vec_push(&fi->body->list, assign_field(k.v[i], fi->fn->self, c, v));
      }
      free(nm);
    }
  free(k.v);
  if (!init && !fi->pattern && clang_getCursorKind(fi->cls) != CXCursor_UnionDecl) member_ctor(fi, c);
  return CXChildVisit_Continue;
}

static enum CXVisitorResult fi_field(CXCursor c, CXClientData d) {
  fi_cb(c, c, d);
  return CXVisit_Continue;
}

/* An implicit instance of a class template shows libclang no children,
 * so no default member initializers either. Its type's fields
 * (clang_Type_visitFields) have them, as Sema instantiated them for a
 * constructor that uses them (`T s = T(0);` with T float); one not
 * instantiated comes from the pattern, where it must not depend on the
 * template's parameters (`int n = 0;`, `T s = 0;`): one that does is
 * refused, never skipped. */
static bool field_inits(CXCursor cls, FI *fi) {
  fi->cls = cls;
  clang_visitChildren(cls, fi_cb, fi);
  CXCursor pat = clang_getSpecializedCursorTemplate(cls);
  if (!fi->fields && !clang_Cursor_isNull(pat)) {
    int nd = fi->done.n;
    fi->inst = true;
    clang_Type_visitFields(clang_getCanonicalType(clang_getCursorType(cls)), fi_field, fi);
    fi->inst = false;
    fi->pattern = true;
    clang_visitChildren(pat, fi_cb, fi);
    fi->pattern = false;
    for (int i = nd; i < fi->done.n; i++) free(fi->done.v[i]);   /* (the instance's fields: only for the pattern's pass) */
    fi->done.n = nd;
  }
  return fi->any;
}

/* dst = val for an array dst and an initializer list val, as statements
 * of blk: each element its value, the rest zero (an element a list of its
 * own for an array of arrays); false for another initializer (a string) */
static bool init_array(Loc l, Node *dst, Node *val, Node *blk) {
  if (val->k != N_INIT || dst->ty->len < 0) return false;
  Type *et = dst->ty->base;
  for (int64_t i = 0; i < dst->ty->len; i++) {
    Node *e = elem_at(l, dst, i);
    Node *v = i < val->list.n ? val->list.v[i] : NULL;
    if (et->kind == TY_ARRAY) {
      Node *none = ir_new(N_INIT, l);
      none->ty = et;
      if (!init_array(l, e, v ? v : none, blk)) return false;
      continue;
    }
    if (!v && et->kind == TY_RECORD) {
      v = ir_new(N_INIT, l);
      v->ty = et;
    } else if (!v) {
      v = ir_num(l, et, 0);
      if (is_flt(et)) v->k = N_FNUM, v->fval = 0;
    }
    vec_push(&blk->list, ir_stmt(l, S_EXPR, ir_assign(l, e, v)));
  }
  return true;
}

static Node *assign_field(CXCursor at, Obj *self, CXCursor fd, Node *val) {
  Loc l = ir_cloc(at);
  char *fname = cx_str(clang_getCursorSpelling(fd));
  Field *fl = field_named(self->ty->rec, fname);
  Node *s = ir_new(S_EXPR, l);
  if (!fl) {
    err_c(at, "unsupported in device code: initializer of member '%s'", fname);
    return s;
  }
  Node *m = ir_member(l, ir_var(l, self), fl);
  if (m->ty->kind == TY_ARRAY) {   /* `float v[4] = {};`: C assigns no arrays: element by element */
    Node *blk = ir_new(S_BLOCK, l);
    if (!init_array(l, m, val, blk)) err_c(at, "unsupported in device code: initializer of array member '%s'", fname);
    return blk;
  }
  s->a = ir_assign(l, m, m->ty->is_ref ? addr_of(val, m->ty) : val);
  return s;
}

/* The member reference naming the callee of member call c (through
 * implicit casts), or null for an implicit this->f(). */
static CXCursor callee_member(CXCursor c) {
  Kids k = kids(c);
  CXCursor m = k.n ? k.v[0] : clang_getNullCursor();
  free(k.v);
  while (!clang_Cursor_isNull(m) && clang_getCursorKind(m) != CXCursor_MemberRefExpr) {
    Kids kk = kids(m);
    m = kk.n == 1 ? kk.v[0] : clang_getNullCursor();
    free(kk.v);
  }
  return m;
}

/* Is kid k of member reference m written before the member's name (the
 * object, a qualifier), not after it (f<N>'s template arguments)? */
static bool before_member(CXCursor m, CXCursor k) {
  unsigned mo, ko;
  CXFile mf, kf;
  clang_getExpansionLocation(clang_getCursorLocation(m), &mf, NULL, NULL, &mo);
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(k)), &kf, NULL, NULL, &ko);
  return !clang_File_isEqual(mf, kf) || ko < mo || (ko == mo && !clang_equalLocations(clang_getCursorLocation(m),
                                                                                       clang_getCursorLocation(k)));
}

/* The object a member function is called on: the callee's base
 * (obj.f(), p->f()), or null for an implicit this->f(). */
static CXCursor callee_base(CXCursor c) {
  CXCursor m = callee_member(c);
  if (clang_Cursor_isNull(m)) return m;
  Kids kk = kids(m);
  CXCursor b = clang_getNullCursor();
  for (int i = 0; i < kk.n && clang_Cursor_isNull(b); i++)
    if (is_expr(kk.v[i]) && before_member(m, kk.v[i])) b = kk.v[i];   /* not the qualifier of B::f() */
  free(kk.v);
  return b;
}

/* Is the callee of member call c named with a qualifier (B::f(), no
 * virtual dispatch)? */
static bool callee_qualified(CXCursor c) {
  CXCursor m = callee_member(c);
  if (clang_Cursor_isNull(m)) return false;
  Kids kk = kids(m);
  bool q = false;
  for (int i = 0; i < kk.n; i++) q |= !is_expr(kk.v[i]) && before_member(m, kk.v[i]);
  free(kk.v);
  return q;
}

/* Argument i of call c to f, its parameter pi. An argument left to its
 * default is a CXXDefaultArgExpr, which libclang shows as an expression
 * with no children and no place: a constant one folds (eval); another
 * (`int lane = threadIdx.x % 32`) is the parameter's own expression, read
 * here, where the call is. */
static Node *call_arg(Fe *p, CXCursor c, CXCursor f, int i, int pi) {
  CXCursor a = clang_Cursor_getArgument(c, i);
  if (clang_getCursorKind(a) != CXCursor_UnexposedExpr) return expr(p, a);
  Kids ak = kids(a);
  int na = ak.n;
  free(ak.v);
  CXFile file;
  clang_getSpellingLocation(clang_getCursorLocation(a), &file, NULL, NULL, NULL);
  if (na || file) return expr(p, a);
  Node *n = eval(p, a);
  if (n) return n;
  CXCursor prm = pi >= 0 && pi < clang_Cursor_getNumArguments(f) ? clang_Cursor_getArgument(f, pi) : clang_getNullCursor();
  Kids pk = clang_Cursor_isNull(prm) ? (Kids){0} : kids(prm);
  CXCursor d = clang_getNullCursor();
  for (int k = 0; k < pk.n; k++)
    if (is_expr(pk.v[k])) d = pk.v[k];
  free(pk.v);
  if (clang_Cursor_isNull(d)) {
    err_c(c, "unsupported in device code: argument %d left to a default this call cannot read", pi + 1);
    return ir_num(ir_cloc(c), cty(p, a), 0);
  }
  return cast_to(p, c, expr(p, d), cty(p, a), true);
}

/* Member functions are functions with `this` as their first parameter;
 * a constructor is a function returning the object it builds; a lambda
 * is called with its captures' addresses after its arguments. */
static Node *method_call(Fe *p, CXCursor c, CXCursor f, char *name) {
  bool ctor = clang_getCursorKind(f) == CXCursor_Constructor;
  bool stat = !ctor && clang_CXXMethod_isStatic(f);
  bool lam = !ctor && is_lambda(clang_getCursorSemanticParent(f));
  CXCursor def = clang_getCursorDefinition(f);
  if (clang_Cursor_isNull(def) && !ctor && clang_CXXMethod_isPureVirtual(f)) def = f;   /* dispatched */
  if (clang_Cursor_isNull(def)) {
    if (!ctor || cx_user_written(f)) {
      err_c(c, "device function '%s' is declared but not defined in this file", name);
      return ir_num(ir_cloc(c), cty(p, c), 0);
    }
    def = f;   /* an implicit constructor: only in-class initializers */
  }
  if (!cx_has_attr(def, CXCursor_CUDADeviceAttr) && !lam && !clang_Location_isInSystemHeader(clang_getCursorLocation(def)) &&
      !(ctor && !cx_user_written(f))) {
    err_c(c, "calling a __host__ function(\"%s\") from a %s function(\"%s\") is not allowed", name,
          p->fn->is_kernel ? "__global__" : "__device__", p->fn->name);
    return ir_num(ir_cloc(c), cty(p, c), 0);
  }
  Node *n = ir_call(ir_cloc(c), C_FUNC, name, cty(p, c));
  int na = clang_Cursor_getNumArguments(c), np = clang_Cursor_getNumArguments(f);
  Node *obj = NULL;
  bool has_obj = false;
  int a0 = 0;
  if (!ctor && !stat) {
    has_obj = !lam;   /* a lambda object has no state: its captures are passed */
    if (na == np + 1) {   /* an operator: the object is the first operand */
      a0 = 1;
      if (has_obj) obj = expr(p, clang_Cursor_getArgument(c, 0));
    } else if (has_obj) {
      CXCursor b = callee_base(c);
      obj = clang_Cursor_isNull(b) ? this_ptr(p, c) : expr(p, b);
    }
  }
  Record *cls = NULL;
  if (has_obj && obj->k == N_UN && obj->op == OP_DEREF && clang_CXXMethod_isVirtual(f))
    obj = obj->a;   /* r.f() through a reference, (*p).f(): the object referred to */
  if (has_obj && clang_CXXMethod_isVirtual(f) && obj->ty->kind == TY_PTR && !callee_qualified(c)) {
    /* a virtual call through a pointer or reference: the dispatcher */
    Type *ct = mk_type(p, clang_getCursorType(clang_getCursorSemanticParent(f)), c);
    cls = ct->rec;
    n->fn = fe_vdispatch(p, f, cls);
  } else if (clang_CXXMethod_isPureVirtual(f) && clang_Cursor_isNull(clang_getCursorDefinition(f))) {
    err_c(c, "unsupported in device code: a call of pure virtual '%s' without an object to dispatch on", name);
    return ir_num(ir_cloc(c), cty(p, c), 0);
  } else n->fn = fe_func(p, def);
  if (has_obj) {
    Obj *self = n->fn->params.v[0];
    Type *st = self->ty->kind == TY_PTR ? self->ty->base : self->ty;
    if (st->kind == TY_RECORD) {   /* a base class's member function */
      Node *u = fe_upcast(p, obj, st->rec);
      if (u) obj = u;
    }
    if (obj->ty->kind == TY_PTR) obj = self->ty->kind == TY_PTR ? obj : ir_deref(ir_loc(obj), obj);
    else if (self->ty->kind == TY_PTR) obj = obj_addr(p, obj, self->ty);
    if (obj->ty->kind == TY_PTR && self->ty->kind == TY_PTR && obj->ty->base->is_const && !self->ty->base->is_const) {
      /* a const object to a dispatcher, whose self is not (it serves
       * const and other methods alike): C wants the cast */
      obj = ir_cast(ir_cloc(c), self->ty, obj);
    }
    vec_push(&n->list, obj);
  }
  for (int i = a0; i < na; i++) vec_push(&n->list, call_arg(p, c, f, i, i - a0));
  bind(n, 0);
  for (int i = 0; i < n->fn->caps.n; i++) {   /* the lambda's captures, from here */
    CXCursor d = *(CXCursor *)n->fn->caps.v[i];
    if (clang_Cursor_isNull(d)) {   /* this */
      vec_push(&n->list, this_ptr(p, c));
      continue;
    }
    Obj *o = find_var(p, d);
    if (!o) o = capture(p, d);
    if (!o) {
      err_c(c, "unsupported in device code: a lambda called outside the function that defines it");
      break;
    }
    Node *v = ir_var(ir_cloc(c), o);
    vec_push(&n->list, addr_of(deref(v), ((Obj *)n->fn->params.v[n->fn->params.n - n->fn->caps.n + i])->ty));
  }
  return ret_ref(n);
}

/* a declaration of the user's: neither a system header's nor cucc's own
 * (whose bodiless functions are intrinsics) */
static bool user_decl(Fe *p, CXCursor f) {
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(f))) return false;
  const char *file;
  int line, col;
  cx_loc(f, &file, &line, &col);
  const char *inc = p->opts->incdir;
  size_t n = inc ? strlen(inc) : 0;
  return !n || strncmp(file, inc, n) || file[n] != '/';
}

/* A function the frontend may know by name: declared without a body, first
 * by our headers or a system header (a redeclaration of the user's is
 * the same function). */
static bool intrinsic(Fe *p, CXCursor f) {
  return clang_Cursor_isNull(clang_getCursorDefinition(f)) && !user_decl(p, clang_getCanonicalCursor(f));
}

/* A default construction written as T() or T{} (value-initialization: a
 * trivial class is zeroed), not the one a declaration `T v;` implies
 * (whose extent is the name alone). Inside a macro the extent is the whole
 * expansion: taken as written, zeroing at worst what needed no value. */
static bool cx_value_init(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *t;
  unsigned nt;
  clang_tokenize(tu, clang_getCursorExtent(c), &t, &nt);
  bool v = false;
  if (nt > 1) {
    char *last = cx_str(clang_getTokenSpelling(tu, t[nt - 1]));
    v = !strcmp(last, ")") || !strcmp(last, "}");
    free(last);
  }
  clang_disposeTokens(tu, t, nt);
  return v;
}

/* Does default construction of class `cls` do anything: a user's default
 * constructor, in-class initializers, a vptr to set, here or in a base? */
static bool needs_ctor(Fe *p, CXCursor cls) {
  FI fi = {.p = p};
  bool any = field_inits(cls, &fi);
  for (int i = 0; i < fi.done.n; i++) free(fi.done.v[i]);
  free(fi.done.v);
  if (any) return true;
  Kids k = cls_kids(p, cls);
  bool r = false;
  for (int i = 0; i < k.n && !r; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
    if (ck == CXCursor_Constructor && clang_CXXConstructor_isDefaultConstructor(k.v[i]) && cx_user_written(k.v[i])) r = true;
    if ((ck == CXCursor_CXXMethod || ck == CXCursor_Destructor) && clang_CXXMethod_isVirtual(k.v[i])) r = true;
  }
  free(k.v);
  Type *t = mk_type(p, clang_getCursorType(cls), cls);
  Cls *c = t->kind == TY_RECORD ? fe_cls(p, t->rec) : NULL;
  for (int i = 0; c && i < c->bases.n && !r; i++) {
    Cls *b = fe_cls(p, ((Base *)c->bases.v[i])->r);
    r = b && needs_ctor(p, b->decl);
  }
  return r || (c && c->dyn);
}

/* The default construction of class `cls` (a base with no initializer):
 * a call of its constructor, or NULL when it does nothing. */
static Node *default_ctor(Fe *p, CXCursor cls, CXCursor at) {
  if (!needs_ctor(p, cls)) return NULL;
  CXCursor def = cls;   /* implicit: fe_func builds it from the class */
  Kids k = cls_kids(p, cls);
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.v[i]) == CXCursor_Constructor && clang_CXXConstructor_isDefaultConstructor(k.v[i]) &&
        !clang_Cursor_isNull(clang_getCursorDefinition(k.v[i])))
      def = clang_getCursorDefinition(k.v[i]);
  free(k.v);
  Obj *f = fe_func(p, def);
  Node *n = ir_call(ir_cloc(at), C_FUNC, f->name, f->ty);
  n->fn = f;
  return n;
}

/* k<<<g, b, smem, stream>>>(args) in device code (dynamic parallelism,
 * CDP2): each thread that reaches it launches a child grid (C_LAUNCH: the
 * kernel; the configuration, then the arguments). The runtime runs it after
 * its parent grid's blocks, before the parent is complete
 * (runtime/src/cdp.c), which finds the kernel by its key: every kernel
 * defined in the user's files is compiled and registered (host.c, and
 * translate.c for instantiations only device code launches). An overloaded
 * or template kernel reaches here wrapped in a lambda that clang resolves
 * (cdp.c; call() takes the launch out of it). */
static Node *dlaunch(Fe *p, CXCursor c, CXCursor f, char *name) {
  Kids k = kids(c);
  CXCursor cfg = k.n >= 2 && clang_getCursorKind(k.v[1]) == CXCursor_CallExpr ? k.v[1] : clang_getNullCursor();
  free(k.v);
  char *cn = clang_Cursor_isNull(cfg) ? NULL : cx_str(clang_getCursorSpelling(cfg));
  if (!cn || (strcmp(cn, "cudaConfigureCall") && strcmp(cn, "__cudaPushCallConfiguration")) ||
      clang_Cursor_getNumArguments(cfg) != 4) {
    err_c(c, "unsupported in device code: calling kernel '%s' without <<<...>>>", name);
    return ir_num(ir_cloc(c), cty(p, c), 0);
  }
  CXCursor def = clang_getCursorDefinition(f);
  if (clang_Cursor_isNull(def) && !p->opts->rdc) {
    err_c(c, "kernel '%s' is declared but not defined in this file: compile with -rdc=true (or -dc) to launch "
          "one defined in another file", name);
    return ir_num(ir_cloc(c), cty(p, c), 0);
  }
  Obj *kf = fe_func(p, clang_Cursor_isNull(def) ? clang_getCanonicalCursor(f) : def);
  kf->is_kernel = true;
  if (!kf->key) kf->key = cx_str(clang_Cursor_getMangling(clang_Cursor_isNull(def) ? f : def));
  Node *n = ir_call(ir_cloc(c), C_LAUNCH, name, cty(p, c));
  n->fn = kf;
  for (int i = 0; i < 4; i++) {
    /* smem and stream left out: their default arguments, 0 */
    CXCursor a = clang_Cursor_getArgument(cfg, i);
    Kids ak = kids(a);
    bool dflt = clang_getCursorKind(a) == CXCursor_UnexposedExpr && ak.n == 0;
    free(ak.v);
    vec_push(&n->list, dflt && i >= 2 ? ir_num(ir_cloc(c), cty(p, a), 0) : expr(p, a));
  }
  int na = clang_Cursor_getNumArguments(c);
  if (na != kf->params.n) {
    err_c(c, "unsupported in device code: launching kernel '%s' with %d arguments for %d parameters", name, na,
          kf->params.n);
    return n;
  }
  for (int i = 0; i < na; i++) vec_push(&n->list, expr(p, clang_Cursor_getArgument(c, i)));
  return n;
}

/* The runtime API that device code may call (CUDA's device runtime, with
 * dynamic parallelism): our header declares these __host__ __device__, and
 * device code calls libcucc_rt's cu_d_<name> (cucc_dev.h), with pointers
 * passed as void * (the generated C does not know CUDA's handle types). */
static const char *const drt_names[] = {
    "cudaMalloc", "cudaFree", "cudaMemcpyAsync", "cudaMemsetAsync", "cudaGetLastError", "cudaPeekAtLastError",
    "cudaGetErrorString", "cudaGetErrorName", "cudaGetDevice", "cudaDeviceGetAttribute", "cudaDeviceGetLimit",
    "cudaStreamCreateWithFlags", "cudaStreamDestroy", "cudaStreamWaitEvent", "cudaEventCreateWithFlags",
    "cudaEventRecord", "cudaEventRecordWithFlags", "cudaEventDestroy"};

static Node *drt_call(Fe *p, CXCursor c, const char *name) {
  if (!strcmp(name, "cudaDeviceSynchronize") || !strcmp(name, "cudaStreamSynchronize") ||
      !strcmp(name, "cudaEventSynchronize")) {
    /* nvcc's wording, and why: CDP1's waits are gone from CUDA 12 */
    err_c(c, "calling a __host__ function(\"%s\") from a %s function(\"%s\") is not allowed: CUDA 12's dynamic "
          "parallelism (CDP2) has no device-side %s; a parent grid completes only after its child grids, and "
          "work that needs their results can be launched into cudaStreamTailLaunch", name,
          p->fn->is_kernel ? "__global__" : "__device__", p->fn->name, name);
    return ir_num(ir_cloc(c), cty(p, c), 0);
  }
  size_t i = 0;
  while (i < sizeof drt_names / sizeof *drt_names && strcmp(name, drt_names[i])) i++;
  if (i == sizeof drt_names / sizeof *drt_names) return NULL;
  Node *n = ir_call(ir_cloc(c), C_DRT, xfmt("cu_d_%s", name), cty(p, c));
  Type *vp = NULL;
  int na = clang_Cursor_getNumArguments(c);
  for (int j = 0; j < na; j++) {
    Node *a = expr(p, clang_Cursor_getArgument(c, j));
    if (a->ty->kind == TY_PTR) {
      if (!vp) vp = ir_ptr(ir_type(TY_VOID));
      a = ir_cast(ir_cloc(clang_Cursor_getArgument(c, j)), vp, a);
    }
    vec_push(&n->list, a);
  }
  return n;
}

static Node *call(Fe *p, CXCursor c) {
  CXCursor f = clang_getCursorReferenced(c);
  enum CXCursorKind fk = clang_getCursorKind(f);
  char *name = cx_str(clang_getCursorSpelling(f));
  /* the implicit, trivial special members of C-like structs are plain C:
   * copies, assignments and default construction */
  if (fk == CXCursor_Constructor && (clang_CXXConstructor_isCopyConstructor(f) ||
                                     clang_CXXConstructor_isMoveConstructor(f)) &&
      clang_Cursor_getNumArguments(c) == 1 && !cx_user_written(f)) {
    Type *t = mk_type(p, clang_getCursorType(clang_getCursorSemanticParent(f)), c);
    Node *v = expr(p, clang_Cursor_getArgument(c, 0));
    return t->kind == TY_RECORD ? fe_copy_dyn(p, v, t->rec) : v;
  }
  if (fk == CXCursor_Constructor && clang_CXXConstructor_isDefaultConstructor(f) &&
      clang_Cursor_getNumArguments(c) == 0 && !cx_user_written(f) &&
      !needs_ctor(p, clang_getCursorSemanticParent(f))) {
    Node *n = ir_node(N_INIT, c);   /* value: zero; as a default initializer: none */
    n->ty = cty(p, c);
    n->post = !cx_value_init(c);
    return n;
  }
  if (fk == CXCursor_CXXMethod && (clang_CXXMethod_isCopyAssignmentOperator(f) ||
                                   clang_CXXMethod_isMoveAssignmentOperator(f)) &&
      clang_Cursor_getNumArguments(c) == 2 && !cx_user_written(f)) {
    Node *n = ir_node(N_ASSIGN, c);
    n->op = OP_ASSIGN;
    n->ty = cty(p, c);
    n->a = expr(p, clang_Cursor_getArgument(c, 0));
    n->b = expr(p, clang_Cursor_getArgument(c, 1));
    if (n->a->ty->kind == TY_RECORD) n->b = fe_copy_dyn(p, n->b, n->a->ty->rec);   /* the target keeps its class */
    return n;
  }
  if (fk == CXCursor_Constructor && clang_CXXConstructor_isDefaultConstructor(f) &&
      clang_Cursor_getNumArguments(c) == 0 && !cx_user_written(f)) {
    Node *n = default_ctor(p, clang_getCursorSemanticParent(f), c);   /* implicit, but it does something */
    if (n) return n;
  }
  if (fk == CXCursor_CXXMethod) {   /* [&]{k<T><<<g, b>>>(args);}(), cdp.c's: the launch */
    CXCursor l = cdp_launch(c);
    if (!clang_Cursor_isNull(l)) return expr(p, l);
  }
  if (fk == CXCursor_Constructor || fk == CXCursor_CXXMethod || fk == CXCursor_ConversionFunction)
    return method_call(p, c, f, name);
  if (fk == CXCursor_Destructor) {   /* p->~T(): the destructor, dispatched if virtual */
    CXCursor b = callee_base(c);
    Node *obj = clang_Cursor_isNull(b) ? this_ptr(p, c) : expr(p, b);
    if (obj->ty->kind != TY_PTR) {
      Type *pt = new_type(TY_PTR, 8, 8);
      pt->base = obj->ty;
      obj = obj_addr(p, obj, pt);
    }
    Node *n = fe_dtor_call(p, obj, f, !callee_qualified(c));
    return n ? n : ir_num(ir_cloc(c), cty(p, c), 0);
  }
  if ((!strcmp(name, "move") || !strcmp(name, "forward")) && clang_Cursor_getNumArguments(c) == 1 &&
      clang_Location_isInSystemHeader(clang_getCursorLocation(f))) {
    /* std::move, std::forward: casts to a reference (by value here) */
    return expr(p, clang_Cursor_getArgument(c, 0));
  }
  if (fk != CXCursor_FunctionDecl) {
    err_c(c, "unsupported in device code: indirect call");
    return ir_num(ir_cloc(c), cty(p, c), 0);
  }
  if (cx_has_attr(f, CXCursor_CUDAGlobalAttr)) return dlaunch(p, c, f, name);
  if (!strncmp(name, "cuda", 4) && clang_Cursor_isNull(clang_getCursorDefinition(f)) && !user_decl(p, f)) {
    Node *d = drt_call(p, c, name);
    if (d) return d;
  }
  Node *n = ir_call(ir_cloc(c), C_FUNC, name, cty(p, c));
  int na = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < na; i++) vec_push(&n->list, call_arg(p, c, f, i, i));
  /* The intrinsics below are known by name, but only as our headers (or
   * the C library's) declare them: without a body. A function of the
   * user's of the same name, an overload with a body (a __shfl_sync of
   * the program's own struct) or a definition of one of ours, is an
   * ordinary call. */
  Node *w;
  if (!intrinsic(p, f)) goto ordinary;
  if (!strcmp(name, "__syncthreads")) {
    n->k = S_SYNC;
    return n;
  }
  if (!strcmp(name, "__cucc_grid_sync")) {   /* grid.sync(): a block barrier, then the grid's */
    n->k = S_SYNC;
    n->grid = true;
    return n;
  }
  if (!strcmp(name, "__syncthreads_count") || !strcmp(name, "__syncthreads_and") ||
      !strcmp(name, "__syncthreads_or")) {
    /* a barrier that also reduces a predicate over the block; the result
     * must be stored straight into a variable (see stmt, decl_stmt) */
    n->k = S_SYNC;
    n->coll = name[14] == 'c' ? CO_SYNC_COUNT : name[14] == 'a' ? CO_SYNC_AND : CO_SYNC_OR;
    n->a = n->list.n ? n->list.v[0] : NULL;
    n->list.n = 0;
    return n;
  }
  if (!strcmp(name, "__threadfence_block") || !strcmp(name, "__threadfence") ||
      !strcmp(name, "__threadfence_system")) {
    n->ck = C_BUILTIN;
    n->name = "cu_fence";   /* a full fence: always strong enough */
    n->list.n = 0;
    return n;
  }
  if (!strcmp(name, "__cucc_warp_wait")) {   /* cuda/pipeline's waits: the kernel's warps become coroutines */
    n->ck = C_BUILTIN;
    n->name = "cu_warp_wait";
    return n;
  }
  if (!strncmp(name, "atomic", 6)) {
    /* atomicAdd_block and atomicAdd_system act like atomicAdd here: every
     * scope is the whole machine's memory */
    CXType pt = clang_getArgType(clang_getCursorType(f), 0);
    Type *vt = mk_type(p, clang_getPointeeType(clang_getCanonicalType(pt)), c);
    const char *sfx = tsfx(vt);
    char *base = xstrdup(name);
    char *us = strchr(base + 6, '_');
    if (us) *us = 0;
    if (!sfx) err_c(c, "unsupported in device code: %s on this type", name);
    n->ck = C_ATOMIC;
    n->name = xfmt("cu_%s_%s", base, sfx ? sfx : "i");
    return n;
  }
  if (!strncmp(name, "__nv_atomic_", 12)) {
    /* CUDA 12.8's scoped atomics: a helper of cucc_dev.h taking the order
     * and scope; the arithmetic ones by the pointee's type, and the forms
     * without fetch_ (no result) are the fetch_ ones */
    const char *op = name + 12;
    if (!strncmp(op, "fetch_", 6)) op += 6;
    static const char *const arith[] = {"add", "sub", "and", "or", "xor", "min", "max"};
    n->ck = C_ATOMIC;
    n->name = xfmt("cu_nv_%s", op);
    for (size_t i = 0; i < sizeof arith / sizeof *arith; i++)
      if (!strcmp(op, arith[i])) {
        CXType pt = clang_getArgType(clang_getCursorType(f), 0);
        const char *sfx = tsfx(mk_type(p, clang_getPointeeType(clang_getCanonicalType(pt)), c));
        if (!sfx || !strcmp(sfx, "us")) err_c(c, "unsupported in device code: %s on this type", name);
        n->name = xfmt("cu_nv_fetch_%s_%s", op, sfx ? sfx : "i");
      }
    /* the by-value forms take any type of 4, 8 or 16 bytes, as CUDA's */
    bool byval = !strcmp(op, "load") || !strcmp(op, "store") || !strcmp(op, "exchange") ||
                 !strcmp(op, "compare_exchange");
    CXType pt = clang_getPointeeType(clang_getCanonicalType(clang_getArgType(clang_getCursorType(f), 0)));
    long long sz = clang_Type_getSizeOf(pt);
    if (byval && sz != 4 && sz != 8 && sz != 16)
      err_c(c, "%s on a type of %lld bytes: CUDA's atomics take 4, 8 or 16", name, sz);
    return n;
  }
  if ((w = warp_call(p, c, n, name))) {
    p->fn->has_warp = true;
    return w;
  }
  if (!strcmp(name, "__syncwarp")) {
    /* the lanes of a warp run each statement together: nothing to wait for */
    n->ck = C_BUILTIN;
    n->name = "cu_syncwarp";
    return n;
  }
  /* loads and stores with cache hints: a cache is not ours to steer */
  static const char *const ldst[] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv",
                                     "__stcg", "__stcs", "__stwb", "__stwt"};
  for (size_t i = 0; i < sizeof ldst / sizeof *ldst; i++)
    if (!strcmp(name, ldst[i]) && n->list.n == (name[2] == 's' ? 2 : 1)) {
      if (name[2] == 'l') {
        n->ck = C_LDG;
        return n;
      }
      Node *q = n->list.v[0];   /* *p = v */
      return ir_assign(ir_cloc(c), ir_deref(ir_loc(q), q), n->list.v[1]);
    }
  if (!strcmp(name, "clock64") || (!strcmp(name, "clock") && n->list.n == 0)) {
    n->ck = C_BUILTIN;
    n->name = "cu_clock64";
    return n;
  }
ordinary:;
  CXCursor def = clang_getCursorDefinition(f);
  if (!clang_Cursor_isNull(def) && !cx_has_attr(f, CXCursor_CUDADeviceAttr) &&
      !cx_has_attr(def, CXCursor_CUDADeviceAttr) &&
      !clang_Location_isInSystemHeader(clang_getCursorLocation(def))) {
    /* nvcc's wording: device code may only call device functions */
    err_c(c, "calling a __host__ function(\"%s\") from a %s function(\"%s\") is not allowed", name,
          p->fn->is_kernel ? "__global__" : "__device__", p->fn->name);
    return n;
  }
  if (!clang_Cursor_isNull(def)) {
    n->ck = C_FUNC;
    n->fn = fe_func(p, def);
    return bind(n, 0);
  }
  if (cx_has_attr(f, CXCursor_CUDADeviceAttr) && user_decl(p, f)) {
    if (!p->opts->rdc) {
      err_c(c, "device function '%s' is declared but not defined in this file: compile with -rdc=true "
            "(or -dc) to call one defined in another file", name);
      return n;
    }
    /* -rdc: defined in another file's object (translate.c names it) */
    n->ck = C_FUNC;
    n->fn = fe_func(p, clang_getCanonicalCursor(f));
    return bind(n, 0);
  }
  if (!strcmp(name, "printf")) { n->ck = C_PRINTF; return n; }
  /* a helper of cucc_dev.h that our own headers declare without a body
   * (mma.h's tile arithmetic, the directed roundings): called by name, per
   * lane, with its effects unless declared const */
  if (!strncmp(name, "__cu_dev_", 9) && !user_decl(p, f)) {
    n->ck = cx_has_attr(f, CXCursor_ConstAttr) ? C_LIBM : C_BUILTIN;   /* const: pure, as the C library's */
    return n;
  }
  if ((!strcmp(name, "malloc") || !strcmp(name, "free")) && clang_getCursorLanguage(f) == CXLanguage_C) {
    n->ck = C_ATOMIC;   /* the device heap: per lane, bounded by cudaLimitMallocHeapSize */
    n->name = name[0] == 'm' ? "cu_dev_malloc" : "cu_dev_free";
    return n;
  }
  if (!strncmp(name, "__builtin_", 10)) { n->ck = C_BUILTIN; return n; }
  /* a function from the C library headers (math.h ...): C linkage, same
   * name and meaning in the generated C */
  if (clang_getCursorLanguage(f) == CXLanguage_C || clang_Location_isInSystemHeader(clang_getCursorLocation(f))) {
    n->ck = C_LIBM;
    return n;
  }
  err_c(c, "device function '%s' is declared but not defined in this file: compile with -rdc=true (or -dc) "
        "to call one defined in another file", name);
  return n;
}

/* Is an explicit cast one to an lvalue reference (reinterpret_cast<T &>(x),
 * (T &)x)? Its expression's type is T either way: the written type says,
 * read from the tokens (the last one before the `>` or `)` that closes it).
 * A cast written in a macro's body, or to a typedef naming a reference,
 * reads as a cast of the value. */
static bool cast_is_ref(CXCursor c) {
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (ck == CXCursor_CXXFunctionalCastExpr) return false;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *t;
  unsigned nt;
  clang_tokenize(tu, clang_getCursorExtent(c), &t, &nt);
  bool named = ck != CXCursor_CStyleCastExpr, ref = false;
  const char *open = named ? "<" : "(";
  unsigned i = named ? 1 : 0;
  char *s = i < nt ? cx_str(clang_getTokenSpelling(tu, t[i])) : NULL;
  if (s && !strcmp(s, open)) {   /* T &, or T (&)[N] (a reference to an array) */
    int depth = 0;
    char *prev = NULL, *prev2 = NULL;
    for (; i < nt; i++) {
      char *w = cx_str(clang_getTokenSpelling(tu, t[i]));
      if (!strcmp(w, ")") && prev && !strcmp(prev, "&") && prev2 && !strcmp(prev2, "(")) ref = true;
      if (!strcmp(w, "<") || !strcmp(w, "(") || !strcmp(w, "[")) depth++;
      else if (!strcmp(w, ">") || !strcmp(w, ")") || !strcmp(w, "]")) depth--;
      else if (!strcmp(w, ">>")) depth -= 2;
      if (depth <= 0) {
        ref |= prev && !strcmp(prev, "&");
        free(w);
        break;
      }
      free(prev2);
      prev2 = prev;
      prev = w;
    }
    free(prev);
    free(prev2);
  }
  free(s);
  clang_disposeTokens(tu, t, nt);
  return ref;
}

static bool is_lvalue(Node *a) {
  while (a->k == N_CAST && a->implicit) a = a->a;
  if (a->k == N_COND) return is_lvalue(a->b) && is_lvalue(a->c);
  return a->k == N_VAR || a->k == N_INDEX || a->k == N_MEMBER || (a->k == N_UN && a->op == OP_DEREF);
}

static Node *cast_to(Fe *p, CXCursor c, Node *sub, Type *t, bool implicit);

/* A cast to T & of an lvalue: *(T *)&x, so that reading it reinterprets
 * x's bytes (CUB's reinterpret_cast<UnsignedBits &>(key)) and writing it
 * writes x; between a class and its base the pointer is adjusted. */
static Node *ref_cast(Fe *p, CXCursor c, Node *sub) {
  Type *st = new_type(TY_PTR, 8, 8), *pt = new_type(TY_PTR, 8, 8);
  st->base = sub->ty;
  pt->base = cty(p, c);
  pt->is_ref = true;
  Node *n = cast_to(p, c, addr_of(sub, st), pt, false);
  if (n->ty->kind == TY_PTR && !n->ty->is_ref) {   /* a base's pointer (fe_upcast) */
    Type *r = new_type(TY_PTR, 8, 8);
    r->base = n->ty->base;
    r->is_ref = true;
    n->ty = r;
  }
  return deref(n);
}

static Node *cast(Fe *p, CXCursor c, Node *sub, bool implicit) {
  if (!implicit && is_lvalue(sub) && cast_is_ref(c)) return ref_cast(p, c, sub);
  return cast_to(p, c, sub, cty(p, c), implicit);
}

static Node *cast_to(Fe *p, CXCursor c, Node *sub, Type *t, bool implicit) {
  /* between a class and its base: C++ adjusts the pointer */
  if (t->kind == TY_PTR && sub->ty->kind == TY_PTR && t->base->kind == TY_RECORD &&
      sub->ty->base->kind == TY_RECORD && t->base->rec != sub->ty->base->rec) {
    if (fe_is_base(p, sub->ty->base->rec, t->base->rec)) return fe_upcast(p, sub, t->base->rec);
    if (fe_is_base(p, t->base->rec, sub->ty->base->rec)) return fe_downcast(p, sub, t);
  }
  if (t->kind == TY_RECORD && sub->ty->kind == TY_RECORD && t->rec != sub->ty->rec &&
      fe_is_base(p, sub->ty->rec, t->rec))
    return fe_upcast(p, sub, t->rec);   /* slicing: the base part */
  Node *n = ir_cast(ir_cloc(c), t, sub);
  n->implicit = implicit;
  return n;
}

static bool same_type(Type *a, Type *b) {
  if (a->kind != b->kind) return false;
  if (a->kind == TY_PTR || a->kind == TY_ARRAY) return same_type(a->base, b->base) && a->len == b->len;
  if (a->kind == TY_RECORD) return a->rec == b->rec;
  return true;
}

static Node *binop(Fe *p, CXCursor c, Kids *k) {
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
  const char *sp = cx_str(clang_getBinaryOperatorKindSpelling(op));
  Node *n;
  if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign) n = ir_node(N_ASSIGN, c);
  else if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) n = ir_node(N_LOG, c);
  else if (op == CXBinaryOperator_Comma) n = ir_node(N_COMMA, c);
  else if (op == CXBinaryOperator_PtrMemD || op == CXBinaryOperator_PtrMemI || op == CXBinaryOperator_Cmp) {
    err_c(c, "unsupported in device code: operator '%s'", sp);
    return ir_num(ir_cloc(c), cty(p, c), 0);
  } else n = ir_node(N_BIN, c);
  n->op = op_binary(sp);
  n->ty = cty(p, c);
  n->a = expr(p, k->v[0]);
  n->b = expr(p, k->v[1]);
  if (n->k == N_ASSIGN) n->a = cxx_lvalue(n->a);
  /* C++17 evaluates an assignment's right operand first (`buf[k++] = k`
   * stores the old k, `a[i] = i++` the old i at the new one); C leaves
   * the order open: where one operand changes a variable the other reads,
   * the right goes to a temporary first (not `*p++ = *q++`) */
  Vec chl = {0}, chr = {0};
  if (n->k == N_ASSIGN) {
    walk(n->a, changed_f, &chl);
    walk(n->b, changed_f, &chr);
  }
  bool reread = false;
  for (int i = 0; i < chl.n && !reread; i++) reread = any_node(n->b, reads_p, chl.v[i]);
  for (int i = 0; i < chr.n && !reread; i++) reread = any_node(n->a, reads_p, chr.v[i]);
  free(chl.v);
  free(chr.v);
  if (reread && p->fn) {
    Obj *o = xcalloc(1, sizeof *o);
    o->name = xfmt("cu_tmp%d", p->fn->locals.n);
    o->file = n->file, o->line = n->line, o->col = n->col;
    o->ty = unconst(n->b->ty);
    vec_push(&p->fn->locals, o);
    vec_push(&p->tmps, o);
    Node *v = ir_var(ir_loc(n), o);
    Node *as = ir_assign(ir_loc(n), v, n->b);
    n->b = fe_dup(v);
    return ir_comma(ir_loc(n), as, n);
  }
  return n;
}

static Node *expr(Fe *p, CXCursor c) {
  enum CXCursorKind ck = clang_getCursorKind(c);
  Kids k = kids(c);
  Node *n = NULL;
  switch (ck) {
  case CXCursor_IntegerLiteral:
  case CXCursor_FloatingLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_UnaryExpr:            /* sizeof, alignof */
  case CXCursor_SizeOfPackExpr:       /* sizeof...(Ts), a constant in an instance */
    n = eval(p, c);
    if (!n) err_c(c, "cannot evaluate constant");
    break;
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr:   /* NULL in C++ */
    n = ir_num(ir_cloc(c), cty(p, c), 0);
    break;
  case CXCursor_StringLiteral:
    n = ir_node(N_STR, c);
    n->ty = cty(p, c);
    n->str = cx_str(clang_getCursorSpelling(c));
    break;
  case CXCursor_ParenExpr:
    n = expr(p, k.v[0]);
    break;
  case CXCursor_CXXThisExpr:
    n = this_ptr(p, c);
    break;
  case CXCursor_LambdaExpr:
    err_c(c, "unsupported in device code: a lambda used as a value (define it in a variable and call it there)");
    break;
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (dk == CXCursor_EnumConstantDecl) {
      n = ir_num(ir_cloc(c), cty(p, c), clang_getEnumConstantDeclValue(d));
    } else if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl || var_tmpl_inst(d)) {
      Builtin bk;
      Obj *o = find_var(p, d);
      if (!o && !builtin_var(d, &bk) &&
          clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_FunctionDecl) {
        Obj *sh = file_shared(p, d);
        if (sh) {
          n = ir_var(ir_cloc(c), sh);
          break;
        }
        Obj *g = global_var(p, d);
        if (g) {
          n = ir_var(ir_cloc(c), g);
          break;
        }
      }
      if (!o) o = capture(p, d);
      if (o) {
        n = deref(ir_var(ir_cloc(c), o));
      } else if (builtin_var(d, &bk) && bk == B_WSIZE) {
        n = ir_num(ir_cloc(c), ir_type(TY_INT), 32);
      } else if (builtin_var(d, &bk)) {
        /* as a whole (`dim3 b = blockDim;`, `uint3 t = threadIdx;`, an
         * argument): the record of its three parts */
        Type *t = cty(p, c);
        if (t->kind != TY_RECORD || !t->rec || t->rec->fields.n != 3) {
          err_c(c, "unsupported in device code: '%s' used as a whole (use .x, .y, .z)",
                cx_str(clang_getCursorSpelling(d)));
        } else {
          n = ir_node(N_INIT, c);
          n->ty = unconst(t);
          for (int i = 0; i < 3; i++) vec_push(&n->list, ir_builtin(ir_cloc(c), bk, i));
        }
      } else if ((n = eval(p, c)) != NULL) {
        /* a constant (constexpr, const int N = 16 at file scope) */
      } else if ((o = global_var(p, d)) != NULL) {
        n = ir_var(ir_cloc(c), o);
      } else {
        /* (__device__, __constant__ and __managed__ variables are
         * global_var's: what is left is a host variable) */
        err_c(c, "unsupported in device code: reference to host variable '%s' (not __device__, __constant__ or __managed__)",
              cx_str(clang_getCursorSpelling(d)));
      }
    } else if ((n = eval(p, c)) != NULL) {
      /* a substituted non-type template parameter, or another constant */
    } else {
      err_c(c, "unsupported in device code: reference to '%s'", cx_str(clang_getCursorSpelling(d)));
    }
    break;
  }
  case CXCursor_MemberRefExpr:
    n = member(p, c);
    break;
  case CXCursor_ArraySubscriptExpr:
    n = ir_node(N_INDEX, c);
    n->ty = cty(p, c);
    n->a = expr(p, k.v[0]);
    n->b = expr(p, k.v[1]);
    break;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator:
    n = binop(p, c, &k);
    break;
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    n = ir_node(N_UN, c);
    n->ty = cty(p, c);
    n->a = expr(p, k.v[0]);
    switch (op) {
    case CXUnaryOperator_PostInc: n->k = N_INCDEC; n->op = OP_INC; n->post = true; break;
    case CXUnaryOperator_PostDec: n->k = N_INCDEC; n->op = OP_DEC; n->post = true; break;
    case CXUnaryOperator_PreInc: n->k = N_INCDEC; n->op = OP_INC; break;
    case CXUnaryOperator_PreDec: n->k = N_INCDEC; n->op = OP_DEC; break;
    case CXUnaryOperator_AddrOf: n->op = OP_ADDR; break;
    case CXUnaryOperator_Deref: n->op = OP_DEREF; break;
    case CXUnaryOperator_Plus: n->op = OP_PLUS; break;
    case CXUnaryOperator_Minus: n->op = OP_NEG; break;
    case CXUnaryOperator_Not: n->op = OP_BNOT; break;
    case CXUnaryOperator_LNot: n->op = OP_LNOT; break;
    case CXUnaryOperator_Extension: n = n->a; break;
    default:
      err_c(c, "unsupported in device code: unary operator");
    }
    if (n->k == N_INCDEC) n->a = cxx_lvalue(n->a);
    if (n->k == N_UN && n->op == OP_ADDR && n->a != cxx_lvalue(n->a)) n = addr_of(n->a, n->ty);
    if (n->k == N_UN && n->op == OP_ADDR && n->a->k == N_VAR) n->a->var->addr_taken = true;
    break;
  }
  case CXCursor_ConditionalOperator:
    n = ir_node(N_COND, c);
    n->ty = cty(p, c);
    n->a = expr(p, k.v[0]);
    n->b = expr(p, k.v[1]);
    n->c = expr(p, k.v[2]);
    break;
  case CXCursor_CallExpr:
    n = call(p, c);
    break;
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
    n = cast(p, c, expr(p, k.v[k.n - 1]), false);
    break;
  case CXCursor_CXXNewExpr:
    n = fe_new(p, c, ir_node(N_NUM, c));
    break;
  case CXCursor_CXXDeleteExpr:
    n = fe_delete(p, c, expr(p, k.v[k.n - 1]));
    break;
  case CXCursor_InitListExpr:
    if (k.n <= 1 && cty(p, c)->kind <= TY_PTR) {   /* T v{} (CUB's initial_value), T v{x}: a scalar's value */
      Type *t = cty(p, c);
      n = k.n ? cast_to(p, c, expr(p, k.v[0]), t, true) : ir_num(ir_cloc(c), t, 0);
      if (!k.n && is_flt(t)) n->k = N_FNUM, n->fval = 0;
      break;
    }
    n = ir_node(N_INIT, c);
    n->ty = cty(p, c);
    for (int i = 0; i < k.n; i++) vec_push(&n->list, expr(p, k.v[i]));
    break;
  case CXCursor_UnexposedExpr:
    /* implicit casts, default arguments, cleanups... */
    if (k.n == 1 && is_expr(k.v[0])) {
      Node *sub = expr(p, k.v[0]);
      Type *t = cty(p, c);
      if (sub->k == N_NUM && is_int(t)) { sub->ty = t; n = sub; break; }
      if (t->kind == TY_RECORD && sub->ty->kind == TY_RECORD && t->rec != sub->ty->rec &&
          fe_is_base(p, sub->ty->rec, t->rec)) { n = fe_upcast(p, sub, t->rec); break; }
      if (same_type(sub->ty, t) || t->kind == TY_RECORD) { n = sub; break; }
      /* array-to-pointer decay of a variable: the array escapes unless
       * directly indexed (see N_INDEX in uniform.c) */
      n = cast(p, c, sub, true);
      break;
    }
    /* a constant clang folds (offsetof, __builtin_offsetof) */
    if ((n = eval(p, c)) != NULL) break;
    err_c(c, "unsupported in device code: expression (C++ construct)");
    break;
  default:
    if ((n = eval(p, c)) != NULL) break;   /* (sizeof...(T), a constant of another kind) */
    err_c(c, "unsupported in device code: %s", cx_str(clang_getCursorKindSpelling(ck)));
    break;
  }
  free(k.v);
  if (!n) {
    n = ir_num(ir_cloc(c), ir_type(TY_INT), 0);
  }
  return n;
}

/* ---- statements ---- */

Node *fe_expr(Fe *p, CXCursor c) { return expr(p, c); }
Node *fe_warp_call(Fe *p, CXCursor c, Node *n, const char *name) { return warp_call(p, c, n, name); }

static Node *strip(Node *n) {
  while (n->k == N_CAST && n->implicit) n = n->a;
  return n;
}

static Node *decl_stmt(Fe *p, CXCursor c) {
  Kids k = kids(c);
  Node *blk = ir_node(S_BLOCK, c);
  blk->post = true;  /* no scope of its own: declarations belong to the enclosing block */
  for (int i = 0; i < k.n; i++) {
    CXCursor v = k.v[i];
    enum CXCursorKind vk = clang_getCursorKind(v);
    if (vk == CXCursor_TypedefDecl || vk == CXCursor_TypeAliasDecl || vk == CXCursor_StructDecl ||
        vk == CXCursor_UnionDecl || vk == CXCursor_EnumDecl || vk == CXCursor_StaticAssert ||
        vk == CXCursor_UsingDirective || vk == CXCursor_UsingDeclaration || vk == CXCursor_NamespaceAlias ||
        vk == CXCursor_TypeAliasTemplateDecl)
      continue;   /* (names only: `using namespace std;` in a kernel) */
    if (vk != CXCursor_VarDecl) {
      err_c(v, "unsupported in device code: declaration of this kind");
      continue;
    }
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(v);
    bool shared = cx_has_attr(v, CXCursor_CUDASharedAttr);
    if (sc == CX_SC_Static && !shared) {
      VarMap *m = xcalloc(1, sizeof *m);
      m->c = v;
      m->o = static_local(p, v);
      vec_push(&p->vars, m);
      continue;
    }
    if (is_lambda(clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(v)))))
      continue;   /* a lambda: its calls name its function and captures */
    Obj *o = new_var(p, v);
    if (shared) {
      o->is_shared = true;
      o->is_extern_shared = sc == CX_SC_Extern;
      vec_push(&p->fn->shared, o);
      continue;   /* in a device function: one per block, the function is inlined */
    }
    if (sc == CX_SC_Extern) {
      err_c(v, "unsupported in device code: extern local variable");
      continue;
    }
    if (o->ty->kind == TY_ARRAY && o->ty->len < 0)
      err_c(v, "unsupported in device code: array of unknown size");
    Node *d = ir_node(S_DECL, v);
    d->var = o;
    /* the initializer is the last expression below the declaration; an
     * array's size written as an expression (T a[M * N] in a template)
     * is one too, before it: none without an initializer */
    Kids vk2 = kids(v);
    bool has_init = !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(v));
    for (int j = 0; j < vk2.n && has_init; j++)
      if (is_expr(vk2.v[j])) d->a = expr(p, vk2.v[j]);
    free(vk2.v);
    if (d->a && d->a->k == N_INIT && d->a->post) d->a = NULL;   /* trivial default construction */
    if (d->a && o->ty->is_ref) d->a = addr_of(d->a, o->ty);
    Node *sy = d->a ? strip(d->a) : NULL;
    vec_push(&blk->list, d);
    if (fe_has_dtor(p, o->ty)) vec_push(&p->dtors, o);
    if (sy && sy->k == S_SYNC) {   /* int c = __syncthreads_count(x); */
      d->a = NULL;
      sy->var = o;
      p->fn->has_sync = true;
      vec_push(&blk->list, sy);
    }
  }
  free(k.v);
  return blk;
}

/* for (init; cond; inc) body: libclang skips absent parts, so tell them
 * apart by where they start relative to the two ';' of the header. */
/* Where a for loop's part starts, as an offset comparable with its
 * tokens': clang_tokenize gives a loop written in a macro's body the body's
 * tokens, so its parts are placed by spelling there (in file f; UINT_MAX if
 * elsewhere, a macro's argument); outside macros by expansion (a part that
 * starts with a macro is where the macro is used). */
static unsigned for_off(CXSourceLocation l, bool in_macro, CXFile f) {
  unsigned off;
  CXFile lf;
  if (!in_macro) clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
  else {
    clang_getSpellingLocation(l, &lf, NULL, NULL, &off);
    if (!clang_File_isEqual(lf, f)) off = UINT_MAX;
  }
  return off;
}

static Node *for_stmt(Fe *p, CXCursor c) {
  Node *n = ir_node(S_FOR, c);
  Kids k = kids(c);
  CXToken *toks;
  unsigned nt;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(c));
  CXFile sf, ef;
  unsigned so, eo;
  clang_getSpellingLocation(at, &sf, NULL, NULL, &so);
  clang_getExpansionLocation(at, &ef, NULL, NULL, &eo);
  bool in_macro = so != eo || !clang_File_isEqual(sf, ef);
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &nt);
  unsigned semi[2] = {0, 0}, close = UINT_MAX;   /* the header's ';'s and ')' */
  int depth = 0, ns = 0;
  for (unsigned i = 0; i < nt && close == UINT_MAX; i++) {
    char *s = cx_str(clang_getTokenSpelling(tu, toks[i]));
    unsigned off = for_off(clang_getTokenLocation(tu, toks[i]), in_macro, sf);
    if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{")) depth++;
    else if (!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}")) {
      if (--depth == 0) close = off;
    } else if (!strcmp(s, ";") && depth == 1 && ns < 2) semi[ns++] = off;
    free(s);
  }
  clang_disposeTokens(tu, toks, nt);
  if (ns < 2) {
    err_c(c, "unsupported in device code: this form of for loop");
    free(k.v);
    return n;
  }
  Vec loops = p->loops;
  vec_push(&p->loops, n);
  dt_loop(p, n);
  for (int i = 0; i < k.n - 1; i++) {
    unsigned off = for_off(clang_getRangeStart(clang_getCursorExtent(k.v[i])), in_macro, sf);
    if (in_macro && (off < so || off > close)) {   /* a macro's argument: not among the header's tokens */
      err_c(k.v[i], "unsupported in device code: a for loop in a macro whose header takes a part from the macro's arguments");
      break;
    }
    if (off < semi[0]) n->a = stmt(p, k.v[i]);
    else if (off < semi[1]) {
      if (clang_getCursorKind(k.v[i]) == CXCursor_DeclStmt)
        err_c(k.v[i], "unsupported in device code: declaration in a for condition");
      else n->b = expr(p, k.v[i]);
    } else n->c = expr(p, k.v[i]);
  }
  n->d = stmt(p, k.v[k.n - 1]);
  p->loops.n = loops.n;
  free(k.v);
  return n;
}

static Node *loop_target(Fe *p, CXCursor c, bool is_break) {
  for (int i = p->loops.n - 1; i >= 0; i--) {
    Node *l = p->loops.v[i];
    if (is_break || l->k != S_SWITCH) return l;
  }
  err_c(c, "%s outside a loop", is_break ? "break" : "continue");
  return NULL;
}

/* The body of a switch is flattened so that case labels stand as
 * statements of their own in the body block (S_CASE / S_DEFAULT). */
static void flatten_case(Fe *p, CXCursor c, Vec *out) {
  enum CXCursorKind ck = clang_getCursorKind(c);
  Kids k = kids(c);
  if (ck == CXCursor_CaseStmt) {
    Node *l = ir_node(S_CASE, c);
    Node *v = eval(p, k.v[0]);
    if (!v) v = expr(p, k.v[0]);
    if (v->k != N_NUM) err_c(c, "unsupported in device code: case label that is not an integer constant");
    l->ival = v->ival;
    vec_push(out, l);
    flatten_case(p, k.v[k.n - 1], out);
  } else if (ck == CXCursor_DefaultStmt) {
    vec_push(out, ir_node(S_DEFAULT, c));
    flatten_case(p, k.v[k.n - 1], out);
  } else {   /* (a labelled statement: a case label inside it is nested) */
    bool sb = p->in_switch_body;
    p->in_switch_body = false;
    vec_push(out, stmt(p, c));
    p->in_switch_body = sb;
  }
  free(k.v);
}

/* assert(e) from <assert.h> is `e ? (void)0 : __assert_fail("e", file,
 * line, function)`: in device code it becomes
 * if (!e) { cu_assert_fail(block, thread, "e", file, line); cu_assert_stop(block); }
 * Each failing thread of a warp reports, then its block stops (the launch
 * has failed: 710, cudaErrorAssert). No thread leaves a lane mask, so an
 * assert costs a kernel's loops no masks: a test, a cold branch. */
static bool names_assert_fail(CXCursor c, int depth) {
  char *nm = cx_str(clang_getCursorSpelling(c));
  bool r = !strcmp(nm, "__assert_fail") || !strcmp(nm, "__assert_rtn") || !strcmp(nm, "_assert");
  free(nm);
  Kids k = kids(c);
  for (int i = 0; i < k.n && !r && depth < 3; i++) r = names_assert_fail(k.v[i], depth + 1);
  free(k.v);
  return r;
}

/* the first string literal under c: the asserted expression's text */
static const char *first_str(CXCursor c, int depth) {
  if (clang_getCursorKind(c) == CXCursor_StringLiteral) return cx_str(clang_getCursorSpelling(c));
  Kids k = kids(c);
  const char *r = NULL;
  for (int i = 0; i < k.n && !r && depth < 3; i++) r = first_str(k.v[i], depth + 1);
  free(k.v);
  return r ? r : depth ? NULL : "\"assertion\"";
}

static Node *str_node(CXCursor c, const char *lit) {
  Node *n = ir_node(N_STR, c);
  n->ty = ir_ptr(ir_type(TY_CHAR));
  n->str = (char *)lit;
  return n;
}

static Node *assert_stmt(Fe *p, CXCursor c) {
  CXCursor q = c;
  while (clang_getCursorKind(q) == CXCursor_ParenExpr || clang_getCursorKind(q) == CXCursor_UnexposedExpr) {
    Kids k = kids(q);
    bool one = k.n == 1;
    if (one) q = k.v[0];
    free(k.v);
    if (!one) break;
  }
  if (clang_getCursorKind(q) != CXCursor_ConditionalOperator) return NULL;
  Kids k = kids(q);
  Node *n = NULL;
  if (k.n == 3 && names_assert_fail(k.v[2], 0)) {
    const char *text = first_str(k.v[2], 0);
    Loc at = ir_cloc(c);
    Node *no = ir_un(at, OP_LNOT, ir_type(TY_INT), expr(p, k.v[0]));
    Node *call = ir_call(at, C_BUILTIN, "cu_assert_fail", ir_type(TY_VOID));
    Node *bid = ir_builtin(at, B_BID, 0);
    vec_push(&call->list, ir_un(at, OP_ADDR, ir_ptr(bid->ty), bid));
    for (int d = 0; d < 3; d++) vec_push(&call->list, ir_builtin(at, B_TID, d));
    vec_push(&call->list, str_node(c, text));
    Buf f = {0};
    buf_puts(&f, "\"");
    for (const char *s = call->file; *s; s++) buf_printf(&f, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
    buf_puts(&f, "\"");
    vec_push(&call->list, str_node(c, buf_take(&f)));
    vec_push(&call->list, ir_num(at, ir_type(TY_INT), call->line));
    Node *then = ir_new(S_BLOCK, at);
    vec_push(&then->list, ir_stmt(at, S_EXPR, call));
    /* the block stops: once per warp, after its failing threads reported
     * (a uniform call under the failing lanes' mask) */
    Node *stop = ir_call(at, C_BUILTIN, "cu_assert_stop", call->ty);
    Node *bid2 = ir_builtin(at, B_BID, 0);
    vec_push(&stop->list, ir_un(at, OP_ADDR, ir_ptr(bid2->ty), bid2));
    vec_push(&then->list, ir_stmt(at, S_EXPR, stop));
    n = ir_if(at, no, then, NULL);
    n->cold = true;
  }
  free(k.v);
  return n;
}

/* ---- destructors of local objects (class.c builds the calls) ----
 * p->dtors: the live locals whose class has a destructor, innermost last;
 * a block destroys its own at its end, a return all of the function's, a
 * break or continue those of the loop it leaves, each last built first. */
typedef struct LMark { Node *loop; int mark; } LMark;
static void dt_loop(Fe *p, Node *loop) {
  LMark *m = xcalloc(1, sizeof *m);
  m->loop = loop;
  m->mark = p->dtors.n;
  vec_push(&p->lmarks, m);
}
static void dt_emit(Fe *p, int from, Vec *out, Node *at) {
  for (int i = p->dtors.n - 1; i >= from; i--) vec_push(out, fe_dtor_stmt(p, p->dtors.v[i], at));
}
/* a jump or return with the destructors it runs first (a block of no scope) */
static Node *dt_jump(Fe *p, Node *n) {
  int from = p->dtors0;
  if (n->k == S_BREAK || n->k == S_CONTINUE) {
    from = p->dtors.n;
    for (int i = 0; i < p->lmarks.n; i++)
      if (((LMark *)p->lmarks.v[i])->loop == n->target) from = ((LMark *)p->lmarks.v[i])->mark;
  }
  if (from >= p->dtors.n) return n;
  Node *b = ir_new(S_BLOCK, ir_loc(n));
  b->post = true;
  if (n->k == S_RETURN && n->a && !p->fn->is_ctor) {   /* the value first: it may read the objects */
    Obj *t = xcalloc(1, sizeof *t);
    t->name = xfmt("cu_ret%d", p->fn->locals.n);
    t->ty = n->a->ty;
    t->file = n->file, t->line = n->line, t->col = n->col;
    vec_push(&p->fn->locals, t);
    vec_push(&b->list, ir_decl(ir_loc(n), t, n->a));
    n->a = ir_var(ir_loc(n), t);
  }
  dt_emit(p, from, &b->list, n);
  vec_push(&b->list, n);
  return b;
}

/* Does statement n hold a barrier? */
static bool sync_in(Node *n) {
  if (!n) return false;
  if (n->k == S_SYNC) return true;
  if (n->k < S_BLOCK) return false;
  if (sync_in(n->a) || sync_in(n->b) || sync_in(n->c) || sync_in(n->d)) return true;
  for (int i = 0; i < n->list.n; i++)
    if (sync_in(n->list.v[i])) return true;
  return false;
}

/* A branch of an if with barriers as a block of its own: the lowering
 * numbers the regions of such an if's branches block by block, and took a
 * branch that is one statement, without braces, for none (a variable used
 * only there, as the temporary of CUB's `else
 * BlockStoreT(temp).Store(...)`, was declared in no region). */
static Node *as_block(Node *s) {
  if (!s || s->k == S_BLOCK) return s;
  Node *b = ir_new(S_BLOCK, ir_loc(s));
  vec_push(&b->list, s);
  return b;
}

static Node *stmt(Fe *p, CXCursor c) {
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (is_expr(c)) {
    Node *as = assert_stmt(p, c);
    if (as) return as;
    Node *e = expr(p, c);
    if (e->k == N_ASSIGN && e->op == OP_ASSIGN && strip(e->a)->k == N_VAR &&
        strip(e->b)->k == S_SYNC) {   /* c = __syncthreads_or(x); */
      Node *sy = strip(e->b);
      sy->var = strip(e->a)->var;
      e = sy;
    }
    if (e->k == S_SYNC) {
      p->fn->has_sync = true;
      return e;
    }
    return fe_inline(p, ir_stmt(ir_cloc(c), S_EXPR, e));
  }
  Kids k = kids(c);
  Node *n = NULL;
  switch (ck) {
  case CXCursor_CompoundStmt: {
    n = ir_node(S_BLOCK, c);
    int mark = p->dtors.n;
    for (int i = 0; i < k.n; i++) {
      enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
      if (kk == CXCursor_CaseStmt || kk == CXCursor_DefaultStmt) {
        if (!p->in_switch_body)
          err_c(k.v[i], "unsupported in device code: case label nested inside a block of the switch");
        flatten_case(p, k.v[i], &n->list);
      } else {
        bool sb = p->in_switch_body;
        p->in_switch_body = false;
        vec_push(&n->list, stmt(p, k.v[i]));
        p->in_switch_body = sb;
      }
    }
    Node *end = ir_node(S_NULL, c);   /* at the closing brace */
    CXFile ef;
    unsigned eo;
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &ef, (unsigned *)&end->line, (unsigned *)&end->col, &eo);
    if (ef) end->col = cdp_col(fe_intern(cx_str(clang_getFileName(ef))), end->line, end->col, eo);
    dt_emit(p, mark, &n->list, end);
    p->dtors.n = mark;
    break;
  }
  case CXCursor_DeclStmt:
    n = decl_stmt(p, c);
    break;
  case CXCursor_NullStmt:
    n = ir_node(S_NULL, c);
    break;
  case CXCursor_GCCAsmStmt:   /* inline PTX, translated (ptx.c) */
    n = fe_asm(p, c);
    break;
  case CXCursor_IfStmt:
    n = ir_node(S_IF, c);
    if (k.n >= 1 && clang_getCursorKind(k.v[0]) == CXCursor_DeclStmt) {
      err_c(c, "unsupported in device code: declaration in an if condition");
      break;
    }
    n->a = expr(p, k.v[0]);
    n->b = stmt(p, k.v[1]);
    if (k.n > 2) n->c = stmt(p, k.v[2]);
    if (sync_in(n->b) || sync_in(n->c)) {   /* (the lowering walks a branch of an if with barriers as a block) */
      n->b = as_block(n->b);
      n->c = as_block(n->c);
    }
    break;
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt: {
    n = ir_node(ck == CXCursor_WhileStmt ? S_WHILE : S_DO, c);
    int ci = ck == CXCursor_WhileStmt ? 0 : 1;
    if (clang_getCursorKind(k.v[ci]) == CXCursor_DeclStmt) {
      err_c(c, "unsupported in device code: declaration in a loop condition");
      break;
    }
    n->b = expr(p, k.v[ci]);
    int nl = p->loops.n;
    vec_push(&p->loops, n);
  dt_loop(p, n);
    n->d = stmt(p, k.v[1 - ci]);
    p->loops.n = nl;
    break;
  }
  case CXCursor_ForStmt:
    n = for_stmt(p, c);
    break;
  case CXCursor_SwitchStmt: {
    n = ir_node(S_SWITCH, c);
    if (clang_getCursorKind(k.v[0]) == CXCursor_DeclStmt) {
      err_c(c, "unsupported in device code: declaration in a switch condition");
      break;
    }
    n->a = expr(p, k.v[0]);
    int nl = p->loops.n;
    vec_push(&p->loops, n);
  dt_loop(p, n);
    bool sb = p->in_switch_body;
    p->in_switch_body = true;
    CXCursor body = k.v[k.n - 1];
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
      err_c(body, "unsupported in device code: switch body that is not a block");
    n->d = stmt(p, body);
    p->in_switch_body = sb;
    p->loops.n = nl;
    break;
  }
  case CXCursor_BreakStmt:
    n = ir_node(S_BREAK, c);
    n->target = loop_target(p, c, true);
    n = dt_jump(p, n);
    break;
  case CXCursor_ContinueStmt:
    n = ir_node(S_CONTINUE, c);
    n->target = loop_target(p, c, false);
    n = dt_jump(p, n);
    break;
  case CXCursor_ReturnStmt:
    n = ir_node(S_RETURN, c);
    if (k.n > 0) n->a = expr(p, k.v[0]);
    if (n->a && p->fn->ty->is_ref) n->a = addr_of(n->a, p->fn->ty);
    if (p->fn->is_ctor) {   /* return; in a constructor: the object is built */
      n->a = ir_var(ir_cloc(c), p->fn->self);
    }
    n = dt_jump(p, n);
    break;
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    err_c(c, "unsupported in device code: case label outside the top level of a switch body");
    break;
  case CXCursor_UnexposedStmt:
    /* a statement with attributes: #pragma unroll before a loop (the C
     * compiler unrolls as it sees fit) */
    if (k.n == 1 && !is_expr(k.v[0])) {
      n = stmt(p, k.v[0]);
      break;
    }
    err_c(c, "unsupported in device code: statement (C++ construct)");
    break;
  case CXCursor_GotoStmt:
  case CXCursor_LabelStmt:
  case CXCursor_IndirectGotoStmt:
    err_c(c, "unsupported in device code: goto and labels");
    break;
  default:
    err_c(c, "unsupported in device code: %s", cx_str(clang_getCursorKindSpelling(ck)));
  }
  free(k.v);
  if (!n) n = ir_node(S_NULL, c);
  if (n->k == S_BLOCK ? n->post : n->k == S_RETURN || n->k == S_IF || n->k == S_SWITCH) n = fe_inline(p, n);
  return n;
}

/* ---- functions ---- */

/* C name of a function: its class, if any, and its name, with the
 * characters C does not allow in names spelled in hex (operator+ ->
 * cu_f_float3_operator_2b). */
static char *fn_cname(Fe *p, Obj *f, CXCursor def) {
  Buf b = {0};
  buf_puts(&b, "cu_f_");
  CXCursor cls = clang_getCursorSemanticParent(def);
  enum CXCursorKind ck = clang_getCursorKind(cls);
  if (ck == CXCursor_StructDecl || ck == CXCursor_ClassDecl || ck == CXCursor_ClassTemplate)
    buf_puts(&b, is_lambda(cls) ? "lambda_" : xfmt("%s_", cx_str(clang_getCursorSpelling(cls))));
  for (const char *q = f->name; *q; q++)
    if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')
      buf_put(&b, q, 1);
    else if (*q != ' ')
      buf_printf(&b, "_%02x", (unsigned char)*q);
  char *base = buf_take(&b);
  for (int i = 0;; i++) {
    char *nm = i ? xfmt("%s_%d", base, i) : base;
    bool used = false;
    for (int j = 0; j < p->funcs.n; j++)
      if (!strcmp(((FnMap *)p->funcs.v[j])->o->cname, nm)) used = true;
    if (!used) return nm;
  }
}

/* Lower one function definition into IR (once), kernels and device
 * functions alike. */
Obj *fe_func(Fe *p, CXCursor def) {
  for (int i = 0; i < p->funcs.n; i++) {
    FnMap *m = p->funcs.v[i];
    if (clang_equalCursors(m->c, def)) return m->o;
  }
  Obj *f = xcalloc(1, sizeof *f);
  enum CXCursorKind dk = clang_getCursorKind(def);
  /* a class's cursor stands for its implicit default constructor */
  bool implicit = dk == CXCursor_StructDecl || dk == CXCursor_ClassDecl;
  CXCursor cls = implicit ? def : clang_getCursorSemanticParent(def);
  f->name = cx_str(clang_getCursorSpelling(def));
  f->cname = fn_cname(p, f, def);
  f->is_kernel = cx_has_attr(def, CXCursor_CUDAGlobalAttr);
  f->is_ctor = dk == CXCursor_Constructor || implicit;
  f->is_lambda = dk == CXCursor_CXXMethod && is_lambda(cls);
  f->ty = f->is_ctor ? mk_type(p, clang_getCursorType(cls), def)
                     : mk_type(p, clang_getResultType(clang_getCursorType(def)), def);
  cx_loc(def, &f->file, &f->line, &f->col);
  FnMap *m = xcalloc(1, sizeof *m);
  m->c = def;
  m->o = f;
  vec_push(&p->funcs, m);
  if (clang_Cursor_isVariadic(def)) err_c(def, "unsupported in device code: variadic function");

  Obj *save_fn = p->fn;
  Vec save_loops = p->loops;
  int save_dtors = p->dtors.n, save_dtors0 = p->dtors0;
  p->dtors0 = p->dtors.n;
  int save_vars = p->vars.n, save_vars0 = p->vars0, save_tmps = p->tmps.n;
  p->fn = f;
  p->vars0 = p->vars.n;
  p->loops = (Vec){0};
  Node *pre = ir_node(S_BLOCK, def);   /* a constructor's set-up of self */
  if (f->is_ctor || ((dk == CXCursor_CXXMethod || dk == CXCursor_ConversionFunction || dk == CXCursor_Destructor) &&
                     !clang_CXXMethod_isStatic(def) && !f->is_lambda)) {
    Obj *o = xcalloc(1, sizeof *o);
    o->name = "this";
    cx_loc(def, &o->file, &o->line, &o->col);
    o->ty = mk_type(p, clang_getCursorType(cls), def);
    f->self = o;
    /* a dynamic class's member functions take `this` by pointer (a virtual
     * call's dispatcher passes the object, not a copy) */
    Cls *oc = o->ty->kind == TY_RECORD ? fe_cls(p, o->ty->rec) : NULL;
    f->self_val = f->is_ctor || (clang_CXXMethod_isConst(def) && !(oc && oc->dyn));
    if (f->is_ctor) {
      o->name = "cu_self";
      vec_push(&f->locals, o);
      vec_push(&pre->list, ir_decl(ir_cloc(def), o, NULL));
    } else {
      if (!f->self_val) o->ty = ir_ptr(o->ty);
      o->is_param = true;
      vec_push(&f->params, o);
      vec_push(&f->locals, o);
    }
  }
  int np = clang_Cursor_getNumArguments(def);
  for (int i = 0; i < np; i++) {
    CXCursor a = clang_Cursor_getArgument(def, i);
    Obj *o = new_var(p, a);
    o->is_param = true;
    if (o->ty->kind == TY_ARRAY) {   /* `float3 sums[16]` is a pointer, as in C (libclang gives the type as written) */
      o->ty = ir_ptr(o->ty->base);
    }
    if (o->ty->kind == TY_RECORD && o->ty->rec->size == 0) o->ty->rec->size = 1;
    vec_push(&f->params, o);
  }
  Kids k = kids(def);
  FI fi = {.p = p, .fn = f, .body = pre};
  Vec binit = {0}, bdone = {0};   /* a constructor's bases built, in order */
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
    if (f->is_ctor && kk == CXCursor_MemberRef && i + 1 < k.n && is_expr(k.v[i + 1])) {
      /* a member initializer: x(v) */
      CXCursor fd = clang_getCursorReferenced(k.v[i]);
      vec_push(&pre->list, assign_field(k.v[i + 1], f->self, fd, expr(p, k.v[i + 1])));
      CXCursor *cp = xcalloc(1, sizeof *cp);
      *cp = fd;
      vec_push(&fi.done, cp);
      i++;
    } else if (f->is_ctor && !implicit && (kk == CXCursor_TypeRef || kk == CXCursor_TemplateRef) &&
               !before_name(k.v[i], def)) {
      /* a base initializer B(args), or a delegating constructor's (not
       * the class named before the name of one defined outside it:
       * `template <class T> X<T>::X(T v) : lo(v)`) */
      int j = i + 1;
      while (j < k.n && !is_expr(k.v[j]) && clang_getCursorKind(k.v[j]) != CXCursor_CompoundStmt) j++;
      if (j >= k.n || !is_expr(k.v[j])) continue;
      Node *e = expr(p, k.v[j]);
      Node *sv = ir_var(ir_cloc(k.v[i]), f->self);
      Node *lhs = e->ty->kind == TY_RECORD ? fe_upcast(p, sv, e->ty->rec) : NULL;
      Node *s = ir_stmt(ir_cloc(k.v[j]), S_EXPR, e);
      if (lhs && lhs != sv) {
        Node *a = ir_node(N_ASSIGN, k.v[j]);
        a->op = OP_ASSIGN;
        a->ty = e->ty;
        a->a = lhs;
        a->b = e;
        s->a = a;
      } else if (lhs == sv) {   /* delegating: the other constructor builds it all */
        Node *a = ir_node(N_ASSIGN, k.v[j]);
        a->op = OP_ASSIGN;
        a->ty = e->ty;
        a->a = sv;
        a->b = e;
        s->a = a;
      }
      if (e->ty->kind == TY_RECORD) vec_push(&bdone, e->ty->rec);
      vec_push(&binit, s);
      i = j;
    } else if (kk == CXCursor_CompoundStmt) {
      f->has_body = true;
      f->body = stmt(p, k.v[i]);
    }
  }
  free(k.v);
  if (f->is_ctor) {   /* bases, vptrs, in-class initializers, the body, return self */
    Cls *cc = fe_cls(p, f->self->ty->rec);
    for (int i = 0; cc && i < cc->bases.n; i++) {   /* bases with no initializer: default */
      Base *b = cc->bases.v[i];
      bool done = false;
      for (int j = 0; j < bdone.n; j++) done |= bdone.v[j] == b->r;
      if (done) continue;
      Cls *bc = fe_cls(p, b->r);
      CXCursor bd = bc ? bc->decl : clang_getNullCursor();
      Node *e = clang_Cursor_isNull(bd) ? NULL : default_ctor(p, bd, def);
      if (!e) continue;
      Node *sv = ir_var(ir_cloc(def), f->self);
      Node *lhs = fe_upcast(p, sv, b->r);
      Node *s = ir_stmt(ir_cloc(def), S_EXPR, e);
      if (lhs && lhs != sv) {
        Node *a = ir_node(N_ASSIGN, def);
        a->op = OP_ASSIGN;
        a->ty = e->ty;
        a->a = lhs;
        a->b = e;
        s->a = a;
      }
      vec_push(&binit, s);
    }
    Node *d0 = ir_node(S_DECL, def);
    fe_ctor_ids(p, f->self, &binit, d0);
    Vec rest = pre->list;   /* the declaration of self, then the member initializers */
    pre->list = (Vec){0};
    vec_push(&pre->list, rest.v[0]);
    for (int i = 0; i < binit.n; i++) vec_push(&pre->list, binit.v[i]);
    for (int i = 1; i < rest.n; i++) vec_push(&pre->list, rest.v[i]);
    field_inits(cls, &fi);
    if (f->body) vec_push(&pre->list, f->body);
    vec_push(&pre->list, ir_stmt(ir_cloc(def), S_RETURN, ir_var(ir_cloc(def), f->self)));
    f->body = pre;
    f->has_body = true;
  }
  if (p->tmps.n > save_tmps && f->body && f->body->k == S_BLOCK) {   /* obj_addr's temporaries */
    Vec l = {0};
    for (int i = save_tmps; i < p->tmps.n; i++) {
      Obj *o = p->tmps.v[i];
      vec_push(&l, ir_decl((Loc){o->file, o->line, o->col}, o, NULL));
    }
    for (int i = 0; i < f->body->list.n; i++) vec_push(&l, f->body->list.v[i]);
    f->body->list = l;
  }
  p->tmps.n = save_tmps;
  fe_inline_left(f->body);
  fe_shared32(f->body);
  p->fn = save_fn;
  p->loops = save_loops;
  p->dtors.n = save_dtors;
  p->dtors0 = save_dtors0;
  p->vars.n = save_vars;
  p->vars0 = save_vars0;
  if (!f->is_kernel) vec_push(&p->prog->funcs, f);
  return f;
}
