/* diag.c: errors in the form every compiler user expects:
 * file:line:col: error: message */
#include "cucc.h"

int nerrors;

void errorat(const char *file, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d:%d: error: ", file, line, col);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  nerrors++;
}

/* A construct that compiles and runs, but not as it would on a GPU. */
void warnat(const char *file, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d:%d: warning: ", file, line, col);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
