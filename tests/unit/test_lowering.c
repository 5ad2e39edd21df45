/* test_lowering.c: unit tests of the frontend and lowering passes. Each
 * case translates a small kernel and checks the shape of the warp-vectorized
 * C: what is per lane, what stays scalar, which masks and regions exist.
 * argv[1]: cucc's header folder (build/include/cucc). */
#include "cucc.h"
#include <unistd.h>

static int npass, nfail;
static const char *incdir;

static unsigned ckflags;   /* cucc --check's CU_CK_* for the next translate() */

static char *translate(const char *src, int *rc) {
  char path[] = "/tmp/cucc_unit_XXXXXX.cu";
  int fd = mkstemps(path, 3);
  if (fd < 0) { perror("mkstemps"); exit(2); }
  if (write(fd, src, strlen(src)) != (ssize_t)strlen(src)) { perror("write"); exit(2); }
  close(fd);
  CuOpts o = {0};
  o.incdir = incdir;
  o.check = ckflags;
  o.std = "c++17";
  Buf dev = {0}, host = {0};
  FILE *save = stderr;
  stderr = fopen("/dev/null", "w");   /* expected errors stay quiet */
  *rc = fe_translate(path, &o, &dev, &host);
  fclose(stderr);
  stderr = save;
  unlink(path);
  return dev.s ? dev.s : xstrdup("");
}

static void check(const char *test, const char *dev, const char *needle, bool want) {
  bool got = strstr(dev, needle) != NULL;
  if (got == want) { npass++; return; }
  nfail++;
  printf("FAIL %s: expected %s\"%s\" in the lowered C\n", test, want ? "" : "no ", needle);
}

#define HAS(t, d, s) check(t, d, s, true)
#define HASNT(t, d, s) check(t, d, s, false)

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: test_lowering INCDIR\n"); return 2; }
  incdir = argv[1];
  int rc;
  char *d;

  /* (over a 2-D block's threads: a 1-D kernel has a block-wide version
   * instead of whole rows) */
  d = translate("__global__ void k(float *a, int n) {\n"
                "  int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;\n"
                "  if (i < n) a[i] = 2 * a[i];\n}\n", &rc);
  check("vecadd compiles", rc == 0 ? "ok" : "", "ok", true);
  HAS("vecadd: i varies", d, "int i[32];");
  HAS("vecadd: n is a scalar", d, "int n = *(int const *)");
  HAS("vecadd: full warp needs no mask test", d, "for (int _l = 0; _l < _nl; _l++)");
  HAS("vecadd: divergent if gets a mask", d, "_mt");
  HASNT("vecadd: no loop mask", d, "_ml");
  HAS("vecadd: whole-row version", d, "if (CU_TAKE(_pf, CU_MODE_NO_ROW) && _bdm.x % 32u == 0)");
  HAS("vecadd: i is one base per warp there", d, "int i_b = ");
  HAS("vecadd: contiguous access a[i_b + lane] as a unit-stride pointer", d, "(&a[i_b])[_l]");
  HAS("vecadd: pure condition: lanes counted first", d, "for (int _l = 0; _l < _nl; _l++) _nt");
  HAS("vecadd: a warp that agrees runs the branch unmasked", d, "== _nl)");
  HASNT("vecadd: no lane can leave: no _m0 mask", d, "_m0");
  HAS("vecadd: i < n counted without a lane loop in whole rows", d, "cu_lanes_below((long long)(n) - (long long)(i_b), _nl)");

  d = translate("__global__ void k(const float *A, float *C, int w) {\n"
                "  __shared__ float As[32][33];\n"
                "  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 32 + ty;\n"
                "  As[ty][tx] = A[row * w + tx];\n"
                "  __syncthreads();\n"
                "  float acc = 0;\n"
                "  for (int k = 0; k < 32; k++) acc += As[ty][k];\n"
                "  C[row * w + tx] = acc;\n}\n", &rc);
  HAS("row value: threadIdx.y is one value per whole-row warp", d, "int ty_b = ");
  HAS("row value: row is too", d, "row_b = ");
  HAS("row value: As[ty][k] is a broadcast", d, "As[ty_b][k]");
  HAS("row + lane: A[row * w + tx] is unit stride", d, "(&A[((row_b * w) + tx_b)])[_l]");
  HAS("half rows: a version for 16 x 2k blocks", d, "_bdm.x == 16u && _bdm.y % 2u == 0");
  HAS("half rows: lane loops are sub-row x column", d, "for (int _r = 0; _r < 2; _r++) CU_LANES for (int _x = 0, _l = _r * 16; _l < _r * 16 + 16; _x++, _l++)");
  HAS("half rows: row value per sub-row, broadcast", d, "As[ty_b[_r]][k]");
  HASNT("row value set once from thread indices: recomputed, not kept", d, "ty_all");

  d = translate("__global__ void k(const float *A, const float *B, float *C, int w) {\n"
                "  __shared__ float As[16][16], Bs[16][16];\n"
                "  int tx = threadIdx.x, ty = threadIdx.y;\n"
                "  float acc = 0, f = 2.0f * tx;\n"
                "  for (int m = 0; m < w / 16; m++) {\n"
                "    As[ty][tx] = A[ty * w + m * 16 + tx]; Bs[ty][tx] = B[(m * 16 + ty) * w + tx];\n"
                "    __syncthreads();\n"
                "    for (int k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx] * f;\n"
                "    __syncthreads();\n"
                "  }\n"
                "  C[ty * w + tx] = acc;\n}\n", &rc);
  /* jammed (version.c, lw_jam): the loop outside the lanes, their scalars
   * in an array; half rows also two warps at a time */
  HAS("short uniform loop, jammed: the lanes' accumulators in an array", d, "float _s_acc[32];");
  HAS("short uniform loop, jammed: loaded once", d, "CU_UNROLL for (int _l = 0; _l < 32; _l++) _s_acc[_l] = acc[_l];");
  HAS("short uniform loop, jammed: the loop outside the lanes", d, "for (int k = 0; (k < 16); (k++))\n                  CU_LANES for (int _l = 0; _l < _nl; _l++) {");
  HAS("short uniform loop, jammed: the loop updates the array", d, "(_s_acc[_l] += ");
  HAS("short uniform loop, jammed: half rows too", d, "(_s_acc[_l] += ((As[ty_b[_r]][k]");
  HASNT("short uniform loop, jammed: no store per iteration in half rows", d, "(acc[_l] += ((As[ty_b");
  HAS("short uniform loop, jammed: stored back once", d, "acc[_l] = _s_acc[_l];");
  HAS("short uniform loop, jammed: a value it only reads in the array", d, "_s_f[_l] = f[_l];");
  HASNT("short uniform loop, jammed: no store of a value it only reads", d, "f[_l] = _s_f[_l];");
  HAS("half rows in pairs of warps: for blocks of 16 x 4k", d, "_bdm.x == 16u && _bdm.y % 4u == 0");
  HAS("half rows in pairs of warps: two warps a step", d, "_w += 2, cu_rows_next(_B, &_ty0, &_tz0, 4u)");
  HAS("whole rows in pairs of warps: for blocks of 32 x 2k", d, "_bdm.x == 32u && _bdm.y % 2u == 0");
  HAS("half rows in pairs of warps: 64 lanes jammed", d, "float _s_acc[64];");

  d = translate("__global__ void k(int *a, int n) {\n"
                "  int x;\n"
                "  if ((x = a[threadIdx.x]) > n) a[threadIdx.x] = x; else a[threadIdx.x] = 0;\n}\n", &rc);
  HAS("impure condition: evaluated once into the masks", d, "+= _c;");
  HAS("impure condition: else mask counted", d, "_ne");

  d = translate("__global__ void k(const float *a, float *c, int n) {\n"
                "  float acc = 0;\n"
                "  for (int k = 0; k < n; k++) acc += a[k * 32 + threadIdx.x];\n"
                "  c[threadIdx.x] = acc;\n}\n", &rc);
  HAS("uniform loop stays a C loop", d, "for (int k = 0; (k < n); (k++))");
  HAS("uniform loop: acc varies", d, "float acc[32];");
  HASNT("uniform loop: no loop mask", d, "_ml");

  d = translate("__global__ void k(int *c) {\n"
                "  int s = 0;\n"
                "  for (int k = 0; k < threadIdx.x; k++) { if (k == 5) continue; s += k; if (s > 50) break; }\n"
                "  c[threadIdx.x] = s;\n}\n", &rc);
  HAS("divergent loop: loop mask", d, "unsigned char _ml");
  HAS("divergent loop: iteration mask for continue", d, "unsigned char _mi");
  HASNT("divergent loop: k is one value for the lanes still in it", d, "int k[32];");

  d = translate("__global__ void k(int *c, int n) {\n"
                "  if (threadIdx.x >= n) return;\n"
                "  c[threadIdx.x] = 1;\n}\n", &rc);
  HAS("early return clears lanes", d, "_m0[_l] = 0;");
  HAS("early return: warp ends when no lane is left", d, "if (!cu_any(_m0)) goto");

  d = translate("__global__ void k(const float *in, float *out) {\n"
                "  __shared__ float s[256];\n"
                "  unsigned int t = threadIdx.x;\n"
                "  unsigned int i = blockIdx.x * blockDim.x + t;\n"
                "  s[t] = in[i];\n"
                "  __syncthreads();\n"
                "  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {\n"
                "    if (t % (2 * stride) == 0) s[t] += s[t + stride];\n"
                "    __syncthreads();\n"
                "  }\n"
                "  if (t == 0) out[blockIdx.x] = s[0];\n}\n", &rc);
  HASNT("reduction: t = threadIdx.x is recomputed in each region, not kept", d, "t_all");
  HASNT("reduction: i stays in its region", d, "i_all");
  HAS("reduction: stride is one block-level scalar", d, "unsigned int stride;");
  HAS("reduction: shared memory is a uniform pointer", d, "float *s = (float *)(_B->smem + 0);");
  HAS("reduction: barrier is a region boundary", d, "/* __syncthreads(): ");
  HAS("reduction: t % (2 * stride) == 0 holds in every (2*stride)-th lane, counted without a lane loop", d,
      "cu_lanes_divisible((long long)(t_b), (long long)((2u * stride)), _nl, &_f");
  HAS("reduction: its branch runs over those lanes only", d, "_l < _nl; _l += _s");
  HAS("reduction: the regions have a block-wide version", d, "/* 1-D block: one loop over its threads */");
  HAS("lane loops carry CU_LANES", d, "CU_LANES for (int _l");
  HAS("reduction: t == 0 counted without a lane loop (one-lane run)", d,
      "cu_lanes_below((long long)(0u) - (long long)(t_b) + 1, _nl) - cu_lanes_below((long long)(0u) - (long long)(t_b), _nl)");
  HASNT("reduction: a 1-D kernel's block-wide version takes the launches whole rows would", d, "whole-row warps");
  /* the same reduction over a 2-D block's threads: whole-row warps */
  d = translate("__global__ void k(const float *in, float *out) {\n"
                "  __shared__ float s[256];\n"
                "  unsigned int t = threadIdx.y * blockDim.x + threadIdx.x;\n"
                "  s[t] = in[blockIdx.x * 256 + t];\n"
                "  __syncthreads();\n"
                "  for (unsigned int stride = 1; stride < 256; stride *= 2) {\n"
                "    if (t % (2 * stride) == 0) s[t] += s[t + stride];\n"
                "    __syncthreads();\n"
                "  }\n"
                "  if (t == 0) out[blockIdx.x] = s[0];\n}\n", &rc);
  HAS("2-D reduction: whole-row warps", d, "whole-row warps");
  HAS("2-D reduction: every 2nd/4th/8th lane as a blend over the span", d,
      "_on ? (&s[cu_ubase(t_b)])[_l] + _v : (&s[cu_ubase(t_b)])[_l];");

  d = translate("__global__ void k(const float *in, float *out, int n) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  float v = i < n ? in[i] : 0;\n"
                "  out[i / 2] = v;\n}\n", &rc);
  HAS("bounds test as ?: : plain loads when every lane passes", d, "v[_l] = ((&in[i_b])[_l]);");
  HAS("bounds test as ?: : a warp that splits, the first arm over its run", d,
      "CU_LANES for (int _l = 0; _l < _cut2; _l++) {\n          v[_l] = ((&in[i_b])[_l]);");
  HAS("bounds test as ?: : a warp that splits, the second arm over the rest", d,
      "CU_LANES for (int _l = _cut2; _l < _nl; _l++) {\n          v[_l] = (0);");

  d = translate("__global__ void k(const float *in, float *out, int n) {\n"
                "  __shared__ float s[64];\n"
                "  float v = in[threadIdx.x];\n"
                "  int t = threadIdx.x, u = t + n, w = t;\n"
                "  w += 1;\n"
                "  s[t] = v;\n"
                "  __syncthreads();\n"
                "  out[u] = s[63 - t] + v + w;\n}\n", &rc);
  HAS("a loaded value crosses the barrier in per-thread storage", d, "float *restrict v = v_all[_w];");
  HASNT("t = threadIdx.x is recomputed", d, "t_all");
  HASNT("u = t + n (a parameter) is recomputed", d, "u_all");
  HAS("u recomputed from t in the second region", d, "int u_b = (t_b + n);");
  HAS("w is stored twice: kept", d, "w_all");

  d = translate("__global__ void k(int *p) {\n"
                "  if (threadIdx.x % 2 == 0) { p[threadIdx.x] = 1; __syncthreads(); }\n}\n", &rc);
  HAS("faulty kernel: barrier divergence check", d, "cu_barrier_diverged");

  d = translate("__global__ void k(int *p) {\n"
                "  int c = __syncthreads_count(threadIdx.x % 3 == 0);\n"
                "  p[threadIdx.x] = c;\n}\n", &rc);
  HAS("__syncthreads_count counts live threads", d, "_nc += ");

  d = translate("__global__ void k(int *p, int u) {\n"
                "  switch (threadIdx.x % 4) { case 0: p[0] = 1; case 1: p[1] = 1; break; default: p[2] = 1; }\n"
                "  switch (u) { case 0: p[3] = 1; break; default: p[4] = 1; }\n}\n", &rc);
  HAS("divergent switch: running mask", d, "unsigned char _ms");
  HAS("uniform switch stays a C switch", d, "switch (u) {");

  d = translate("template <int T> __global__ void k(float *p) { __shared__ float s[T]; s[threadIdx.x] = 1; p[0] = s[0]; }\n"
                "void h(float *p) { k<16><<<1, 16>>>(p); k<8><<<1, 8>>>(p); }\n", &rc);
  HAS("template: instantiation for 16", d, "ILi16E");
  HAS("template: instantiation for 8", d, "ILi8E");

  d = translate("__global__ void k(float *p) {\n"
                "  float r[4];\n"
                "  for (int j = 0; j < 4; j++) r[j] = p[threadIdx.x * 4 + j];\n"
                "  float q[4]; float *pq = q; pq[1] = r[2];\n"
                "  p[threadIdx.x] = r[0] + q[1];\n}\n", &rc);
  HAS("local array indexed directly is element-major", d, "float r[4][32];");
  HAS("local array whose address escapes is lane-major", d, "float q[32][4];");

  d = translate("__global__ void k(int *p) { int i = 0; again: i++; if (i < 3) goto again; p[0] = i; }\n", &rc);
  check("goto is rejected", rc != 0 ? "yes" : "", "yes", true);

  /* cucc --check: affine warp accesses are tested as ranges in the fast
   * versions, the lanes checked one by one only when a test fails */
  ckflags = 1 | 2 | 4 | 8;   /* memcheck, racecheck, synccheck, initcheck */
  d = translate("__global__ void k(const float *x, float *y, int n) {\n"
                "  __shared__ float s[256];\n"
                "  int t = threadIdx.y * blockDim.x + threadIdx.x, i = blockIdx.x * 256 + t;\n"
                "  s[t] = x[i];\n  __syncthreads();\n"
                "  if (i < n) y[i] = s[t] + s[0];\n}\n", &rc);
  check("checked kernel compiles", rc == 0 ? "ok" : "", "ok", true);
  HAS("checked: whole-row version kept", d, "whole-row warps");
  HAS("checked: x[i] one range test per warp", d, "cu_ck_rng(_B, _w * 32u, 1u, &(x)[i_b], _nl, sizeof (x)[0]");
  HAS("checked: s[0] one broadcast test", d, "cu_ck_rng(_B, _w * 32u, 1u, &s[0], _nl, 0,");
  HAS("checked: the lanes run unchecked after the tests", d, "((&s[t_b])[_l] = (&x[i_b])[_l]);");
  HAS("checked: a failed test checks lane by lane", d, "} else {\n          CU_LANES for (int _l = 0; _l < _nl; _l++) {\n            ((*(float *)cu_ck(");
  d = translate("__global__ void k(float *y, int s) {\n"
                "  int t = threadIdx.y * blockDim.x + threadIdx.x;\n"
                "  if (t % (2 * s) == 0) y[t] += y[t + s];\n}\n", &rc);
  HAS("checked: every 2s-th lane, a run tested as one range", d,
      "(unsigned)(_s2), &(y)[t_b + (_cut2)], ((long)(_nl) - (long)(_cut2) + (_s2) - 1) / (_s2), (_s2) * sizeof (y)[0]");
  HAS("checked: so the whole-row version stays", d, "whole-row warps");
  HASNT("checked: no blend of the run (its accesses would be checked lane by lane)", d, "a dense run");
  /* a uniform loop of lane statements tested as a whole before it; half
   * rows tested per sub-row */
  const char *mm = "__global__ void k(const float *a, const float *b, float *c, int n) {\n"
                   "  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;\n"
                   "  float sum = 0;\n"
                   "  for (int k = 0; k < 16; k++) sum += a[row * 16 + k] * b[k * n + col];\n"
                   "  c[row * n + col] = sum;\n}\n";
  d = translate(mm, &rc);
  HAS("checked loop: one test of all its iterations", d, "_lt");
  HAS("checked loop: b's rows, one per iteration", d, "cu_ck_rng2(_B, _w * 32u, 1u, _lp");
  HAS("checked loop: half rows tested per sub-row", d, "for (int _r = 0; _r < 2 && _lk");
  HAS("checked loop: half-row statement test inside its sub-row", d,
      "cu_ck_rng(_B, _w * 32u + (unsigned)_r * 16u, 1u, &(c)[");
  HAS("checked loop: runs as the unchecked build prints it", d, "_s_sum[_l] = sum[_l];");
  d = translate("__global__ void k(float *y) {\n"
                "  __shared__ float s[64];\n"
                "  s[threadIdx.x] = 0;\n"
                "  for (int k = 0; k < 4; k++) s[threadIdx.x] += y[k * 32 + threadIdx.x];\n"
                "  y[threadIdx.x] = s[threadIdx.x];\n}\n", &rc);
  HASNT("checked loop: no whole-loop test when it writes shared memory", d, "cu_ck_rng2(");
  HAS("checked loop: its statements tested one at a time instead", d, "cu_ck_rng(_B, _w * 32u, 1u, &(y)[");
  d = translate("__global__ void k(const float *x, float *y, int m) {\n"
                "  float r[4] = {(float)threadIdx.x, 2, 3, 4}, acc = 0;\n"
                "  for (int k = 0; k < m; k++) acc += r[k] * x[k * 32 + threadIdx.x];\n"
                "  y[threadIdx.x] = acc;\n}\n", &rc);
  HASNT("checked loop: no whole-loop test when a local array's index is checked in it", d, "cu_ck_rng2(");
  HAS("checked loop: the local index keeps its check", d, "cu_ck_index(");
  ckflags = 1 | 8;   /* memcheck, initcheck: the shared write is no hazard to order */
  d = translate("__global__ void k(float *y) {\n"
                "  __shared__ float s[64];\n"
                "  s[threadIdx.x] = 0;\n"
                "  for (int k = 0; k < 4; k++) s[threadIdx.x] += y[k * 32 + threadIdx.x];\n"
                "  y[threadIdx.x] = s[threadIdx.x];\n}\n", &rc);
  HAS("checked loop without racecheck: shared writes tested as a whole", d, "cu_ck_rng2(");
  ckflags = 0;

  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
