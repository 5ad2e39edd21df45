/* fe.h: frontend-internal state shared by parse.c, host.c and translate.c. */
#ifndef CUCC_FE_H
#define CUCC_FE_H
#include "cucc.h"
#include <clang-c/Index.h>

typedef struct VarMap { CXCursor c; Obj *o; } VarMap;
typedef struct FnMap { CXCursor c; Obj *o; } FnMap;

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
  Vec host_used;       /* CXCursor*: __device__ functions that host code calls
                          (a user's functor run by Thrust's CPU systems):
                          the host unit keeps their bodies */
} Fe;

char *cx_str(CXString s);
void cx_loc(CXCursor c, const char **file, int *line, int *col);
bool cx_has_attr(CXCursor c, enum CXCursorKind a);
const char *fe_intern(char *s);
Type *mk_type(Fe *p, CXType t, CXCursor where);
Obj *fe_func(Fe *p, CXCursor def);
void fe_globals(Fe *p);
Node *fe_inline(Fe *p, Node *s);   /* inline.c */
/* parse.c's builders, for ptx.c */
Node *fe_node(NodeKind k, CXCursor c);
Node *fe_expr(Fe *p, CXCursor c);
bool fe_warp_call(CXCursor c, Node *n, const char *name);
Node *fe_asm(Fe *p, CXCursor c);   /* ptx.c: an asm statement */
void fe_inline_left(Node *body);

/* host.c: the host unit */
typedef struct Launch { CXCursor call; } Launch;
int host_unit(Fe *p, Vec *kernel_cursors, Buf *out);
void host_register(Prog *prog, Vec *kernel_cursors, Buf *out);

#endif
