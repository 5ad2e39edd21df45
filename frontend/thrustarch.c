/* thrustarch.c: what cucc says of a functor that Thrust runs on the CPU.
 *
 * cucc's Thrust device system is OpenMP's (docs/libraries.md): a functor
 * or lambda given to a Thrust algorithm on device data runs as host code,
 * so its `#ifdef __CUDA_ARCH__` takes the host side where a GPU would take
 * the device side. host.c records each such functor (fe.arch_uses); here
 * the device parse, which holds the side skipped, decides what to say:
 *   - the device side reads a GPU thread's place (threadIdx, blockIdx,
 *     blockDim, gridDim): an error. That place is in the grid Thrust's CUDA
 *     system would launch; no CPU thread has one, so the host side cannot
 *     compute what the device side does (cuda-samples' cdpQuadtree seeds
 *     each thread's random points by it, and gets one point 1024 times);
 *   - otherwise a warning (-w silences it): most such tests (`__ldg`
 *     against a plain load, an intrinsic against its C) compute the same
 *     on both sides, and refusing them would stop programs that are right. */
#include "fe.h"

typedef struct Find { const char *usr; CXCursor hit; } Find;

/* the user's class with that USR (outside system headers; namespaces and
 * classes are followed) */
static enum CXChildVisitResult find_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Find *f = d;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_ClassTemplate) {
    char *u = cx_str(clang_getCursorUSR(c));
    bool hit = !strcmp(u, f->usr) && clang_isCursorDefinition(c);
    free(u);
    if (hit) {
      f->hit = c;
      return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
  }
  return k == CXCursor_Namespace || k == CXCursor_UnexposedDecl ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

static enum CXChildVisitResult lambda_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_LambdaExpr) return CXChildVisit_Recurse;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* c if it is a lambda, else the first lambda inside it (null if none) */
CXCursor fe_lambda_in(CXCursor c) {
  CXCursor lam = clang_getNullCursor();
  if (clang_getCursorKind(c) == CXCursor_LambdaExpr) return c;
  clang_visitChildren(c, lambda_cb, &lam);
  return lam;
}

/* The functor's declaration in the device parse (null if not found). */
static CXCursor dev_decl(CXTranslationUnit dev, const ArchUse *u) {
  if (u->usr) {
    Find f = {u->usr, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(dev), find_cb, &f);
    return f.hit;
  }
  CXFile file = clang_getFile(dev, u->path);
  if (!file) return clang_getNullCursor();
  return fe_lambda_in(clang_getCursor(dev, clang_getLocationForOffset(dev, file, u->off)));
}

typedef struct Place { const char *incdir; CXCursor hit; } Place;

/* a reference to one of the built-in variables of a thread's place, as
 * our headers declare them */
static enum CXChildVisitResult place_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Place *p = d;
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
  CXCursor v = clang_getCursorReferenced(c);
  if (clang_getCursorKind(v) != CXCursor_VarDecl) return CXChildVisit_Continue;
  static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  char *nm = cx_str(clang_getCursorSpelling(v));
  bool hit = false;
  for (size_t i = 0; i < sizeof names / sizeof *names && !hit; i++) hit = !strcmp(nm, names[i]);
  free(nm);
  if (hit) {
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(v), &f, NULL, NULL, NULL);
    char *fn = f ? cx_str(clang_getFileName(f)) : NULL;
    hit = fn && !strncmp(fn, p->incdir, strlen(p->incdir));
    free(fn);
  }
  if (!hit) return CXChildVisit_Continue;
  p->hit = c;
  return CXChildVisit_Break;
}

/* Says what each recorded functor's __CUDA_ARCH__ test means here;
 * returns the number of errors. dev: the __CUDA_ARCH__ parse (NULL: none
 * made, nothing known of the device side). */
int fe_thrust_arch(Fe *p, CXTranslationUnit dev) {
  int errs = 0;
  for (int i = 0; i < p->arch_uses.n; i++) {
    ArchUse *u = p->arch_uses.v[i];
    Place pl = {p->opts->incdir, clang_getNullCursor()};
    CXCursor d = dev ? dev_decl(dev, u) : clang_getNullCursor();
    if (!clang_Cursor_isNull(d)) clang_visitChildren(d, place_cb, &pl);
    if (!clang_Cursor_isNull(pl.hit)) {
      const char *rf;
      int rl, rc;
      cx_loc(pl.hit, &rf, &rl, &rc);
      char *var = cx_str(clang_getCursorSpelling(pl.hit));
      errorat(u->file, u->line, u->col,
              "thrust::%s would run %s on the CPU (cucc's Thrust device system is OpenMP), as host code, "
              "where its __CUDA_ARCH__ test at %s:%u takes the host side; its device side reads %s at %s:%d, "
              "a GPU thread's place in the grid Thrust would launch, which no CPU thread has: not supported",
              u->alg, u->what, u->path, u->arch_line, var, rf, rl);
      free(var);
      errs++;
    } else if (!p->opts->nowarn)
      warnat(u->file, u->line, u->col,
             "thrust::%s runs %s on the CPU here (cucc's Thrust device system is OpenMP), as host code: "
             "its __CUDA_ARCH__ test at %s:%u takes the host side, where a GPU would take the device side",
             u->alg, u->what, u->path, u->arch_line);
  }
  return errs;
}
