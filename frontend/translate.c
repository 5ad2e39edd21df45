/* translate.c: one .cu -> (device C, host C++).
 * Parses with libclang in CUDA host mode against cucc's own headers, passes
 * clang's diagnostics through, builds the IR of every kernel (parse.c),
 * runs the lowering passes and prints both units. */
#include "fe.h"

const char *fe_intern(char *s) {
  static Vec pool;
  for (int i = 0; i < pool.n; i++)
    if (!strcmp(pool.v[i], s)) { free(s); return pool.v[i]; }
  vec_push(&pool, s);
  return s;
}

static void push(Vec *v, const char *s) { vec_push(v, (void *)s); }

static void print_diag(CXDiagnostic d, int *errs) {
  enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
  if (sev == CXDiagnostic_Ignored) return;
  if (sev >= CXDiagnostic_Error) (*errs)++;
  unsigned opts = CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn |
                  CXDiagnostic_DisplayOption;
  fprintf(stderr, "%s\n", cx_str(clang_formatDiagnostic(d, opts)));
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

/* __CUDA_ARCH__: the host-side parse leaves it undefined, as nvcc's host
 * pass does. A program that tests it (in any file but our headers) is
 * parsed a second time with it defined, as nvcc's device pass does, and its
 * kernels and device functions are read from that parse. */
typedef struct ArchScan { CXTranslationUnit tu; const char *incdir; bool found; } ArchScan;

static void arch_cb(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d) {
  (void)stack;
  (void)n;
  ArchScan *a = d;
  char *nm = cx_str(clang_getFileName(f));
  size_t len = 0;
  const char *s = strncmp(nm, a->incdir, strlen(a->incdir)) ? clang_getFileContents(a->tu, f, &len) : NULL;
  if (s && memmem(s, len, "__CUDA_ARCH__", 13)) a->found = true;
  free(nm);
}

/* A kernel of the host parse in the device parse: the definition with the
 * same USR, declared or launched in the main file. */
typedef struct Twin { const char *usr; CXCursor hit; } Twin;

static enum CXChildVisitResult twin_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Twin *t = d;
  if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXCursor r = k == CXCursor_CallExpr ? clang_getCursorReferenced(c) : c;
  if (k == CXCursor_CallExpr || k == CXCursor_FunctionDecl) {
    CXCursor def = clang_getCursorDefinition(r);
    if (!clang_Cursor_isNull(def)) {
      char *u = cx_str(clang_getCursorUSR(def));
      bool same = !strcmp(u, t->usr);
      free(u);
      if (same) {
        t->hit = def;
        return CXChildVisit_Break;
      }
    }
  }
  return CXChildVisit_Recurse;
}

static CXCursor twin(CXTranslationUnit tu2, CXCursor c) {
  Twin t = {cx_str(clang_getCursorUSR(c)), clang_getNullCursor()};
  clang_visitChildren(clang_getTranslationUnitCursor(tu2), twin_cb, &t);
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

int fe_translate(const char *path, const CuOpts *o, Buf *dev, Buf *host) {
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
  push(&args, "-D__CUCC__");
  push(&args, "-D__CUCC_PARSE__");
  push(&args, xfmt("-D__CUCC_SM__=%d", o->arch ? o->arch : 75));
  push(&args, "-I");
  push(&args, o->incdir);
  for (int i = 0; i < o->incs.n; i++) {
    push(&args, "-I");
    push(&args, o->incs.v[i]);
  }
  for (int i = 0; i < o->macros.n; i++) push(&args, o->macros.v[i]);
  push(&args, "-include");
  push(&args, "cuda_runtime.h");
  if (o->verbose) {
    fprintf(stderr, "cucc: libclang parse %s", path);
    for (int i = 0; i < args.n; i++) fprintf(stderr, " %s", (char *)args.v[i]);
    fputc('\n', stderr);
    push(&args, "-v");
  }

  size_t srclen = 0;
  char *src = slurp(path, &srclen);
  if (!src) {
    fprintf(stderr, "cucc: error: %s: No such file or directory\n", path);
    return 1;
  }
  struct CXUnsavedFile uf = {path, NULL, 0};
  char *joined = join_chevrons(src, srclen);
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
  int errs = 0;
  for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++)
    print_diag(clang_getDiagnostic(tu, i), &errs);
  if (errs) {
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return 1;
  }

  Prog *prog = xcalloc(1, sizeof *prog);
  prog->path = path;
  Fe fe = {0};
  fe.tu = tu;
  fe.opts = o;
  fe.prog = prog;

  Vec kcur = {0};
  nerrors = 0;
  if (host_unit(&fe, &kcur, host)) return 1;
  fe_globals(&fe);
  ArchScan as = {tu, o->incdir, false};
  clang_getInclusions(tu, arch_cb, &as);
  CXTranslationUnit tu2 = NULL;
  if (as.found) {
    push(&args, xfmt("-D__CUDA_ARCH__=%d", (o->arch ? o->arch : 75) * 10));
    if (o->verbose) fprintf(stderr, "cucc: libclang parse %s again for device code, with %s\n", path, (char *)args.v[args.n - 1]);
    ec = clang_parseTranslationUnit2(idx, path, (const char *const *)args.v, args.n, joined ? &uf : NULL,
                                     joined ? 1 : 0, CXTranslationUnit_None, &tu2);
    if (ec != CXError_Success || !tu2) {
      fprintf(stderr, "cucc: error: libclang could not parse '%s' with __CUDA_ARCH__ (code %d)\n", path, (int)ec);
      return 1;
    }
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu2); i++)
      print_diag(clang_getDiagnostic(tu2, i), &errs);
    if (errs) return 1;
  }
  for (int i = 0; i < kcur.n; i++) {
    CXCursor c = *(CXCursor *)kcur.v[i];
    Obj *k = fe_func(&fe, tu2 ? twin(tu2, c) : c);
    k->is_kernel = true;
    k->key = cx_str(clang_Cursor_getMangling(c));
    k->pretty = cx_str(clang_getCursorDisplayName(c));
    k->max_threads = launch_bounds(tu, c);
    vec_push(&prog->kernels, k);
  }
  if (nerrors) {
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return 1;
  }
  host_register(prog, &kcur, host);
  host_statics(prog, host);
  for (int i = 0; i < prog->funcs.n; i++) lw_uniform(prog->funcs.v[i]);
  for (int i = 0; i < prog->kernels.n; i++) lw_uniform(prog->kernels.v[i]);
  if (!nerrors) lw_emit(prog, o, dev);
  if (tu2) clang_disposeTranslationUnit(tu2);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  return nerrors ? 1 : 0;
}
