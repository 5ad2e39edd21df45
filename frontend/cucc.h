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
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
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
  Vec macros;          /* char*: preprocessor arguments of the parse and the host
                          compile, in command-line order: "-DNAME=V", "-UNAME",
                          and the pairs "-include" FILE, "-isystem" DIR,
                          "-idirafter" DIR */
  const char *std;     /* -std= value for host C++ ("c++17" default) */
  int arch;            /* -arch=sm_XX -> XX (default 75) */
  int opt;             /* -O level 0..3 (default 3 for device code) */
  bool debug;          /* -g */
  bool verbose;        /* -v: print each command */
  bool keep;           /* --keep */
  const char *incdir;  /* cucc's own headers (found from the executable) */
  int maxrreg;         /* -maxrregcount, 0 = none */
  Vec xc;              /* -Xcompiler options: host C++ and device C */
  const char *target;  /* cross build: the host compilers' triple; NULL: this machine */
  unsigned check;      /* --check: CU_CK_* checkers of cucc_rt.h, 0 = none */
  bool rdc;            /* -rdc=true: device functions and variables may be
                          defined in another .cu (extern linkage, fixed ABI) */
  bool resusage;       /* -Xptxas -v: print each kernel's registers and
                          shared memory as ptxas does */
  Vec parse_flags;     /* char*: more flags of the parse only (-Werror,
                          -fopenmp, -march ... from -Xcompiler) */
} CuOpts;

/* ---- the typed IR of device code (built by frontend/parse.c) ---- */
typedef struct Type Type;
typedef struct Record Record;
typedef struct Field Field;
typedef struct Node Node;
typedef struct Obj Obj;

typedef enum {
  TY_VOID, TY_BOOL, TY_CHAR, TY_SCHAR, TY_UCHAR, TY_SHORT, TY_USHORT,
  TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_LLONG, TY_ULLONG,
  TY_FLOAT, TY_DOUBLE, TY_LDOUBLE, TY_PTR, TY_ARRAY, TY_RECORD,
} TyKind;

struct Type {
  TyKind kind;
  int64_t size;        /* bytes; -1 for incomplete (extern __shared__ x[]) */
  int align;
  Type *base;          /* pointee or element */
  int64_t len;         /* array length, -1 if unknown */
  bool is_const, is_volatile;
  bool is_ref;         /* TY_PTR modelling a C++ reference (T &): bound with
                          &, read through * (parse.c); const T & and T &&
                          are passed by value instead */
  Record *rec;
};

struct Field { char *name; Type *ty; int64_t off; };
struct Record {
  char *cname;         /* name in the generated C */
  char *usr;           /* libclang USR: identity across cursors */
  Vec fields;          /* Field* */
  int64_t size;
  int align;
  bool is_union, emitted;
};

typedef enum {
  /* expressions */
  N_NUM, N_FNUM, N_STR, N_VAR, N_BUILTIN, N_BIN, N_LOG, N_UN, N_INCDEC,
  N_ASSIGN, N_COND, N_CAST, N_CALL, N_INDEX, N_MEMBER, N_COMMA, N_INIT,
  /* statements */
  S_BLOCK, S_DECL, S_EXPR, S_IF, S_FOR, S_WHILE, S_DO, S_SWITCH, S_CASE,
  S_DEFAULT, S_BREAK, S_CONTINUE, S_RETURN, S_SYNC, S_NULL,
} NodeKind;

/* Builtin variables and what the frontend recognizes by name. */
typedef enum { B_TID, B_BID, B_BDIM, B_GDIM, B_WSIZE } Builtin;

enum { AF_LANE = 1, AF_ROW = 2 };   /* Obj.aff */

/* Calls: to a function with a body (lowered as C), or to an intrinsic. */
typedef enum {
  C_FUNC,              /* user or header function with a body */
  C_LIBM,              /* C library function: printed by name, pure */
  C_PRINTF,            /* printf: per thread */
  C_BUILTIN,           /* __builtin_*: printed by name */
  C_ATOMIC,            /* atomic*: a helper of cucc_dev.h, per lane */
  C_WARP,              /* warp collective: hoisted out of its statement */
  C_LDG,               /* __ldg(p): *p */
} CallKind;

struct Node {
  NodeKind k;
  Type *ty;            /* type of an expression */
  const char *op;      /* operator spelling: "+", "<<=", "!", "++" */
  bool post;           /* postfix ++/--; N_MEMBER: via pointer (->) */
  bool implicit;       /* N_CAST inserted by clang */
  bool grid;           /* S_SYNC: grid.sync() (cooperative groups) */
  bool recomputed;     /* S_DECL: a copy that recomputes a value in a later
                          region (emit.c), not the program's own statement */
  Node *a, *b, *c, *d; /* operands; if: cond/then/else; for: init/cond/inc/body */
  Vec list;            /* call args, block statements, init list, decls */
  Obj *var;            /* N_VAR, S_DECL */
  Obj *fn;             /* N_CALL to C_FUNC */
  CallKind ck;
  char *name;          /* N_CALL: callee name for intrinsics */
  char *hname;         /* C_WARP: the per-lane array holding its result */
  Field *field;        /* N_MEMBER */
  Builtin bk; int dim; /* N_BUILTIN */
  int64_t ival;        /* N_NUM, S_CASE value */
  double fval;         /* N_FNUM */
  char *str;           /* N_STR: literal as spelled (with quotes) */
  Node *target;        /* break/continue: the loop or switch it leaves */
  const char *file; int line, col;
  /* set by lowering/uniform.c */
  bool vary;           /* expression: value differs between lanes;
                          if/loop/switch: condition varies */
  bool masked;         /* jump: must clear lanes instead of a C jump;
                          loop/switch: runs under its own lane mask */
  bool has_jump;       /* statement contains a masked jump */
  bool has_cont;       /* loop: a masked continue targets it */
  int id;              /* unique number, for names of masks */
  /* set by lowering/emit.c */
  bool sync;           /* statement contains __syncthreads(): block level */
};

struct Obj {
  char *name;          /* as in the source */
  char *cname;         /* name in the generated C */
  Type *ty;
  const char *file; int line, col;
  /* variables */
  bool is_param, is_shared, is_extern_shared;
  bool is_global;      /* __device__/__constant__ at file scope: the host
                          unit defines it; device C refers to its symbol */
  bool is_static;      /* such a global with internal linkage: its host unit
                          registers it under `key` ("file:name", `pretty`
                          its name in host code), device C reads it through
                          a pointer bound by that key */
  bool vary;           /* per-lane storage (uniform.c) */
  bool prom, prom_st;  /* varying, held in a scalar `_s_NAME` while one lane
                          runs a uniform loop (emit.c, st_loop); prom_st:
                          the loop stores to it */
  unsigned char aff;   /* when warps are whole rows (emit.c), AF_LANE: lane
                          l holds base + l; AF_ROW: every lane holds the
                          same value; either is one base per warp */
  bool addr_taken;     /* & taken or array decayed: lane-major storage */
  int64_t smem_off;    /* static __shared__: offset in block shared memory;
                          kernel parameter: offset in the parameter buffer;
                          Prog.syms: size of the variable */
  int rgn;             /* region that declares it (0: block level) */
  int use_rgn;         /* a region that uses it (-1: none yet) */
  bool cross;          /* used outside its region: kept per thread (varying)
                          or at block level (uniform) */
  Node *remat;         /* varying, used outside its region, but recomputed
                          there from this declaration (emit.c) */
  /* functions */
  bool is_kernel, has_body, uses_tid, impure, visiting, lowered;
  Obj *self;           /* member function: its `this` (a pointer parameter;
                          for a const member function the object itself, by
                          value; for a constructor the local it builds) */
  bool self_val;       /* self is the object, `this` is &self */
  bool is_ctor;        /* constructor: returns the object it builds */
  bool is_lambda;      /* a lambda's call operator */
  Vec caps;            /* lambda: CXCursor* of the variables it captures,
                          passed by address after the declared parameters */
  char *key;           /* kernel: registration key (mangled name) */
  char *pretty;        /* kernel: signature as written */
  Vec params;          /* Obj* */
  Node *body;
  Vec locals;          /* Obj*: every local variable of the function */
  Vec shared;          /* Obj*: __shared__ variables (kernels) */
  int64_t smem_static;
  int max_threads;     /* __launch_bounds__ */
  int nregs;           /* estimated registers per thread (emit.c) */
  bool has_sync;
  bool has_warp;       /* contains a warp collective: inlined into callers */
};

/* A device function with barriers, warp collectives or __shared__
 * variables is inlined into its callers (frontend/inline.c), never emitted. */
static inline bool fn_inlined(const Obj *f) {
  return !f->is_kernel && (f->has_sync || f->has_warp || f->shared.n);
}

/* A translation unit's device program. */
typedef struct Prog {
  const char *path;    /* the .cu */
  Vec kernels;         /* Obj*: each kernel (and template instantiation) */
  Vec funcs;           /* Obj*: device functions reachable from kernels */
  Vec records;         /* Record*: in dependency order */
  Vec globals;         /* Obj*: __device__ and __constant__ variables used */
  Vec syms;            /* Obj*: those defined in this .cu (name, key, and
                          size in smem_off): registered for the symbol API */
} Prog;

/* ---- lowering/ ---- */
void lw_uniform(Obj *fn);                  /* uniform.c: vary/masked flags */
void lw_emit(Prog *p, const CuOpts *o, Buf *out); /* emit.c: device C */
char *ty_decl(Type *t, const char *name);  /* emit.c: C declarator */

/* ---- diagnostics (frontend/diag.c) ---- */
extern int nerrors;
void errorat(const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Translate one .cu file. On success returns 0 and fills dev (C11 text of
 * the device object) and host (C++ text of the host unit). On error prints
 * file:line:col diagnostics to stderr and returns nonzero. */
int fe_translate(const char *path, const CuOpts *o, Buf *dev, Buf *host);

#endif
