/* host.c: the host unit. The user's host code stays the user's C++: we copy
 * the main file and apply a plan of edits found on the AST:
 *  - each kernel body becomes a stub that hands its arguments to the runtime
 *    (so &kernel, templates and overloads keep working as in CUDA);
 *  - each k<<<g, b, smem, stream>>>(args) becomes
 *      (__cucc_launch_config(g, b, smem, stream) ? (void)0 : k(args))
 *    as nvcc's own host code does;
 *  - device-only functions are blanked out (line breaks kept, so the
 *    host compiler's diagnostics keep the user's line numbers);
 * then we append a constructor registering each stub under its kernel's key.
 * The user's own headers (any file that is neither a system header nor one
 * of ours) are edited alike: one with edits, or including one, is pasted in
 * place of its #include, between #line markers, and the quoted includes of
 * a pasted header name their files by absolute path (the host unit lives
 * elsewhere). So kernels and device functions in a .cuh work as in nvcc. */
#include "fe.h"

typedef struct Edit { unsigned b, e; char *text; } Edit;

/* A file of the user's: the main file or one of its headers. */
typedef struct Src {
  CXFile f;
  const char *path;
  char *real;       /* realpath of path */
  const char *src;
  size_t size;
  Vec edits;        /* Edit* */
  Vec incs;         /* Inc*: its #include directives */
  bool out;         /* has edits or includes a file that has: pasted */
  bool once;        /* #pragma once: pasted at its first inclusion only */
  bool pasted, active;
} Src;

typedef struct Inc { unsigned off; CXFile to; } Inc;
typedef struct MdBad { char *name, *at; } MdBad;   /* a macro's name, file:line */
typedef struct MdOk { Src *sf; size_t at; } MdOk;   /* a rewritten launch's `<<<` */

typedef struct Host Host;
static void add_kernel(Host *h, CXCursor fn);
static void scan_inst(Host *h, CXCursor call);
static void use_inst(Host *h, CXCursor ref);
static void thrust_arch(Host *h, CXCursor call);

struct Host {
  Fe *p;
  Src *main;
  Vec files;        /* Src*: the main file and the user's headers seen */
  Vec others;       /* CXFile*: system headers and ours seen */
  Vec kernels;      /* CXCursor* of kernel definitions (incl. instantiations) */
  Vec scanned;      /* CXCursor*: host template instantiations already scanned */
  Vec keep;         /* char*: USRs of __device__ functions host code runs */
  Vec warned;       /* char*: USRs of functors thrust_arch warned of */
  Vec mdef_bad;     /* MdBad*: #defines with a launch mdef_launches could not rewrite */
  Vec mdef_ok;      /* MdOk*: where the `<<<`s it rewrote are spelled */
};

/* What host code launches kernel fn with: a launch's block 1-D or not
 * (cfg: its configuration call), or fn named other than in a launch
 * (cfg null). */
static void kshape(Host *h, CXCursor fn, const CXCursor *cfg) {
  if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl) return;
  CXCursor def = clang_getCursorDefinition(fn);
  char *u = cx_str(clang_getCursorUSR(clang_Cursor_isNull(def) ? fn : def));
  bool one = cfg && clang_Cursor_getNumArguments(*cfg) >= 2 && bs_one_d(clang_Cursor_getArgument(*cfg, 1));
  Vec *ks = &h->p->kshape;
  for (int i = 0; i < ks->n; i++) {
    KShape *s = ks->v[i];
    if (!strcmp(s->usr, u)) {
      s->one_d &= one;
      free(u);
      return;
    }
  }
  KShape *s = xcalloc(1, sizeof *s);
  s->usr = u;
  s->one_d = one;
  vec_push(ks, s);
}

/* The user's file f (NULL for system headers and cucc's own). */
static Src *src_of(Host *h, CXFile f) {
  if (!f) return NULL;
  for (int i = 0; i < h->files.n; i++)
    if (clang_File_isEqual(((Src *)h->files.v[i])->f, f)) return h->files.v[i];
  for (int i = 0; i < h->others.n; i++)
    if (clang_File_isEqual(h->others.v[i], f)) return NULL;
  CXSourceLocation at = clang_getLocationForOffset(h->p->tu, f, 0);
  char *path = cx_str(clang_getFileName(f));
  const char *inc = h->p->opts->incdir;
  size_t ni = inc ? strlen(inc) : 0;
  if (h->main && (clang_Location_isInSystemHeader(at) || (ni && !strncmp(path, inc, ni) && path[ni] == '/'))) {
    vec_push(&h->others, f);
    free(path);
    return NULL;
  }
  Src *sf = xcalloc(1, sizeof *sf);
  sf->f = f;
  sf->path = path;
  sf->src = clang_getFileContents(h->p->tu, f, &sf->size);
  if (!sf->src) return NULL;
  sf->once = strstr(sf->src, "#pragma once") != NULL;
  sf->real = realpath(path, NULL);
  vec_push(&h->files, sf);
  return sf;
}

/* Byte range of r in one of the user's files. With `strict`, a range that
 * starts inside a macro expansion is refused; a definition may start with
 * one (__global__, __device__ are macros) but must end in plain text. */
static Src *ext_(Host *h, CXSourceRange r, unsigned *b, unsigned *e, bool strict) {
  CXFile f1, f2;
  unsigned o1, o2, s1, s2;
  CXSourceLocation lb = clang_getRangeStart(r), le = clang_getRangeEnd(r);
  clang_getExpansionLocation(lb, &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(le, &f2, NULL, NULL, &o2);
  clang_getSpellingLocation(lb, NULL, NULL, NULL, &s1);
  clang_getSpellingLocation(le, NULL, NULL, NULL, &s2);
  if (!f1 || !f2 || !clang_File_isEqual(f1, f2)) return NULL;
  if ((strict && s1 != o1) || s2 != o2) return NULL;   /* inside a macro expansion */
  Src *sf = src_of(h, f1);
  *b = o1;
  *e = o2;
  return sf && *b <= *e && *e <= sf->size ? sf : NULL;
}

static Src *ext(Host *h, CXSourceRange r, unsigned *b, unsigned *e) { return ext_(h, r, b, e, true); }

/* Byte range of r where it is spelled in a macro's argument
 * (`checkKernelErrors((k<<<g, b>>>(x)));`): libclang's spelling location
 * of a macro argument's token is where the argument is written (of a macro
 * body's, the macro's use). NULL unless both ends are in one argument of
 * the user's file, after the macro's name. */
static Src *ext_arg(Host *h, CXSourceRange r, unsigned *b, unsigned *e) {
  CXFile f1, f2, x1;
  unsigned o1, s1, s2;
  CXSourceLocation lb = clang_getRangeStart(r), le = clang_getRangeEnd(r);
  clang_getExpansionLocation(lb, &x1, NULL, NULL, &o1);
  clang_getSpellingLocation(lb, &f1, NULL, NULL, &s1);
  clang_getSpellingLocation(le, &f2, NULL, NULL, &s2);
  if (!f1 || !f2 || !x1 || !clang_File_isEqual(f1, f2) || !clang_File_isEqual(f1, x1) || s1 <= o1 || s2 < s1) return NULL;
  Src *sf = src_of(h, f1);
  *b = s1;
  *e = s2;
  return sf && *e <= sf->size ? sf : NULL;
}

/* Replace [b,e) of sf by t, padded with the line breaks it removes
 * (t_keeps_lines: t has as many already, as in a macro's definition). */
static void edit_(Src *sf, unsigned b, unsigned e, const char *t, bool t_keeps_lines) {
  Buf out = {0};
  buf_puts(&out, t);
  for (unsigned i = b; i < e && !t_keeps_lines; i++)
    if (sf->src[i] == '\n') buf_puts(&out, "\n");
  Edit *ed = xcalloc(1, sizeof *ed);
  ed->b = b;
  ed->e = e;
  ed->text = buf_take(&out);
  vec_push(&sf->edits, ed);
}

static void edit(Src *sf, unsigned b, unsigned e, const char *t) { edit_(sf, b, e, t, false); }

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

/* A parameter pack (`typename... Ts`, `int... Ns`, `Ts... xs`): its "..."
 * right before its name (a template template parameter whose own
 * parameters are variadic, `template <class...> class F`, is none). libclang
 * says so nowhere else. */
static bool is_pack(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *t;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &t, &n);
  char *nm = cx_str(clang_getCursorSpelling(c));
  bool r = false;
  for (unsigned i = 0; i < n && !r; i++) {
    CXString sp = clang_getTokenSpelling(tu, t[i]);
    if (!strcmp(clang_getCString(sp), "...")) {
      if (i + 1 == n) r = !*nm;
      else {
        CXString nx = clang_getTokenSpelling(tu, t[i + 1]);
        r = *nm && !strcmp(clang_getCString(nx), nm);
        clang_disposeString(nx);
      }
    }
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, t, n);
  free(nm);
  return r;
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
    if (is_pack(c)) buf_puts(&tp->b, "...");
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

static enum CXChildVisitResult tparam_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Vec *v = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
      k == CXCursor_TemplateTemplateParameter) {
    CXCursor *p = xcalloc(1, sizeof *p);
    *p = c;
    vec_push(v, p);
  }
  return CXChildVisit_Continue;
}

/* The type of template parameter i of the template fn instantiates
 * (CXType_Invalid when not found). */
static CXType tparam_type(CXCursor fn, int i) {
  CXCursor t = clang_getSpecializedCursorTemplate(fn);
  Vec v = {0};
  if (!clang_Cursor_isNull(t)) clang_visitChildren(t, tparam_visit, &v);
  CXType r = {CXType_Invalid, {0, 0}};
  if (i < v.n) r = clang_getCanonicalType(clang_getCursorType(*(CXCursor *)v.v[i]));
  return r;
}

static bool is_unsigned(CXType t) {
  switch (t.kind) {
  case CXType_UChar: case CXType_UShort: case CXType_UInt: case CXType_ULong: case CXType_ULongLong: case CXType_Char16:
  case CXType_Char32: return true;
  default: return false;
  }
}

char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status);   /* libstdc++ */

/* The template argument list of a function template's instance, from its
 * demangled linker name (`void __device_stub__k<(Color)5>(int*)`): there
 * each argument has its type, an enumerator as `(Color)5`, `auto`'s as
 * `7ll`, packs expanded, template templates by name. NULL if none. */
static char *demangled_args(const char *key) {
  int st = -1;
  char *d = key ? __cxa_demangle(key, NULL, NULL, &st) : NULL;
  if ((!d || st) && key) {
    /* clang 17's prefixes that declare an argument's parameter where its
     * kind is not plain (`TnDa` of an `auto` one, `TpTni` of an `int...`
     * pack), which older demanglers (GCC 12's) refuse; the arguments
     * themselves (`Lx7E`, `JLi1EE`) are what the list prints. Only right
     * after an argument list opens or an argument ends, so never inside a
     * name. */
    char *k = xstrdup(key);
    for (size_t i = 1; k[i]; i++) {
      if (k[i] != 'T' || !strchr("IJE", k[i - 1])) continue;
      size_t l = k[i + 1] == 'p' || k[i + 1] == 'y' ? 2
               : k[i + 1] == 'n' && k[i + 2] == 'D' && (k[i + 3] == 'a' || k[i + 3] == 'c') ? 4
               : k[i + 1] == 'n' && k[i + 2] >= 'a' && k[i + 2] <= 'z' ? 3 : 0;
      if (!l) continue;
      memmove(k + i, k + i + l, strlen(k + i + l) + 1);
      i--;   /* (Tp before Tn: look here again) */
    }
    free(d);
    st = -1;
    d = __cxa_demangle(k, NULL, NULL, &st);
    free(k);
  }
  if (!d || st) return NULL;
  char *r = NULL;
  long n = (long)strlen(d), i, e, depth = 0;
  /* back from the parameter list's ')' to its '(', then the '>' before it
   * back to its '<' */
  for (i = n - 1; i >= 0; i--)
    if (d[i] == ')') depth++;
    else if (d[i] == '(' && --depth == 0) break;
  if (n && d[n - 1] == ')' && i > 0 && d[i - 1] == '>') {
    e = i - 1;
    depth = 0;
    for (i = e; i >= 0; i--)
      if (d[i] == '>') depth++;
      else if (d[i] == '<' && --depth == 0) break;
    if (i >= 0) r = xstrndup(d + i, (size_t)(e - i + 1));
  }
  free(d);
  return r;
}

static bool builtin_int(CXType t) {
  return is_unsigned(t) || t.kind == CXType_Bool || t.kind == CXType_Char_S || t.kind == CXType_SChar ||
         t.kind == CXType_WChar || t.kind == CXType_Short || t.kind == CXType_Int || t.kind == CXType_Long ||
         t.kind == CXType_LongLong || t.kind == CXType_Char_U;
}

/* Template arguments of an instantiation, spelled for the host compiler.
 * An argument whose value alone does not name the instance (an enum
 * parameter's: `&k<5>` names no function; `auto`'s: `k<7>` is another
 * instance than k<7LL>), a template template argument or a pack: all of
 * them as the demangled linker name `key` spells them. */
static char *spec_args(CXCursor fn, const char *key) {
  int n = clang_Cursor_getNumTemplateArguments(fn);
  if (n <= 0) return xstrdup("");
  for (int i = 0; i < n; i++) {
    enum CXTemplateArgumentKind ak = clang_Cursor_getTemplateArgumentKind(fn, i);
    if (ak == CXTemplateArgumentKind_Type || (ak == CXTemplateArgumentKind_Integral && builtin_int(tparam_type(fn, i))))
      continue;
    char *r = demangled_args(key);
    if (r) return r;
    break;
  }
  Buf b = {0};
  buf_puts(&b, "<");
  for (int i = 0; i < n; i++) {
    if (i) buf_puts(&b, ", ");
    switch (clang_Cursor_getTemplateArgumentKind(fn, i)) {
    case CXTemplateArgumentKind_Type:
      buf_puts(&b, cx_str(clang_getTypeSpelling(clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(fn, i)))));
      break;
    case CXTemplateArgumentKind_Integral: {
      /* libclang reads a bool `true` as a signed one-bit -1 */
      CXType pt = tparam_type(fn, i);
      if (pt.kind == CXType_Bool) buf_puts(&b, clang_Cursor_getTemplateArgumentUnsignedValue(fn, i) ? "true" : "false");
      else if (pt.kind == CXType_Enum)   /* (where the demangler could not help) */
        buf_printf(&b, "(%s)%lld", cx_str(clang_getTypeSpelling(pt)), clang_Cursor_getTemplateArgumentValue(fn, i));
      else if (is_unsigned(pt)) buf_printf(&b, "%lluu", clang_Cursor_getTemplateArgumentUnsignedValue(fn, i));
      else buf_printf(&b, "%lld", clang_Cursor_getTemplateArgumentValue(fn, i));
      break;
    }
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
  Src *sf = ext(h, clang_getCursorExtent(body), &b, &e);
  if (!sf) {
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
    /* (a pack of parameters, `Ts... xs`: each of them) */
    const char *dots = is_pack(ps.v[i]) ? "..." : "";
    buf_printf(&s, "%s(void *)&%s%s", i ? ", " : "void *cu_args[] = {", nm, dots);
    buf_printf(&ty, "%s__cucc_unrestrict_t<decltype(%s)>%s", i ? ", " : "", nm, dots);
  }
  if (ps.n) buf_puts(&s, "}; ");
  buf_printf(&s, "cu_launch_stub((const void *)static_cast<void (*)(%s)>(&%s), %s); }",
             ty.s ? ty.s : "", self, ps.n ? "cu_args" : "(void **)0");
  edit(sf, b, e, s.s);
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

/* The #define a launch comes from, if mdef_launches could not rewrite it:
 * the macro named where the launch's expansion starts (file:line of its
 * definition), NULL if none is. */
static const char *mdef_bad(Host *h, CXCursor launch) {
  CXFile f;
  unsigned off;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(launch)), &f, NULL, NULL, &off);
  Src *sf = src_of(h, f);
  if (!sf) return NULL;
  size_t e = off;
  while (e < sf->size && (((sf->src[e] | 32) >= 'a' && (sf->src[e] | 32) <= 'z') || (sf->src[e] >= '0' && sf->src[e] <= '9') || sf->src[e] == '_')) e++;
  for (int i = 0; i < h->mdef_bad.n; i++) {
    MdBad *m = h->mdef_bad.v[i];
    if (strlen(m->name) == e - off && !strncmp(m->name, sf->src + off, e - off)) return m->at;
  }
  return NULL;
}

/* A launch from a macro whose `<<<` mdef_launches did not rewrite where it
 * is spelled (a #define holding only the configuration, used inside another
 * macro: `CHECK(BAD(x))`): its file:line, NULL if it did rewrite it. */
static const char *mdef_unread(Host *h, CXCursor cfg) {
  CXFile f;
  unsigned off, line;
  clang_getSpellingLocation(clang_getCursorLocation(cfg), &f, &line, NULL, &off);
  Src *sf = src_of(h, f);
  if (!sf) return NULL;   /* (a header of ours or the system's: not rewritten, not refused) */
  for (int i = 0; i < h->mdef_ok.n; i++) {
    MdOk *m = h->mdef_ok.v[i];
    if (m->sf == sf && m->at == off) return NULL;
  }
  return xfmt("%s:%u", sf->path, line);
}

/* k<<<cfg>>>(args): the configuration and the arguments are copied as the
 * user wrote them (macros included), found by their delimiters. */
static void launch(Host *h, CXCursor c, CXCursor callee, CXCursor cfg) {
  unsigned b, e, cb, ce;
  Src *sf = ext(h, clang_getCursorExtent(c), &b, &e);
  if (!sf && (sf = ext_(h, clang_getCursorExtent(c), &b, &e, false))) {
    /* the kernel a macro (`KERNEL<<<g, b>>>(x)`), the rest plain text:
     * the kernel's text is the macro's use, up to the `<<<` */
    CXFile f, x;
    unsigned so, xo;
    clang_getSpellingLocation(clang_getCursorLocation(cfg), &f, NULL, NULL, &so);
    clang_getExpansionLocation(clang_getCursorLocation(cfg), &x, NULL, NULL, &xo);
    if (f && x && clang_File_isEqual(f, x) && so == xo && src_of(h, f) == sf && so > b && so < e &&
        !strncmp(sf->src + so, "<<<", 3)) {
      cb = b;
      ce = so;
      while (ce > cb && (sf->src[ce - 1] == ' ' || sf->src[ce - 1] == '\t' || sf->src[ce - 1] == '\n' || sf->src[ce - 1] == '\r')) ce--;
      goto plain;
    }
    sf = NULL;
  }
  if (!sf || ext(h, clang_getCursorExtent(callee), &cb, &ce) != sf) {
    /* in a macro's argument, as checkKernelErrors(k<<<...>>>(...)) */
    sf = ext_arg(h, clang_getCursorExtent(c), &b, &e);
    if (!sf || ext_arg(h, clang_getCursorExtent(callee), &cb, &ce) != sf || cb < b || ce > e ||
        strncmp(sf->src + skip_ws(sf->src, ce, e), "<<<", 3)) {
      /* in a macro's definition (the kernel may be its argument):
       * rewritten there, once (mdef_launches) */
      const char *bad = mdef_bad(h, c);
      if (!bad) bad = mdef_unread(h, cfg);
      if (bad) {
        err_at(c, xfmt("unsupported: kernel launch in this form in a macro's definition (%s)", bad));
        return;
      }
      add_kernel(h, clang_getCursorReferenced(c));
      kshape(h, clang_getCursorReferenced(c), &cfg);
      return;
    }
  }
plain:;
  const char *s = sf->src;
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
  edit(sf, b, e, t.s);
  add_kernel(h, clang_getCursorReferenced(c));
  kshape(h, clang_getCursorReferenced(c), &cfg);
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
static enum CXChildVisitResult inst_cb(CXCursor c, CXCursor parent, CXClientData d);
/* a launch's configuration and arguments, not its kernel (its first
 * child: named there, it is launched, not taken as a pointer) */
typedef struct LaunchKids { Host *h; int i; } LaunchKids;
static enum CXChildVisitResult launch_kids_cb(CXCursor c, CXCursor parent, CXClientData d) {
  LaunchKids *lk = d;
  if (lk->i++ == 0) return CXChildVisit_Continue;
  if (inst_cb(c, parent, lk->h) == CXChildVisit_Recurse) clang_visitChildren(c, inst_cb, lk->h);
  return CXChildVisit_Continue;
}

static enum CXChildVisitResult inst_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Host *h = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr) {
    CXCursor callee, cfg;
    if (launch_cfg(c, &callee, &cfg)) {
      add_kernel(h, clang_getCursorReferenced(c));
      kshape(h, clang_getCursorReferenced(c), &cfg);
      LaunchKids lk = {h, 0};
      clang_visitChildren(c, launch_kids_cb, &lk);
      return CXChildVisit_Continue;
    } else scan_inst(h, c);
  } else if (k == CXCursor_DeclRefExpr) {
    use_inst(h, c);
  }
  return CXChildVisit_Recurse;
}

/* A template instantiation named without a call: `&k<float>` handed to
 * cudaLaunchKernel or cudaFuncGetAttributes compiles that kernel, and the
 * function pointers translate.c writes for explicit instantiations
 * (`template void f<int>(...);`) scan f<int>'s body. */
static void use_inst(Host *h, CXCursor ref) {
  CXCursor fn = clang_getCursorReferenced(ref);
  if (clang_Cursor_isNull(fn)) return;
  if (clang_getCursorKind(fn) == CXCursor_CXXMethod) {   /* &X<float>::run: a member of a class template's instance */
    scan_inst(h, ref);
    return;
  }
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl) return;
  if (cx_has_attr(fn, CXCursor_CUDAGlobalAttr)) {
    add_kernel(h, fn);
    kshape(h, fn, NULL);
  } else scan_inst(h, ref);
}

static void scan_inst(Host *h, CXCursor call) {
  CXCursor fn = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(fn) || clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn))) return;
  if (cx_has_attr(fn, CXCursor_CUDAGlobalAttr)) return;
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return;
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(def), &f, NULL, NULL, NULL);
  if (!src_of(h, f)) return;
  for (int i = 0; i < h->scanned.n; i++)
    if (clang_equalCursors(*(CXCursor *)h->scanned.v[i], def)) return;
  CXCursor *cp = xcalloc(1, sizeof *cp);
  *cp = def;
  vec_push(&h->scanned, cp);
  clang_visitChildren(def, inst_cb, h);
}

static bool in_user(Host *h, CXCursor c) {
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  return src_of(h, f) != NULL;
}

typedef struct BodyFind { CXCursor body; } BodyFind;
static enum CXChildVisitResult body_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) ((BodyFind *)d)->body = c;
  return CXChildVisit_Continue;
}
/* A function's body (a null cursor for a declaration): blockshape.c's too */
CXCursor fn_body(CXCursor fn) {
  BodyFind bf = {clang_getNullCursor()};
  clang_visitChildren(fn, body_cb, &bf);
  return bf.body;
}

/* A __device__ function that host code calls (Fe.host_used: a functor or
 * lambda that Thrust's CPU device systems run on the host) keeps its body
 * in the host unit, as do the __device__ functions it calls in turn. A
 * template is known by its pattern's USR (walk_cb meets the pattern). */
static char *fn_usr(CXCursor fn) {
  CXCursor t = clang_getSpecializedCursorTemplate(fn);
  return cx_str(clang_getCursorUSR(clang_Cursor_isNull(t) ? fn : t));
}

static bool kept(Host *h, CXCursor fn) {
  char *u = fn_usr(fn);
  bool r = false;
  for (int i = 0; i < h->keep.n && !r; i++) r = !strcmp(h->keep.v[i], u);
  free(u);
  return r;
}

static void keep_fn(Host *h, CXCursor fn);

static enum CXChildVisitResult keep_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
    CXCursor r = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(r);
    if (rk == CXCursor_FunctionDecl || rk == CXCursor_CXXMethod || rk == CXCursor_FunctionTemplate) keep_fn(d, r);
  }
  return CXChildVisit_Recurse;
}

static void keep_fn(Host *h, CXCursor fn) {
  if (!cx_has_attr(fn, CXCursor_CUDADeviceAttr) || cx_has_attr(fn, CXCursor_CUDAHostAttr) || kept(h, fn)) return;
  vec_push(&h->keep, fn_usr(fn));
  CXCursor def = clang_getCursorDefinition(fn);
  if (!clang_Cursor_isNull(def) && in_user(h, def)) clang_visitChildren(def, keep_cb, h);
}

/* What the host unit keeps of device code (a __device__ constructor's
 * member initializers, a default member initializer) may call a
 * __device__-only function, which the host unit has not: a free function,
 * removed with its declarations (member functions keep theirs). */
typedef struct DevRef { Host *h; bool found; } DevRef;

static bool dev_only_fn(Host *h, CXCursor r) {
  enum CXCursorKind k = clang_getCursorKind(r);
  return (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && cx_has_attr(r, CXCursor_CUDADeviceAttr) &&
         !cx_has_attr(r, CXCursor_CUDAHostAttr) && !cx_has_attr(r, CXCursor_CUDAGlobalAttr) && !kept(h, r);
}

static enum CXChildVisitResult devref_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  DevRef *x = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclRefExpr || k == CXCursor_CallExpr) x->found |= dev_only_fn(x->h, clang_getCursorReferenced(c));
  if (k == CXCursor_OverloadedDeclRef)   /* (a call in a template, resolved at instantiation) */
    for (unsigned i = 0; i < clang_getNumOverloadedDecls(c); i++) x->found |= dev_only_fn(x->h, clang_getOverloadedDecl(c, i));
  return x->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* A default member initializer (`int m = lane();`, `int m{lane()}`) that
 * calls a __device__-only function: the host unit drops it. Only device
 * code runs it (a host constructor that did would be refused by clang), so
 * the member's host-side initial value does not matter. */
static void field_init(Host *h, CXCursor c) {
  DevRef x = {h, false};
  clang_visitChildren(c, devref_cb, &x);
  if (!x.found) return;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *t;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &t, &n);
  char *nm = cx_str(clang_getCursorSpelling(c));
  for (unsigned i = 0; i + 1 < n; i++) {
    CXString sp = clang_getTokenSpelling(tu, t[i]), nx = clang_getTokenSpelling(tu, t[i + 1]);
    bool at = !strcmp(clang_getCString(sp), nm) &&
              (!strcmp(clang_getCString(nx), "=") || !strcmp(clang_getCString(nx), "{"));
    clang_disposeString(sp);
    clang_disposeString(nx);
    if (!at) continue;
    unsigned b, e, b2, e2;
    Src *sf = ext_(h, clang_getTokenExtent(tu, t[i + 1]), &b, &e, true);
    Src *sf2 = ext_(h, clang_getCursorExtent(c), &b2, &e2, false);
    if (sf && sf == sf2 && b < e2) edit(sf, b, e2, "");
    break;
  }
  clang_disposeTokens(tu, t, n);
  free(nm);
}

typedef struct CtorInit { Host *h; bool found; CXCursor first; } CtorInit;

static enum CXChildVisitResult ctor_init_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  CtorInit *x = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_ParmDecl || k == CXCursor_CompoundStmt || k == CXCursor_TemplateTypeParameter ||
      k == CXCursor_NonTypeTemplateParameter || k == CXCursor_TemplateTemplateParameter || clang_isAttribute(k))
    return CXChildVisit_Continue;
  if (clang_Cursor_isNull(x->first)) x->first = c;   /* the first member or base initializer */
  DevRef r = {x->h, false};
  devref_cb(c, parent, &r);
  if (!r.found) clang_visitChildren(c, devref_cb, &r);
  x->found |= r.found;
  return CXChildVisit_Continue;
}

/* A __device__-only constructor defined in its class keeps an empty body
 * after its member initializers (edit from b, its body's start), unless
 * those call a __device__-only function: then it is only declared (*decl),
 * from the initializers' ':' on (an empty body without them would have to
 * default-construct what they construct: a base without a default
 * constructor, a reference). Host code never calls it. */
static unsigned ctor_cut(Host *h, CXCursor c, Src *sf, unsigned b, bool *decl) {
  CtorInit x = {h, false, clang_getNullCursor()};
  clang_visitChildren(c, ctor_init_cb, &x);
  unsigned ib, ie;
  if (!x.found || clang_Cursor_isNull(x.first) || ext_(h, clang_getCursorExtent(x.first), &ib, &ie, false) != sf)
    return b;
  while (ib > 0 && strchr(" \t\r\n", sf->src[ib - 1])) ib--;
  if (ib == 0 || sf->src[ib - 1] != ':') return b;
  *decl = true;
  return ib - 1;
}

static enum CXChildVisitResult walk_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Host *h = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (!in_user(h, c)) return CXChildVisit_Continue;
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
    /* a __device__-only function goes, and so does a declaration of one
     * (its parameter types may be device-only: cg::thread_block) */
    if (dev && !hst && !glob && !kept(h, c)) {
      unsigned b, e;
      Src *sf = ext_(h, clang_getCursorExtent(c), &b, &e, false);
      if (sf) edit(sf, b, e, "");
      return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
  }
  if (k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
      k == CXCursor_ConversionFunction) {
    /* a __device__-only member function: nvcc's host pass never sees its
     * body (which may call device intrinsics the host has no declaration
     * of). Defined in its class, it keeps a declaration (a constructor or
     * destructor an empty body, after any member initializers); defined
     * outside, it goes. One that host code runs (kept: a functor of
     * Thrust's CPU systems) keeps its body, as a __device__ function does. */
    CXCursor body = fn_body(c);
    if (cx_has_attr(c, CXCursor_CUDADeviceAttr) && !cx_has_attr(c, CXCursor_CUDAHostAttr) &&
        !clang_Cursor_isNull(body) && !kept(h, c)) {
      bool in_class = clang_equalCursors(clang_getCursorLexicalParent(c), clang_getCursorSemanticParent(c));
      unsigned b, e;
      Src *sf = ext_(h, clang_getCursorExtent(in_class ? body : c), &b, &e, false);
      bool decl = k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction;
      if (sf && in_class && k == CXCursor_Constructor) b = ctor_cut(h, c, sf, b, &decl);
      if (sf) edit(sf, b, e, !in_class ? "" : decl ? ";" : "{}");
      return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
  }
  if (k == CXCursor_FieldDecl) {
    field_init(h, c);
    return CXChildVisit_Continue;
  }
  CXCursor callee, cfg;
  if (launch_cfg(c, &callee, &cfg)) {
    launch(h, c, callee, cfg);
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_CallExpr) {
    scan_inst(h, c);
    thrust_arch(h, c);
  } else if (k == CXCursor_DeclRefExpr) use_inst(h, c);
  return CXChildVisit_Recurse;
}

static int cmp_edit(const void *a, const void *b) {
  const Edit *x = *(Edit *const *)a, *y = *(Edit *const *)b;
  return x->b < y->b ? -1 : x->b > y->b;
}

/* Each #include in a user's file, and the file it included. */
static void inc_cb(CXFile to, CXSourceLocation *stack, unsigned n, CXClientData d) {
  Host *h = d;
  if (n == 0) return;
  CXFile from;
  unsigned off;
  clang_getExpansionLocation(stack[0], &from, NULL, NULL, &off);
  Src *sf = src_of(h, from);
  if (!sf) return;
  Inc *in = xcalloc(1, sizeof *in);
  in->off = off;
  in->to = to;
  vec_push(&sf->incs, in);
}

static unsigned line_of(const Src *sf, unsigned off) {
  unsigned l = 1;
  for (unsigned i = 0; i < off && i < sf->size; i++) l += sf->src[i] == '\n';
  return l;
}

/* A functor or lambda given to a Thrust algorithm on device data runs on
 * the CPU here (cucc's Thrust device system is OpenMP's, docs/libraries.md):
 * its code is host code, so a branch on __CUDA_ARCH__ in it takes the side
 * a GPU's host code would, not a GPU's. Each such functor is recorded once
 * (fe.arch_uses); what is said of it waits for the device parse, which
 * sees the side skipped (fe_thrust_arch). */
static void thrust_arch(Host *h, CXCursor call) {
  CXCursor fn = clang_getCursorReferenced(call), top = clang_getNullCursor();
  if (clang_Cursor_isNull(fn)) return;
  for (CXCursor ns = clang_getCursorSemanticParent(fn);
       !clang_Cursor_isNull(ns) && clang_getCursorKind(ns) != CXCursor_TranslationUnit;
       ns = clang_getCursorSemanticParent(ns))
    if (clang_getCursorKind(ns) == CXCursor_Namespace) top = ns;
  if (clang_Cursor_isNull(top)) return;
  char *nsname = cx_str(clang_getCursorSpelling(top));
  bool thr = !strcmp(nsname, "thrust");
  free(nsname);
  int n = clang_Cursor_getNumArguments(call);
  bool dev = false;   /* device data: a device_ptr (device_vector's iterators), or a device policy */
  for (int i = 0; thr && i < n && !dev; i++) {
    char *t = cx_str(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i)))));
    dev = strstr(t, "device_ptr<") || strstr(t, "detail::device_t") || strstr(t, "cuda_cub::") ||
          strstr(t, "system::omp::") || strstr(t, "system::tbb::");
    free(t);
  }
  for (int i = 0; dev && i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i), lam = fe_lambda_in(arg);
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(arg)));
    if (!clang_Cursor_isNull(lam)) d = lam;   /* (its class has no place in the source) */
    unsigned b, e;
    Src *sf = clang_Cursor_isNull(d) ? NULL : ext_(h, clang_getCursorExtent(d), &b, &e, false);
    if (!sf) continue;
    const char *at = NULL;
    for (unsigned j = b; j + 13 <= e && !at; j++)
      if (!memcmp(sf->src + j, "__CUDA_ARCH__", 13)) at = sf->src + j;
    char *usr = clang_Cursor_isNull(lam) ? cx_str(clang_getCursorUSR(d)) : xfmt("%s:%u", sf->path, b);
    bool seen = false;
    for (int k = 0; k < h->warned.n && !seen; k++) seen = !strcmp(h->warned.v[k], usr);
    if (!at || seen) {
      free(usr);
      continue;
    }
    vec_push(&h->warned, usr);
    ArchUse *u = xcalloc(1, sizeof *u);
    cx_loc(call, &u->file, &u->line, &u->col);
    u->usr = clang_Cursor_isNull(lam) ? usr : NULL;
    u->path = sf->path;
    u->off = b;
    u->what = clang_Cursor_isNull(lam) ? xfmt("'%s'", cx_str(clang_getCursorSpelling(d))) : xfmt("a lambda");
    u->alg = cx_str(clang_getCursorSpelling(fn));
    u->arch_line = line_of(sf, (unsigned)(at - sf->src));
    vec_push(&h->p->arch_uses, u);
  }
}

static void emit(Host *h, Src *sf, Buf *out);

/* The text that replaces an #include line of sf: the included file pasted
 * if it has edits, else (outside the main file) the same include naming
 * the file by absolute path if it was a quoted one. NULL: keep the line. */
static char *inc_text(Host *h, Src *sf, const Inc *in, unsigned b, unsigned e) {
  Src *to = src_of(h, in->to);
  if (to && to->out && !to->active) {
    Buf t = {0};
    if (!(to->once && to->pasted)) {
      to->pasted = true;
      buf_printf(&t, "\n#line 1 \"%s\"\n", to->path);
      emit(h, to, &t);
    }
    buf_printf(&t, "\n#line %u \"%s\"\n", line_of(sf, e) + 1, sf == h->main ? h->p->prog->path : sf->path);
    return buf_take(&t);
  }
  if (sf == h->main || !memchr(sf->src + b, '"', e - b)) return NULL;
  char *abs = realpath(cx_str(clang_getFileName(in->to)), NULL);
  char *t = abs ? xfmt("#include \"%s\"", abs) : NULL;
  free(abs);
  return t;
}

/* The user's file that the directive naming `name` in sf includes, found
 * as the host compiler will find it: sf's folder (quoted), then the -I
 * folders. For the directives libclang reports no inclusion for: a second
 * #include of a #pragma once header, or of a guarded one. */
static Src *resolve(Host *h, Src *sf, const char *name, bool quoted) {
  const Vec *incs = &h->p->opts->incs;
  for (int i = quoted ? -1 : 0; i < incs->n; i++) {
    const char *sl = strrchr(sf->path, '/');
    char *cand = i < 0 ? xfmt("%.*s%s", sl ? (int)(sl - sf->path + 1) : 0, sf->path, name)
                       : xfmt("%s/%s", (char *)incs->v[i], name);
    char *r = realpath(cand, NULL);
    free(cand);
    if (!r) continue;
    Src *hit = NULL;
    for (int j = 0; j < h->files.n && !hit; j++) {
      Src *x = h->files.v[j];
      if (x->real && !strcmp(x->real, r)) hit = x;
    }
    free(r);
    return hit;
  }
  return NULL;
}

/* The #include lines of sf that libclang did not report (see resolve). */
static void unreported(Host *h, Src *sf) {
  for (size_t i = 0; i < sf->size;) {
    size_t ls = i, j = i;
    while (j < sf->size && (sf->src[j] == ' ' || sf->src[j] == '\t')) j++;
    if (j < sf->size && sf->src[j] == '#') {
      j++;
      while (j < sf->size && (sf->src[j] == ' ' || sf->src[j] == '\t')) j++;
      if (j + 7 < sf->size && !strncmp(sf->src + j, "include", 7)) {
        j += 7;
        while (j < sf->size && (sf->src[j] == ' ' || sf->src[j] == '\t')) j++;
        char open = j < sf->size ? sf->src[j] : 0, close = open == '<' ? '>' : '"';
        size_t k = j + 1;
        while (k < sf->size && sf->src[k] != close && sf->src[k] != '\n') k++;
        bool known = false;
        for (int n = 0; n < sf->incs.n && !known; n++) {
          unsigned off = ((Inc *)sf->incs.v[n])->off;
          known = off >= ls && off <= k;
        }
        Src *to = (open == '"' || open == '<') && k < sf->size && sf->src[k] == close && !known
                      ? resolve(h, sf, xstrndup(sf->src + j + 1, k - j - 1), open == '"')
                      : NULL;
        if (to) {
          Inc *in = xcalloc(1, sizeof *in);
          in->off = (unsigned)j;
          in->to = to->f;
          vec_push(&sf->incs, in);
        }
      }
    }
    while (i < sf->size && sf->src[i] != '\n') i++;
    i++;
  }
}

/* sf with its edits and its includes replaced, into out. */
static void emit(Host *h, Src *sf, Buf *out) {
  sf->active = true;
  Vec reps = {0};
  for (int i = 0; i < sf->edits.n; i++) vec_push(&reps, sf->edits.v[i]);
  for (int i = 0; i < sf->incs.n; i++) {
    Inc *in = sf->incs.v[i];
    unsigned b = in->off, e = in->off;
    while (b > 0 && sf->src[b - 1] != '\n') b--;
    while (e < sf->size && sf->src[e] != '\n') e++;
    char *t = inc_text(h, sf, in, b, e);
    if (!t) continue;
    Edit *ed = xcalloc(1, sizeof *ed);
    *ed = (Edit){b, e, t};
    vec_push(&reps, ed);
  }
  if (reps.n) qsort(reps.v, reps.n, sizeof(void *), cmp_edit);
  size_t start = out->len;
  unsigned at = 0;
  for (int i = 0; i < reps.n; i++) {
    Edit *ed = reps.v[i];
    if (ed->b < at) continue;   /* inside an edit already made */
    buf_put(out, sf->src + at, ed->b - at);
    buf_puts(out, ed->text);
    at = ed->e;
  }
  buf_put(out, sf->src + at, sf->size - at);
  /* a pasted header's #pragma once would now be in the main file */
  if (sf != h->main)
    for (char *q = out->s + start; (q = strstr(q, "#pragma once")); q += 12) memcpy(q, "/* once */  ", 12);
  sf->active = false;
}

/* Launches written in a macro's definition (`#define LAUNCH(p) k<<<g, b>>>(p)`):
 * host code sees them wherever the macro is used, so the definition
 * itself is rewritten, once, as launch() rewrites a launch in plain text.
 * The kernel is the expression before `<<<` (names, `::`, `.`, `->`,
 * template arguments, a parenthesized expression, `##`), its arguments
 * the parenthesized list after `>>>`; line continuations stay where they
 * were. A form not so read (`#define CFG <<<g, b>>>`) is refused where the
 * macro launches. */
static bool md_ident(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'; }

/* a line continuation ending at the newline at i: its backslash's index,
 * or (size_t)-1 (a CRLF file's continuation is backslash, CR, LF) */
static size_t md_cont(const char *s, size_t lo, size_t i) {
  if (s[i] != '\n') return (size_t)-1;
  if (i > lo && s[i - 1] == '\\') return i - 1;
  if (i > lo + 1 && s[i - 1] == '\r' && s[i - 2] == '\\') return i - 2;
  return (size_t)-1;
}

/* back over blanks and line continuations from i (exclusive) */
static size_t md_back_ws(const char *s, size_t lo, size_t i) {
  while (i > lo) {
    size_t c = md_cont(s, lo, i - 1);
    if (s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\r') i--;
    else if (c != (size_t)-1) i = c;
    else break;
  }
  return i;
}

static size_t md_fwd_ws(const char *s, size_t i, size_t hi) {
  while (i < hi) {
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') i++;
    else if (s[i] == '\\' && i + 1 < hi && s[i + 1] == '\n') i += 2;
    else if (s[i] == '\\' && i + 2 < hi && s[i + 1] == '\r' && s[i + 2] == '\n') i += 3;
    else break;
  }
  return i;
}

/* from the opener at i, the index just past its closer (0 if none) */
static size_t md_match(const char *s, size_t i, size_t hi) {
  int depth = 0;
  for (; i < hi; i++) {
    char ch = s[i];
    if (ch == '"' || ch == '\'') {
      for (i++; i < hi && s[i] != ch; i++) i += s[i] == '\\';
      continue;
    }
    depth += (ch == '(' || ch == '[' || ch == '{') - (ch == ')' || ch == ']' || ch == '}');
    if (depth == 0) return i + 1;
  }
  return 0;
}

/* back from its closer just before i to its opener ((size_t)-1 if none) */
static size_t md_match_back(const char *s, size_t lo, size_t i, char open, char close) {
  int depth = 0;
  size_t j = i;
  do {
    j--;
    depth += (s[j] == close) - (s[j] == open);
  } while (j > lo && depth > 0);
  return depth ? (size_t)-1 : j;
}

/* the kernel's start, back from e (where `<<<` is): names, `::` (a
 * leading one too), `.`, `->`, `##`, template arguments, subscripts, or a
 * parenthesized expression; (size_t)-1 if none */
static size_t md_callee(const char *s, size_t lo, size_t e) {
  const size_t none = (size_t)-1;
  size_t i = md_back_ws(s, lo, e), start = none;
  for (;;) {
    if (i > lo && (s[i - 1] == '>' || s[i - 1] == ']')) {   /* template arguments, a subscript */
      size_t j = s[i - 1] == '>' ? md_match_back(s, lo, i, '<', '>') : md_match_back(s, lo, i, '[', ']');
      if (j == none) return none;
      i = md_back_ws(s, lo, j);
    }
    if (i > lo && s[i - 1] == ')') {   /* (*fp), (kernel) */
      size_t j = md_match_back(s, lo, i, '(', ')');
      return j;
    }
    size_t j = i;
    while (j > lo && md_ident(s[j - 1])) j--;
    if (j == i) return start;
    start = j;
    i = md_back_ws(s, lo, j);
    if (i >= lo + 2 && !strncmp(s + i - 2, "::", 2)) start = i -= 2;   /* (kept if nothing is before it) */
    else if (i >= lo + 2 && (!strncmp(s + i - 2, "->", 2) || !strncmp(s + i - 2, "##", 2))) i -= 2;
    else if (i > lo && s[i - 1] == '.') i--;
    else return start;
    i = md_back_ws(s, lo, i);
  }
}

static unsigned md_lines(const char *s, size_t b, size_t e) {
  unsigned n = 0;
  for (; b < e; b++) n += s[b] == '\n';
  return n;
}

static void mdef_launches(Host *h, Src *sf) {
  const char *s = sf->src;
  size_t n = sf->size;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && (s[j] == ' ' || s[j] == '\t')) j++;
    size_t end = j;   /* the directive's end: a newline not after a backslash */
    while (end < n && !(s[end] == '\n' && md_cont(s, 0, end) == (size_t)-1)) end++;
    if (j < n && s[j] == '#') {
      size_t k = md_fwd_ws(s, j + 1, end);
      if (end - k > 6 && !strncmp(s + k, "define", 6) && !md_ident(s[k + 6])) {
        size_t name = k = md_fwd_ws(s, k + 6, end);
        while (k < end && md_ident(s[k])) k++;
        size_t name_end = k;
        if (k < end && s[k] == '(' && !(k = md_match(s, k, end))) k = end;   /* the parameters */
        size_t body = k;
        for (size_t q = body; q + 3 <= end; q++) {
          if (s[q] == '"' || s[q] == '\'') {
            char ch = s[q];
            for (q++; q < end && s[q] != ch; q++) q += s[q] == '\\';
            continue;
          }
          if (s[q] == '/' && q + 1 < end && s[q + 1] == '/') break;
          if (s[q] == '/' && q + 1 < end && s[q + 1] == '*') {   /* (a quote in a comment is no literal) */
            for (q += 2; q + 1 < end && !(s[q] == '*' && s[q + 1] == '/'); q++) {}
            q++;
            continue;
          }
          if (strncmp(s + q, "<<<", 3)) continue;
          size_t cb = md_callee(s, body, q), c0 = q + 3, c1 = c0;
          for (int depth = 0; c1 + 3 <= end; c1++) {
            depth += (s[c1] == '(' || s[c1] == '[' || s[c1] == '{') - (s[c1] == ')' || s[c1] == ']' || s[c1] == '}');
            if (depth == 0 && !strncmp(s + c1, ">>>", 3)) break;
          }
          size_t a0 = c1 + 3 <= end ? md_fwd_ws(s, c1 + 3, end) : end, a1 = a0 < end && s[a0] == '(' ? md_match(s, a0, end) : 0;
          size_t ce = md_back_ws(s, body, q);
          if (cb == (size_t)-1 || cb >= ce || c1 + 3 > end || !a1) {
            MdBad *m = xcalloc(1, sizeof *m);
            m->name = xstrndup(s + name, name_end - name);
            m->at = xfmt("%s:%u", sf->path, line_of(sf, (unsigned)q));
            vec_push(&h->mdef_bad, m);
            q += 2;
            continue;
          }
          Buf t = {0};
          buf_printf(&t, "(__cucc_launch_config(%.*s) ? (void)0 : %.*s(%.*s))", (int)(c1 - c0), s + c0, (int)(ce - cb), s + cb,
                     (int)(a1 - 1 - (a0 + 1)), s + a0 + 1);
          /* the line breaks dropped (between the kernel and `<<<`, `>>>` and `(`) */
          for (unsigned l = md_lines(s, ce, c0) + md_lines(s, c1, a0 + 1); l; l--) buf_puts(&t, " \\\n");
          edit_(sf, (unsigned)cb, (unsigned)a1, t.s, true);
          MdOk *ok = xcalloc(1, sizeof *ok);
          ok->sf = sf;
          ok->at = q;
          vec_push(&h->mdef_ok, ok);
          free(t.s);
          q = a1 - 1;
        }
      }
    }
    i = end + 1;
  }
}

typedef struct IncAll { Host *h; } IncAll;
static void inc_all_cb(CXFile to, CXSourceLocation *stack, unsigned n, CXClientData d) {
  (void)stack;
  (void)n;
  src_of(((IncAll *)d)->h, to);
}

int host_unit(Fe *p, Vec *kernel_cursors, Buf *out) {
  Host h = {0};
  h.p = p;
  h.main = src_of(&h, clang_getFile(p->tu, p->prog->path));
  if (!h.main) {
    fprintf(stderr, "cucc: error: cannot read '%s'\n", p->prog->path);
    return 1;
  }
  for (int i = 0; i < p->host_used.n; i++) {
    CXCursor c = *(CXCursor *)p->host_used.v[i];
    /* (a lambda's note names the lambda: its call operator is host code's) */
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr) clang_visitChildren(c, keep_cb, &h);
    else keep_fn(&h, c);
  }
  IncAll ia = {&h};
  clang_getInclusions(p->tu, inc_all_cb, &ia);   /* every user file: those only macros come from too */
  for (int i = 0; i < h.files.n; i++) mdef_launches(&h, h.files.v[i]);
  clang_visitChildren(clang_getTranslationUnitCursor(p->tu), walk_cb, &h);
  *kernel_cursors = h.kernels;
  clang_getInclusions(p->tu, inc_cb, &h);
  for (int i = 0, n = h.files.n; i < n; i++) unreported(&h, h.files.v[i]);
  /* a file is pasted if it has edits or includes one that is pasted */
  for (bool more = true; more;) {
    more = false;
    for (int i = 0; i < h.files.n; i++) {
      Src *sf = h.files.v[i];
      bool o = sf->edits.n > 0;
      for (int j = 0; j < sf->incs.n && !o; j++) {
        Src *to = src_of(&h, ((Inc *)sf->incs.v[j])->to);
        o = to && to->out;
      }
      if (o && !sf->out) more = sf->out = true;
    }
  }
  buf_puts(out, "#include <cucc_rt.h>\n");
  buf_printf(out, "#line 1 \"%s\"\n", p->prog->path);
  emit(&h, h.main, out);
  return 0;
}

/* The registration constructor, once kernels have their keys: those host
 * code has (the first ones of prog->kernels; the others only device code
 * launches, translate.c). */
void host_register(Prog *prog, Vec *kernel_cursors, Buf *out) {
  if (!kernel_cursors->n) return;
  buf_puts(out, "\n/* cucc: register each kernel's host stub under its key */\n"
                "static void __attribute__((constructor)) cu_register_host_stubs(void) {\n");
  for (int i = 0; i < kernel_cursors->n && i < prog->kernels.n; i++) {
    Obj *k = prog->kernels.v[i];
    CXCursor c = *(CXCursor *)kernel_cursors->v[i];
    buf_printf(out, "  cu_register_stub((const void *)static_cast<%s>(&%s%s), \"%s\");\n",
               fn_ptr_type(c), qual_name(c), spec_args(c, k->key), k->key);
  }
  buf_puts(out, "}\n");
}

/* The variable templates' instances device code names (`mask<float>`):
 * the host unit, whose definitions are the device's objects too, makes
 * each by taking its address, spelled from its linker name, as host code
 * may never name it itself. */
void host_tmpl_vars(Prog *prog, Buf *out) {
  Vec done = {0};
  for (int i = 0; i < prog->globals.n + prog->syms.n; i++) {   /* (the registered ones too) */
    Obj *o = i < prog->globals.n ? prog->globals.v[i] : prog->syms.v[i - prog->globals.n];
    bool seen = false;
    for (int j = 0; j < done.n && !seen; j++) seen = !strcmp(done.v[j], o->key);
    int st = -1;
    char *nm = o->is_tmpl_var && !seen ? __cxa_demangle(o->key, NULL, NULL, &st) : NULL;
    if (!nm || st) continue;
    vec_push(&done, (void *)o->key);
    buf_printf(out, "static const void *const cu_tmpl_var%d __attribute__((used)) = (const void *)&%s;\n", done.n, nm);
    free(nm);
  }
  free(done.v);
}
