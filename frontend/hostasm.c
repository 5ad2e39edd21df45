/* hostasm.c: the inline PTX of device functions in headers, hidden from a
 * clang host compile.
 *
 * The host unit includes system headers as they are (host.c edits only the
 * user's file). CUB's device functions hold inline PTX whose constraints
 * ("=h", "=f") are no register class of the host's target: gcc checks them
 * only in a function it emits, which a device function never is, but clang
 * refuses them as it parses. For a clang host compile the driver maps each
 * such header, through a clang VFS overlay, to a copy in which those asm
 * statements are blank (driver/compile.c, host_overlay): this pass finds
 * them and makes the copies' text. A copy keeps every line where it was,
 * and the backslash ending a line of a macro (CUB defines its loads with
 * macros), so the header means what it did minus the PTX. */
#include "fe.h"

Vec fe_hostasm;   /* HostAsm*: the headers to map, with their copies' text */

typedef struct Ha { CXTranslationUnit tu; bool dev; } Ha;

static HostAsm *ha_file(CXTranslationUnit tu, CXFile f) {
  char *name = cx_str(clang_getFileName(f));
  char *real = realpath(name, NULL);
  if (real) name = real;
  for (int i = 0; i < fe_hostasm.n; i++) {
    HostAsm *h = fe_hostasm.v[i];
    if (!strcmp(h->path, name)) return h;
  }
  size_t n;
  const char *src = clang_getFileContents(tu, f, &n);
  if (!src) return NULL;
  HostAsm *h = xcalloc(1, sizeof *h);
  h->path = name;
  h->text = xstrndup(src, n);
  h->len = n;
  vec_push(&fe_hostasm, h);
  return h;
}

/* the end of the asm statement whose text starts at i: after the
 * parenthesis that closes its operands (string and character literals
 * skipped); 0 if the text is not one */
static size_t ha_end(const char *t, size_t n, size_t i) {
  if (strncmp(t + i, "asm", 3) && strncmp(t + i, "__asm", 5)) return 0;
  while (i < n && t[i] != '(') {
    if (t[i] == ';' || t[i] == '"') return 0;
    i++;
  }
  int depth = 0;
  for (; i < n; i++) {
    char c = t[i];
    if (c == '"' || c == '\'') {
      for (i++; i < n && t[i] != c; i++)
        if (t[i] == '\\') i++;
    } else if (c == '(') depth++;
    else if (c == ')' && --depth == 0) return i + 1;
  }
  return 0;
}

/* blank the statement's text where it is spelled: in a macro's body (CUB
 * defines its loads and stores with macros), from `asm` to its closing
 * parenthesis (libclang gives the end of a statement spelled in a macro
 * where the macro is used) */
static void ha_blank(CXTranslationUnit tu, CXCursor s) {
  CXFile f;
  unsigned o0;
  CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(s));
  clang_getSpellingLocation(at, &f, NULL, NULL, &o0);
  if (!f || clang_Location_isFromMainFile(at)) return;   /* host.c blanks the user's */
  HostAsm *h = ha_file(tu, f);
  size_t o1 = h && o0 < h->len ? ha_end(h->text, h->len, o0) : 0;
  if (!o1) return;
  for (size_t i = o0; i < o1; i++) {
    char c = h->text[i];
    if (c == '\n' || (c == '\\' && i + 1 < h->len && h->text[i + 1] == '\n')) continue;
    h->text[i] = ' ';
  }
  h->n++;
}

static enum CXChildVisitResult ha_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Ha *a = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_GCCAsmStmt) {
    if (a->dev) ha_blank(a->tu, c);
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
      k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction) {
    if (clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    Ha in = *a;
    in.dev = cx_has_attr(c, CXCursor_CUDADeviceAttr) && !cx_has_attr(c, CXCursor_CUDAHostAttr);
    if (in.dev) clang_visitChildren(c, ha_visit, &in);
    return CXChildVisit_Continue;
  }
  return CXChildVisit_Recurse;
}

void fe_find_hostasm(CXTranslationUnit tu) {
  fe_hostasm = (Vec){0};
  Ha a = {tu, false};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), ha_visit, &a);
}
