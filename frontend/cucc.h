/* cucc.h: the one header of shared types of the cucc compiler.
 * Phases: driver/ (command line, running tools) -> frontend/ (libclang ->
 * typed IR + host edits) -> lowering/ (IR -> warp-vectorized C). */
#ifndef CUCC_H
#define CUCC_H
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUCC_VERSION "0.1.0"

/* ---- util.c: growable strings and lists, errors ---- */
typedef struct Buf { char *s; size_t len, cap; } Buf;
void buf_put(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *buf_take(Buf *b);           /* returns the string, resets b */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t sz);

typedef struct Vec { void **v; int n, cap; } Vec;   /* list of pointers */
void vec_push(Vec *v, void *p);

/* ---- options shared by the driver and the frontend ---- */
typedef struct CuOpts {
  Vec incs;            /* char*: -I dirs, in order */
  Vec macros;          /* char*: "-DNAME=V" or "-UNAME", in command-line order */
  const char *std;     /* -std= value for host C++ ("c++17" default) */
  int arch;            /* -arch=sm_XX -> XX (default 75) */
  int opt;             /* -O level 0..3 (default 3 for device code) */
  bool debug;          /* -g */
  bool verbose;        /* -v: print each command */
  bool keep;           /* --keep */
  const char *incdir;  /* cucc's own headers (found from the executable) */
  int maxrreg;         /* -maxrregcount, 0 = none */
} CuOpts;

/* Translate one .cu file. On success returns 0 and fills dev (C11 text of
 * the device object) and host (C++ text of the host unit). On error prints
 * file:line:col diagnostics to stderr and returns nonzero. */
int fe_translate(const char *path, const CuOpts *o, Buf *dev, Buf *host);

#endif
