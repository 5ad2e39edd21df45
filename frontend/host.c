/* host.c: the host unit. The user's host code stays the user's C++: we copy
 * the main file and apply a plan of edits found on the AST:
 *  - each kernel body becomes a stub that hands its arguments to the runtime
 *    (so &kernel, templates and overloads keep working as in CUDA);
 *  - each k<<<g, b, smem, stream>>>(args) becomes
 *      (__cucc_launch_config(g, b, smem, stream) ? (void)0 : k(args))
 *    as nvcc's own host code does;
 *  - device-only functions are blanked out (line breaks kept, so the
 *    host compiler's diagnostics keep the user's line numbers);
 * then we append a constructor registering each stub under its kernel's key. */
#include "fe.h"

typedef struct Edit { unsigned b, e; char *text; } Edit;

typedef struct Host Host;
static void add_kernel(Host *h, CXCursor fn);
static void scan_inst(Host *h, CXCursor call);

struct Host {
  Fe *p;
  CXFile file;
  const char *src;
  size_t size;
  Vec edits;        /* Edit* */
  Vec kernels;      /* CXCursor* of kernel definitions (incl. instantiations) */
  Vec scanned;      /* CXCursor*: host template instantiations already scanned */
};

/* Byte range of r in the main file. With `strict`, a range that starts
 * inside a macro expansion is refused; a definition may start with one
 * (__global__, __device__ are macros) but must end in plain text. */
static bool ext_(Host *h, CXSourceRange r, unsigned *b, unsigned *e, bool strict) {
  CXFile f1, f2;
  unsigned o1, o2, s1, s2;
  CXSourceLocation lb = clang_getRangeStart(r), le = clang_getRangeEnd(r);
  clang_getExpansionLocation(lb, &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(le, &f2, NULL, NULL, &o2);
  clang_getSpellingLocation(lb, NULL, NULL, NULL, &s1);
  clang_getSpellingLocation(le, NULL, NULL, NULL, &s2);
  if (!clang_File_isEqual(f1, h->file) || !clang_File_isEqual(f2, h->file)) return false;
  if ((strict && s1 != o1) || s2 != o2) return false;   /* inside a macro expansion */
  *b = o1;
  *e = o2;
  return *b <= *e && *e <= h->size;
}

static bool ext(Host *h, CXSourceRange r, unsigned *b, unsigned *e) { return ext_(h, r, b, e, true); }

/* Replace [b,e) by t, padded with the line breaks it removes. */
static void edit(Host *h, unsigned b, unsigned e, const char *t) {
  Buf out = {0};
  buf_puts(&out, t);
  for (unsigned i = b; i < e; i++)
    if (h->src[i] == '\n') buf_puts(&out, "\n");
  Edit *ed = xcalloc(1, sizeof *ed);
  ed->b = b;
  ed->e = e;
  ed->text = buf_take(&out);
  vec_push(&h->edits, ed);
}

static void err_at(CXCursor c, const char *msg) {
  const char *f;
  int l, col;
  cx_loc(c, &f, &l, &col);
  errorat(f, l, col, "%s", msg);
}

/* The kernel's name as host code can spell it from file scope. */
static char *qual_name(CXCursor fn) {
  char *nm = cx_str(clang_getCursorSpelling(fn));
  for (CXCursor s = clang_getCursorSemanticParent(fn);
       clang_getCursorKind(s) == CXCursor_Namespace; s = clang_getCursorSemanticParent(s)) {
    char *ns = cx_str(clang_getCursorSpelling(s));
    if (*ns) nm = xfmt("%s::%s", ns, nm);
  }
  return nm;
}

typedef struct TP { Buf b; int k; } TP;

static enum CXChildVisitResult tp_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  TP *tp = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
      k == CXCursor_TemplateTemplateParameter) {
    buf_puts(&tp->b, tp->k++ ? ", " : "");
    buf_puts(&tp->b, cx_str(clang_getCursorSpelling(c)));
  }
  return CXChildVisit_Continue;
}

static char *tmpl_args_of(CXCursor tmpl) {
  TP tp = {{0}, 0};
  buf_puts(&tp.b, "<");
  clang_visitChildren(tmpl, tp_cb, &tp);
  buf_puts(&tp.b, ">");
  return buf_take(&tp.b);
}

/* Template arguments of an instantiation, spelled for the host compiler. */
static char *spec_args(CXCursor fn) {
  int n = clang_Cursor_getNumTemplateArguments(fn);
  if (n <= 0) return xstrdup("");
  Buf b = {0};
  buf_puts(&b, "<");
  for (int i = 0; i < n; i++) {
    if (i) buf_puts(&b, ", ");
    switch (clang_Cursor_getTemplateArgumentKind(fn, i)) {
    case CXTemplateArgumentKind_Type:
      buf_puts(&b, cx_str(clang_getTypeSpelling(clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(fn, i)))));
      break;
    case CXTemplateArgumentKind_Integral:
      buf_printf(&b, "%lld", clang_Cursor_getTemplateArgumentValue(fn, i));
      break;
    default:
      err_at(fn, "unsupported: kernel template argument of this kind");
    }
  }
  buf_puts(&b, ">");
  return buf_take(&b);
}

static char *fn_ptr_type(CXCursor fn) {
  CXType ft = clang_getCursorType(fn);
  Buf b = {0};
  buf_puts(&b, "void (*)(");
  int n = clang_getNumArgTypes(ft);
  for (int i = 0; i < n; i++) {
    if (i) buf_puts(&b, ", ");
    buf_puts(&b, cx_str(clang_getTypeSpelling(clang_getCanonicalType(clang_getArgType(ft, i)))));
  }
  buf_puts(&b, ")");
  return buf_take(&b);
}

typedef struct Parms { CXCursor v[256]; int n; } Parms;
static enum CXChildVisitResult parm_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Parms *p = d;
  if (clang_getCursorKind(c) == CXCursor_ParmDecl && p->n < 256) p->v[p->n++] = c;
  return CXChildVisit_Continue;
}

/* Kernel definition: its body becomes the launch stub. The parameters are
 * read from the declaration's children, which a template has too. */
static void stub(Host *h, CXCursor fn, CXCursor body, const char *self) {
  unsigned b, e;
  if (!ext(h, clang_getCursorExtent(body), &b, &e)) {
    err_at(fn, "unsupported: kernel defined through a macro");
    return;
  }
  Parms ps = {.n = 0};
  clang_visitChildren(fn, parm_cb, &ps);
  Buf s = {0}, ty = {0};
  buf_puts(&s, "{ ");
  for (int i = 0; i < ps.n; i++) {
    char *nm = cx_str(clang_getCursorSpelling(ps.v[i]));
    if (!*nm) {
      err_at(ps.v[i], "unsupported: unnamed kernel parameter (give it a name)");
      nm = "cu_unnamed";
    }
    buf_printf(&s, "%s(void *)&%s", i ? ", " : "void *cu_args[] = {", nm);
    buf_printf(&ty, "%sdecltype(%s)", i ? ", " : "", nm);
  }
  if (ps.n) buf_puts(&s, "}; ");
  buf_printf(&s, "cu_launch_stub((const void *)static_cast<void (*)(%s)>(&%s), %s); }",
             ty.s ? ty.s : "", self, ps.n ? "cu_args" : "(void **)0");
  edit(h, b, e, s.s);
}

typedef struct Two { CXCursor c[2]; int n; } Two;
static enum CXChildVisitResult two_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Two *t = d;
  t->c[t->n++] = c;
  return t->n < 2 ? CXChildVisit_Continue : CXChildVisit_Break;
}

static bool launch_cfg(CXCursor c, CXCursor *callee, CXCursor *cfg) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
  Two t = {{clang_getNullCursor(), clang_getNullCursor()}, 0};
  clang_visitChildren(c, two_cb, &t);
  if (t.n < 2 || clang_getCursorKind(t.c[1]) != CXCursor_CallExpr) return false;
  char *nm = cx_str(clang_getCursorSpelling(t.c[1]));
  bool r = !strcmp(nm, "cudaConfigureCall") || !strcmp(nm, "__cudaPushCallConfiguration");
  free(nm);
  *callee = t.c[0];
  *cfg = t.c[1];
  return r;
}

/* Skip blanks and comments from i. */
static size_t skip_ws(const char *s, size_t i, size_t n) {
  for (;;) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') i++;
    } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
      i += 2;
    } else return i;
  }
}

/* k<<<cfg>>>(args): the configuration and the arguments are copied as the
 * user wrote them (macros included), found by their delimiters. */
static void launch(Host *h, CXCursor c, CXCursor callee, CXCursor cfg) {
  (void)cfg;
  unsigned b, e, cb, ce;
  if (!ext(h, clang_getCursorExtent(c), &b, &e) || !ext(h, clang_getCursorExtent(callee), &cb, &ce)) {
    err_at(c, "unsupported: kernel launch inside a macro expansion");
    return;
  }
  const char *s = h->src;
  size_t i = skip_ws(s, ce, e);
  if (i + 3 > e || strncmp(s + i, "<<<", 3)) {
    err_at(c, "unsupported: this form of kernel launch");
    return;
  }
  size_t c0 = i + 3, c1 = c0;
  int depth = 0;
  for (; c1 + 3 <= e; c1++) {
    char ch = s[c1];
    if (ch == '(' || ch == '[' || ch == '{') depth++;
    else if (ch == ')' || ch == ']' || ch == '}') depth--;
    else if (depth == 0 && !strncmp(s + c1, ">>>", 3)) break;
  }
  size_t a0 = skip_ws(s, c1 + 3, e);
  if (c1 + 3 > e || a0 >= e || s[a0] != '(' || e < 1 || s[e - 1] != ')') {
    err_at(c, "unsupported: this form of kernel launch");
    return;
  }
  char *callee_t = xstrndup(s + cb, ce - cb);
  Buf t = {0};
  buf_printf(&t, "(__cucc_launch_config(%.*s) ? (void)0 : %s(%.*s))", (int)(c1 - c0), s + c0, callee_t,
             (int)(e - 1 - (a0 + 1)), s + a0 + 1);
  edit(h, b, e, t.s);
  add_kernel(h, clang_getCursorReferenced(c));
}

/* A launch of a template instantiation: compile that instantiation. */
static void add_kernel(Host *h, CXCursor fn) {
  if (clang_Cursor_isNull(fn) || clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn))) return;
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) def = fn;
  for (int i = 0; i < h->kernels.n; i++)
    if (clang_equalCursors(*(CXCursor *)h->kernels.v[i], def)) return;
  CXCursor *cp = xcalloc(1, sizeof *cp);
  *cp = def;
  vec_push(&h->kernels, cp);
}

/* Instantiated bodies are not children of the TU: a kernel launched from a
 * host function template is found by following calls into the
 * instantiations that host code makes. */
static enum CXChildVisitResult inst_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Host *h = d;
  if (clang_getCursorKind(c) == CXCursor_CallExpr) {
    CXCursor callee, cfg;
    if (launch_cfg(c, &callee, &cfg)) add_kernel(h, clang_getCursorReferenced(c));
    else scan_inst(h, c);
  }
  return CXChildVisit_Recurse;
}

static void scan_inst(Host *h, CXCursor call) {
  CXCursor fn = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(fn) || clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn))) return;
  if (cx_has_attr(fn, CXCursor_CUDAGlobalAttr)) return;
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return;
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(def), &f, NULL, NULL, NULL);
  if (!f || !clang_File_isEqual(f, h->file)) return;
  for (int i = 0; i < h->scanned.n; i++)
    if (clang_equalCursors(*(CXCursor *)h->scanned.v[i], def)) return;
  CXCursor *cp = xcalloc(1, sizeof *cp);
  *cp = def;
  vec_push(&h->scanned, cp);
  clang_visitChildren(def, inst_cb, h);
}

static bool in_main(Host *h, CXCursor c) {
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  return f && clang_File_isEqual(f, h->file);
}

typedef struct BodyFind { CXCursor body; } BodyFind;
static enum CXChildVisitResult body_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) ((BodyFind *)d)->body = c;
  return CXChildVisit_Continue;
}
static CXCursor fn_body(CXCursor fn) {
  BodyFind bf = {clang_getNullCursor()};
  clang_visitChildren(fn, body_cb, &bf);
  return bf.body;
}

static enum CXChildVisitResult walk_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Host *h = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (!in_main(h, c)) return CXChildVisit_Continue;
  if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) {
    bool glob = cx_has_attr(c, CXCursor_CUDAGlobalAttr);
    bool dev = cx_has_attr(c, CXCursor_CUDADeviceAttr);
    bool hst = cx_has_attr(c, CXCursor_CUDAHostAttr);
    CXCursor body = fn_body(c);
    if (glob && !clang_Cursor_isNull(body)) {
      char *self = k == CXCursor_FunctionTemplate
                       ? xfmt("%s%s", cx_str(clang_getCursorSpelling(c)), tmpl_args_of(c))
                       : cx_str(clang_getCursorSpelling(c));
      stub(h, c, body, self);
      if (k == CXCursor_FunctionDecl) {
        CXCursor *cp = xcalloc(1, sizeof *cp);
        *cp = c;
        vec_push(&h->kernels, cp);
      }
      return CXChildVisit_Continue;
    }
    if (dev && !hst && !glob && !clang_Cursor_isNull(body)) {
      unsigned b, e;
      if (ext_(h, clang_getCursorExtent(c), &b, &e, false)) edit(h, b, e, "");
      return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
  }
  CXCursor callee, cfg;
  if (launch_cfg(c, &callee, &cfg)) {
    launch(h, c, callee, cfg);
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_CallExpr) scan_inst(h, c);
  return CXChildVisit_Recurse;
}

static int cmp_edit(const void *a, const void *b) {
  const Edit *x = *(Edit *const *)a, *y = *(Edit *const *)b;
  return x->b < y->b ? -1 : x->b > y->b;
}

int host_unit(Fe *p, Vec *kernel_cursors, Buf *out) {
  Host h = {0};
  h.p = p;
  h.file = clang_getFile(p->tu, p->prog->path);
  h.src = clang_getFileContents(p->tu, h.file, &h.size);
  if (!h.src) {
    fprintf(stderr, "cucc: error: cannot read '%s'\n", p->prog->path);
    return 1;
  }
  clang_visitChildren(clang_getTranslationUnitCursor(p->tu), walk_cb, &h);
  *kernel_cursors = h.kernels;

  if (h.edits.n) qsort(h.edits.v, h.edits.n, sizeof(void *), cmp_edit);
  buf_puts(out, "#include <cucc_rt.h>\n");
  buf_printf(out, "#line 1 \"%s\"\n", p->prog->path);
  unsigned at = 0;
  for (int i = 0; i < h.edits.n; i++) {
    Edit *e = h.edits.v[i];
    if (e->b < at) continue;   /* inside an edit already made */
    buf_put(out, h.src + at, e->b - at);
    buf_puts(out, e->text);
    at = e->e;
  }
  buf_put(out, h.src + at, h.size - at);
  return 0;
}

/* The registration constructor, once kernels have their keys. */
void host_register(Prog *prog, Vec *kernel_cursors, Buf *out) {
  if (!prog->kernels.n) return;
  buf_puts(out, "\n/* cucc: register each kernel's host stub under its key */\n"
                "static void __attribute__((constructor)) cu_register_host_stubs(void) {\n");
  for (int i = 0; i < prog->kernels.n; i++) {
    Obj *k = prog->kernels.v[i];
    CXCursor c = *(CXCursor *)kernel_cursors->v[i];
    buf_printf(out, "  cu_register_stub((const void *)static_cast<%s>(&%s%s), \"%s\");\n",
               fn_ptr_type(c), qual_name(c), spec_args(c), k->key);
  }
  buf_puts(out, "}\n");
}
