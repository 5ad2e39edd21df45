/* blockshape.c: is a launch's block 1-D (blockDim.y == blockDim.z == 1),
 * read from the host code's AST.
 *
 * The lowering prints each region in versions for the block shapes a
 * launch may have (lowering/version.c); the half-row one serves 16 x 2k
 * tiles only. Where every launch of a kernel that host code makes has a
 * 1-D block, that version is C no launch takes (cuda-samples' reduction:
 * 17% of its device C, through cooperative groups' thread_rank(), which
 * reads threadIdx.y). This only prunes fast paths: a block of any shape
 * still runs, in the general version, so an answer that is "not known"
 * costs speed, never correctness.
 *
 * 1-D: an integer (dim3's converting constructor), dim3(x), dim3(x, 1) or
 * dim3(x, 1, 1) with constant ones, or a local dim3 variable so initialized
 * (or left as dim3's default) that nothing stores to but its .x, takes the
 * address of or binds a reference to. */
#include "fe.h"

static bool ex_kind(enum CXCursorKind k) { return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr; }

/* An implicit cast, temporary or parentheses around e: what is inside. */
typedef struct Only { CXCursor c; int n; } Only;
static enum CXChildVisitResult only_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Only *o = d;
  if (o->n++ == 0) o->c = c;
  return CXChildVisit_Continue;
}
static CXCursor strip(CXCursor e) {
  for (int guard = 0; guard < 16 && ex_kind(clang_getCursorKind(e)); guard++) {
    Only o = {clang_getNullCursor(), 0};
    clang_visitChildren(e, only_cb, &o);
    if (o.n != 1) break;
    e = o.c;
  }
  return e;
}

static bool int_type(CXType t) {
  t = clang_getCanonicalType(t);
  return (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
}

static bool dim3_type(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Record) return false;
  char *s = cx_str(clang_getTypeSpelling(t));
  bool r = !strcmp(s, "dim3") || !strcmp(s, "struct dim3");
  free(s);
  return r;
}

/* a constant 1 (a literal, a constant expression, a default argument) */
static bool one(CXCursor e) {
  CXEvalResult r = clang_Cursor_Evaluate(e);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 1;
  clang_EvalResult_dispose(r);
  return ok;
}

static bool one_d(CXCursor e, int depth);

/* ---- a local dim3 variable: its initializer, and nothing changing it ---- */

typedef struct VScan {
  CXCursor var;
  CXCursor stk[256];
  int n;
  bool bad;
} VScan;

/* The nearest enclosing cursor of stk[i] that is not an implicit
 * conversion, temporary or parentheses. */
static int up(VScan *v, int i) {
  for (i--; i >= 0 && ex_kind(clang_getCursorKind(v->stk[i])); i--) {}
  return i;
}

/* A use of the variable at stk[i]: may it change the variable? A member
 * read (`b.x * 4`), a copy (a by-value argument, the launch's own) no; a
 * store to it or a member, ++, &, a reference bound to it, a call that
 * takes it by reference (or its operator=), anything not known, yes. */
static bool changes(VScan *v, int i) {
  int p = up(v, i);
  if (p < 0) return true;
  CXCursor pc = v->stk[p];
  enum CXCursorKind pk = clang_getCursorKind(pc);
  /* b.x read: the member access under an implicit conversion (its load);
   * b.x stored to (`dim3 b; b.x = n;`) leaves y and z as they were */
  if (pk == CXCursor_MemberRefExpr) {
    char *m = cx_str(clang_getCursorSpelling(pc));
    bool x = !strcmp(m, "x");
    free(m);
    return !x && !(p > 0 && clang_getCursorKind(v->stk[p - 1]) == CXCursor_UnexposedExpr);
  }
  if (pk == CXCursor_CallExpr) {
    CXCursor f = clang_getCursorReferenced(pc);
    if (clang_getCursorKind(f) == CXCursor_Constructor)   /* a copy */
      return !dim3_type(clang_getCursorType(clang_getCursorSemanticParent(f)));
    char *nm = cx_str(clang_getCursorSpelling(f));
    bool cfg = !strcmp(nm, "cudaConfigureCall") || !strcmp(nm, "__cudaPushCallConfiguration");
    free(nm);
    return !cfg;
  }
  return true;
}

static enum CXChildVisitResult vscan_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  VScan *v = d;
  if (v->bad) return CXChildVisit_Break;
  if (v->n == (int)(sizeof v->stk / sizeof v->stk[0])) {
    v->bad = true;
    return CXChildVisit_Break;
  }
  v->stk[v->n++] = c;
  enum CXCursorKind k = clang_getCursorKind(c);
  if ((k == CXCursor_DeclRefExpr || k == CXCursor_VariableRef) &&
      clang_equalCursors(clang_getCursorReferenced(c), v->var) && changes(v, v->n - 1))
    v->bad = true;
  else clang_visitChildren(c, vscan_cb, v);
  v->n--;
  return v->bad ? CXChildVisit_Break : CXChildVisit_Continue;
}

typedef struct Init { CXCursor e; } Init;
static enum CXChildVisitResult init_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_isExpression(clang_getCursorKind(c))) ((Init *)d)->e = c;
  return CXChildVisit_Continue;
}

static bool var_one_d(CXCursor var, int depth) {
  if (clang_getCursorKind(var) != CXCursor_VarDecl || clang_getCursorType(var).kind == CXType_LValueReference ||
      clang_getCursorType(var).kind == CXType_RValueReference)
    return false;
  CXCursor fn = clang_getCursorSemanticParent(var);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_Constructor &&
      fk != CXCursor_Destructor)
    return false;   /* (a global or static member: anyone may store to it) */
  if (clang_Cursor_getStorageClass(var) == CX_SC_Static) return false;
  Init in = {clang_getNullCursor()};
  clang_visitChildren(var, init_cb, &in);
  if (!clang_Cursor_isNull(in.e) && !one_d(in.e, depth + 1)) return false;   /* (none: dim3's default, 1 x 1 x 1) */
  CXCursor body = fn_body(fn);
  if (clang_Cursor_isNull(body)) return false;
  VScan *v = xcalloc(1, sizeof *v);
  v->var = var;
  clang_visitChildren(body, vscan_cb, v);
  bool ok = !v->bad;
  free(v);
  return ok;
}

typedef struct BsKids { CXCursor c[4]; int n; } BsKids;
static enum CXChildVisitResult bs_kids_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  BsKids *k = d;
  if (k->n < 4) k->c[k->n] = c;
  k->n++;
  return CXChildVisit_Continue;
}

static bool one_d(CXCursor e, int depth) {
  if (depth > 8) return false;
  e = strip(e);
  if (int_type(clang_getCursorType(e))) return true;   /* dim3(x) */
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_DeclRefExpr) return dim3_type(clang_getCursorType(e)) && var_one_d(clang_getCursorReferenced(e), depth);
  if (k == CXCursor_CallExpr || k == CXCursor_CXXFunctionalCastExpr) {
    if (k == CXCursor_CXXFunctionalCastExpr) {   /* dim3(x): the construction inside */
      BsKids kd = {0};
      clang_visitChildren(e, bs_kids_cb, &kd);
      return kd.n >= 1 && kd.n <= 4 && one_d(kd.c[kd.n - 1], depth + 1);
    }
    CXCursor f = clang_getCursorReferenced(e);
    if (clang_getCursorKind(f) != CXCursor_Constructor || !dim3_type(clang_getCursorType(clang_getCursorSemanticParent(f))))
      return false;
    int n = clang_Cursor_getNumArguments(e);
    if (n == 1) {   /* dim3(x), a copy of a dim3, or from a uint3 (not known) */
      CXCursor a = clang_Cursor_getArgument(e, 0);
      CXType t = clang_getCursorType(strip(a));
      return int_type(t) || (dim3_type(t) && one_d(a, depth + 1));
    }
    if (n < 0 || n > 3) return n == 0;
    for (int i = 1; i < n; i++)
      if (!one(clang_Cursor_getArgument(e, (unsigned)i))) return false;
    return true;
  }
  if (k == CXCursor_InitListExpr) {   /* {x, 1, 1} */
    BsKids kd = {0};
    clang_visitChildren(e, bs_kids_cb, &kd);
    if (kd.n == 1) return one_d(kd.c[0], depth + 1);
    if (kd.n > 3) return false;
    for (int i = 1; i < kd.n; i++)
      if (!one(kd.c[i])) return false;
    return true;
  }
  return false;
}

bool bs_one_d(CXCursor block) { return one_d(block, 0); }
