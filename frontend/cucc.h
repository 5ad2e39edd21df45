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
  bool dump_lir;       /* --dump-lir: the lowered form on stderr */
  bool rdc;            /* -rdc=true: device functions and variables may be
                          defined in another .cu (extern linkage, fixed ABI) */
  bool resusage;       /* -Xptxas -v: print each kernel's registers and
                          shared memory as ptxas does */
  Vec parse_flags;     /* char*: more flags of the parse only (-Werror,
                          -fopenmp, -march ... from -Xcompiler) */
  bool nowarn;         /* -w: cucc's own warnings too */
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
  char *cname;         /* name in the generated C (globals, functions;
                          lowering names locals in its own tables) */
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

/* Builtin variables and what the frontend recognizes by name; B_BALL is
 * the lowering's own (bspec.c): every thread of the block passes a test. */
typedef enum { B_TID, B_BID, B_BDIM, B_GDIM, B_WSIZE, B_BALL } Builtin;

/* Operators: N_BIN, N_LOG, N_COMMA (binary), N_ASSIGN (= or compound),
 * N_UN and N_INCDEC (unary). op_str gives the C spelling. */
typedef enum {
  OP_NONE,
  OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
  OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE, OP_BAND, OP_BXOR, OP_BOR,
  OP_LAND, OP_LOR, OP_COMMA,
  OP_ASSIGN, OP_MULA, OP_DIVA, OP_MODA, OP_ADDA, OP_SUBA, OP_SHLA, OP_SHRA,
  OP_BANDA, OP_BXORA, OP_BORA,
  OP_INC, OP_DEC, OP_ADDR, OP_DEREF, OP_PLUS, OP_NEG, OP_BNOT, OP_LNOT,
  OP_NOPS
} Op;
extern const char *const op_str[OP_NOPS];
Op op_binary(const char *spelling);   /* OP_NONE if unknown */
static inline bool op_cmp(Op o) { return o >= OP_LT && o <= OP_NE; }
/* the arithmetic of a compound assignment (OP_ADDA -> OP_ADD), else OP_NONE */
static inline Op op_arith(Op o) { return o >= OP_MULA && o <= OP_BORA ? (Op)(OP_MUL + (o - OP_MULA) + (o >= OP_BANDA ? 6 : 0)) : OP_NONE; }

/* Warp collectives (N_CALL of C_WARP) and the barriers that reduce a
 * predicate (S_SYNC); coll_str gives the name of cucc_dev.h's helpers. */
typedef enum {
  CO_NONE,
  CO_SHFL, CO_SHFL_UP, CO_SHFL_DOWN, CO_SHFL_XOR, CO_BALLOT, CO_ANY, CO_ALL, CO_ACTIVEMASK,
  CO_MATCH_ANY, CO_MATCH_ALL, CO_RED_ADD, CO_RED_MIN, CO_RED_MAX, CO_RED_AND, CO_RED_OR, CO_RED_XOR,
  CO_SYNC_COUNT, CO_SYNC_AND, CO_SYNC_OR,
  CO_NCOLLS
} Coll;
extern const char *const coll_str[CO_NCOLLS];
static inline bool coll_shfl(Coll c) { return c >= CO_SHFL && c <= CO_SHFL_XOR; }
static inline bool coll_vote(Coll c) { return c >= CO_BALLOT && c <= CO_ALL; }
static inline bool coll_match(Coll c) { return c == CO_MATCH_ANY || c == CO_MATCH_ALL; }
static inline bool coll_reduce(Coll c) { return c >= CO_RED_ADD && c <= CO_RED_XOR; }

/* Calls: to a function with a body (lowered as C), or to an intrinsic. */
typedef enum {
  C_FUNC,              /* user or header function with a body */
  C_LIBM,              /* C library function: printed by name, pure */
  C_PRINTF,            /* printf: per thread */
  C_BUILTIN,           /* __builtin_*: printed by name */
  C_ATOMIC,            /* atomic*: a helper of cucc_dev.h, per lane */
  C_WARP,              /* warp collective: hoisted out of its statement */
  C_LDG,               /* __ldg(p): *p */
  C_DRT,               /* device runtime API (cudaMalloc, cudaStreamCreate...
                          in device code): a cu_d_* of libcucc_rt, per thread */
  C_LAUNCH,            /* k<<<g, b, smem, s>>>(args) in device code (dynamic
                          parallelism): fn the kernel, list g, b, smem, s and
                          the arguments; per thread */
} CallKind;
/* calls that every thread makes for itself, in order, whatever its
 * arguments: never once per warp */
static inline bool ck_per_thread(CallKind k) { return k == C_PRINTF || k == C_DRT || k == C_LAUNCH; }

enum { INL_GUARD = 1, INL_RET };

struct Node {
  NodeKind k;
  Type *ty;            /* type of an expression */
  Op op;               /* N_BIN, N_LOG, N_COMMA, N_ASSIGN, N_UN, N_INCDEC */
  Coll coll;           /* C_WARP: which collective; S_SYNC: the predicate's
                          reduction (CO_NONE: a plain barrier) */
  bool post;           /* postfix ++/--; N_MEMBER: via pointer (->) */
  bool implicit;       /* N_CAST inserted by clang */
  bool grid;           /* S_SYNC: grid.sync() (cooperative groups) */
  bool cold;           /* S_IF: a failed assert's report, whose block stops
                          there (cu_assert_stop): taken only on an error */
  unsigned char inl;   /* inline.c: INL_GUARD an `if (c) return;` of an inlined
                          void function given the rest as its else, INL_RET
                          a return it turned into S_NULL; ival the inlining */
  Node *a, *b, *c, *d; /* operands; if: cond/then/else; for: init/cond/inc/body */
  Vec list;            /* call args, block statements, init list, decls */
  Obj *var;            /* N_VAR, S_DECL */
  Obj *fn;             /* N_CALL to C_FUNC */
  CallKind ck;
  char *name;          /* N_CALL: callee name for intrinsics */
  Field *field;        /* N_MEMBER */
  Builtin bk; int dim; /* N_BUILTIN */
  int64_t ival;        /* N_NUM, S_CASE value */
  double fval;         /* N_FNUM */
  char *str;           /* N_STR: literal as spelled (with quotes) */
  Node *target;        /* break/continue: the loop or switch it leaves */
  const char *file; int line, col;
};

struct Obj {
  char *name;          /* as in the source */
  char *cname;         /* name in the generated C (globals, functions;
                          lowering names locals in its own tables) */
  Type *ty;
  const char *file; int line, col;
  /* variables */
  bool is_param, is_shared, is_extern_shared;
  bool inl_made;       /* a local an inlined call made (its parameters,
                          result and locals: inline.c) */
  bool is_global;      /* __device__/__constant__ at file scope: the host
                          unit defines it; device C refers to its symbol */
  bool is_static;      /* such a global with internal linkage: its host unit
                          registers it under `key` ("file:name", `pretty`
                          its name in host code), device C reads it through
                          a pointer bound by that key */
  bool is_tmpl_var;    /* such a global, a variable template's instance
                          (`mask<float>`): the host unit instantiates it
                          (host code may not name it) */
  bool dev_def;        /* such a global that device C defines itself: a
                          function-scope static of device code (host code
                          cannot name it), initialized by dev_init (NULL:
                          zero), a constant the frontend checked */
  Node *dev_init;
  bool addr_taken;     /* & taken */
  int64_t sym_size;    /* Prog.syms: size of the variable */
  /* functions */
  bool is_kernel, has_body;
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
  int max_threads;     /* __launch_bounds__ */
  bool launch_1d;      /* every launch host code makes has a 1-D block
                          (frontend/blockshape.c): no 2-D fast versions */
  /* kernels, set by lowering: what ptxas would report */
  int64_t smem_static; /* static shared memory, bytes */
  int64_t param_bytes; /* the parameters' bytes as packed */
  int nregs;           /* estimated registers per thread */
  bool has_sync;
  bool has_warp;       /* contains a warp collective: inlined into callers */
  bool serial;         /* spin.c: a lock's critical section, run lane by
                          lane as scalar C (never as a warp) */
};

/* A device function with barriers or __shared__ variables is inlined into
 * its callers (frontend/inline.c), never emitted. (One with warp
 * collectives runs as a warp: lowering/build.c, warp_fn.) */
static inline bool fn_inlined(const Obj *f) {
  return !f->is_kernel && (f->has_sync || f->shared.n);
}

/* A translation unit's device program. */
typedef struct Prog {
  const char *path;    /* the .cu */
  Vec kernels;         /* Obj*: each kernel (and template instantiation) */
  Vec funcs;           /* Obj*: device functions reachable from kernels */
  Vec records;         /* Record*: in dependency order */
  Vec globals;         /* Obj*: __device__ and __constant__ variables used */
  Vec syms;            /* Obj*: those defined in this .cu (name, key, and
                          sym_size): registered for the symbol API */
} Prog;

/* ---- frontend/eval.c: the one constant evaluator, for the frontend's
 * passes and the lowering's ---- */
/* n's value if it is an integer constant expression, as C computes it in
 * n's type (an unsigned 64-bit value above INT64_MAX: its bits); false
 * where C gives it none (division by zero, signed overflow, a shift out
 * of range) or it reads what is not a constant */
bool ev_int(Node *n, int64_t *v);
/* ... where var may give a variable's value (false: none) */
typedef bool EvVar(Obj *var, int64_t *val, void *ctx);
bool ev_intv(Node *n, EvVar *var, void *ctx, int64_t *v);
/* ... made of literals and operators only (no variable, call or store,
 * not even in an arm not taken): copied anywhere, the same constant */
bool ev_const(Node *n, int64_t *v);

/* ---- lowering/ ---- */
/* The device C of a program (lowering/lower.c runs the passes); 0 on
 * success, else the errors were reported. */
int lw_lower(Prog *p, const CuOpts *o, Buf *out);
char *ty_decl(Type *t, const char *name);  /* lowering/print.c: C declarator */
/* lowering/fold.c: the constant conditions of f's body, the side taken
 * (frontend/sroa.c folds what it inlines before it joins declarations) */
void lw_fold(Obj *f);

/* lowering/walk.c: the one walker of the IR, for the frontend's passes
 * too. Visit n and its operands (a, b, c, d, list) in order, f first; f
 * returns W_GO, W_SKIP (not into n's operands) or W_STOP. */
enum { W_GO, W_SKIP, W_STOP };
typedef int WalkFn(Node *n, void *ctx);
int walk(Node *n, WalkFn *f, void *ctx);
/* does any node of n satisfy p? */
bool any_node(Node *n, bool (*p)(Node *, void *), void *ctx);

/* ---- diagnostics (frontend/diag.c) ---- */
extern int nerrors;
void errorat(const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void warnat(const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Translate one .cu file. On success returns 0 and fills dev (C11 text of
 * the device object) and host (C++ text of the host unit). On error prints
 * file:line:col diagnostics to stderr and returns nonzero. */
int fe_translate(const char *path, const CuOpts *o, Buf *dev, Buf *host);
extern bool fe_thrust;   /* the .cu fe_translate read includes Thrust: its host code needs OpenMP */
/* a header the host unit includes whose device functions' inline PTX a clang
 * host compile refuses: the header's text with that PTX blank (hostasm.c) */
typedef struct HostAsm { char *path, *text; size_t len; int n; } HostAsm;
extern Vec fe_hostasm;   /* HostAsm*: of the .cu fe_translate read */
extern bool fe_cub;      /* ... CUB: its host unit declares the device intrinsics (device_functions.h) */

#endif
