/* test_eval.c: frontend/eval.c, the one constant evaluator, on IR built by
 * hand: C's values (wrapping, truncation, signedness, the usual
 * conversions, the side of ?: && || taken) and no value where C has none
 * (division by zero, signed overflow, shifts out of range). */
#include "cucc.h"
#include <limits.h>

static int npass, nfail;

static Type T_BOOL = {.kind = TY_BOOL, .size = 1, .align = 1}, T_CHAR = {.kind = TY_CHAR, .size = 1, .align = 1},
            T_SCHAR = {.kind = TY_SCHAR, .size = 1, .align = 1}, T_UCHAR = {.kind = TY_UCHAR, .size = 1, .align = 1},
            T_SHORT = {.kind = TY_SHORT, .size = 2, .align = 2}, T_INT = {.kind = TY_INT, .size = 4, .align = 4},
            T_UINT = {.kind = TY_UINT, .size = 4, .align = 4}, T_LONG = {.kind = TY_LONG, .size = 8, .align = 8},
            T_ULONG = {.kind = TY_ULONG, .size = 8, .align = 8}, T_LLONG = {.kind = TY_LLONG, .size = 8, .align = 8},
            T_ULLONG = {.kind = TY_ULLONG, .size = 8, .align = 8}, T_DOUBLE = {.kind = TY_DOUBLE, .size = 8, .align = 8};

static Node *mk(NodeKind k, Type *t) {
  Node *n = xcalloc(1, sizeof *n);
  n->k = k;
  n->ty = t;
  return n;
}
static Node *num(Type *t, int64_t v) {
  Node *n = mk(N_NUM, t);
  n->ival = v;
  return n;
}
static Node *fnum(double v) {
  Node *n = mk(N_FNUM, &T_DOUBLE);
  n->fval = v;
  return n;
}
static Node *bin(Op op, Type *t, Node *a, Node *b) {
  Node *n = mk(N_BIN, t);
  n->op = op, n->a = a, n->b = b;
  return n;
}
static Node *logic(Op op, Node *a, Node *b) {
  Node *n = mk(N_LOG, &T_BOOL);
  n->op = op, n->a = a, n->b = b;
  return n;
}
static Node *un(Op op, Type *t, Node *a) {
  Node *n = mk(N_UN, t);
  n->op = op, n->a = a;
  return n;
}
static Node *cast(Type *t, Node *a) {
  Node *n = mk(N_CAST, t);
  n->a = a;
  return n;
}
static Node *cond(Node *c, Node *a, Node *b) {
  Node *n = mk(N_COND, a->ty);
  n->a = c, n->b = a, n->c = b;
  return n;
}
static Node *var(Obj *o) {
  Node *n = mk(N_VAR, o->ty);
  n->var = o;
  return n;
}

static void is(const char *what, Node *n, int64_t want) {
  int64_t v = 0;
  bool ok = ev_int(n, &v);
  if (ok && v == want) { npass++; return; }
  nfail++;
  if (ok) printf("FAIL %s: %lld, expected %lld\n", what, (long long)v, (long long)want);
  else printf("FAIL %s: no value, expected %lld\n", what, (long long)want);
}
static void none(const char *what, Node *n) {
  int64_t v;
  if (!ev_int(n, &v)) { npass++; return; }
  nfail++;
  printf("FAIL %s: %lld, expected no value\n", what, (long long)v);
}

static bool forty_one(Obj *o, int64_t *v, void *ctx) { return o == ctx && (*v = 41, true); }

int main(void) {
  /* the lane split of dmmaTensorCoreGemm: 32 / ((32 * sizeof(int4)) / (64 * sizeof(double))) */
  Node *l = bin(OP_DIV, &T_ULONG, cast(&T_ULONG, num(&T_INT, 32)),
                bin(OP_DIV, &T_ULONG, bin(OP_MUL, &T_ULONG, cast(&T_ULONG, num(&T_INT, 32)), num(&T_ULONG, 16)),
                    bin(OP_MUL, &T_ULONG, cast(&T_ULONG, num(&T_INT, 64)), num(&T_ULONG, 8))));
  is("lane split", l, 32);
  is("lane split as int", cast(&T_INT, l), 32);
  Node *ws = mk(N_BUILTIN, &T_INT);
  ws->bk = B_WSIZE;
  is("warpSize - 1", bin(OP_SUB, &T_INT, ws, num(&T_INT, 1)), 31);

  /* arithmetic: unsigned wraps, signed overflow has no value */
  is("UINT_MAX + 1u", bin(OP_ADD, &T_UINT, num(&T_UINT, UINT_MAX), num(&T_UINT, 1)), 0);
  is("0u - 1u", bin(OP_SUB, &T_UINT, num(&T_UINT, 0), num(&T_UINT, 1)), UINT_MAX);
  is("ULLONG_MAX + 1", bin(OP_ADD, &T_ULLONG, num(&T_ULLONG, -1), num(&T_ULLONG, 1)), 0);
  none("INT_MAX + 1", bin(OP_ADD, &T_INT, num(&T_INT, INT_MAX), num(&T_INT, 1)));
  none("INT_MIN - 1", bin(OP_SUB, &T_INT, num(&T_INT, INT_MIN), num(&T_INT, 1)));
  none("65536 * 65536", bin(OP_MUL, &T_INT, num(&T_INT, 65536), num(&T_INT, 65536)));
  is("65536L * 65536L", bin(OP_MUL, &T_LONG, num(&T_LONG, 65536), num(&T_LONG, 65536)), INT64_C(1) << 32);
  none("LLONG_MAX + 1", bin(OP_ADD, &T_LLONG, num(&T_LLONG, LLONG_MAX), num(&T_LLONG, 1)));
  none("-INT_MIN", un(OP_NEG, &T_INT, num(&T_INT, INT_MIN)));
  is("-1u", un(OP_NEG, &T_UINT, num(&T_UINT, 1)), UINT_MAX);
  is("~0", un(OP_BNOT, &T_INT, num(&T_INT, 0)), -1);
  is("~0u", un(OP_BNOT, &T_UINT, num(&T_UINT, 0)), UINT_MAX);
  is("!7", un(OP_LNOT, &T_BOOL, num(&T_INT, 7)), 0);

  /* division: C's rounding towards 0; by 0, or MIN / -1: none */
  is("-7 / 2", bin(OP_DIV, &T_INT, num(&T_INT, -7), num(&T_INT, 2)), -3);
  is("-7 % 2", bin(OP_MOD, &T_INT, num(&T_INT, -7), num(&T_INT, 2)), -1);
  is("-7u / 2u (as unsigned)", bin(OP_DIV, &T_UINT, num(&T_UINT, (uint32_t)-7), num(&T_UINT, 2)), 2147483644);
  none("1 / 0", bin(OP_DIV, &T_INT, num(&T_INT, 1), num(&T_INT, 0)));
  none("1u % 0u", bin(OP_MOD, &T_UINT, num(&T_UINT, 1), num(&T_UINT, 0)));
  none("INT_MIN / -1", bin(OP_DIV, &T_INT, num(&T_INT, INT_MIN), num(&T_INT, -1)));
  none("INT_MIN % -1", bin(OP_MOD, &T_INT, num(&T_INT, INT_MIN), num(&T_INT, -1)));
  none("LLONG_MIN / -1", bin(OP_DIV, &T_LLONG, num(&T_LLONG, LLONG_MIN), num(&T_LLONG, -1)));
  is("ULLONG_MAX / 2", bin(OP_DIV, &T_ULLONG, num(&T_ULLONG, -1), num(&T_ULLONG, 2)), LLONG_MAX);

  /* shifts: by less than the promoted width; a signed one not negative
   * and not overflowing to the left */
  is("1 << 30", bin(OP_SHL, &T_INT, num(&T_INT, 1), num(&T_INT, 30)), 1 << 30);
  none("1 << 31", bin(OP_SHL, &T_INT, num(&T_INT, 1), num(&T_INT, 31)));
  none("1 << 32", bin(OP_SHL, &T_INT, num(&T_INT, 1), num(&T_INT, 32)));
  none("1 << -1", bin(OP_SHL, &T_INT, num(&T_INT, 1), num(&T_INT, -1)));
  none("-1 << 1", bin(OP_SHL, &T_INT, num(&T_INT, -1), num(&T_INT, 1)));
  is("1u << 31", bin(OP_SHL, &T_UINT, num(&T_UINT, 1), num(&T_INT, 31)), INT64_C(1) << 31);
  is("3u << 31 (wraps)", bin(OP_SHL, &T_UINT, num(&T_UINT, 3), num(&T_INT, 31)), INT64_C(1) << 31);
  is("1ull << 63", bin(OP_SHL, &T_ULLONG, num(&T_ULLONG, 1), num(&T_INT, 63)), INT64_MIN);
  is("-8 >> 1", bin(OP_SHR, &T_INT, num(&T_INT, -8), num(&T_INT, 1)), -4);
  is("0x80000000u >> 31", bin(OP_SHR, &T_UINT, num(&T_UINT, 0x80000000u), num(&T_UINT, 31)), 1);
  none("(char)1 << 32 (promoted to int)", bin(OP_SHL, &T_INT, cast(&T_INT, num(&T_SCHAR, 1)), num(&T_INT, 32)));

  /* conversions: to the type's width and signedness */
  is("(unsigned char)300", cast(&T_UCHAR, num(&T_INT, 300)), 44);
  is("(signed char)200", cast(&T_SCHAR, num(&T_INT, 200)), -56);
  is("(short)70000", cast(&T_SHORT, num(&T_INT, 70000)), 4464);
  is("(unsigned)-1", cast(&T_UINT, num(&T_INT, -1)), UINT_MAX);
  is("(long long)ULLONG_MAX", cast(&T_LLONG, num(&T_ULLONG, -1)), -1);
  is("(bool)256", cast(&T_BOOL, num(&T_INT, 256)), 1);
  is("(char)65", cast(&T_CHAR, num(&T_INT, 65)), 65);
  none("(char)200 (plain char's sign is the target's)", cast(&T_CHAR, num(&T_INT, 200)));
  is("'\\xff' as clang read it", num(&T_CHAR, -1), -1);
  is("(int)2.9", cast(&T_INT, fnum(2.9)), 2);
  is("(int)-2.9", cast(&T_INT, un(OP_NEG, &T_DOUBLE, fnum(2.9))), -2);
  is("(unsigned)-0.5", cast(&T_UINT, un(OP_NEG, &T_DOUBLE, fnum(0.5))), 0);
  none("(unsigned)-1.0", cast(&T_UINT, un(OP_NEG, &T_DOUBLE, fnum(1.0))));
  none("(int)1e10", cast(&T_INT, fnum(1e10)));
  is("(bool)0.5", cast(&T_BOOL, fnum(0.5)), 1);
  none("2.5 + 1 (a floating value)", bin(OP_ADD, &T_DOUBLE, fnum(2.5), fnum(1)));

  /* comparisons: after the usual arithmetic conversions */
  is("-1 < 0u", bin(OP_LT, &T_BOOL, num(&T_INT, -1), num(&T_UINT, 0)), 0);
  is("-1 < 0", bin(OP_LT, &T_BOOL, num(&T_INT, -1), num(&T_INT, 0)), 1);
  is("-1L < 0u", bin(OP_LT, &T_BOOL, num(&T_LONG, -1), num(&T_UINT, 0)), 1);
  is("(unsigned char)255 + 1 (as int)", bin(OP_ADD, &T_INT, cast(&T_INT, num(&T_UCHAR, 255)), num(&T_INT, 1)), 256);

  /* the side taken only */
  Node *div0 = bin(OP_DIV, &T_INT, num(&T_INT, 1), num(&T_INT, 0));
  is("1 ? 5 : 1 / 0", cond(num(&T_INT, 1), num(&T_INT, 5), div0), 5);
  none("0 ? 5 : 1 / 0", cond(num(&T_INT, 0), num(&T_INT, 5), div0));
  is("0 && 1 / 0", logic(OP_LAND, num(&T_INT, 0), div0), 0);
  is("1 || 1 / 0", logic(OP_LOR, num(&T_INT, 1), div0), 1);
  is("1 && 2", logic(OP_LAND, num(&T_INT, 1), num(&T_INT, 2)), 1);
  none("1 && 1 / 0", logic(OP_LAND, num(&T_INT, 1), div0));

  /* a node whose operands are not of its type (none clang makes): no guess */
  none("int node of long operands", bin(OP_ADD, &T_INT, num(&T_LONG, 1), num(&T_LONG, 2)));

  /* variables: what the caller says, or a const static's constant */
  Obj x = {.name = "x", .ty = &T_INT}, y = {.name = "y", .ty = &T_INT};
  int64_t v = 0;
  Node *x1 = bin(OP_ADD, &T_INT, var(&x), num(&T_INT, 1));
  none("x + 1", x1);
  bool ok = ev_intv(x1, forty_one, &x, &v) && v == 42;
  ok &= !ev_intv(bin(OP_ADD, &T_INT, var(&y), num(&T_INT, 1)), forty_one, &x, &v);
  Type cint = T_INT;
  cint.is_const = true;
  Obj s = {.name = "s", .ty = &cint, .dev_def = true, .dev_init = num(&T_INT, 7)};
  ok &= ev_int(bin(OP_MUL, &T_INT, var(&s), num(&T_INT, 3)), &v) && v == 21;
  s.ty = &T_INT;   /* (not const: it may change) */
  ok &= !ev_int(var(&s), &v);
  /* ev_const: literals only, even in the arm not taken */
  Node *c = cond(num(&T_INT, 1), num(&T_INT, 5), var(&x));
  ok &= ev_int(c, &v) && v == 5 && !ev_const(c, &v);
  ok &= ev_const(l, &v) && v == 32;
  if (ok) npass++;
  else nfail++, printf("FAIL variables\n");

  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
