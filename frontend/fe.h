/* fe.h: frontend-internal state shared by parse.c, host.c and translate.c. */
#ifndef CUCC_FE_H
#define CUCC_FE_H
#include "cucc.h"
#include <clang-c/Index.h>

typedef struct VarMap { CXCursor c; Obj *o; } VarMap;
typedef struct FnMap { CXCursor c; Obj *o; } FnMap;

/* class.c: what a class of device code adds to its record */
typedef struct Base { Record *r; int64_t off; int idx; bool dyn, empty, pod; } Base;
typedef struct Cls {
  Record *r;
  CXCursor decl;
  bool dyn;            /* has a vptr (virtual functions, or a dynamic base) */
  Field *vptr;         /* its own cu_vptr, or NULL (the primary base's) */
  Vec bases;           /* Base*, in the record's order */
  int nbase_fields;    /* fields copied from bases and the vptr, before its own */
  int id;              /* dynamic class constructed in device code: 1, 2, ... */
  int dtor_state;      /* 1: a destructor to run, -1: trivial, 0: unknown */
  Obj *dtor, *del, *dela, *copy;
} Cls;
typedef struct VFn { CXCursor m; Record *r; Obj *o; bool listed; } VFn;   /* a dispatcher */

typedef struct Fe {
  CXTranslationUnit tu;
  const CuOpts *opts;
  Prog *prog;
  Obj *fn;             /* function being lowered */
  Vec vars;            /* VarMap*: variables in scope of fn */
  int vars0;           /* vars of fn start here (those below: its callers') */
  Vec funcs;           /* FnMap*: every function lowered so far */
  Vec loops;           /* Node*: enclosing loops and switches */
  Vec allrecs;         /* Record*: by USR */
  bool in_switch_body;
  Vec classes;         /* Cls*: every record's (class.c) */
  Vec built;           /* Cls*: the dynamic classes device code constructs */
  int nids;
  Vec vfns;            /* VFn*: dispatchers of virtual calls */
  Vec newfns;          /* Obj*: helpers of new expressions */
  Vec dtors;           /* Obj*: live locals with destructors (parse.c) */
  int dtors0;          /* those of the function being lowered start here */
  Vec lmarks;          /* where each loop's locals start in dtors */
  Vec tmps;            /* Obj*: temporaries a member call is made on (parse.c's
                          obj_addr), declared at their function's start */
  Vec probes;          /* Probe*: template instantiations' bases and members (class.c) */
  CXIndex pidx;        /* what a probe parse needs: the first parse's index, */
  const char *ppath;   /* file, arguments and text */
  Vec pargs;
  const char *psrc;
  size_t psrclen;
  Vec bitrecs;         /* Type*: the unions a record's shuffle passes its bits
                          through (parse.c, bits_union) */
  Vec host_used;       /* CXCursor*: __device__ functions that host code calls
                          (a user's functor run by Thrust's CPU systems):
                          the host unit keeps their bodies */
  Vec kshape;          /* KShape*: the blocks host code launches each kernel with (host.c) */
  Vec arch_uses;       /* ArchUse*: functors with a __CUDA_ARCH__ test that Thrust runs on the CPU */
} Fe;

/* A functor (by USR) or lambda (usr NULL: by its offset in path) that a
 * Thrust algorithm runs on device data, called at file:line:col, with a
 * __CUDA_ARCH__ test at path:arch_line (host.c records; thrustarch.c says
 * what the device parse shows of it). */
typedef struct ArchUse {
  char *usr, *what, *alg;
  const char *path, *file;
  unsigned off, arch_line;
  int line, col;
} ArchUse;
int fe_thrust_arch(Fe *p, CXTranslationUnit dev);
CXCursor fe_lambda_in(CXCursor c);   /* thrustarch.c: c or the first lambda in it */

/* A kernel's launches in host code: all with 1-D blocks (blockshape.c), or
 * not (a 2-D one, one not known, or the kernel named other than in a
 * launch: a pointer may launch it any way). By its definition's USR. */
typedef struct KShape { char *usr; bool one_d; } KShape;
bool bs_one_d(CXCursor block);
CXCursor fn_body(CXCursor fn);   /* host.c */

char *cx_str(CXString s);
void cx_loc(CXCursor c, const char **file, int *line, int *col);
bool cx_has_attr(CXCursor c, enum CXCursorKind a);
const char *fe_intern(char *s);
Type *mk_type(Fe *p, CXType t, CXCursor where);
Obj *fe_func(Fe *p, CXCursor def);
void fe_globals(Fe *p);
Node *fe_inline(Fe *p, Node *s);   /* inline.c */
/* irb.c: the one builder of the nodes the frontend makes itself, each at
 * a position: a node's (ir_loc) or a cursor's (ir_cloc) */
typedef struct Loc { const char *file; int line, col; } Loc;
Loc ir_loc(const Node *n);
Loc ir_cloc(CXCursor c);
Node *ir_new(NodeKind k, Loc at);                         /* the rest zero */
Node *ir_node(NodeKind k, CXCursor c);                    /* at c */
Node *ir_num(Loc at, Type *t, int64_t v);
Node *ir_var(Loc at, Obj *o);                             /* of o's type */
Node *ir_un(Loc at, Op op, Type *t, Node *x);
Node *ir_deref(Loc at, Node *p);                          /* *p */
Node *ir_bin(Loc at, Op op, Type *t, Node *x, Node *y);   /* N_BIN */
Node *ir_comma(Loc at, Node *x, Node *y);                 /* (x, y), of y's type */
Node *ir_assign(Loc at, Node *l, Node *r);                /* l = r, of l's type */
Node *ir_cast(Loc at, Type *t, Node *x);
Node *ir_cond(Loc at, Type *t, Node *c, Node *x, Node *y);   /* c ? x : y */
Node *ir_call(Loc at, CallKind ck, char *name, Type *t);  /* its arguments: list */
Node *ir_builtin(Loc at, Builtin b, int dim);             /* threadIdx.x...: unsigned */
Node *ir_member(Loc at, Node *x, Field *f);               /* x.f */
Node *ir_stmt(Loc at, NodeKind k, Node *a);               /* S_EXPR, S_RETURN... of a */
Node *ir_if(Loc at, Node *c, Node *then, Node *els);
Node *ir_decl(Loc at, Obj *o, Node *init);
Type *ir_type(TyKind k);                                  /* a scalar, not long double */
Type *ir_ptr(Type *base);
/* parse.c's builders, for ptx.c */
Node *fe_expr(Fe *p, CXCursor c);
Node *fe_warp_call(Fe *p, CXCursor c, Node *n, const char *name);
Node *fe_asm(Fe *p, CXCursor c);   /* ptx.c: an asm statement */
void fe_inline_left(Node *body);
void fe_shared32(Node *body);   /* shared32.c: shared offsets wrap in 32 bits */
/* class.c */
Cls *fe_cls(Fe *p, Record *r);
typedef struct Kids { CXCursor *v; int n, cap; } Kids;   /* a cursor's children */
Kids fe_kids(CXCursor c);                /* a cursor's children (parse.c) */
Kids cls_kids(Fe *p, CXCursor decl);   /* a class's children, an instantiation's too */
void fe_rec_bases(Fe *p, Record *r, CXCursor decl, CXCursor where);
void fe_rec_check(Fe *p, Record *r, CXCursor where);
bool fe_is_base(Fe *p, Record *from, Record *to);
Node *fe_upcast(Fe *p, Node *obj, Record *to);
Node *fe_downcast(Fe *p, Node *ptr, Type *to);
void fe_ctor_ids(Fe *p, Obj *self, Vec *out, const Node *at);
Obj *fe_vdispatch(Fe *p, CXCursor m, Record *r);
void fe_classes_finish(Fe *p);
Node *fe_new(Fe *p, CXCursor c, Node *at);
Node *fe_delete(Fe *p, CXCursor c, Node *ptr);
bool fe_has_dtor(Fe *p, Type *t);              /* a class, or array of one, with a destructor */
Node *fe_dtor_stmt(Fe *p, Obj *o, Node *at);   /* destroying local o */
Node *fe_dtor_call(Fe *p, Node *ptr, CXCursor dtor, bool virt);   /* p->~T() */
Node *fe_copy_dyn(Fe *p, Node *val, Record *r);   /* a copy made an r (its vptrs) */

/* cdp.c: device-side launches of overloaded and template kernels */
bool cdp_diag(CXDiagnostic d, char **name);   /* clang's refusal of one */
bool cdp_in_macro(CXDiagnostic d);
CXTranslationUnit cdp_resolve(CXIndex idx, const char *path, Vec *args, CXTranslationUnit tu, char **main,
                              size_t *n, bool verbose);
int cdp_wrap(CXTranslationUnit tu, const char *path, char **main, size_t *n);
struct CXUnsavedFile *cdp_unsaved(const char *path, const char *main, size_t n, unsigned *nuf);
int cdp_col(const char *file, unsigned line, unsigned col, unsigned off);
char *cdp_format(CXDiagnostic d);
CXCursor cdp_launch(CXCursor call);

/* host.c: the host unit */
typedef struct Launch { CXCursor call; } Launch;
int host_unit(Fe *p, Vec *kernel_cursors, Buf *out);
void host_tmpl_vars(Prog *prog, Buf *out);
void host_register(Prog *prog, Vec *kernel_cursors, Buf *out);

/* inline.c */
void fe_inline_exits(Obj *kernel);
int fe_inline_calls(Fe *p, Obj *fn, Vec *calls);   /* these calls inlined too: how many */
/* sroa.c: a function's objects whose address stays in it, one local per field */
void fe_sroa(Fe *p, Obj *fn);
Node *fe_dup(Node *n);   /* a deep copy of an expression */

/* spin.c: a lock that a warp's threads take, with its critical section,
 * outlined to a function run lane by lane */
void fe_spin(Fe *p, Prog *prog);

/* syncexpr.c: __syncthreads_count/and/or inside a condition or an
 * expression: a statement of its own before it */
void fe_sync_exprs(Obj *fn);

/* hostasm.c */
void fe_find_hostasm(CXTranslationUnit tu);

#endif
