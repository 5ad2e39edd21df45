/* translate.c: one .cu -> (device C, host C++).
 * Parses with libclang in CUDA host mode against cucc's own headers, passes
 * clang's diagnostics through, builds the IR of every kernel (parse.c),
 * runs the lowering passes and prints both units. */
#include "fe.h"
#include <ctype.h>
#include <time.h>

const char *fe_intern(char *s) {
  static Vec pool;
  for (int i = 0; i < pool.n; i++)
    if (!strcmp(pool.v[i], s)) { free(s); return pool.v[i]; }
  vec_push(&pool, s);
  return s;
}

static void push(Vec *v, const char *s) { vec_push(v, (void *)s); }

/* clang refuses host code that calls a __device__ function from a
 * __host__ __device__ one emitted for the host; nvcc does not when a
 * library's HD template calls the user's __device__ functor or lambda
 * (Thrust marks those with nv_exec_check_disable, which clang ignores), or
 * its own device code in the __CUDA_ARCH__ parse, which stands for nvcc's
 * device pass (libcu++'s). Such an error in a system header is dropped.
 * On Thrust's CPU device systems the user's functor does run on the host:
 * `used` collects its declaration, whose body host.c keeps. */
static bool dev_call_in_hd(CXTranslationUnit tu, CXDiagnostic d, Vec *used) {
  static const char pre[] = "reference to __device__ function ", post[] = " in __host__ __device__ function";
  if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error ||
      !clang_Location_isInSystemHeader(clang_getDiagnosticLocation(d)))
    return false;
  char *m = cx_str(clang_getDiagnosticSpelling(d));
  size_t n = strlen(m);
  bool hit = !strncmp(m, pre, sizeof pre - 1) && n > sizeof post && !strcmp(m + n - (sizeof post - 1), post);
  free(m);
  if (!hit) return false;
  CXDiagnosticSet kids = clang_getChildDiagnostics(d);
  for (unsigned i = 0; used && i < clang_getNumDiagnosticsInSet(kids); i++) {
    CXCursor c = clang_getCursor(tu, clang_getDiagnosticLocation(clang_getDiagnosticInSet(kids, i)));
    if (clang_Cursor_isNull(c) || clang_isInvalid(clang_getCursorKind(c))) continue;
    CXCursor *p = xcalloc(1, sizeof *p);
    *p = c;
    vec_push(used, p);
  }
  return true;
}

/* A device-side launch of an overloaded or template kernel that cdp.c
 * could not wrap for clang (written in a macro's body): said so, instead of
 * clang's puzzle ("no matching function"; its AST drops the launch). */
static bool dlaunch_diag(CXDiagnostic d) {
  char *name;
  if (!cdp_diag(d, &name)) return false;
  CXFile f;
  unsigned line, col;
  clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
  fprintf(stderr, "%s:%u:%u: error: unsupported: launching the overloaded or template kernel %s from device code "
          "(dynamic parallelism) %s: clang, which parses for cucc, cannot resolve it there; write the launch "
          "outside the macro, or launch a kernel that one non-template declaration names\n",
          cx_str(clang_getFileName(f)), line, col, name,
          cdp_in_macro(d) ? "in a macro's body" : "in this form");
  free(name);
  return true;
}

static void print_diag(CXDiagnostic d, int *errs) {
  enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
  if (sev == CXDiagnostic_Ignored) return;
  if (sev >= CXDiagnostic_Error) (*errs)++;
  if (sev >= CXDiagnostic_Error && dlaunch_diag(d)) return;
  unsigned opts = CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn |
                  CXDiagnostic_DisplayOption;
  char *s = cdp_format(d);   /* on a line with a launch cdp.c wrapped: the user's column */
  fprintf(stderr, "%s\n", s ? s : cx_str(clang_formatDiagnostic(d, opts)));
  CXDiagnosticSet kids = clang_getChildDiagnostics(d);
  for (unsigned i = 0; i < clang_getNumDiagnosticsInSet(kids); i++)
    print_diag(clang_getDiagnosticInSet(kids, i), errs);
}

/* nvcc accepts a launch spelled `k << <g, b >> >(...)`, as lecture listings
 * write it; clang does not. Close the gaps without moving any byte, so
 * every line:col and offset stays the user's. Returns NULL if untouched. */
static char *join_chevrons(const char *src, size_t n) {
  char *s = NULL;
  bool open = false;
  for (size_t i = 0; i + 1 < n; i++) {
    const char *want = open ? ">>" : "<<";
    if (src[i] != want[0] || src[i + 1] != want[1]) continue;
    if (i > 0 && src[i - 1] == want[0]) continue;
    size_t j = i + 2;
    while (j < n && (src[j] == ' ' || src[j] == '\t')) j++;
    if (j == i + 2 || j >= n || src[j] != want[0]) continue;
    if (j + 1 < n && (src[j + 1] == want[0] || src[j + 1] == '=')) continue;
    if (!s) s = xstrndup(src, n);
    s[i + 2] = want[0];
    for (size_t k = i + 3; k <= j; k++) s[k] = ' ';
    open = !open;
    i = j;
  }
  return s;
}

/* nvcc accepts a memory space before alignas (`__shared__ alignas(16)
 * float a[N];`, as cuda-samples write it), clang only alignas first, as
 * C++ places attributes: swap the two in s (a copy of src made if s is
 * NULL), which keeps every other byte where it was. Returns s. */
static char *swap_alignas(char *s, const char *src, size_t n) {
  static const char *const kw[] = {"__shared__", "__device__", "__constant__", "__managed__"};
  for (size_t i = 0; i < n; i++) {
    if (src[i] != '_' || (i > 0 && (isalnum((unsigned char)src[i - 1]) || src[i - 1] == '_'))) continue;
    for (size_t w = 0; w < sizeof kw / sizeof *kw; w++) {
      size_t l = strlen(kw[w]), j = i + l, k, e;
      if (j >= n || strncmp(src + i, kw[w], l) || (src[j] != ' ' && src[j] != '\t')) continue;
      while (j < n && (src[j] == ' ' || src[j] == '\t')) j++;
      if (j + 7 >= n || strncmp(src + j, "alignas", 7)) continue;
      for (k = j + 7; k < n && (src[k] == ' ' || src[k] == '\t'); k++) {}
      if (k >= n || src[k] != '(') continue;
      int depth = 0;
      for (e = k; e < n && src[e] != '\n'; e++)
        if (src[e] == '(') depth++;
        else if (src[e] == ')' && --depth == 0) break;
      if (e >= n || src[e] != ')') continue;
      /* [i, j): the keyword and the blanks after it; [j, e]: alignas(...) */
      if (!s) s = xstrndup(src, n);
      size_t a = e + 1 - j, b = j - i;
      memcpy(s + i, src + j, a);
      memcpy(s + i + a, src + i + l, b - l);
      memcpy(s + i + a + b - l, kw[w], l);
      i = e;
      break;
    }
  }
  return s;
}

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  Buf b = {0};
  char tmp[65536];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) buf_put(&b, tmp, k);
  fclose(f);
  *n = b.len;
  return b.s ? b.s : xstrdup("");
}

/* __launch_bounds__(N[, M]): libclang does not expose the attribute, so
 * read the declaration's tokens before the kernel's name. 0 if absent or
 * not a literal. */
static int launch_bounds(CXTranslationUnit tu, CXCursor fn) {
  CXToken *t;
  unsigned nt;
  int n = 0;
  char *name = cx_str(clang_getCursorSpelling(fn));
  /* from where the declaration starts in the file (it may start with a
   * macro such as __global__) to the kernel's name */
  CXFile f;
  unsigned b, e;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(fn)), &f, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getCursorLocation(fn), NULL, NULL, NULL, &e);
  if (!f || e <= b) return 0;
  CXSourceRange r = clang_getRange(clang_getLocationForOffset(tu, f, b), clang_getLocationForOffset(tu, f, e));
  clang_tokenize(tu, r, &t, &nt);
  for (unsigned i = 0; i < nt; i++) {
    char *s = cx_str(clang_getTokenSpelling(tu, t[i]));
    bool stop = !strcmp(s, name) || !strcmp(s, "{");
    if (i + 2 < nt && (!strcmp(s, "__launch_bounds__") || !strcmp(s, "launch_bounds")))
      n = atoi(cx_str(clang_getTokenSpelling(tu, t[i + 2])));
    free(s);
    if (stop) break;
  }
  clang_disposeTokens(tu, t, nt);
  return n;
}

/* A kernel's name as people read it (nsys, ncu): its namespaces, its
 * template arguments and its parameter types, `ns::k<float, 16>(float *)`.
 * libclang's display name of a specialization is `k<>(float *)`, so the
 * arguments come from the declaration as clang prints it
 * (`template<> void k<float, 16, <int, double>>(float *a)`), with packs
 * spread out; if that cannot be read, the display name. The result is
 * printed inside C string literals and comments (lowering/print.c), so it
 * may not hold a quote or a backslash. */
static char *kernel_pretty(CXCursor c) {
  char *disp = cx_str(clang_getCursorDisplayName(c));
  char *name = cx_str(clang_getCursorSpelling(c));
  Buf b = {0};
  buf_puts(&b, "");
  for (CXCursor s = clang_getCursorSemanticParent(c);; s = clang_getCursorSemanticParent(s)) {
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k != CXCursor_Namespace && k != CXCursor_StructDecl && k != CXCursor_ClassDecl) break;
    char *ns = cx_str(clang_getCursorSpelling(s));
    char *t = xfmt("%s::%s", *ns ? ns : "(anonymous namespace)", b.s);
    free(b.s);
    b = (Buf){0};
    buf_puts(&b, t);
  }
  char *qual = buf_take(&b);
  const char *rest = disp + strlen(name);   /* `<>(float *)` or `(float *)` */
  if (clang_Cursor_getNumTemplateArguments(c) <= 0 || strncmp(rest, "<>", 2))
    return xfmt("%s%s", qual, disp);
  CXPrintingPolicy pp = clang_getCursorPrintingPolicy(c);
  clang_PrintingPolicy_setProperty(pp, CXPrintingPolicy_TerseOutput, 1);
  char *decl = cx_str(clang_getCursorPrettyPrinted(c, pp));
  clang_PrintingPolicy_dispose(pp);
  /* the name followed by `<`, not inside another identifier */
  size_t n = strlen(name);
  const char *a = decl;
  while ((a = strstr(a, name)) && (a[n] != '<' || (a > decl && (isalnum((unsigned char)a[-1]) || a[-1] == '_'))))
    a += n;
  char *args = NULL;
  if (a) {
    /* the balanced argument list; a pack is printed as an argument of
     * its own in brackets (`, <int, double>`): its brackets are dropped,
     * and an empty one with its comma */
    buf_puts(&b, "");
    bool shown[64];
    int depth = 0;
    const char *p = a + n;
    for (; *p && depth < 64; p++) {
      if (*p == '\'') {   /* a character argument, copied whole */
        const char *q = p + 1;
        while (*q && *q != '\'') q += *q == '\\' && q[1] ? 2 : 1;
        if (!*q) break;
        /* one that would need escaping in C ('\'', '"', '\\'...) as its code */
        if (q - p == 2 && p[1] != '"') buf_put(&b, p, 3);
        else if (q - p == 2 || (q - p == 3 && strchr("'\"\\", p[2]))) buf_printf(&b, "%d", p[q - p - 1]);
        else break;
        p = q;
        continue;
      }
      if (*p == '<') {
        const char *prev = b.len ? b.s + b.len - 1 : NULL;
        bool pack = depth == 1 && prev && (*prev == '<' || (*prev == ' ' && b.len >= 2 && prev[-1] == ','));
        if (pack && p[1] == '>') {
          if (*prev == ' ') b.len -= 2;   /* `, <>` */
          else if (p[2] == ',') p++;      /* `<<>, int>`: its comma */
          b.s[b.len] = 0;
          p++;
          if (p[1] == ' ' && *prev == '<') p++;
          continue;
        }
        shown[depth++] = !pack;
        if (pack) continue;
      } else if (*p == '>') {
        if (!depth) break;
        if (!shown[--depth]) continue;
        if (!depth) {
          buf_put(&b, p, 1);
          break;
        }
      }
      buf_put(&b, p, 1);
    }
    if (*p == '>') args = buf_take(&b);
    else free(buf_take(&b));
  }
  char *r = args && !strpbrk(args, "\"\\") ? xfmt("%s%s%s%s", qual, name, args, rest + 2) : xfmt("%s%s", qual, disp);
  return r;
}

/* Explicit instantiations of function templates (`template void
 * reduce<int>(int n, int *p);`) have no cursor in libclang, so kernels
 * launched from them would never be compiled. For each one in the main file
 * we append a use the AST does show, a pointer of its declared type:
 *   static void *__cucc_inst_0 = (void *)(void (*)(int n, int *p))&reduce<int>;
 * whose DeclRefExpr host.c follows into the instantiation. Returns the
 * text to append, or NULL if there is none. */
static bool tok_is(CXTranslationUnit tu, CXToken t, const char *s) {
  char *x = cx_str(clang_getTokenSpelling(tu, t));
  bool r = !strcmp(x, s);
  free(x);
  return r;
}

static void put_toks(Buf *b, CXTranslationUnit tu, CXToken *t, unsigned from, unsigned to) {
  for (unsigned i = from; i < to; i++) {
    char *x = cx_str(clang_getTokenSpelling(tu, t[i]));
    buf_printf(b, "%s%s", i > from ? " " : "", x);
    free(x);
  }
}

/* t[at] is `>`: the index of its `<` (or at if unbalanced) */
static unsigned angle_open(CXTranslationUnit tu, CXToken *t, unsigned at) {
  int depth = 0;
  for (unsigned i = at + 1; i-- > 0;) {
    if (tok_is(tu, t[i], ">")) depth++;
    else if (tok_is(tu, t[i], ">>")) depth += 2;
    else if (tok_is(tu, t[i], "<") && --depth <= 0) return i;
  }
  return at;
}

/* The member functions a class template declares (not constructors or
 * destructors, whose address cannot be taken), each name once. */
typedef struct Members { Vec names; } Members;
static enum CXChildVisitResult member_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Members *m = d;
  if (clang_getCursorKind(c) != CXCursor_CXXMethod) return CXChildVisit_Continue;
  char *nm = cx_str(clang_getCursorSpelling(c));
  for (int i = 0; i < m->names.n; i++)
    if (!strcmp(m->names.v[i], nm)) return CXChildVisit_Continue;
  vec_push(&m->names, nm);
  return CXChildVisit_Continue;
}

static char *explicit_insts(CXTranslationUnit tu, const char *path, size_t len) {
  CXFile f = clang_getFile(tu, path);
  if (!f) return NULL;
  CXToken *t;
  unsigned nt;
  clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, f, 0), clang_getLocationForOffset(tu, f, len)),
                 &t, &nt);
  static const char *const quals[] = {"__global__", "__host__", "__device__", "__forceinline__", "__noinline__",
                                      "inline", "static", "constexpr"};
  Buf out = {0};
  int n = 0;
  for (unsigned i = 0; i + 1 < nt; i++) {
    if (clang_getTokenKind(t[i]) != CXToken_Keyword || !tok_is(tu, t[i], "template")) continue;
    if (i > 0 && tok_is(tu, t[i - 1], "extern")) continue; /* instantiated in another unit */
    if ((tok_is(tu, t[i + 1], "class") || tok_is(tu, t[i + 1], "struct")) && i + 2 < nt) {
      /* `template class X<float>;`: every member function is instantiated;
       * one use of each (its address) brings its launches to host.c */
      unsigned semi = i + 2;
      while (semi < nt && !tok_is(tu, t[semi], ";") && !tok_is(tu, t[semi], "{")) semi++;
      if (semi >= nt || !tok_is(tu, t[semi], ";")) continue;
      CXCursor ref = clang_getCursorReferenced(clang_getCursor(tu, clang_getTokenLocation(tu, t[semi - 1])));
      CXCursor at = clang_getCursor(tu, clang_getTokenLocation(tu, t[i + 2]));
      CXCursor tmpl = clang_getCursorKind(at) == CXCursor_TemplateRef ? clang_getCursorReferenced(at) : ref;
      if (clang_getCursorKind(tmpl) != CXCursor_ClassTemplate) tmpl = clang_getSpecializedCursorTemplate(ref);
      if (clang_Cursor_isNull(tmpl) || clang_getCursorKind(tmpl) != CXCursor_ClassTemplate) continue;
      Members m = {0};
      clang_visitChildren(tmpl, member_cb, &m);
      Vec ns = {0};   /* (in the namespaces that enclose it, as below) */
      CXCursor c = clang_getCursor(tu, clang_getTokenLocation(tu, t[i]));
      while (!clang_Cursor_isNull(c) && clang_getCursorKind(c) != CXCursor_Namespace &&
             clang_getCursorKind(c) != CXCursor_TranslationUnit && !clang_isInvalid(clang_getCursorKind(c)))
        c = clang_getCursorSemanticParent(c);   /* (the instantiation's own cursor, a class) */
      for (; !clang_Cursor_isNull(c) && clang_getCursorKind(c) == CXCursor_Namespace;
           c = clang_getCursorSemanticParent(c))
        vec_push(&ns, cx_str(clang_getCursorSpelling(c)));
      for (int k = 0; k < m.names.n; k++) {
        for (int q = ns.n; q-- > 0;) buf_printf(&out, "namespace %s { ", (char *)ns.v[q]);
        buf_printf(&out, "static auto __cucc_inst_%d __attribute__((unused)) = &", n++);
        put_toks(&out, tu, t, i + 2, semi);
        buf_printf(&out, "::%s;", (char *)m.names.v[k]);
        for (int q = 0; q < ns.n; q++) buf_puts(&out, " }");
        buf_puts(&out, "\n");
      }
      i = semi;
      continue;
    }
    if (tok_is(tu, t[i + 1], "<") || tok_is(tu, t[i + 1], "union")) continue;
    unsigned b = i + 1, p = 0, e = 0;
    for (bool q = true; q && b < nt;) {
      q = false;
      for (size_t k = 0; k < sizeof quals / sizeof *quals; k++)
        if (tok_is(tu, t[b], quals[k])) { b++; q = true; break; }
    }
    /* the parameter list: the first `(` after the name; the declaration
     * ends at `;` with no braces */
    for (unsigned j = b; j < nt && !p; j++) {
      if (tok_is(tu, t[j], ";") || tok_is(tu, t[j], "{")) break;
      if (tok_is(tu, t[j], "(") && j > b) p = j;
    }
    if (!p) continue;
    int depth = 0;
    for (unsigned j = p; j < nt; j++) {
      if (tok_is(tu, t[j], "(")) depth++;
      else if (tok_is(tu, t[j], ")") && --depth == 0) { e = j; break; }
    }
    if (!e) continue;
    /* the name: an identifier, its template arguments, its qualifiers */
    unsigned nm = p - 1;
    if (tok_is(tu, t[nm], ">") || tok_is(tu, t[nm], ">>")) nm = angle_open(tu, t, nm) - 1;
    while (nm > b && tok_is(tu, t[nm - 1], "::")) {
      nm -= 2;
      if (tok_is(tu, t[nm], ">")) nm = angle_open(tu, t, nm) - 1;
    }
    if (nm <= b || nm >= p || clang_getTokenKind(t[nm]) != CXToken_Identifier) continue;
    /* one line each, in the namespaces that enclose the instantiation */
    Vec ns = {0};
    CXCursor c = clang_getCursor(tu, clang_getTokenLocation(tu, t[i]));
    for (; !clang_Cursor_isNull(c) && clang_getCursorKind(c) == CXCursor_Namespace;
         c = clang_getCursorSemanticParent(c))
      vec_push(&ns, cx_str(clang_getCursorSpelling(c)));
    for (int k = ns.n; k-- > 0;) buf_printf(&out, "namespace %s { ", (char *)ns.v[k]);
    buf_printf(&out, "static void *__cucc_inst_%d __attribute__((unused)) = (void *)(", n++);
    put_toks(&out, tu, t, b, nm);
    buf_puts(&out, " (*)");
    put_toks(&out, tu, t, p, e + 1);
    buf_puts(&out, ")&");
    put_toks(&out, tu, t, nm, p);
    buf_puts(&out, ";");
    for (int k = 0; k < ns.n; k++) buf_puts(&out, " }");
    buf_puts(&out, "\n");
    i = e;
  }
  clang_disposeTokens(tu, t, nt);
  return out.s;
}

/* __CUDA_ARCH__: the host-side parse leaves it undefined, as nvcc's host
 * pass does. A program that tests it (in any file but our headers and
 * Thrust's) is parsed a second time with it defined, as nvcc's device pass
 * does, and its kernels and device functions are read from that parse.
 * Thrust's headers test it all over, but what device code uses of them
 * (functors, complex, random) is the same C++ on both sides, and the
 * second parse of Thrust costs as long as the first. */
typedef struct ArchScan { CXTranslationUnit tu; const char *incdir; bool found, thrust, cub; } ArchScan;

bool fe_thrust, fe_cub;

static void arch_cb(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d) {
  (void)stack;
  (void)n;
  ArchScan *a = d;
  char *nm = cx_str(clang_getFileName(f));
  size_t len = 0, nl = strlen(nm);
  static const char cfg[] = "thrust/detail/config/device_system.h";
  bool thr = (strstr(nm, "/thrust/") || strstr(nm, "/cub/")) &&
             clang_Location_isInSystemHeader(clang_getLocationForOffset(a->tu, f, 0));
  if (nl >= sizeof cfg - 1 && !strcmp(nm + nl - (sizeof cfg - 1), cfg)) a->thrust = true;
  if (thr && strstr(nm, "/cub/")) a->cub = true;
  const char *s = !thr && strncmp(nm, a->incdir, strlen(a->incdir)) ? clang_getFileContents(a->tu, f, &len) : NULL;
  if (s && memmem(s, len, "__CUDA_ARCH__", 13)) a->found = true;
  free(nm);
}

/* A kernel of the host parse in the device parse: the definition with the
 * same USR (a specialization's carries its template arguments), declared
 * or launched in the main file, or launched from an instantiation that
 * the main file makes (`template <int B> void run() { k<B><<<...>>>(); }`):
 * instantiated bodies are not children of the TU, so calls are followed
 * into them, as host.c does. Not found, the host parse's own definition
 * would be compiled, without what `#if __CUDA_ARCH__` gives device code
 * (an explicit specialization for sm_80, say). */
typedef struct Twin { const char *usr; CXCursor hit; int deep; Vec seen; } Twin;

static enum CXChildVisitResult twin_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Twin *t = d;
  if (!t->deep && !clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  bool ref = k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr;
  CXCursor r = ref ? clang_getCursorReferenced(c) : c;
  if (!ref && k != CXCursor_FunctionDecl) return CXChildVisit_Recurse;
  CXCursor def = clang_getCursorDefinition(r);
  if (clang_Cursor_isNull(def)) return CXChildVisit_Recurse;
  char *u = cx_str(clang_getCursorUSR(def));
  if (!strcmp(u, t->usr)) {
    free(u);
    t->hit = def;
    return CXChildVisit_Break;
  }
  /* an instantiation of a host function template: its body, once */
  bool follow = ref && !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(r)) &&
                !cx_has_attr(r, CXCursor_CUDAGlobalAttr);
  for (int i = 0; follow && i < t->seen.n; i++) follow = strcmp(t->seen.v[i], u);
  if (!follow) {
    free(u);
    return CXChildVisit_Recurse;
  }
  vec_push(&t->seen, u);
  t->deep++;
  clang_visitChildren(def, twin_cb, t);
  t->deep--;
  return clang_Cursor_isNull(t->hit) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

static CXCursor twin(CXTranslationUnit tu2, CXCursor c) {
  Twin t = {cx_str(clang_getCursorUSR(c)), clang_getNullCursor(), 0, {0}};
  clang_visitChildren(clang_getTranslationUnitCursor(tu2), twin_cb, &t);
  for (int i = 0; i < t.seen.n; i++) free(t.seen.v[i]);
  free(t.seen.v);
  return clang_Cursor_isNull(t.hit) ? c : t.hit;
}

/* static __device__/__constant__ variables: only their own unit can take
 * their address, so the host unit registers them (see cu_bind_static_symbol) */
static void host_statics(Prog *prog, Buf *host) {
  bool any = false;
  for (int i = 0; i < prog->syms.n; i++) {
    Obj *g = prog->syms.v[i];
    if (!g->is_static) continue;
    if (!any) buf_puts(host, "\n/* cucc: register this file's static __device__/__constant__ variables */\n"
                             "static void __attribute__((constructor)) cu_register_host_statics(void) {\n");
    any = true;
    buf_printf(host, "  cu_register_static_symbol((const void *)&%s, sizeof(%s), \"%s\");\n", g->pretty, g->pretty, g->key);
  }
  if (any) buf_puts(host, "}\n");
}

/* -rdc (nvcc's separate compilation). A __device__ function with external
 * linkage (not inline, not a template's) may be called from another file:
 * every one defined in the main file is lowered, kernels or not, and it and
 * those only declared here (parse.c) get a fixed ABI: their mangled name
 * as linker name (cu_dev_<key>, lowering/emit.c) and the thread parameters
 * whether or not this file's body needs them. A call may do anything. */
static enum CXChildVisitResult rdc_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Vec *defs = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_Namespace || k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_LinkageSpec)
    return CXChildVisit_Recurse;
  if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod) && clang_isCursorDefinition(c) &&
      clang_Location_isFromMainFile(clang_getCursorLocation(c)) && cx_has_attr(c, CXCursor_CUDADeviceAttr) &&
      !cx_has_attr(c, CXCursor_CUDAGlobalAttr)) {
    CXCursor *p = xcalloc(1, sizeof *p);
    *p = c;
    vec_push(defs, p);
  }
  return CXChildVisit_Continue;
}

static bool external(CXCursor c) {
  return clang_getCursorLinkage(c) == CXLinkage_External && !clang_Cursor_isFunctionInlined(c) &&
         clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c));
}

static void rdc_functions(Fe *fe, CXTranslationUnit tu, CXTranslationUnit tu2) {
  Vec defs = {0};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), rdc_cb, &defs);
  for (int i = 0; i < defs.n; i++) {
    CXCursor c = *(CXCursor *)defs.v[i];
    if (external(c)) fe_func(fe, tu2 ? twin(tu2, c) : c);
  }
  for (int i = 0; i < fe->funcs.n; i++) {
    FnMap *m = fe->funcs.v[i];
    Obj *f = m->o;
    if (f->is_kernel || (f->has_body && !external(m->c))) continue;
    f->key = cx_str(clang_Cursor_getMangling(m->c));   /* the external ABI (lowering/uniform.c) */
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* -Xptxas -v, --resource-usage: what ptxas prints for each kernel, from
 * the lowering's register estimate (Obj.nregs) and static shared memory.
 * cmem[0] is the parameters after the constant bank's reserved part
 * (0x140 bytes before Volta, 0x160 to Ada, 0x210 from Hopper). */
/* The kernel's own mangled name: clang's host side names the stub,
 * _Z20__device_stub__scalePfi for _Z5scalePfi (and __device_stub__k for
 * an extern "C" k). */
static char *kernel_name(const char *key) {
  static const char stub[] = "__device_stub__";
  size_t ns = sizeof stub - 1;
  Buf b = {0};
  buf_puts(&b, "");
  for (const char *s = key; *s;) {
    const char *d = s;
    while (*d >= '0' && *d <= '9') d++;
    if (d > s && !strncmp(d, stub, ns) && (size_t)atoi(s) > ns) {
      buf_printf(&b, "%d", atoi(s) - (int)ns);
      s = d + ns;
    } else if (s == key && !strncmp(s, stub, ns)) s += ns;
    else buf_put(&b, s++, 1);
  }
  return b.s;
}

static void resource_usage(Prog *prog, const CuOpts *o) {
  int sm = o->arch ? o->arch : 75;
  int64_t gmem = 0;
  for (int i = 0; i < prog->syms.n; i++) gmem += ((Obj *)prog->syms.v[i])->sym_size;
  fprintf(stderr, "ptxas info    : %lld bytes gmem\n", (long long)gmem);
  for (int i = 0; i < prog->kernels.n; i++) {
    Obj *k = prog->kernels.v[i];
    int64_t params = k->param_bytes;
    fprintf(stderr, "ptxas info    : Compiling entry function '%s' for 'sm_%d'\n", kernel_name(k->key), sm);
    fprintf(stderr, "ptxas info    : Used %d registers, used %d barriers", k->nregs, k->has_sync ? 1 : 0);
    if (k->smem_static) fprintf(stderr, ", %lld bytes smem", (long long)k->smem_static);
    fprintf(stderr, ", %lld bytes cmem[0]\n", (long long)(params + (sm < 70 ? 0x140 : sm < 90 ? 0x160 : 0x210)));
  }
}

/* text: the main file's, with launches cdp.c wrapped, when a launch that
 * only the __CUDA_ARCH__ parse saw made the file start over (NULL first) */
static int translate(const char *path, const CuOpts *o, Buf *dev, Buf *host, char *text, size_t tn) {
  Vec args = {0};
  /* CUDA mode, host side: one AST holding host and device code. No CUDA
   * installation is looked for or read: its headers, its libdevice and
   * its path are all switched off, and ours come first. */
  push(&args, "-x");
  push(&args, "cuda");
  push(&args, "--cuda-host-only");
  push(&args, "-nocudainc");
  push(&args, "-nocudalib");
  push(&args, "--cuda-path=/nonexistent");
  push(&args, "-Xclang");
  push(&args, "-fcuda-allow-variadic-functions");
  /* a cross build parses for the target: sizes, alignments, char's
   * signedness and mangled names are then the ones its compilers use */
  if (o->target) push(&args, xfmt("--target=%s", o->target));
  push(&args, xfmt("-std=%s", o->std ? o->std : "c++17"));
  push(&args, "-D__CUDACC__");
  push(&args, "-D__NVCC__");
  push(&args, "-D__CUCC__");
  push(&args, "-D__CUCC_PARSE__");
  push(&args, xfmt("-D__CUCC_SM__=%d", o->arch ? o->arch : 75));
  if (o->check) push(&args, "-D__CUCC_CHECK__");   /* our headers' copies as checked code */
  push(&args, "-I");
  push(&args, o->incdir);
  for (int i = 0; i < o->incs.n; i++) {
    push(&args, "-I");
    push(&args, o->incs.v[i]);
  }
  for (int i = 0; i < o->macros.n; i++) push(&args, o->macros.v[i]);
  /* -Xcompiler's preprocessor and target flags (-fopenmp, -march, -D)
   * and the driver's parse-only ones */
  for (int i = 0; i < o->parse_flags.n; i++) push(&args, o->parse_flags.v[i]);
  push(&args, "-include");
  push(&args, "cuda_runtime.h");
  if (o->verbose) {
    fprintf(stderr, "cucc: libclang parse %s", path);
    for (int i = 0; i < args.n; i++) fprintf(stderr, " %s", (char *)args.v[i]);
    fputc('\n', stderr);
    push(&args, "-v");
  }

  double t0 = now();
  size_t srclen = tn;
  char *src = text ? text : slurp(path, &srclen);
  if (!src) {
    fprintf(stderr, "cucc: error: %s: No such file or directory\n", path);
    return 1;
  }
  struct CXUnsavedFile uf = {path, NULL, 0};
  char *joined = text ? text : join_chevrons(src, srclen);
  if (!text) joined = swap_alignas(joined, src, srclen);
  if (joined) {
    uf.Contents = joined;
    uf.Length = srclen;
  }
  CXIndex idx = clang_createIndex(0, 0);
  CXTranslationUnit tu = NULL;
  enum CXErrorCode ec = clang_parseTranslationUnit2(idx, path, (const char *const *)args.v, args.n,
                                                    joined ? &uf : NULL, joined ? 1 : 0,
                                                    CXTranslationUnit_None, &tu);
  if (ec != CXError_Success || !tu) {
    fprintf(stderr, "cucc: error: libclang could not parse '%s' (code %d)\n", path, (int)ec);
    clang_disposeIndex(idx);
    return 1;
  }
  /* device-side launches of overloaded and template kernels, wrapped so
   * that clang resolves them (cdp.c); the main file's text may grow */
  char *mtext = joined ? joined : src;
  size_t tlen = srclen;
  tu = cdp_resolve(idx, path, &args, tu, &mtext, &tlen, o->verbose);
  if (mtext != (joined ? joined : src)) {
    src = joined = mtext;
    srclen = tlen;
    uf.Contents = joined;
    uf.Length = srclen;
  }
  int errs = 0;
  for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++)
    if (!dev_call_in_hd(tu, clang_getDiagnostic(tu, i), NULL) &&
        (!text || clang_getDiagnosticSeverity(clang_getDiagnostic(tu, i)) >= CXDiagnostic_Error))
      print_diag(clang_getDiagnostic(tu, i), &errs);   /* (its warnings, once) */
  if (errs) {
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return 1;
  }
  char *insts = explicit_insts(tu, path, srclen);
  /* parse again with the uses appended (after every byte of the user's, so
   * offsets and line numbers stay theirs); a use clang rejects (a member
   * function's, say) is dropped and the rest parsed once more */
  unsigned lines = 1;   /* the user's lines, and the blank one before the uses */
  for (size_t i = 0; insts && i < srclen; i++) lines += src[i] == '\n';
  for (int tries = 0; insts && *insts && tries < 2; tries++) {
    Buf b = {0};
    buf_put(&b, joined ? joined : src, srclen);
    buf_printf(&b, "\n%s", insts);
    struct CXUnsavedFile uf2 = {path, b.s, b.len};
    CXTranslationUnit tu3 = NULL;
    unsigned nu;
    struct CXUnsavedFile *us = cdp_unsaved(path, b.s, b.len, &nu);
    ec = clang_parseTranslationUnit2(idx, path, (const char *const *)args.v, args.n, us, nu,
                                     CXTranslationUnit_None, &tu3);
    free(us);
    if (ec != CXError_Success || !tu3) break;
    Vec bad = {0}; /* line numbers (1-based, within insts) that clang rejected */
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu3); i++) {
      CXDiagnostic d = clang_getDiagnostic(tu3, i);
      if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error || dev_call_in_hd(tu3, d, NULL)) continue;
      unsigned l = 0;
      clang_getExpansionLocation(clang_getDiagnosticLocation(d), NULL, &l, NULL, NULL);
      vec_push(&bad, (void *)(size_t)(l > lines ? l - lines : 0));
    }
    if (!bad.n) {
      clang_disposeTranslationUnit(tu);
      tu = tu3;
      joined = b.s;
      uf = uf2;
      if (o->verbose) fprintf(stderr, "cucc: explicit instantiations of %s, parsed with:\n%s", path, insts);
      break;
    }
    clang_disposeTranslationUnit(tu3);
    Buf keep = {0};
    unsigned l = 1;
    for (const char *q = insts; *q; l++) {
      const char *nl = strchr(q, '\n');
      size_t len = nl ? (size_t)(nl - q + 1) : strlen(q);
      bool drop = false;
      for (int k = 0; k < bad.n; k++) drop |= (size_t)bad.v[k] == l || (size_t)bad.v[k] == 0;
      if (drop && o->verbose) fprintf(stderr, "cucc: explicit instantiation not followed: %.*s", (int)len, q);
      if (!drop) buf_put(&keep, q, len);
      q += len;
    }
    insts = keep.s;
  }

  Vec used = {0};   /* CXCursor*: __device__ functions host code calls */
  for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) dev_call_in_hd(tu, clang_getDiagnostic(tu, i), &used);

  Prog *prog = xcalloc(1, sizeof *prog);
  prog->path = path;
  Fe fe = {0};
  fe.tu = tu;
  fe.pidx = idx;   /* for class.c's probes of template instantiations */
  fe.ppath = path;
  fe.pargs = args;
  fe.psrc = joined ? joined : src;
  fe.psrclen = srclen;
  fe.opts = o;
  fe.prog = prog;
  fe.host_used = used;

  Vec kcur = {0};
  nerrors = 0;
  if (host_unit(&fe, &kcur, host)) return 1;
  fe_globals(&fe);
  ArchScan as = {tu, o->incdir, false, false, false};
  clang_getInclusions(tu, arch_cb, &as);
  fe_thrust = as.thrust;
  fe_cub = as.cub;
  fe_find_hostasm(tu);
  CXTranslationUnit tu2 = NULL;
  if (as.found) {
    push(&args, xfmt("-D__CUDA_ARCH__=%d", (o->arch ? o->arch : 75) * 10));
    if (o->verbose) fprintf(stderr, "cucc: libclang parse %s again for device code, with %s\n", path, (char *)args.v[args.n - 1]);
    unsigned nu;
    struct CXUnsavedFile *us = cdp_unsaved(path, joined ? uf.Contents : NULL, uf.Length, &nu);
    ec = clang_parseTranslationUnit2(idx, path, (const char *const *)args.v, args.n, us, nu,
                                     CXTranslationUnit_None, &tu2);
    free(us);
    if (ec != CXError_Success || !tu2) {
      fprintf(stderr, "cucc: error: libclang could not parse '%s' with __CUDA_ARCH__ (code %d)\n", path, (int)ec);
      return 1;
    }
    /* a device-side launch that only this parse sees (under #if
     * __CUDA_ARCH__ >= 350), which clang refused: wrapped (cdp.c), and the
     * file translated again from the start with it */
    char *mt = xstrndup(joined ? joined : src, srclen);
    size_t mn = srclen;
    if (cdp_wrap(tu2, path, &mt, &mn)) {
      if (o->verbose) fprintf(stderr, "cucc: %s: device-side launches wrapped for clang: translating it again\n", path);
      host->len = 0;
      if (host->s) host->s[0] = 0;
      return translate(path, o, dev, host, mt, mn);
    }
    free(mt);
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu2); i++)
      if (!dev_call_in_hd(tu2, clang_getDiagnostic(tu2, i), NULL)) print_diag(clang_getDiagnostic(tu2, i), &errs);
    if (errs) return 1;
  }
  if (fe_thrust_arch(&fe, tu2)) return 1;
  for (int i = 0; i < kcur.n; i++) {
    CXCursor c = *(CXCursor *)kcur.v[i];
    Obj *k = fe_func(&fe, tu2 ? twin(tu2, c) : c);
    k->is_kernel = true;
    k->key = cx_str(clang_Cursor_getMangling(c));
    k->pretty = kernel_pretty(c);
    k->max_threads = launch_bounds(tu, c);
    char *u = cx_str(clang_getCursorUSR(c));
    for (int j = 0; j < fe.kshape.n; j++) {
      KShape *ks = fe.kshape.v[j];
      if (!strcmp(ks->usr, u)) k->launch_1d = ks->one_d;
    }
    free(u);
    vec_push(&prog->kernels, k);
  }
  /* kernels that only device code launches (a template's instantiations
   * that no host code names: qs<double> from qs<T>'s launches) are
   * compiled by then (parse.c, dlaunch) and registered alike */
  for (int i = 0; i < fe.funcs.n; i++) {
    FnMap *m = fe.funcs.v[i];
    bool known = false;
    for (int j = 0; j < prog->kernels.n && !known; j++) known = prog->kernels.v[j] == m->o;
    if (!m->o->is_kernel || known || !m->o->has_body) continue;
    m->o->pretty = kernel_pretty(m->c);
    m->o->max_threads = launch_bounds(tu2 ? tu2 : tu, m->c);
    vec_push(&prog->kernels, m->o);
  }
  for (int i = 0; i < prog->kernels.n; i++) fe_inline_exits(prog->kernels.v[i]);
  if (o->rdc) rdc_functions(&fe, tu, tu2);
  fe_classes_finish(&fe);   /* virtual calls' dispatchers, once every class built is known */
  /* objects split into their fields (sroa.c), before the lowering's analyses */
  for (int i = 0; i < prog->kernels.n && !nerrors; i++) fe_sroa(&fe, prog->kernels.v[i]);
  for (int i = 0; i < prog->funcs.n && !nerrors; i++)
    if (!fn_inlined(prog->funcs.v[i])) fe_sroa(&fe, prog->funcs.v[i]);
  for (int i = 0; i < prog->kernels.n && !nerrors; i++) fe_sync_exprs(prog->kernels.v[i]);
  if (!nerrors) fe_spin(&fe, prog);
  if (nerrors) {
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return 1;
  }
  host_register(prog, &kcur, host);
  host_statics(prog, host);
  host_tmpl_vars(prog, host);
  double t1 = now();
  if (!nerrors) lw_lower(prog, o, dev);
  if (o->verbose) fprintf(stderr, "cucc: %s: parse %.3f s, lowering %.3f s\n", path, t1 - t0, now() - t1);
  if (!nerrors && o->resusage) resource_usage(prog, o);
  if (tu2) clang_disposeTranslationUnit(tu2);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  return nerrors ? 1 : 0;
}

int fe_translate(const char *path, const CuOpts *o, Buf *dev, Buf *host) { return translate(path, o, dev, host, NULL, 0); }
