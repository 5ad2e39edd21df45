/* cdp.c: device-side launches of overloaded and template kernels (dynamic
 * parallelism), which clang's Sema will not resolve.
 *
 * clang has no dynamic parallelism: from a __global__ or __device__
 * function every __global__ candidate of an overload set is "not viable",
 * so `qsort<T><<<g, b>>>(...)`, or a launch of a kernel that a header
 * declares once more with other parameters, is "no matching function", and
 * the AST keeps neither the callee nor the configuration. From a
 * __host__ __device__ function, which a lambda's call operator is by
 * default, the same launch resolves as in host code. So each launch that
 * the diagnostics name is wrapped, in the text clang parses, as
 *   [&]{k<T><<<g, b>>>(args);}()
 * and the file parsed again (a resolved launch may instantiate a template
 * holding more: until none is left). parse.c reads the wrapper as the
 * launch it holds (cdp_launch), in the function around it; the lambda
 * itself is never compiled. No line changes, and the columns after a
 * wrapper on its line are the user's again in every diagnostic, clang's
 * (cdp_format) and ours (cdp_col: cx_loc). A launch written in a macro's
 * body is not wrapped (its text is the macro's): translate.c refuses it. */
#include "fe.h"
#include <ctype.h>

typedef struct Ins {
  const char *file;   /* as clang names it */
  unsigned off;       /* in the text parsed now */
  unsigned line, len;
  bool open;          /* "[&]{" (at the callee) or ";}()" (after the ')') */
} Ins;

typedef struct Text { const char *file; char *s; size_t n; } Text;   /* a header of the user's, wrapped */

static Vec inss;    /* Ins* */
static Vec texts;   /* Text* */

static const char opener[] = "[&]{", closer[] = ";}()";

/* Is diagnostic d clang's refusal of a device-side launch of an overload
 * set? Then *name is the set's name, quoted as clang does. */
bool cdp_diag(CXDiagnostic d, char **name) {
  static const char pre[] = "no matching function for call to ";
  if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) return false;
  char *m = cx_str(clang_getDiagnosticSpelling(d));
  bool hit = false;
  CXDiagnosticSet kids = clang_getChildDiagnostics(d);
  for (unsigned i = 0; !strncmp(m, pre, sizeof pre - 1) && i < clang_getNumDiagnosticsInSet(kids) && !hit; i++) {
    char *k = cx_str(clang_getDiagnosticSpelling(clang_getDiagnosticInSet(kids, i)));
    hit = strstr(k, "call to __global__ function from __global__ function") ||
          strstr(k, "call to __global__ function from __device__ function");
    free(k);
  }
  if (hit && name) *name = xstrdup(m + sizeof pre - 1);
  free(m);
  return hit;
}

/* Is the launch that d names written in a macro's body (where it cannot
 * be wrapped)? */
bool cdp_in_macro(CXDiagnostic d) {
  CXSourceLocation l = clang_getDiagnosticLocation(d);
  CXFile fe, fs;
  unsigned oe, os;
  clang_getExpansionLocation(l, &fe, NULL, NULL, &oe);
  clang_getSpellingLocation(l, &fs, NULL, NULL, &os);
  return !fe || !fs || !clang_File_isEqual(fe, fs) || oe != os;
}

/* s[i] starts a comment or a literal: the index after it (or i) */
static size_t skip_lit(const char *s, size_t n, size_t i) {
  if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
    while (i < n && s[i] != '\n') i++;
    return i;
  }
  if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
    for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++) {}
    return i + 2 < n ? i + 2 : n;
  }
  if (s[i] == '"' || (s[i] == '\'' && !(i > 0 && isalnum((unsigned char)s[i - 1])))) {   /* not 1'000 */
    char q = s[i];
    for (i++; i < n && s[i] != q && s[i] != '\n'; i++)
      if (s[i] == '\\') i++;
    return i < n ? i + 1 : n;
  }
  return i;
}

/* The launch whose callee starts at s[o], `k<T><<<g, b>>>(args)`: the
 * index after its ')', or 0 when the text there is not such a launch. */
static size_t launch_end(const char *s, size_t n, size_t o) {
  int phase = 0, depth = 0;   /* 0: to <<<, 1: to >>>, 2: to (, 3: to ) */
  for (size_t i = o; i < n;) {
    size_t j = skip_lit(s, n, i);
    if (j != i) {
      if (phase == 2) return 0;
      i = j;
      continue;
    }
    char c = s[i];
    if (phase == 2) {
      if (isspace((unsigned char)c)) { i++; continue; }
      if (c != '(') return 0;
      phase = 3;
    }
    if (c == '(' || c == '[' || c == '{') depth++;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return 0;
      if (depth == 0 && phase == 3) return i + 1;
    } else if (depth == 0 && (c == ';' || (phase == 0 && c == '{'))) return 0;
    else if (depth == 0 && phase == 0 && !strncmp(s + i, "<<<", 3)) {
      phase = 1;
      i += 3;
      continue;
    } else if (depth == 0 && phase == 1 && !strncmp(s + i, ">>>", 3)) {
      phase = 2;
      i += 3;
      continue;
    }
    i++;
  }
  return 0;
}

static unsigned line_at(const char *s, size_t off) {
  unsigned l = 1;
  for (size_t i = 0; i < off; i++) l += s[i] == '\n';
  return l;
}

/* Inserts text t at s[at] (a file's text, *n bytes), moving the wrappers
 * recorded after it. */
static char *insert(const char *file, char *s, size_t *n, size_t at, const char *t, bool open) {
  size_t k = strlen(t);
  for (int i = 0; i < inss.n; i++) {
    Ins *x = inss.v[i];
    if (!strcmp(x->file, file) && x->off >= at) x->off += k;
  }
  char *r = xcalloc(1, *n + k + 1);
  memcpy(r, s, at);
  memcpy(r + at, t, k);
  memcpy(r + at + k, s + at, *n - at);
  *n += k;
  Ins *x = xcalloc(1, sizeof *x);
  *x = (Ins){file, (unsigned)at, line_at(r, at), (unsigned)k, open};
  vec_push(&inss, x);
  return r;
}

static bool wrapped(const char *file, unsigned off) {
  for (int i = 0; i < inss.n; i++) {
    Ins *x = inss.v[i];
    if (x->open && !strcmp(x->file, file) && x->off + x->len == off) return true;
  }
  return false;
}

static Text *text_of(const char *file) {
  for (int i = 0; i < texts.n; i++)
    if (!strcmp(((Text *)texts.v[i])->file, file)) return texts.v[i];
  return NULL;
}

/* The user's files as parsed: the main file's text, then each header wrapped
 * here. The array is the caller's to free. */
struct CXUnsavedFile *cdp_unsaved(const char *path, const char *main, size_t n, unsigned *nuf) {
  struct CXUnsavedFile *u = xcalloc(texts.n + 1, sizeof *u);
  unsigned k = 0;
  if (main) u[k++] = (struct CXUnsavedFile){path, main, n};
  for (int i = 0; i < texts.n; i++) {
    Text *t = texts.v[i];
    if (strcmp(t->file, path)) u[k++] = (struct CXUnsavedFile){t->file, t->s, t->n};
  }
  *nuf = k;
  return u;
}

typedef struct Hit { const char *file; unsigned off; } Hit;

static int cmp_hit(const void *a, const void *b) {
  const Hit *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  return c ? c : x->off < y->off ? 1 : x->off > y->off ? -1 : 0;   /* last first */
}

/* Wraps each launch that tu's diagnostics name, in the main file's text
 * (*main, *n bytes) or a header's. Returns how many. */
int cdp_wrap(CXTranslationUnit tu, const char *path, char **main, size_t *n) {
  Hit *h = xcalloc(clang_getNumDiagnostics(tu) + 1, sizeof *h);
  int nh = 0;
  for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
    if (!cdp_diag(d, NULL) || cdp_in_macro(d) || !f ||
        clang_Location_isInSystemHeader(clang_getDiagnosticLocation(d)))
      continue;
    const char *file = fe_intern(cx_str(clang_getFileName(f)));
    if (wrapped(file, off)) continue;   /* wrapped, and still unresolved: clang says why */
    bool dup = false;
    for (int k = 0; k < nh; k++) dup |= h[k].file == file && h[k].off == off;
    if (!dup) h[nh++] = (Hit){file, off};
  }
  qsort(h, nh, sizeof *h, cmp_hit);
  int done = 0;
  for (int i = 0; i < nh; i++) {
    bool is_main = !strcmp(h[i].file, path);
    Text *t = is_main ? NULL : text_of(h[i].file);
    if (!is_main && !t) {
      size_t sz = 0;
      const char *c = clang_getFileContents(tu, clang_getFile(tu, h[i].file), &sz);
      if (!c) continue;
      t = xcalloc(1, sizeof *t);
      *t = (Text){h[i].file, xstrndup(c, sz), sz};
      vec_push(&texts, t);
    }
    char **s = is_main ? main : &t->s;
    size_t *len = is_main ? n : &t->n;
    size_t e = launch_end(*s, *len, h[i].off);
    if (!e) continue;
    /* the closer first: the callee's offset stays where it was */
    *s = insert(h[i].file, *s, len, e, closer, false);
    *s = insert(h[i].file, *s, len, h[i].off, opener, true);
    done++;
  }
  free(h);
  return done;
}

CXTranslationUnit cdp_resolve(CXIndex idx, const char *path, Vec *args, CXTranslationUnit tu, char **main,
                              size_t *n, bool verbose) {
  for (int round = 0; round < 16; round++) {
    int done = cdp_wrap(tu, path, main, n);
    if (!done) break;
    if (verbose) fprintf(stderr, "cucc: libclang parse %s again, %d device-side launches wrapped for clang\n", path, done);
    unsigned nuf;
    struct CXUnsavedFile *uf = cdp_unsaved(path, *main, *n, &nuf);
    CXTranslationUnit t2 = NULL;
    enum CXErrorCode ec = clang_parseTranslationUnit2(idx, path, (const char *const *)args->v, args->n, uf, nuf,
                                                      CXTranslationUnit_None, &t2);
    free(uf);
    if (ec != CXError_Success || !t2) break;
    clang_disposeTranslationUnit(tu);
    tu = t2;
  }
  return tu;
}

/* A column of a line that holds wrappers, in the user's text: the wrappers
 * before it taken away (a column inside one is the user's byte after it). */
int cdp_col(const char *file, unsigned line, unsigned col, unsigned off) {
  for (int i = 0; i < inss.n; i++) {
    Ins *x = inss.v[i];
    if (x->line != line || x->off > off || strcmp(x->file, file)) continue;
    col -= off >= x->off + x->len ? x->len : off - x->off;
  }
  return (int)col;
}

/* clang's diagnostic d as clang_formatDiagnostic prints it, at the user's
 * column, or NULL where that is clang's own (no wrapper on its line). */
char *cdp_format(CXDiagnostic d) {
  if (!inss.n) return NULL;
  CXFile f;
  unsigned line, col, off;
  clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, &off);
  if (!f) return NULL;
  char *file = cx_str(clang_getFileName(f));
  int c = cdp_col(file, line, col, off);
  if (c == (int)col) {
    free(file);
    return NULL;
  }
  static const char *const sev[] = {"ignored", "note", "warning", "error", "fatal error"};
  enum CXDiagnosticSeverity s = clang_getDiagnosticSeverity(d);
  char *m = cx_str(clang_getDiagnosticSpelling(d));
  char *opt = cx_str(clang_getDiagnosticOption(d, NULL));
  CXString pf;   /* as clang prints it: a #line directive's file and line */
  unsigned pl;
  clang_getPresumedLocation(clang_getDiagnosticLocation(d), &pf, &pl, NULL);
  char *r = xfmt("%s:%u:%d: %s: %s%s%s%s", clang_getCString(pf), pl, c, sev[s <= CXDiagnostic_Fatal ? s : 3], m,
                 *opt ? " [" : "", opt, *opt ? "]" : "");
  clang_disposeString(pf);
  free(file);
  free(m);
  free(opt);
  return r;
}

/* Is call c `[&]{launch;}()`, a wrapper of ours? Then the launch. */
CXCursor cdp_launch(CXCursor c) {
  if (!inss.n) return clang_getNullCursor();
  Kids k = fe_kids(c);
  CXCursor l = k.n ? k.v[0] : clang_getNullCursor();
  free(k.v);
  while (!clang_Cursor_isNull(l) && clang_getCursorKind(l) == CXCursor_UnexposedExpr) {
    Kids u = fe_kids(l);
    l = u.n == 1 ? u.v[0] : clang_getNullCursor();
    free(u.v);
  }
  if (clang_Cursor_isNull(l) || clang_getCursorKind(l) != CXCursor_LambdaExpr) return clang_getNullCursor();
  CXFile f;
  unsigned off;
  clang_getExpansionLocation(clang_getCursorLocation(l), &f, NULL, NULL, &off);
  char *file = f ? cx_str(clang_getFileName(f)) : NULL;
  bool ours = false;
  for (int i = 0; file && i < inss.n && !ours; i++) {
    Ins *x = inss.v[i];
    ours = x->open && x->off == off && !strcmp(x->file, file);
  }
  free(file);
  if (!ours) return clang_getNullCursor();
  Kids b = fe_kids(l);   /* its body, last; the launch, its one statement */
  CXCursor body = b.n ? b.v[b.n - 1] : clang_getNullCursor();
  free(b.v);
  if (clang_Cursor_isNull(body) || clang_getCursorKind(body) != CXCursor_CompoundStmt) return clang_getNullCursor();
  Kids s = fe_kids(body);
  CXCursor r = s.n == 1 ? s.v[0] : clang_getNullCursor();
  free(s.v);
  return r;
}
