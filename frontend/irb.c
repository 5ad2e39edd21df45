/* irb.c: the one builder of the IR nodes the frontend makes itself
 * (parse.c's expressions and statements, ptx.c's instructions, spin.c's
 * outlined locks, syncexpr.c's lifted barriers), so that every pass makes
 * a number, a variable's use or an assignment the same way: the fields
 * each kind's readers expect, the position a diagnostic shows. Each takes
 * its position (file, line, column) from a node or a cursor (Loc). */
#include "fe.h"

Loc ir_loc(const Node *n) { return (Loc){n->file, n->line, n->col}; }

Loc ir_cloc(CXCursor c) {
  Loc l;
  cx_loc(c, &l.file, &l.line, &l.col);
  return l;
}

Node *ir_new(NodeKind k, Loc at) {
  Node *n = xcalloc(1, sizeof *n);
  n->k = k;
  n->file = at.file;
  n->line = at.line;
  n->col = at.col;
  return n;
}

Node *ir_node(NodeKind k, CXCursor c) { return ir_new(k, ir_cloc(c)); }

Node *ir_num(Loc at, Type *t, int64_t v) {
  Node *n = ir_new(N_NUM, at);
  n->ty = t;
  n->ival = v;
  return n;
}

Node *ir_var(Loc at, Obj *o) {
  Node *n = ir_new(N_VAR, at);
  n->var = o;
  n->ty = o->ty;
  return n;
}

Node *ir_un(Loc at, Op op, Type *t, Node *x) {
  Node *n = ir_new(N_UN, at);
  n->op = op;
  n->ty = t;
  n->a = x;
  return n;
}

Node *ir_deref(Loc at, Node *p) { return ir_un(at, OP_DEREF, p->ty->base, p); }

Node *ir_bin(Loc at, Op op, Type *t, Node *x, Node *y) {
  Node *n = ir_new(N_BIN, at);
  n->op = op;
  n->ty = t;
  n->a = x;
  n->b = y;
  return n;
}

Node *ir_comma(Loc at, Node *x, Node *y) {
  Node *n = ir_new(N_COMMA, at);
  n->op = OP_COMMA;
  n->ty = y->ty;
  n->a = x;
  n->b = y;
  return n;
}

Node *ir_assign(Loc at, Node *l, Node *r) {
  Node *n = ir_new(N_ASSIGN, at);
  n->op = OP_ASSIGN;
  n->ty = l->ty;
  n->a = l;
  n->b = r;
  return n;
}

Node *ir_cast(Loc at, Type *t, Node *x) {
  Node *n = ir_new(N_CAST, at);
  n->ty = t;
  n->a = x;
  return n;
}

Node *ir_cond(Loc at, Type *t, Node *c, Node *x, Node *y) {
  Node *n = ir_new(N_COND, at);
  n->ty = t;
  n->a = c;
  n->b = x;
  n->c = y;
  return n;
}

Node *ir_call(Loc at, CallKind ck, char *name, Type *t) {
  Node *n = ir_new(N_CALL, at);
  n->ck = ck;
  n->name = name;
  n->ty = t;
  return n;
}

Node *ir_builtin(Loc at, Builtin b, int dim) {
  Node *n = ir_new(N_BUILTIN, at);
  n->ty = ir_type(TY_UINT);
  n->bk = b;
  n->dim = dim;
  return n;
}

Node *ir_member(Loc at, Node *x, Field *f) {
  Node *n = ir_new(N_MEMBER, at);
  n->a = x;
  n->field = f;
  n->ty = f->ty;
  return n;
}

Node *ir_stmt(Loc at, NodeKind k, Node *a) {
  Node *n = ir_new(k, at);
  n->a = a;
  return n;
}

Node *ir_if(Loc at, Node *c, Node *then, Node *els) {
  Node *n = ir_new(S_IF, at);
  n->a = c;
  n->b = then;
  n->c = els;
  return n;
}

Node *ir_decl(Loc at, Obj *o, Node *init) {
  Node *n = ir_new(S_DECL, at);
  n->var = o;
  n->a = init;
  return n;
}

/* (LP64, as every target of cucc's is) */
Type *ir_type(TyKind k) {
  static const int sz[TY_RECORD + 1] = {[TY_VOID] = 1, [TY_BOOL] = 1, [TY_CHAR] = 1, [TY_SCHAR] = 1, [TY_UCHAR] = 1,
                           [TY_SHORT] = 2, [TY_USHORT] = 2, [TY_INT] = 4, [TY_UINT] = 4, [TY_LONG] = 8,
                           [TY_ULONG] = 8, [TY_LLONG] = 8, [TY_ULLONG] = 8, [TY_FLOAT] = 4, [TY_DOUBLE] = 8};
  Type *t = xcalloc(1, sizeof *t);
  t->kind = k;
  t->size = t->align = sz[k];
  return t;
}

Type *ir_ptr(Type *base) {
  Type *t = xcalloc(1, sizeof *t);
  t->kind = TY_PTR;
  t->size = t->align = 8;
  t->base = base;
  return t;
}
