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
  for (int i = 0; i < kcur.n; i++) {
    CXCursor c = *(CXCursor *)kcur.v[i];
    Obj *k = fe_func(&fe, c);
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
  for (int i = 0; i < prog->funcs.n; i++) lw_uniform(prog->funcs.v[i]);
  for (int i = 0; i < prog->kernels.n; i++) lw_uniform(prog->kernels.v[i]);
  if (!nerrors) lw_emit(prog, o, dev);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  return nerrors ? 1 : 0;
}
