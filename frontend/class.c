/* class.c: C++ classes of device code lowered to the C-like IR: base
 * classes, virtual functions, new and delete.
 *
 * - A base class is a member of its derived class (`cu_base0`...), placed
 *   where the Itanium ABI places it (checked against clang's offsets of the
 *   class's own members and its size; a layout C cannot spell is refused).
 *   An empty base takes no room and has no member. Derived-to-base
 *   conversions are member accesses, so a pointer to a second base is
 *   adjusted as C++ adjusts it.
 * - A dynamic class (virtual functions, or a dynamic base) starts with a
 *   `cu_vptr` slot (or shares its primary base's): device code never sees
 *   a real vtable, so the slot holds a small integer, the id of the object's
 *   dynamic class, stored by its constructor in every vptr of the object.
 *   A virtual call is a call of a dispatch function (`cu_v_...`), an IR
 *   function built once every class constructed in device code is known:
 *   `if (id == 1) return D1::f((D1 *)this, ...); else if (id == 2) ...`.
 *   It is plain IR, so the lowering treats it like any device function:
 *   non-virtual code keeps its warp vectorization, and lanes of one warp
 *   whose objects differ in type take the if's branches as divergent lanes.
 *   (A table of function pointers would make every virtual call an
 *   indirect call that the lowering cannot follow.)
 * - new is the device heap's cu_dev_malloc (cucc_rt.h) and a store of the
 *   constructed value; placement new a store; delete calls the destructor
 *   (through the dispatcher when it is virtual) and cu_dev_free. new[] of a
 *   class with a destructor keeps the count in a 16-byte cookie before the
 *   elements, as the Itanium ABI does, for delete[].
 * Objects are built as values (parse.c: a constructor returns the object),
 * so a constructor that stores `this` elsewhere sees its local copy. */
#include "cucc.h"
#include "fe.h"

#define kids fe_kids   /* parse.c */

static void err_c(CXCursor c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void err_c(CXCursor c, const char *fmt, ...) {
  const char *f;
  int l, cl;
  cx_loc(c, &f, &l, &cl);
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  errorat(f, l, cl, "%s", tmp);
}

/* The children of a class. libclang shows none for an implicit template
 * instantiation (Vector<int> of template <class T> class Vector : public
 * Container<T>): its bases and members exist only in clang's instantiated
 * declarations, which no cursor reaches unless code names them. So the
 * file is parsed once more (a probe) with lines appended after the user's
 * last byte that name them: each base of the pattern through an alias
 * template in the pattern's namespace (template <class T> using B = the
 * base as written; then B<int>), and each virtual member function and the
 * destructor through a use. Each probe's TU stays alive: its cursors are
 * the instantiation's members. */
typedef struct Probe { char *usr; Kids k; Vec bases; CXTranslationUnit tu; } Probe;

static char *tok_text(CXTranslationUnit tu, CXSourceRange r, int skip_access) {
  CXToken *t;
  unsigned nt;
  clang_tokenize(tu, r, &t, &nt);
  Buf b = {0};
  for (unsigned i = 0; i < nt; i++) {
    char *s = cx_str(clang_getTokenSpelling(tu, t[i]));
    if (skip_access && (!strcmp(s, "public") || !strcmp(s, "protected") || !strcmp(s, "private") || !strcmp(s, "virtual"))) {
      free(s);
      continue;
    }
    if (skip_access == 2 && !strcmp(s, "=")) {
      free(s);
      break;
    }
    buf_printf(&b, "%s%s", b.len ? " " : "", s);
    free(s);
  }
  clang_disposeTokens(tu, t, nt);
  return b.s ? buf_take(&b) : xstrdup("");
}

static int nprobe;

static enum CXChildVisitResult probe_find(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  CXCursor *out = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr) {
    CXCursor r = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(r);
    if (rk == CXCursor_CXXMethod || rk == CXCursor_Destructor) {
      *out = r;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

static bool overloaded(Kids k, CXCursor m) {
  char *nm = cx_str(clang_getCursorSpelling(m));
  int n = 0;
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
    if (ck != CXCursor_CXXMethod && ck != CXCursor_FunctionTemplate) continue;
    char *x = cx_str(clang_getCursorSpelling(k.v[i]));
    n += !strcmp(x, nm);
    free(x);
  }
  free(nm);
  return n > 1;
}

static Probe *probe(Fe *p, CXCursor decl) {
  char *usr = cx_str(clang_getCursorUSR(decl));
  for (int i = 0; i < p->probes.n; i++)
    if (!strcmp(((Probe *)p->probes.v[i])->usr, usr)) return p->probes.v[i];
  Probe *pr = xcalloc(1, sizeof *pr);
  pr->usr = usr;
  vec_push(&p->probes, pr);
  CXCursor pat = clang_getSpecializedCursorTemplate(decl);
  if (clang_getCursorKind(pat) != CXCursor_ClassTemplate) {
    err_c(decl, "unsupported in device code: a class from a partial specialization with base classes or virtual functions");
    return pr;
  }
  /* the pattern's namespace and template parameters; the instantiation's arguments */
  Buf ns = {0}, nsend = {0}, qual = {0};
  Vec nss = {0};
  for (CXCursor q = clang_getCursorSemanticParent(pat); clang_getCursorKind(q) != CXCursor_TranslationUnit;
       q = clang_getCursorSemanticParent(q)) {
    if (clang_getCursorKind(q) != CXCursor_Namespace) {
      err_c(decl, "unsupported in device code: a class template nested in a class, with base classes or virtual functions");
      return pr;
    }
    vec_push(&nss, cx_str(clang_getCursorSpelling(q)));
  }
  for (int i = nss.n - 1; i >= 0; i--) {
    buf_printf(&ns, "namespace %s { ", (char *)nss.v[i]);
    buf_puts(&nsend, "} ");
    buf_printf(&qual, "::%s", (char *)nss.v[i]);
  }
  Kids pk = kids(pat);
  Buf parms = {0}, targs = {0};
  int na = clang_Cursor_getNumTemplateArguments(decl), ai = 0;
  CXType ct = clang_getCanonicalType(clang_getCursorType(decl));
  for (int i = 0; i < pk.n; i++) {
    enum CXCursorKind k = clang_getCursorKind(pk.v[i]);
    if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
        k != CXCursor_TemplateTemplateParameter)
      continue;
    char *nm = cx_str(clang_getCursorSpelling(pk.v[i]));
    if (ai >= na || k == CXCursor_TemplateTemplateParameter ||
        tok_text(p->tu, clang_getCursorExtent(pk.v[i]), 0)[0] == 0) {
      err_c(decl, "unsupported in device code: this class template's parameters, with base classes or virtual functions");
      return pr;
    }
    if (k == CXCursor_TemplateTypeParameter) {
      buf_printf(&parms, "%sclass %s", parms.len ? ", " : "", nm);
      CXType at = clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(ct, ai));
      buf_printf(&targs, "%s%s", targs.len ? ", " : "", cx_str(clang_getTypeSpelling(at)));
    } else {
      buf_printf(&parms, "%s%s", parms.len ? ", " : "", tok_text(p->tu, clang_getCursorExtent(pk.v[i]), 2));
      if (clang_Cursor_getTemplateArgumentKind(decl, ai) != CXTemplateArgumentKind_Integral) {
        err_c(decl, "unsupported in device code: this class template's arguments, with base classes or virtual functions");
        return pr;
      }
      buf_printf(&targs, "%s%lld", targs.len ? ", " : "", clang_Cursor_getTemplateArgumentValue(decl, ai));
    }
    ai++;
  }
  char *self = xfmt("%s::%s<%s>", qual.s ? qual.s : "", cx_str(clang_getCursorSpelling(pat)), targs.s ? targs.s : "");
  int id = nprobe++;
  Buf t = {0};
  buf_printf(&t, "\ntypedef %s __cucc_pt%d;\n", self, id);
  int nb = 0;
  Vec meths = {0};
  for (int i = 0; i < pk.n; i++) {
    enum CXCursorKind k = clang_getCursorKind(pk.v[i]);
    if (k == CXCursor_CXXBaseSpecifier) {
      buf_printf(&t, "%stemplate <%s> using __cucc_pb%d_%d = %s; %s\n", ns.s ? ns.s : "", parms.s,
                 id, nb, tok_text(p->tu, clang_getCursorExtent(pk.v[i]), 1), nsend.s ? nsend.s : "");
      buf_printf(&t, "typedef %s::__cucc_pb%d_%d<%s> __cucc_pbt%d_%d;\n", qual.s ? qual.s : "", id, nb, targs.s, id, nb);
      nb++;
    } else if (k == CXCursor_Constructor && clang_CXXConstructor_isDefaultConstructor(pk.v[i])) {
      buf_printf(&t, "struct __cucc_pm%d_%d : __cucc_pt%d { __attribute__((device)) __cucc_pm%d_%d() : __cucc_pt%d() {} };\n",
                 id, meths.n, id, id, meths.n, id);
      vec_push(&meths, NULL);
    } else if (k == CXCursor_Destructor) {
      buf_printf(&t, "__attribute__((device)) inline void __cucc_pm%d_%d(__cucc_pt%d *p) { p->~__cucc_pt%d(); }\n",
                 id, meths.n, id, id);
      vec_push(&meths, NULL);
    } else if (k == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(pk.v[i]) && !overloaded(pk, pk.v[i])) {
      /* every member function: in a pattern whose base is dependent, one
       * that overrides is not yet known to be virtual */
      buf_printf(&t, "__attribute__((device)) inline void __cucc_pm%d_%d() { (void)&__cucc_pt%d::%s; }\n", id,
                 meths.n, id, cx_str(clang_getCursorSpelling(pk.v[i])));
      vec_push(&meths, NULL);
    }
  }
  free(pk.v);
  Buf src = {0};
  buf_put(&src, p->psrc, p->psrclen);
  buf_puts(&src, t.s);
  struct CXUnsavedFile uf = {p->ppath, src.s, src.len};
  if (p->opts->verbose) fprintf(stderr, "cucc: libclang parse %s again for %s, with:%s", p->ppath, self, t.s);
  if (clang_parseTranslationUnit2(p->pidx, p->ppath, (const char *const *)p->pargs.v, p->pargs.n, &uf, 1,
                                  CXTranslationUnit_None, &pr->tu) != CXError_Success || !pr->tu) {
    err_c(decl, "unsupported in device code: class '%s' (its instantiation could not be read)", self);
    return pr;
  }
  /* the appended declarations, by name */
  Kids tk = kids(clang_getTranslationUnitCursor(pr->tu));
  for (int i = 0; i < tk.n; i++) {
    char *nm = cx_str(clang_getCursorSpelling(tk.v[i]));
    int a, b;
    if (sscanf(nm, "__cucc_pbt%d_%d", &a, &b) == 2 && a == id) {
      CXType bt = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(tk.v[i]));
      if (bt.kind != CXType_Record) {
        err_c(decl, "unsupported in device code: a base class of '%s' (not read in its instantiation)", self);
        continue;
      }
      CXType *cp = xcalloc(1, sizeof *cp);
      *cp = bt;
      vec_push(&pr->bases, cp);
    } else if (sscanf(nm, "__cucc_pm%d_%d", &a, &b) == 2 && a == id) {
      CXCursor m = clang_getNullCursor();
      clang_visitChildren(tk.v[i], probe_find, &m);
      if (clang_Cursor_isNull(m)) continue;
      if (pr->k.n == pr->k.cap) {
        pr->k.cap = pr->k.cap ? pr->k.cap * 2 : 8;
        pr->k.v = xrealloc(pr->k.v, sizeof(CXCursor) * pr->k.cap);
      }
      pr->k.v[pr->k.n++] = m;
    }
    free(nm);
  }
  free(tk.v);
  return pr;
}

/* an implicit instantiation whose pattern has bases or a destructor or
 * virtual functions: one to probe */
static bool needs_probe(CXCursor decl) {
  CXCursor pat = clang_getSpecializedCursorTemplate(decl);
  if (clang_Cursor_isNull(pat)) return false;
  Kids k = kids(decl);
  free(k.v);
  if (k.n) return false;
  Kids pk = kids(pat);
  bool r = false;
  for (int i = 0; i < pk.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(pk.v[i]);
    r |= ck == CXCursor_CXXBaseSpecifier || ck == CXCursor_Destructor ||
         (ck == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(pk.v[i]));
  }
  free(pk.v);
  return r;
}

/* A class's children as far as this file needs them: its bases (as
 * CXXBaseSpecifier cursors, or for a probed instantiation in *bases), its
 * destructor and member functions. */
Kids cls_kids(Fe *p, CXCursor decl) {
  if (!needs_probe(decl)) return kids(decl);
  Probe *pr = probe(p, decl);
  Kids k = {0};
  k.v = xcalloc(pr->k.n + 1, sizeof(CXCursor));
  if (pr->k.n) memcpy(k.v, pr->k.v, pr->k.n * sizeof(CXCursor));
  k.n = k.cap = pr->k.n;
  return k;
}

static Vec *probed_bases(Fe *p, CXCursor decl) { return needs_probe(decl) ? &probe(p, decl)->bases : NULL; }

/* ---- IR builders ---- */

static Node *mk(NodeKind k, Type *ty, const Node *at) {
  Node *n = xcalloc(1, sizeof *n);
  n->k = k;
  n->ty = ty;
  if (at) {
    n->file = at->file;
    n->line = at->line;
    n->col = at->col;
  }
  return n;
}
static Type *ty_new(TyKind k, int64_t size, int align) {
  Type *t = xcalloc(1, sizeof *t);
  t->kind = k;
  t->size = size;
  t->align = align;
  t->len = -1;
  return t;
}
static Type *ptr_to(Type *b) {
  Type *t = ty_new(TY_PTR, 8, 8);
  t->base = b;
  return t;
}
static Type *rec_ty(Record *r) {
  Type *t = ty_new(TY_RECORD, r->size, r->align);
  t->rec = r;
  return t;
}
static Node *var(Obj *o, const Node *at) {
  Node *n = mk(N_VAR, o->ty, at);
  n->var = o;
  return n;
}
static Node *inum(int64_t v, TyKind k, const Node *at) {
  Node *n = mk(N_NUM, ty_new(k, k == TY_INT ? 4 : 8, k == TY_INT ? 4 : 8), at);
  n->ival = v;
  return n;
}
static Node *castto(Node *a, Type *t) {
  Node *n = mk(N_CAST, t, a);
  n->a = a;
  return n;
}
static Node *bin(Op op, Node *a, Node *b, Type *t) {
  Node *n = mk(op >= OP_ASSIGN && op <= OP_BORA ? N_ASSIGN : N_BIN, t, a);
  n->op = op;
  n->a = a;
  n->b = b;
  return n;
}
static Node *un(Op op, Node *a, Type *t) {
  Node *n = mk(N_UN, t, a);
  n->op = op;
  n->a = a;
  return n;
}
static Node *deref_(Node *p) { return un(OP_DEREF, p, p->ty->base); }
static Node *addr_(Node *a) {
  if (a->k == N_UN && a->op == OP_DEREF) return a->a;
  if (a->k == N_VAR) a->var->addr_taken = true;
  return un(OP_ADDR, a, ptr_to(a->ty));
}
static Node *memb(Node *obj, Field *f) {   /* obj.f, or obj->f for a pointer */
  Node *n = mk(N_MEMBER, f->ty, obj);
  n->a = obj;
  n->post = obj->ty->kind == TY_PTR;
  n->field = f;
  return n;
}
static Node *sexpr(Node *e) {
  Node *s = mk(S_EXPR, NULL, e);
  s->a = e;
  return s;
}
static Node *ccall(const char *name, Type *ty, const Node *at) {   /* a helper of cucc_rt.h, per lane */
  Node *n = mk(N_CALL, ty, at);
  n->ck = C_ATOMIC;
  n->name = (char *)name;
  return n;
}
static Node *fcall(Obj *fn, const Node *at) {
  Node *n = mk(N_CALL, fn->ty, at);
  n->ck = C_FUNC;
  n->fn = fn;
  n->name = fn->name;
  return n;
}
static Obj *mkobj(const char *name, Type *ty, const Node *at) {
  Obj *o = xcalloc(1, sizeof *o);
  o->name = (char *)name;
  o->ty = ty;
  o->file = at->file;
  o->line = at->line;
  o->col = at->col;
  return o;
}

/* ---- classes ---- */

Cls *fe_cls(Fe *p, Record *r) {
  for (int i = 0; i < p->classes.n; i++)
    if (((Cls *)p->classes.v[i])->r == r) return p->classes.v[i];
  return NULL;
}

static bool cx_virtual(CXCursor m) {
  enum CXCursorKind k = clang_getCursorKind(m);
  return (k == CXCursor_CXXMethod || k == CXCursor_Destructor) && clang_CXXMethod_isVirtual(m);
}

/* A record's bases and vptr, before its own fields (mk_record): the
 * bases' fields are copied in (`cu_b0_x`) at the offsets the Itanium ABI
 * gives them, since a base's tail padding may hold the derived class's
 * members (struct B { virtual f(); int a; }; struct D : B { int d; }: d is
 * at 12, inside sizeof(B)), which a member of type B cannot express. */
void fe_rec_bases(Fe *p, Record *r, CXCursor decl, CXCursor where) {
  Cls *c = xcalloc(1, sizeof *c);
  c->r = r;
  c->decl = decl;
  vec_push(&p->classes, c);
  Kids k = cls_kids(p, decl);
  Vec *pb = probed_bases(p, decl);
  int nk = k.n + (pb ? pb->n : 0);
  Vec bs = {0};
  for (int i = 0; i < nk; i++) {
    CXType bct;
    if (i >= k.n) bct = *(CXType *)pb->v[i - k.n];
    else {
      enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
      if (cx_virtual(k.v[i])) c->dyn = true;
      if (ck != CXCursor_CXXBaseSpecifier) continue;
      if (clang_isVirtualBase(k.v[i])) {
        err_c(where, "unsupported in device code: class '%s' with a virtual base class", r->cname + 5);
        continue;
      }
      bct = clang_getCanonicalType(clang_getCursorType(k.v[i]));
    }
    Type *bt = mk_type(p, bct, where);
    if (bt->kind != TY_RECORD) continue;
    Base *b = xcalloc(1, sizeof *b);
    b->r = bt->rec;
    b->idx = bs.n;
    Cls *bc = fe_cls(p, bt->rec);
    b->dyn = bc && bc->dyn;
    c->dyn |= b->dyn;
    b->empty = !b->r->fields.n;
    b->pod = clang_isPODType(bct);
    vec_push(&bs, b);
  }
  free(k.v);
  /* the Itanium order: the primary base (the first dynamic one) at 0, or
   * the class's own vptr; then the other bases as declared, each after
   * the data of those before it (a POD base's whole size) */
  int prim = -1;
  for (int i = 0; i < bs.n && prim < 0; i++)
    if (((Base *)bs.v[i])->dyn) prim = i;
  int64_t end = 0;
  if (c->dyn && prim < 0) {
    Field *f = xcalloc(1, sizeof *f);
    f->name = "cu_vptr";
    f->ty = ty_new(TY_ULLONG, 8, 8);
    vec_push(&r->fields, f);
    c->vptr = f;
    end = 8;
  }
  for (int j = -1; j < bs.n; j++) {
    int i = j < 0 ? prim : j;
    if (i < 0 || (j >= 0 && j == prim)) continue;
    Base *b = bs.v[i];
    vec_push(&c->bases, b);
    if (b->empty) continue;   /* at offset 0, taking no room */
    b->off = (end + b->r->align - 1) / b->r->align * b->r->align;
    int64_t dend = 0;
    for (int q = 0; q < b->r->fields.n; q++) {
      Field *bf = b->r->fields.v[q], *f = xcalloc(1, sizeof *f);
      if (!strncmp(bf->name, "cu_pad", 6)) continue;
      f->name = xfmt("cu_b%d_%s", b->idx, bf->name);
      f->ty = bf->ty;
      f->off = b->off + bf->off;
      vec_push(&r->fields, f);
      if (bf->off + bf->ty->size > dend) dend = bf->off + bf->ty->size;
    }
    end = b->off + (b->pod ? b->r->size : dend);
  }
  c->nbase_fields = r->fields.n;
}

/* The fields in order of offset, with padding where C would place one
 * before clang does; a layout C cannot spell is refused. */
void fe_rec_check(Fe *p, Record *r, CXCursor where) {
  Cls *c = fe_cls(p, r);
  if (!c || !c->nbase_fields) return;
  Vec in = r->fields, out = {0};
  int64_t off = 0;
  bool ok = true;
  for (int i = 0; i < in.n; i++) {
    Field *f = in.v[i];
    int64_t at = (off + f->ty->align - 1) / f->ty->align * f->ty->align;
    if (at > f->off) ok = false;
    else if (at < f->off) {
      Field *pad = xcalloc(1, sizeof *pad);
      pad->name = xfmt("cu_pad%d", out.n);
      pad->ty = ty_new(TY_ARRAY, f->off - off, 1);
      pad->ty->base = ty_new(TY_CHAR, 1, 1);
      pad->ty->len = f->off - off;
      pad->off = off;
      vec_push(&out, pad);
    }
    vec_push(&out, f);
    off = f->off + f->ty->size;
  }
  r->fields = out;
  if ((off + r->align - 1) / r->align * r->align != r->size && !(off == 0 && r->size == 1)) ok = false;
  if (!ok)
    err_c(where, "unsupported in device code: the layout of class '%s' with base classes", r->cname + 5);
}

/* The path of bases from `from` down to its base `to` (Base*), or false. */
static bool base_path(Fe *p, Record *from, Record *to, Vec *path) {
  if (from == to) return true;
  Cls *c = fe_cls(p, from);
  if (!c) return false;
  for (int i = 0; i < c->bases.n; i++) {
    Base *b = c->bases.v[i];
    int n = path->n;
    vec_push(path, b);
    if (base_path(p, b->r, to, path)) return true;
    path->n = n;
  }
  return false;
}

bool fe_is_base(Fe *p, Record *from, Record *to) {
  Vec v = {0};
  return from != to && base_path(p, from, to, &v);
}

/* offset of base `to` in `from` */
static int64_t base_off(Fe *p, Record *from, Record *to) {
  Vec v = {0};
  base_path(p, from, to, &v);
  int64_t off = 0;
  for (int i = 0; i < v.n; i++) off += ((Base *)v.v[i])->off;
  return off;
}

static bool lvalue(Node *n) {
  return n->k == N_VAR || n->k == N_MEMBER || n->k == N_INDEX || (n->k == N_UN && n->op == OP_DEREF);
}

/* A derived object (or pointer to one) as its base `to`: the pointer moved
 * by the base's offset. NULL if `to` is not a base. */
Node *fe_upcast(Fe *p, Node *obj, Record *to) {
  bool ptr = obj->ty->kind == TY_PTR;
  Type *t = ptr ? obj->ty->base : obj->ty;
  if (t->kind != TY_RECORD || t->rec == to) return obj;
  if (!fe_is_base(p, t->rec, to)) return NULL;
  if (!ptr && !lvalue(obj)) {
    errorat(obj->file, obj->line, obj->col, "unsupported in device code: a temporary of a derived class used as its base");
    return obj;
  }
  int64_t off = base_off(p, t->rec, to);
  Node *a = ptr ? obj : addr_(obj);
  Type *bp = ptr_to(rec_ty(to));
  if (off) {
    Type *cp = ptr_to(ty_new(TY_CHAR, 1, 1));
    a = bin(OP_ADD, castto(a, cp), inum(off, TY_LONG, a), cp);
  }
  a = castto(a, bp);
  return ptr ? a : deref_(a);
}

/* A base pointer as a pointer to its derived class `to` (static_cast). */
Node *fe_downcast(Fe *p, Node *ptr, Type *to) {
  Record *from = ptr->ty->base->rec;
  int64_t off = base_off(p, to->base->rec, from);
  if (!off) return castto(ptr, to);
  Type *cp = ptr_to(ty_new(TY_CHAR, 1, 1));
  return castto(bin(OP_SUB, castto(ptr, cp), inum(off, TY_LONG, ptr), cp), to);
}

/* Statements storing the id of `c` in every vptr of the object `self`
 * (its own and its bases', copied in as cu_b0_cu_vptr ...). */
static void set_ids(Fe *p, Node *self, Record *r, int id, Vec *out) {
  (void)p;
  for (int i = 0; i < r->fields.n; i++) {
    Field *f = r->fields.v[i];
    size_t n = strlen(f->name);
    if (n >= 7 && !strcmp(f->name + n - 7, "cu_vptr"))
      vec_push(out, sexpr(bin(OP_ASSIGN, memb(self, f), inum(id, TY_ULLONG, self), f->ty)));
  }
}

/* A constructor of a dynamic class: its id (the class is now one whose
 * objects device code builds), stored after the bases are built. */
void fe_ctor_ids(Fe *p, Obj *self, Vec *out, const Node *at) {
  Cls *c = fe_cls(p, self->ty->rec);
  if (!c || !c->dyn) return;
  if (!c->id) {
    c->id = ++p->nids;
    vec_push(&p->built, c);
  }
  set_ids(p, var(self, at), c->r, c->id, out);
}

/* A copy of an object of dynamic class r (copy construction, or copy
 * assignment into an r): its vptrs say r, whatever the source's class was
 * (Base b = derived: b is a Base). `cu_copy_X(X v)` stores r's id. */
Node *fe_copy_dyn(Fe *p, Node *val, Record *r) {
  Cls *c = fe_cls(p, r);
  if (!c || !c->dyn || val->ty->kind != TY_RECORD || val->ty->rec != r) return val;
  if (!c->id) {
    c->id = ++p->nids;
    vec_push(&p->built, c);
  }
  if (!c->copy) {
    Obj *o = mkobj("copy", rec_ty(r), val);
    o->cname = xfmt("cu_copy_%s", r->cname + 5);
    Obj *v = mkobj("v", rec_ty(r), val);
    v->is_param = true;
    vec_push(&o->params, v);
    vec_push(&o->locals, v);
    Node *body = mk(S_BLOCK, NULL, val);
    set_ids(p, var(v, val), r, c->id, &body->list);
    Node *ret = mk(S_RETURN, NULL, val);
    ret->a = var(v, val);
    vec_push(&body->list, ret);
    o->body = body;
    o->has_body = true;
    vec_push(&p->prog->funcs, o);
    c->copy = o;
  }
  Node *cl = fcall(c->copy, val);
  vec_push(&cl->list, val);
  return cl;
}

/* ---- virtual calls ---- */

/* by USR: a probe's cursors are another TU's */
static bool same_decl(CXCursor a, CXCursor b) {
  char *x = cx_str(clang_getCursorUSR(a)), *y = cx_str(clang_getCursorUSR(b));
  bool r = *x && !strcmp(x, y);
  free(x);
  free(y);
  return r;
}

static bool overrides(CXCursor m, CXCursor target) {
  if (same_decl(m, target)) return true;
  CXCursor *ov;
  unsigned n;
  clang_getOverriddenCursors(m, &ov, &n);
  bool r = false;
  for (unsigned i = 0; i < n && !r; i++) r = overrides(ov[i], target);
  if (n) clang_disposeOverriddenCursors(ov);
  return r;
}

/* C's final overrider of m: its own, or the first base's; *in its class */
static bool final_overrider(Fe *p, Cls *c, CXCursor m, CXCursor *out, Record **in) {
  Kids k = cls_kids(p, c->decl);
  bool dtor = clang_getCursorKind(m) == CXCursor_Destructor;
  for (int i = 0; i < k.n; i++) {
    CXCursor x = k.v[i];
    if (clang_getCursorKind(x) != (dtor ? CXCursor_Destructor : CXCursor_CXXMethod)) continue;
    if (dtor || overrides(x, m)) {
      *out = x;
      *in = c->r;
      free(k.v);
      return true;
    }
  }
  free(k.v);
  for (int i = 0; i < c->bases.n; i++) {
    Cls *b = fe_cls(p, ((Base *)c->bases.v[i])->r);
    if (b && final_overrider(p, b, m, out, in)) return true;
  }
  return false;
}

/* The dispatcher of virtual method m (its class's record r). */
Obj *fe_vdispatch(Fe *p, CXCursor m, Record *r) {
  CXCursor cm = clang_getCanonicalCursor(m);
  for (int i = 0; i < p->vfns.n; i++) {
    VFn *v = p->vfns.v[i];
    if (same_decl(v->m, cm)) return v->o;
  }
  VFn *v = xcalloc(1, sizeof *v);
  v->m = cm;
  v->r = r;
  Obj *o = xcalloc(1, sizeof *o);
  o->name = cx_str(clang_getCursorSpelling(m));
  bool dtor = clang_getCursorKind(m) == CXCursor_Destructor;
  o->cname = xfmt("cu_v_%s_%s_%d", r->cname + 5, dtor ? "dtor" : o->name, p->vfns.n);
  for (char *q = o->cname; *q; q++)
    if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'))) *q = '_';
  cx_loc(m, &o->file, &o->line, &o->col);
  /* a virtual destructor's dispatcher destroys the object and returns the
   * address of the whole of it, for delete to free */
  o->ty = dtor ? ptr_to(ty_new(TY_VOID, 1, 1)) : mk_type(p, clang_getResultType(clang_getCursorType(m)), m);
  Obj *self = xcalloc(1, sizeof *self);
  self->name = "this";
  self->ty = ptr_to(rec_ty(r));
  self->is_param = true;
  self->file = o->file, self->line = o->line, self->col = o->col;
  vec_push(&o->params, self);
  vec_push(&o->locals, self);
  int na = clang_Cursor_getNumArguments(m);
  for (int i = 0; i < na; i++) {
    CXCursor a = clang_Cursor_getArgument(m, i);
    Obj *x = xcalloc(1, sizeof *x);
    x->name = xfmt("cu_a%d", i);
    x->ty = mk_type(p, clang_getCursorType(a), a);
    x->is_param = true;
    x->file = o->file, x->line = o->line, x->col = o->col;
    vec_push(&o->params, x);
    vec_push(&o->locals, x);
  }
  o->has_body = true;
  v->o = o;
  vec_push(&p->vfns, v);
  return o;
}

/* The call of method fn on `obj` (a pointer to its class or a derived
 * one), with the dispatcher's arguments after `this`. */
static Node *call_on(Fe *p, Obj *fn, Node *obj, Obj *d, const Node *at) {
  Node *n = fcall(fn, at);
  Obj *self = fn->params.v[0];
  Node *o = fe_upcast(p, obj, self->ty->kind == TY_PTR ? self->ty->base->rec : self->ty->rec);
  if (self->ty->kind != TY_PTR) o = deref_(o);
  vec_push(&n->list, o);
  for (int i = 1; i < d->params.n; i++) vec_push(&n->list, var(d->params.v[i], at));
  return n;
}

/* Complete destructor of class r, `cu_dtor_X(X *this)`: the user's body,
 * then the bases' destructors in reverse order. NULL if trivial. */
static Obj *dtor_fn(Fe *p, Record *r);

static bool has_dtor(Fe *p, Record *r) {
  Cls *c = fe_cls(p, r);
  if (!c) return false;
  if (c->dtor_state) return c->dtor_state > 0;
  c->dtor_state = -1;
  Kids k = cls_kids(p, c->decl);
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.v[i]) == CXCursor_Destructor &&
        (cx_virtual(k.v[i]) || !clang_Cursor_isNull(clang_getCursorDefinition(k.v[i]))))
      c->dtor_state = 1;
  free(k.v);
  for (int i = 0; i < c->bases.n; i++)
    if (has_dtor(p, ((Base *)c->bases.v[i])->r)) c->dtor_state = 1;
  for (int i = 0; i < r->fields.n; i++) {
    Field *f = r->fields.v[i];
    if (strncmp(f->name, "cu_b", 4) && f->ty->kind == TY_RECORD && has_dtor(p, f->ty->rec)) c->dtor_state = 1;
  }
  return c->dtor_state > 0;
}

static Obj *dtor_fn(Fe *p, Record *r) {
  Cls *c = fe_cls(p, r);
  if (!c || !has_dtor(p, r)) return NULL;
  if (c->dtor) return c->dtor;
  Node at = {0};
  cx_loc(c->decl, &at.file, &at.line, &at.col);
  Obj *o = mkobj("~", ty_new(TY_VOID, 1, 1), &at);
  o->cname = xfmt("cu_dtor_%s", r->cname + 5);
  c->dtor = o;
  Obj *self = mkobj("this", ptr_to(rec_ty(r)), &at);
  self->is_param = true;
  vec_push(&o->params, self);
  vec_push(&o->locals, self);
  Node *body = mk(S_BLOCK, NULL, &at);
  Kids k = cls_kids(p, c->decl);
  for (int i = 0; i < k.n; i++) {
    if (clang_getCursorKind(k.v[i]) != CXCursor_Destructor) continue;
    CXCursor def = clang_getCursorDefinition(k.v[i]);
    if (clang_Cursor_isNull(def)) continue;
    Obj *u = fe_func(p, def);   /* the user's ~X(): a member function */
    Node *cl = fcall(u, &at);
    vec_push(&cl->list, var(self, &at));
    vec_push(&body->list, sexpr(cl));
  }
  free(k.v);
  for (int i = r->fields.n - 1; i >= 0; i--) {   /* members, last first */
    Field *f = r->fields.v[i];
    if (!strncmp(f->name, "cu_b", 4) || !strncmp(f->name, "cu_pad", 6) || f->ty->kind != TY_RECORD ||
        !has_dtor(p, f->ty->rec))
      continue;
    Node *cl = fcall(dtor_fn(p, f->ty->rec), &at);
    vec_push(&cl->list, addr_(memb(var(self, &at), f)));
    vec_push(&body->list, sexpr(cl));
  }
  for (int i = c->bases.n - 1; i >= 0; i--) {
    Base *b = c->bases.v[i];
    Obj *bd = dtor_fn(p, b->r);
    if (!bd) continue;
    Node *cl = fcall(bd, &at);
    vec_push(&cl->list, fe_upcast(p, var(self, &at), b->r));
    vec_push(&body->list, sexpr(cl));
  }
  o->body = body;
  o->has_body = true;
  vec_push(&p->prog->funcs, o);
  return o;
}

/* Build each dispatcher's body from the classes constructed in device
 * code; overriders called there may construct more: to a fixed point. */
void fe_classes_finish(Fe *p) {
  for (int done = -1; done != p->nids + p->vfns.n * 1000;) {
    done = p->nids + p->vfns.n * 1000;
    for (int i = 0; i < p->vfns.n; i++) {
      VFn *v = p->vfns.v[i];
      Obj *d = v->o;
      bool dtor = clang_getCursorKind(v->m) == CXCursor_Destructor;
      Node at = {0};
      at.file = d->file, at.line = d->line, at.col = d->col;
      Node *body = mk(S_BLOCK, NULL, &at);
      Node *tail = body;   /* where the next `else if` goes */
      Type *u64 = ty_new(TY_ULLONG, 8, 8);
      Node *id = deref_(castto(var(d->params.v[0], &at), ptr_to(u64)));
      for (int j = 0; j < p->built.n; j++) {
        Cls *c = p->built.v[j];
        if (c->r != v->r && !fe_is_base(p, c->r, v->r)) continue;
        Node *full = fe_downcast(p, var(d->params.v[0], &at), ptr_to(rec_ty(c->r)));
        Node *then = mk(S_BLOCK, NULL, &at);
        if (dtor) {
          Obj *df = dtor_fn(p, c->r);
          if (df) {
            Node *cl = fcall(df, &at);
            vec_push(&cl->list, full);
            vec_push(&then->list, sexpr(cl));
          }
          Node *r = mk(S_RETURN, NULL, &at);
          r->a = castto(fe_downcast(p, var(d->params.v[0], &at), ptr_to(rec_ty(c->r))), d->ty);
          vec_push(&then->list, r);
        } else {
          CXCursor ovr;
          Record *in;
          if (!final_overrider(p, c, v->m, &ovr, &in)) continue;
          CXCursor def = clang_getCursorDefinition(ovr);
          if (clang_Cursor_isNull(def)) continue;   /* pure here: not callable */
          Node *cl = call_on(p, fe_func(p, def), full, d, &at);
          Node *r = mk(S_RETURN, NULL, &at);
          if (d->ty->kind == TY_VOID) vec_push(&then->list, sexpr(cl));
          else r->a = cl;
          vec_push(&then->list, r);
        }
        Node *iff = mk(S_IF, NULL, &at);
        iff->a = bin(OP_EQ, id, inum(c->id, TY_ULLONG, &at), ty_new(TY_INT, 4, 4));
        iff->b = then;
        if (tail == body) vec_push(&body->list, iff);
        else tail->c = iff;
        tail = iff;
      }
      /* an object no device code built (copied from the host, or a pure
       * call): nothing to call; a value of zeros */
      if (d->ty->kind != TY_VOID) {
        Node *r = mk(S_RETURN, NULL, &at);
        Node *z = mk(N_INIT, d->ty, &at);
        if (d->ty->kind == TY_RECORD) r->a = z;
        else r->a = castto(inum(0, TY_LONG, &at), d->ty);
        if (dtor) r->a = castto(var(d->params.v[0], &at), d->ty);
        vec_push(&body->list, r);
      }
      d->body = body;
      if (!v->listed) {
        v->listed = true;
        vec_push(&p->prog->funcs, d);
      }
    }
  }
}

/* ---- new and delete ---- */

/* Does constructing a T need a call (a class with a vptr or a user's
 * constructor)? Decided by the initializer the parse gives. */
static bool trivial_init(Node *init) { return !init || (init->k == N_INIT && init->post); }

/* The tokens of a new or delete expression: in a template's instantiation
 * its extent is the keyword alone, so read on from there (the scans stop
 * at the expression's end) */
static void cx_toks(CXCursor c, CXToken **t, unsigned *nt) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  clang_tokenize(tu, clang_getCursorExtent(c), t, nt);
  if (*nt > 1) return;
  clang_disposeTokens(tu, *t, *nt);
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &off);
  size_t len = 0;
  clang_getFileContents(tu, f, &len);
  unsigned end = off + 512 < len ? off + 512 : (unsigned)len;
  clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, f, off), clang_getLocationForOffset(tu, f, end)), t, nt);
}

/* the placement arguments' count: `new (a, b) T`: a '(' right after new */
static int placement_args(CXCursor c, bool *array) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *t;
  unsigned nt;
  cx_toks(c, &t, &nt);
  int n = 0, depth = 0;
  unsigned i = 0;
  while (i < nt) {
    char *s = cx_str(clang_getTokenSpelling(tu, t[i]));
    bool nw = !strcmp(s, "new");
    free(s);
    i++;
    if (nw) break;
  }
  *array = false;
  bool first = true;
  for (; i < nt; i++) {
    char *s = cx_str(clang_getTokenSpelling(tu, t[i]));
    if (first && !strcmp(s, "(")) {
      n = 1;
      depth = 1;
      for (i++; i < nt && depth; i++) {
        char *q = cx_str(clang_getTokenSpelling(tu, t[i]));
        if (!strcmp(q, "(") || !strcmp(q, "[") || !strcmp(q, "{")) depth++;
        else if (!strcmp(q, ")") || !strcmp(q, "]") || !strcmp(q, "}")) depth--;
        else if (!strcmp(q, ",") && depth == 1) n++;
        free(q);
      }
      i--;
    } else if (!strcmp(s, "(") || !strcmp(s, "{")) {
      free(s);
      break;   /* the initializer */
    } else if (!strcmp(s, "[")) {
      *array = true;
      free(s);
      break;
    } else if (!strcmp(s, ";") || !strcmp(s, ")") || !strcmp(s, ",") || !strcmp(s, "]") || !strcmp(s, "}")) {
      free(s);
      break;   /* the expression's end */
    } else if (!strcmp(s, "<")) {
      depth = 1;   /* template arguments: T<int[3]> */
      for (i++; i < nt && depth; i++) {
        char *q = cx_str(clang_getTokenSpelling(tu, t[i]));
        if (!strcmp(q, "<")) depth++;
        else if (!strcmp(q, ">")) depth--;
        else if (!strcmp(q, ">>")) depth -= 2;
        free(q);
      }
      i--;
    }
    first = false;
    free(s);
  }
  clang_disposeTokens(tu, t, nt);
  return n;
}

/* T *cu_new_T(void *where, T v): where ? (*(T *)where = v, where) : 0;
 * one per class, so new's operand is evaluated once */
static Obj *store_fn(Fe *p, Type *t, const Node *at) {
  for (int i = 0; i < p->newfns.n; i++) {
    Obj *o = p->newfns.v[i];
    if (strcmp(o->name, "new")) continue;   /* a new[] helper */
    if (o->ty->base == t || (t->kind == TY_RECORD && o->ty->base->kind == TY_RECORD && o->ty->base->rec == t->rec))
      return o;
  }
  Obj *o = mkobj("new", ptr_to(t), at);
  o->cname = xfmt("cu_new_%d", p->newfns.n);
  Obj *w = mkobj("where", ptr_to(ty_new(TY_VOID, 1, 1)), at), *v = mkobj("v", t, at);
  w->is_param = v->is_param = true;
  vec_push(&o->params, w);
  vec_push(&o->params, v);
  vec_push(&o->locals, w);
  vec_push(&o->locals, v);
  Node *body = mk(S_BLOCK, NULL, at);
  Node *iff = mk(S_IF, NULL, at);
  iff->a = bin(OP_NE, var(w, at), castto(inum(0, TY_LONG, at), w->ty), ty_new(TY_INT, 4, 4));
  iff->b = sexpr(bin(OP_ASSIGN, deref_(castto(var(w, at), o->ty)), var(v, at), t));
  vec_push(&body->list, iff);
  Node *r = mk(S_RETURN, NULL, at);
  r->a = castto(var(w, at), o->ty);
  vec_push(&body->list, r);
  o->body = body;
  o->has_body = true;
  vec_push(&p->newfns, o);
  vec_push(&p->prog->funcs, o);
  return o;
}

/* T *cu_newa_T(void *where, n, T v): a cookie with n before the elements
 * when T has a destructor (cookie: the 16 bytes of heap memory `where`
 * points to), then each element = v */
static Obj *arr_fn(Fe *p, Type *t, bool cookie, Obj *ctor, const Node *at) {
  for (int i = 0; i < p->newfns.n; i++) {
    Obj *o = p->newfns.v[i];
    if (!strcmp(o->name, "newa") && o->self == ctor && o->is_ctor == cookie && ctor) return o;
  }
  Obj *o = mkobj("newa", ptr_to(t), at);
  o->self = ctor;   /* (only as the key of this helper) */
  o->is_ctor = cookie;
  o->cname = xfmt("cu_newa_%d", p->newfns.n);
  Type *vp = ptr_to(ty_new(TY_VOID, 1, 1)), *ul = ty_new(TY_ULONG, 8, 8);
  Obj *w = mkobj("where", vp, at), *n = mkobj("n", ul, at), *v = mkobj("v", t, at), *i = mkobj("i", ul, at),
      *e = mkobj("e", o->ty, at);
  w->is_param = n->is_param = v->is_param = true;
  vec_push(&o->params, w);
  vec_push(&o->params, n);
  vec_push(&o->params, v);
  vec_push(&o->locals, w);
  vec_push(&o->locals, n);
  vec_push(&o->locals, v);
  vec_push(&o->locals, i);
  vec_push(&o->locals, e);
  Node *body = mk(S_BLOCK, NULL, at);
  Node *nul = mk(S_IF, NULL, at);   /* if (!where) return 0; */
  nul->a = bin(OP_EQ, var(w, at), castto(inum(0, TY_LONG, at), vp), ty_new(TY_INT, 4, 4));
  nul->b = mk(S_RETURN, NULL, at);
  nul->b->a = castto(inum(0, TY_LONG, at), o->ty);
  vec_push(&body->list, nul);
  Node *de = mk(S_DECL, NULL, at);
  de->var = e;
  de->a = castto(var(w, at), o->ty);
  if (cookie) {
    Type *cp = ptr_to(ty_new(TY_CHAR, 1, 1));
    vec_push(&body->list, sexpr(bin(OP_ASSIGN, deref_(castto(var(w, at), ptr_to(ul))), var(n, at), ul)));
    de->a = castto(bin(OP_ADD, castto(var(w, at), cp), inum(16, TY_LONG, at), cp), o->ty);
  }
  vec_push(&body->list, de);
  Node *lp = mk(S_FOR, NULL, at);
  Node *di = mk(S_DECL, NULL, at);
  di->var = i;
  di->a = inum(0, TY_ULONG, at);
  lp->a = di;
  lp->b = bin(OP_LT, var(i, at), var(n, at), ty_new(TY_INT, 4, 4));
  Node *inc = mk(N_INCDEC, ul, at);
  inc->op = OP_INC;
  inc->a = var(i, at);
  lp->c = inc;
  Node *ix = mk(N_INDEX, t, at);
  ix->a = var(e, at);
  ix->b = var(i, at);
  lp->d = sexpr(bin(OP_ASSIGN, ix, ctor ? fcall(ctor, at) : var(v, at), t));   /* each element constructed */
  vec_push(&body->list, lp);
  Node *r = mk(S_RETURN, NULL, at);
  r->a = var(e, at);
  vec_push(&body->list, r);
  o->body = body;
  o->has_body = true;
  vec_push(&p->newfns, o);
  vec_push(&p->prog->funcs, o);
  return o;
}

/* new T(args), new T[n], new (where) T(args), new (where) T[n] */
Node *fe_new(Fe *p, CXCursor c, Node *at) {
  bool array;
  int np = placement_args(c, &array);
  Type *rt = mk_type(p, clang_getCursorType(c), c);   /* T * */
  Type *t = rt->base;
  Kids k = kids(c);
  Vec ex = {0};
  for (int i = 0; i < k.n; i++)
    if (clang_isExpression(clang_getCursorKind(k.v[i]))) vec_push(&ex, fe_expr(p, k.v[i]));
  free(k.v);
  if (np > 1 || ex.n < np + (array ? 1 : 0)) {
    err_c(c, "unsupported in device code: this form of new");
    return castto(inum(0, TY_LONG, at), rt);
  }
  Node *where = np ? ex.v[0] : NULL;
  Node *count = array ? ex.v[np] : NULL;
  Node *init = ex.n > np + (array ? 1 : 0) ? ex.v[ex.n - 1] : NULL;
  if (init && init->k == N_INIT && init->ty != t && t->kind != TY_RECORD && !init->list.n) init = NULL;
  Type *vp = ptr_to(ty_new(TY_VOID, 1, 1)), *ul = ty_new(TY_ULONG, 8, 8);
  bool cookie = array && t->kind == TY_RECORD && has_dtor(p, t->rec) && !where;
  if (!where) {   /* the device heap */
    Node *sz = inum(t->size, TY_ULONG, at);
    if (array) sz = bin(OP_MUL, castto(count, ul), sz, ul);
    if (cookie) sz = bin(OP_ADD, sz, inum(16, TY_ULONG, at), ul);
    where = ccall("cu_dev_malloc", vp, at);
    vec_push(&where->list, sz);
  }
  if (array) {
    if (init && init->k == N_INIT && init->list.n) {
      err_c(c, "unsupported in device code: new[] with a list of initial values");
      return castto(where, rt);
    }
    if (trivial_init(init) && !cookie) return castto(where, rt);
    if (!init || (init->k == N_INIT && init->post)) {
      init = mk(N_INIT, t, at);   /* value-initialized elements: zeros */
    }
    Obj *ctor = init->k == N_CALL && init->ck == C_FUNC && !init->list.n ? init->fn : NULL;
    Node *cl = fcall(arr_fn(p, t, cookie, ctor, at), at);
    vec_push(&cl->list, castto(where, vp));
    vec_push(&cl->list, castto(count, ul));
    vec_push(&cl->list, ctor ? mk(N_INIT, t, at) : init);   /* with a constructor, the helper calls it */
    return cl;
  }
  if (trivial_init(init)) return castto(where, rt);
  Node *cl = fcall(store_fn(p, t, at), at);
  vec_push(&cl->list, castto(where, vp));
  vec_push(&cl->list, init);
  return cl;
}

/* void cu_del_T(T *p): if (p) { destroy; free } (delete[]: each element,
 * last first, the count in the cookie) */
static Obj *del_fn(Fe *p, Type *t, bool array, const Node *at) {
  Cls *c = fe_cls(p, t->rec);
  Obj **slot = array ? &c->dela : &c->del;
  if (*slot) return *slot;
  Type *vp = ptr_to(ty_new(TY_VOID, 1, 1)), *ul = ty_new(TY_ULONG, 8, 8), *it = ty_new(TY_INT, 4, 4);
  Type *cp = ptr_to(ty_new(TY_CHAR, 1, 1));
  Obj *o = mkobj("delete", ty_new(TY_VOID, 1, 1), at);
  o->cname = xfmt("cu_del%s_%s", array ? "a" : "", t->rec->cname + 5);
  *slot = o;
  Obj *q = mkobj("p", ptr_to(t), at), *w = mkobj("whole", vp, at), *i = mkobj("i", ul, at);
  q->is_param = true;
  vec_push(&o->params, q);
  vec_push(&o->locals, q);
  vec_push(&o->locals, w);
  vec_push(&o->locals, i);
  Node *then = mk(S_BLOCK, NULL, at);
  Node *dw = mk(S_DECL, NULL, at);
  dw->var = w;
  vec_push(&then->list, dw);
  if (array) {
    Obj *d = dtor_fn(p, t->rec);
    dw->a = castto(bin(OP_SUB, castto(var(q, at), cp), inum(16, TY_LONG, at), cp), vp);
    Node *lp = mk(S_FOR, NULL, at);
    Node *di = mk(S_DECL, NULL, at);
    di->var = i;
    di->a = deref_(castto(var(w, at), ptr_to(ul)));
    lp->a = di;
    lp->b = bin(OP_GT, var(i, at), inum(0, TY_ULONG, at), it);
    Node *dec = mk(N_INCDEC, ul, at);
    dec->op = OP_DEC;
    dec->a = var(i, at);
    lp->c = dec;
    Node *cl = fcall(d, at);
    Node *ix = mk(N_INDEX, t, at);
    ix->a = var(q, at);
    ix->b = bin(OP_SUB, var(i, at), inum(1, TY_ULONG, at), ul);
    vec_push(&cl->list, addr_(ix));
    lp->d = sexpr(cl);
    vec_push(&then->list, lp);
  } else {
    CXCursor dc = clang_getNullCursor();
    Kids k = cls_kids(p, c->decl);
    for (int j = 0; j < k.n; j++)
      if (clang_getCursorKind(k.v[j]) == CXCursor_Destructor) dc = k.v[j];
    free(k.v);
    if (!clang_Cursor_isNull(dc) && cx_virtual(dc)) {
      Node *cl = fcall(fe_vdispatch(p, dc, t->rec), at);
      vec_push(&cl->list, var(q, at));
      dw->a = cl;
    } else {
      Node *cl = fcall(dtor_fn(p, t->rec), at);
      vec_push(&cl->list, var(q, at));
      vec_push(&then->list, sexpr(cl));
      dw->a = castto(var(q, at), vp);
    }
  }
  Node *fr = ccall("cu_dev_free", ty_new(TY_VOID, 1, 1), at);
  vec_push(&fr->list, var(w, at));
  vec_push(&then->list, sexpr(fr));
  Node *iff = mk(S_IF, NULL, at);
  iff->a = bin(OP_NE, var(q, at), castto(inum(0, TY_LONG, at), q->ty), it);
  iff->b = then;
  Node *body = mk(S_BLOCK, NULL, at);
  vec_push(&body->list, iff);
  o->body = body;
  o->has_body = true;
  vec_push(&p->prog->funcs, o);
  return o;
}

/* delete p, delete[] p: the destructor (virtual: the dispatcher, which
 * returns the whole object's address), then the heap's free */
Node *fe_delete(Fe *p, CXCursor c, Node *ptr) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *tk;
  unsigned nt;
  cx_toks(c, &tk, &nt);
  bool array = false;
  for (unsigned i = 0; i + 1 < nt && i < 4; i++) {
    char *s = cx_str(clang_getTokenSpelling(tu, tk[i]));
    if (!strcmp(s, "[")) array = true;
    free(s);
  }
  clang_disposeTokens(tu, tk, nt);
  Type *vp = ptr_to(ty_new(TY_VOID, 1, 1));
  Node *fr = ccall("cu_dev_free", ty_new(TY_VOID, 1, 1), ptr);
  Type *t = ptr->ty->kind == TY_PTR ? ptr->ty->base : NULL;
  if (!t || t->kind != TY_RECORD || !has_dtor(p, t->rec)) {
    vec_push(&fr->list, castto(ptr, vp));
    return fr;
  }
  Obj *f = del_fn(p, t, array, ptr);
  Node *cl = fcall(f, ptr);
  vec_push(&cl->list, ptr);
  return cl;
}

/* ---- destructors of local objects ---- */

bool fe_has_dtor(Fe *p, Type *t) {
  while (t->kind == TY_ARRAY) t = t->base;
  return t->kind == TY_RECORD && has_dtor(p, t->rec);
}

/* cu_dtor_X(&o), or for an array each element, last first */
Node *fe_dtor_stmt(Fe *p, Obj *o, Node *at) {
  Node *v = var(o, at);
  Type *t = o->ty;
  if (t->kind != TY_ARRAY) {
    Node *cl = fcall(dtor_fn(p, t->rec), at);
    vec_push(&cl->list, addr_(v));
    return sexpr(cl);
  }
  /* for (i = n; i > 0; i--) cu_dtor_X(&((X *)&o)[i - 1]) over the flattened elements */
  Type *et = t;
  int64_t n = 1;
  while (et->kind == TY_ARRAY) {
    n *= et->len;
    et = et->base;
  }
  Type *ul = ty_new(TY_LONG, 8, 8);
  Obj *i = mkobj(xfmt("cu_di%d", p->fn->locals.n), ul, at);
  vec_push(&p->fn->locals, i);
  Node *lp = mk(S_FOR, NULL, at);
  Node *di = mk(S_DECL, NULL, at);
  di->var = i;
  di->a = inum(n, TY_LONG, at);
  lp->a = di;
  lp->b = bin(OP_GT, var(i, at), inum(0, TY_LONG, at), ty_new(TY_INT, 4, 4));
  Node *dec = mk(N_INCDEC, ul, at);
  dec->op = OP_DEC;
  dec->a = var(i, at);
  lp->c = dec;
  Node *ix = mk(N_INDEX, et, at);
  ix->a = castto(addr_(v), ptr_to(et));
  ix->b = bin(OP_SUB, var(i, at), inum(1, TY_LONG, at), ul);
  Node *cl = fcall(dtor_fn(p, et->rec), at);
  vec_push(&cl->list, addr_(ix));
  lp->d = sexpr(cl);
  return lp;
}

/* p->~T(): the complete destructor, or the dispatcher's when virtual */
Node *fe_dtor_call(Fe *p, Node *ptr, CXCursor dtor, bool virt) {
  Type *t = ptr->ty->kind == TY_PTR ? ptr->ty->base : NULL;
  if (!t || t->kind != TY_RECORD || !has_dtor(p, t->rec)) {   /* trivial: nothing to run */
    Node *n = mk(N_CAST, ty_new(TY_VOID, 1, 1), ptr);
    n->a = ptr;
    return n;
  }
  Node *cl = fcall(virt && cx_virtual(dtor) ? fe_vdispatch(p, dtor, t->rec) : dtor_fn(p, t->rec), ptr);
  vec_push(&cl->list, ptr);
  return cl;
}
