/* diag.c: errors in the form every compiler user expects:
 * file:line:col: error: message */
#include "cucc.h"

int nerrors;

static void vdiag(const char *file, int line, int col, const char *kind, const char *fmt, va_list ap) {
  fprintf(stderr, "%s:%d:%d: %s: ", file, line, col, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void errorat(const char *file, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(file, line, col, "error", fmt, ap);
  va_end(ap);
  nerrors++;
}

/* A construct that compiles and runs, but not as it would on a GPU. */
void warnat(const char *file, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(file, line, col, "warning", fmt, ap);
  va_end(ap);
}
