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

  CXIndex idx = clang_createIndex(0, 0);
  CXTranslationUnit tu = NULL;
  enum CXErrorCode ec = clang_parseTranslationUnit2(idx, path, (const char *const *)args.v, args.n,
                                                    NULL, 0, CXTranslationUnit_None, &tu);
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
  for (int i = 0; i < kcur.n; i++) {
    CXCursor c = *(CXCursor *)kcur.v[i];
    Obj *k = fe_func(&fe, c);
    k->is_kernel = true;
    k->key = cx_str(clang_Cursor_getMangling(c));
    k->pretty = cx_str(clang_getCursorDisplayName(c));
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
