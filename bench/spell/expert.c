/* expert.c: the baseline of bench/spell: for each kind of kernel there, the
 * best C + OpenMP we can write for the same work on the same data (the same
 * generators as the .cu programs), parallel over every core, vectorized, with
 * per-thread data kept apart. Built -O3 -march=native -fopenmp
 * -fno-math-errno (GPU math never sets errno; cucc builds device code so too).
 * Usage: ./expert KIND N REPS; prints "TIME ms" per repetition (the work
 * only), then checks the last result and prints PASS or FAIL (exit 1). */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
#define MIN(a, b) ((a) < (b) ? (a) : (b))
static int fail(const char *what, long i, double got, double want) {
  printf("FAIL: %s[%ld] = %.9g, expected %.9g\n", what, i, got, want);
  return 0;
}
static void *xalloc(size_t n) {   /* 64-byte aligned, whole lines */
  void *p = aligned_alloc(64, (n + 63) / 64 * 64);
  if (!p) { fprintf(stderr, "expert: out of memory\n"); exit(2); }
  return p;
}
static float hash8(unsigned i, unsigned k) { return (float)((i * k) >> 24) / 128.0f - 1.0f; }

/* Vectors of the machine's width for the matmul's micro-kernel and the scan. */
#if defined(__AVX512F__)
#define VL 16
#elif defined(__AVX__)
#define VL 8
#else
#define VL 4
#endif
typedef float vf __attribute__((vector_size(VL * 4)));
typedef float vfu __attribute__((vector_size(VL * 4), aligned(4)));
typedef int vi __attribute__((vector_size(VL * 4)));

/* ---- sums (every reduction spelling) ---- */
static int red(long n, int reps) {
  float *a = xalloc(n * sizeof(float));
  double gold = 0, s = 0;
  for (long i = 0; i < n; i++) gold += a[i] = (float)(((unsigned)i * 2654435761u) >> 31);
  /* float sums of 4096-element chunks (vectorized), added in double */
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (long c = 0; c < n; c += 4096) {
      float p = 0;
      long e = MIN(c + 4096, n);
#pragma omp simd reduction(+ : p)
      for (long i = c; i < e; i++) p += a[i];
      s += p;
    }
    printf("TIME %.4f\n", now() - t0);
  }
  return s == gold || fail("sum", 0, s, gold);
}

/* ---- matmul: packed panels and a register-blocked micro-kernel ---- */
/* C = A B, n x n, row-major. B is packed in KC x NR slivers shared by the
 * threads, A in MC x KC blocks per thread (MR-row slivers); the micro-kernel
 * keeps an MR x NR block of C in 2 MR vector registers. */
#define MR 6
#define NR (2 * VL)
#define KC 256
#define NC 2048
static void ukernel(int kc, const float *restrict a, const float *restrict b, float *restrict c, long ldc, int add) {
  vf acc[MR][2];
#pragma GCC unroll 16
  for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = (vf){0};
  for (int k = 0; k < kc; k++) {
    vf b0 = *(const vf *)(b + (long)k * NR), b1 = *(const vf *)(b + (long)k * NR + VL);
#pragma GCC unroll 16
    for (int i = 0; i < MR; i++) {
      vf ai = (vf){0} + a[(long)k * MR + i];
      acc[i][0] += ai * b0;
      acc[i][1] += ai * b1;
    }
  }
#pragma GCC unroll 16
  for (int i = 0; i < MR; i++) {
    vfu *p = (vfu *)(c + i * ldc);
    if (add) { p[0] += acc[i][0]; p[1] += acc[i][1]; }
    else { p[0] = acc[i][0]; p[1] = acc[i][1]; }
  }
}

static void gemm(const float *A, const float *B, float *C, int n, float *bp) {
  /* as many row blocks of about 96 as a multiple of the thread count */
  int nt = omp_get_max_threads(), nblk = (n + 95) / 96;
  nblk = (nblk + nt - 1) / nt * nt;
  int mc = ((n + nblk - 1) / nblk + MR - 1) / MR * MR;
  for (int jc = 0; jc < n; jc += NC) {
    int nc = MIN(n - jc, NC);
    for (int pc = 0; pc < n; pc += KC) {
      int kc = MIN(n - pc, KC);
#pragma omp parallel
      {
#pragma omp for schedule(static)
        for (int j = 0; j < nc; j += NR) {   /* pack B's panel, zero-padded */
          float *d = bp + (long)j * kc;
          int w = MIN(nc - j, NR);
          for (int k = 0; k < kc; k++) {
            const float *s = B + (long)(pc + k) * n + jc + j;
            for (int x = 0; x < NR; x++) d[(long)k * NR + x] = x < w ? s[x] : 0;
          }
        }
        float *ap = xalloc(sizeof(float) * KC * (mc + MR));
        float tmp[MR * NR] __attribute__((aligned(64)));
#pragma omp for schedule(static)
        for (int ic = 0; ic < n; ic += mc) {
          int m = MIN(n - ic, mc);
          for (int i = 0; i < m; i += MR) {   /* pack A's block */
            float *d = ap + (long)i * kc;
            int h = MIN(m - i, MR);
            for (int k = 0; k < kc; k++)
              for (int r = 0; r < MR; r++) d[(long)k * MR + r] = r < h ? A[(long)(ic + i + r) * n + pc + k] : 0;
          }
          for (int j = 0; j < nc; j += NR) {
            int w = MIN(nc - j, NR);
            for (int i = 0; i < m; i += MR) {
              int h = MIN(m - i, MR);
              float *c = C + (long)(ic + i) * n + jc + j;
              if (w == NR && h == MR) {
                ukernel(kc, ap + (long)i * kc, bp + (long)j * kc, c, n, pc > 0);
              } else {   /* an edge: through a whole tile */
                ukernel(kc, ap + (long)i * kc, bp + (long)j * kc, tmp, NR, 0);
                for (int r = 0; r < h; r++)
                  for (int x = 0; x < w; x++) c[(long)r * n + x] = (pc > 0 ? c[(long)r * n + x] : 0) + tmp[r * NR + x];
              }
            }
          }
        }
        free(ap);
      }
    }
  }
}

/* C = A B checked at 256 places, as the .cu programs do */
static int mm_check(const float *A, const float *B, const float *C, int w) {
  int m = w <= 64 ? w * w : 256;
  for (int s = 0; s < m; s++) {
    int r = w <= 64 ? s / w : (int)((s * 7919u) % w), c = w <= 64 ? s % w : (int)((s * 104729u + 13) % w);
    double ref = 0, mag = 0;
    for (int k = 0; k < w; k++) {
      ref += (double)A[(size_t)r * w + k] * B[(size_t)k * w + c];
      mag += fabs((double)A[(size_t)r * w + k] * B[(size_t)k * w + c]);
    }
    if (fabs(C[(size_t)r * w + c] - ref) > 1e-5 * mag + 1e-6) return fail("C", (long)r * w + c, C[(size_t)r * w + c], ref);
  }
  return 1;
}

static int matmul(long n, int reps) {
  size_t sz = (size_t)n * n;
  float *A = xalloc(sz * 4), *B = xalloc(sz * 4), *C = xalloc(sz * 4);
  float *bp = xalloc(sizeof(float) * KC * (NC + NR));
  for (size_t i = 0; i < sz; i++) {
    A[i] = hash8((unsigned)i, 2654435761u);
    B[i] = hash8((unsigned)i, 2246822519u);
  }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    gemm(A, B, C, (int)n, bp);
    printf("TIME %.4f\n", now() - t0);
  }
  return mm_check(A, B, C, (int)n);
}

/* ---- saxpy and vector adds ---- */
static int saxpy(long n, int reps) {
  float *x = xalloc(n * 4), *y = xalloc(n * 4);
  for (long i = 0; i < n; i++) { x[i] = (float)(i % 17); y[i] = (float)(i % 5); }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) y[i] = 2.0f * x[i] + y[i];
    printf("TIME %.4f\n", now() - t0);
  }
  for (long i = 0; i < n; i++)
    if (y[i] != (float)(i % 5) + reps * 2.0f * (float)(i % 17)) return fail("y", i, y[i], (float)(i % 5) + reps * 2.0f * (float)(i % 17));
  return 1;
}

static int vadd_inplace(long n, int reps) {   /* y = x + y (vadd_gs) */
  float *x = xalloc(n * 4), *y = xalloc(n * 4);
  for (long i = 0; i < n; i++) { x[i] = (float)(i % 7); y[i] = (float)(i % 3); }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) y[i] = x[i] + y[i];
    printf("TIME %.4f\n", now() - t0);
  }
  for (long i = 0; i < n; i++)
    if (y[i] != (float)(i % 3) + reps * (float)(i % 7)) return fail("y", i, y[i], (float)(i % 3) + reps * (float)(i % 7));
  return 1;
}

static int vadd(long n, int reps) {   /* c = a + b (vadd_unsigned) */
  float *a = xalloc(n * 4), *b = xalloc(n * 4), *c = xalloc(n * 4);
  for (long i = 0; i < n; i++) { a[i] = (float)(i % 13); b[i] = (float)(i % 11) * 0.5f; }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
    printf("TIME %.4f\n", now() - t0);
  }
  for (long i = 0; i < n; i++)
    if (c[i] != a[i] + b[i]) return fail("c", i, c[i], a[i] + b[i]);
  return 1;
}

/* ---- Jacobi: 10 steps of the 5-point stencil per repetition ---- */
static float jac_init(int nx, int i, int j) { return j == 0 ? 1.0f : (float)(((unsigned)(j * nx + i) * 2654435761u) >> 24) / 256.0f; }
static int jacobi(long n, int reps) {
  int nx = (int)n, ny = (int)n;
  size_t sz = (size_t)nx * ny;
  float *u = xalloc(sz * 4), *v = xalloc(sz * 4);
#pragma omp parallel for schedule(static)   /* first touch where the sweeps run */
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) u[(size_t)j * nx + i] = v[(size_t)j * nx + i] = jac_init(nx, i, j);
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel
    for (int s = 0; s < 10; s++) {
#pragma omp for schedule(static)
      for (int j = 1; j < ny - 1; j++) {
        const float *c = u + (size_t)j * nx, *up = c - nx, *dn = c + nx;
        float *o = v + (size_t)j * nx;
#pragma omp simd
        for (int i = 1; i < nx - 1; i++) o[i] = 0.25f * (c[i - 1] + c[i + 1] + up[i] + dn[i]);
      }
#pragma omp single
      { float *t = u; u = v; v = t; }
    }
    printf("TIME %.4f\n", now() - t0);
  }
  /* the reference: the same steps, one thread */
  float *a = malloc(sz * 4), *b = malloc(sz * 4);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) a[(size_t)j * nx + i] = b[(size_t)j * nx + i] = jac_init(nx, i, j);
  for (int s = 0; s < reps * 10; s++) {
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        b[(size_t)j * nx + i] = 0.25f * (a[(size_t)j * nx + i - 1] + a[(size_t)j * nx + i + 1] + a[(size_t)(j - 1) * nx + i] + a[(size_t)(j + 1) * nx + i]);
    float *t = a; a = b; b = t;
  }
  for (size_t k = 0; k < sz; k++)
    if (fabsf(u[k] - a[k]) > 1e-6f) return fail("u", (long)k, u[k], a[k]);
  return 1;
}

/* ---- transpose: 64 x 64 blocks, 8 x 8 tiles through registers ---- */
static int transpose(long n, int reps) {
  size_t sz = (size_t)n * n;
  float *in = xalloc(sz * 4), *out = xalloc(sz * 4);
#pragma omp parallel for schedule(static)
  for (long j = 0; j < n; j++)
    for (long i = 0; i < n; i++) { in[j * n + i] = (float)(j * n + i); out[j * n + i] = 0; }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (long bj = 0; bj < n; bj += 64)
      for (long bi = 0; bi < n; bi += 64)
      for (long j = bj; j < MIN(bj + 64, n); j += 8)
      for (long i = bi; i < MIN(bi + 64, n); i += 8) {
      if (j + 8 <= n && i + 8 <= n) {
        float t[8][8];
        for (int x = 0; x < 8; x++)
          for (int y = 0; y < 8; y++) t[x][y] = in[(j + y) * n + i + x];
        for (int x = 0; x < 8; x++)
          for (int y = 0; y < 8; y++) out[(i + x) * n + j + y] = t[x][y];
      } else {
        for (long y = j; y < MIN(j + 8, n); y++)
          for (long x = i; x < MIN(i + 8, n); x++) out[x * n + y] = in[y * n + x];
      }
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (long j = 0; j < n; j++)
    for (long i = 0; i < n; i++)
      if (out[j * n + i] != in[i * n + j]) return fail("out", j * n + i, out[j * n + i], in[i * n + j]);
  return 1;
}

/* ---- scans: each thread's part summed, the parts' offsets, then each part
 * scanned in vector registers (log-step shifts within a vector, a carry
 * broadcast between vectors) ---- */
static inline vf vshift(vf v, int k) {   /* lanes moved up by k, zeros in */
  vi m;
  for (int l = 0; l < VL; l++) m[l] = l >= k ? l - k : VL;
  return __builtin_shuffle(v, (vf){0}, m);
}
static void scan_part(const float *x, float *y, long lo, long hi, float carry, int exclusive) {
  long i = lo;
  vf c = (vf){0} + carry;
  for (; i + VL <= hi; i += VL) {
    vf v;
    memcpy(&v, x + i, sizeof v);
    vf inc = v;
    for (int k = 1; k < VL; k *= 2) inc += vshift(inc, k);
    inc += c;
    vf out = exclusive ? inc - v : inc;
    memcpy(y + i, &out, sizeof out);
    c = (vf){0} + inc[VL - 1];
  }
  float s = c[0];
  for (; i < hi; i++) {
    float v = x[i];
    s += v;
    y[i] = exclusive ? s - v : s;
  }
}
static int scan(long n, int reps, int exclusive) {
  float *x = xalloc(n * 4), *y = xalloc(n * 4);
  for (long i = 0; i < n; i++) x[i] = (float)(((unsigned)i * 2654435761u) >> 30);
  float *part = xalloc(omp_get_max_threads() * sizeof(float));
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel
    {
      int t = omp_get_thread_num(), nt = omp_get_num_threads();
      long lo = n * t / nt, hi = n * (t + 1) / nt;
      float s = 0;
#pragma omp simd reduction(+ : s)
      for (long i = lo; i < hi; i++) s += x[i];
      part[t] = s;
#pragma omp barrier
      float off = 0;
      for (int k = 0; k < t; k++) off += part[k];
      scan_part(x, y, lo, hi, off, exclusive);
    }
    printf("TIME %.4f\n", now() - t0);
  }
  float acc = 0;
  for (long i = 0; i < n; i++) {
    float want = exclusive ? acc : acc + x[i];
    if (y[i] != want) return fail("y", i, y[i], want);
    acc += x[i];
  }
  return 1;
}

/* ---- histogram: 4 private 256-bin histograms per thread (no store-to-load
 * chains on one bin), added at the end ---- */
static int hist(long n, int reps) {
  unsigned char *buf = xalloc(n);
  unsigned ref[256] = {0}, h[256];
  for (long i = 0; i < n; i++) {
    unsigned x = (unsigned)i * 2654435761u;
    buf[i] = (unsigned char)(((x >> 24) + ((x >> 8) & 0xff)) >> 1);
    ref[buf[i]]++;
  }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    memset(h, 0, sizeof h);
#pragma omp parallel
    {
      unsigned p[4][256];
      memset(p, 0, sizeof p);
#pragma omp for schedule(static) nowait
      for (long c = 0; c < n; c += 65536) {
        long e = MIN(c + 65536, n), i = c;
        for (; i + 4 <= e; i += 4) {
          p[0][buf[i]]++;
          p[1][buf[i + 1]]++;
          p[2][buf[i + 2]]++;
          p[3][buf[i + 3]]++;
        }
        for (; i < e; i++) p[0][buf[i]]++;
      }
      for (int b = 0; b < 256; b++) {
        unsigned s = p[0][b] + p[1][b] + p[2][b] + p[3][b];
#pragma omp atomic
        h[b] += s;
      }
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (int b = 0; b < 256; b++)
    if (h[b] != ref[b]) return fail("bin", b, h[b], ref[b]);
  return 1;
}

/* ---- exp and log that vectorize (Cephes' polynomials, 1-2 ulp) ---- */
static inline float fexp(float x) {
  x = x < -87.0f ? -87.0f : x > 88.0f ? 88.0f : x;
  float t = x * 1.44269504088896341f + 12582912.0f;   /* round to an integer */
  float k = t - 12582912.0f;
  int32_t ti;
  memcpy(&ti, &t, 4);
  float r = x - k * 0.693359375f + k * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  int32_t si = (ti - 0x4B400000 + 127) << 23;
  float scale;
  memcpy(&scale, &si, 4);
  return p * scale;
}
static inline float flog(float x) {   /* x positive and normal */
  int32_t xi;
  memcpy(&xi, &x, 4);
  float e = (float)(((xi >> 23) & 0xff) - 126);
  xi = (xi & 0x807fffff) | 0x3f000000;
  float m;
  memcpy(&m, &xi, 4);   /* in [0.5, 1) */
  int lo = m < 0.707106781186547524f;
  e = lo ? e - 1.0f : e;
  m = lo ? m + m - 1.0f : m - 1.0f;
  float z = m * m, y = 7.0376836292e-2f;
  y = y * m - 1.1514610310e-1f;
  y = y * m + 1.1676998740e-1f;
  y = y * m - 1.2420140846e-1f;
  y = y * m + 1.4249322787e-1f;
  y = y * m - 1.6668057665e-1f;
  y = y * m + 2.0000714765e-1f;
  y = y * m - 2.4999993993e-1f;
  y = y * m + 3.3333331174e-1f;
  y = y * m * z;
  y += -2.12194440e-4f * e;
  y += -0.5f * z;
  return m + y + 0.693359375f * e;
}

/* ---- softmax over rows of 1024: one exp per element ---- */
static int softmax(long rows, int reps) {
  const int cols = 1024;
  size_t n = (size_t)rows * cols;
  float *x = xalloc(n * 4), *y = xalloc(n * 4);
  for (size_t i = 0; i < n; i++) x[i] = (float)(((unsigned)i * 2654435761u) >> 16) / 6553.6f - 5.0f;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (long r = 0; r < rows; r++) {
      const float *xr = x + r * cols;
      float *yr = y + r * cols, m = -INFINITY, s = 0;
#pragma omp simd reduction(max : m)
      for (int i = 0; i < cols; i++) m = fmaxf(m, xr[i]);
#pragma omp simd reduction(+ : s)
      for (int i = 0; i < cols; i++) s += yr[i] = fexp(xr[i] - m);
      float inv = 1.0f / s;
#pragma omp simd
      for (int i = 0; i < cols; i++) yr[i] *= inv;
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (long r = 0; r < rows; r++) {
    const float *xr = x + r * cols;
    double m = -INFINITY, s = 0;
    for (int i = 0; i < cols; i++) m = fmax(m, xr[i]);
    for (int i = 0; i < cols; i++) s += exp(xr[i] - m);
    for (int i = 0; i < cols; i++) {
      double want = exp(xr[i] - m) / s;
      if (fabs(y[r * cols + i] - want) > 1e-5 * want + 1e-12) return fail("y", r * cols + i, y[r * cols + i], want);
    }
  }
  return 1;
}

/* ---- CSR SpMV: rows in static parts, each row a vector gather-reduction ---- */
static int spmv(long n, int reps) {
  int *ptr = xalloc((n + 1) * sizeof(int));
  ptr[0] = 0;
  for (long r = 0; r < n; r++) ptr[r + 1] = ptr[r] + 8 + (int)(((unsigned)r * 2654435761u) >> 27);
  int nnz = ptr[n];
  int *idx = xalloc(nnz * sizeof(int));
  float *val = xalloc(nnz * sizeof(float)), *x = xalloc(n * 4), *y = xalloc(n * 4);
  for (long r = 0; r < n; r++)
    for (int k = ptr[r]; k < ptr[r + 1]; k++) {
      unsigned h = (unsigned)k * 2246822519u;
      long c = (r + (h >> 20) % 8192 - 4096) % n;
      idx[k] = (int)(c < 0 ? c + n : c);
      val[k] = (float)(h >> 24) / 128.0f - 1.0f;
    }
  for (long i = 0; i < n; i++) x[i] = hash8((unsigned)i, 2654435761u);
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (long r = 0; r < n; r++) {
      float s = 0;
      int e = ptr[r + 1];
#pragma omp simd reduction(+ : s)
      for (int k = ptr[r]; k < e; k++) s += val[k] * x[idx[k]];
      y[r] = s;
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (long r = 0; r < n; r++) {
    double s = 0, mag = 0;
    for (int k = ptr[r]; k < ptr[r + 1]; k++) {
      s += (double)val[k] * x[idx[k]];
      mag += fabs((double)val[k] * x[idx[k]]);
    }
    if (fabs(y[r] - s) > 1e-5 * mag + 1e-6) return fail("y", r, y[r], s);
  }
  return 1;
}

/* ---- n-body: positions as float4 in, copied to arrays of x, y, z, m, then
 * each body's sum over all bodies as one vector reduction ---- */
typedef struct { float x, y, z, w; } f4;
static int nbody(long n, int reps) {
  f4 *X = xalloc(n * sizeof(f4)), *A = xalloc(n * sizeof(f4));
  float *px = xalloc(n * 4), *py = xalloc(n * 4), *pz = xalloc(n * 4), *pm = xalloc(n * 4);
  for (long i = 0; i < n; i++) {
    unsigned h = (unsigned)i * 2654435761u;
    X[i].x = (float)(h & 0xffff) / 32768.0f - 1.0f;
    X[i].y = (float)(h >> 16) / 32768.0f - 1.0f;
    X[i].z = (float)((h * 2246822519u) >> 16) / 32768.0f - 1.0f;
    X[i].w = 0.5f + (float)((h * 3266489917u) >> 24) / 512.0f;
  }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (long i = 0; i < n; i++) { px[i] = X[i].x; py[i] = X[i].y; pz[i] = X[i].z; pm[i] = X[i].w; }
#pragma omp for schedule(static)
      for (long i = 0; i < n; i++) {
        float xi = px[i], yi = py[i], zi = pz[i], ax = 0, ay = 0, az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
        for (long j = 0; j < n; j++) {
          float rx = px[j] - xi, ry = py[j] - yi, rz = pz[j] - zi;
          float d2 = rx * rx + ry * ry + rz * rz + 0.01f;
          float s = pm[j] / sqrtf(d2 * d2 * d2);
          ax += rx * s;
          ay += ry * s;
          az += rz * s;
        }
        A[i] = (f4){ax, ay, az, 0.0f};
      }
    }
    printf("TIME %.4f\n", now() - t0);
  }
  int m = n <= 4096 ? (int)n : 256;
  for (int s = 0; s < m; s++) {
    long i = n <= 4096 ? s : (long)(((unsigned)s * 7919u) % n);
    double a[3] = {0, 0, 0}, mag = 0;
    for (long j = 0; j < n; j++) {
      double rx = X[j].x - X[i].x, ry = X[j].y - X[i].y, rz = X[j].z - X[i].z;
      double d2 = rx * rx + ry * ry + rz * rz + 0.01, f = X[j].w / (d2 * sqrt(d2));
      a[0] += rx * f; a[1] += ry * f; a[2] += rz * f;
      mag += fabs(f) * sqrt(d2);
    }
    float got[3] = {A[i].x, A[i].y, A[i].z};
    for (int k = 0; k < 3; k++)
      if (fabs(got[k] - a[k]) > 1e-5 * mag) return fail("a", i * 3 + k, got[k], a[k]);
  }
  return 1;
}

/* ---- Black-Scholes: the samples' formulas, vectorized ---- */
static inline float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = 0.39894228040143267794f * fexp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - c : c;
}
static double CND(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
  double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double c = 0.39894228040143267794 * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - c : c;
}
static float rand_float(unsigned i, unsigned salt, float low, float high) {
  float t = (float)((i * 2654435761u ^ salt) * 2246822519u >> 8) / 16777216.0f;
  return (1.0f - t) * low + t * high;
}
static int blackscholes(long n, int reps) {
  const float R = 0.02f, V = 0.30f;
  float *S = xalloc(n * 4), *X = xalloc(n * 4), *T = xalloc(n * 4), *call = xalloc(n * 4), *put = xalloc(n * 4);
  for (long i = 0; i < n; i++) {
    S[i] = rand_float((unsigned)i, 1, 5.0f, 30.0f);
    X[i] = rand_float((unsigned)i, 2, 1.0f, 100.0f);
    T[i] = rand_float((unsigned)i, 3, 0.25f, 10.0f);
  }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) {
      float sqrtT = sqrtf(T[i]);
      float d1 = (flog(S[i] / X[i]) + (R + 0.5f * V * V) * T[i]) / (V * sqrtT);
      float d2 = d1 - V * sqrtT;
      float c1 = cnd(d1), c2 = cnd(d2), expRT = fexp(-R * T[i]);
      call[i] = S[i] * c1 - X[i] * expRT * c2;
      put[i] = X[i] * expRT * (1.0f - c2) - S[i] * (1.0f - c1);
    }
    printf("TIME %.4f\n", now() - t0);
  }
  double sd = 0, sr = 0;
  for (long i = 0; i < n; i++) {
    double s = S[i], x = X[i], t = T[i], sq = sqrt(t);
    double d1 = (log(s / x) + (R + 0.5 * V * V) * t) / (V * sq), d2 = d1 - V * sq, e = exp(-R * t);
    double c = s * CND(d1) - x * e * CND(d2), p = x * e * (1.0 - CND(d2)) - s * (1.0 - CND(d1));
    if (fabs(c - call[i]) > 1e-3) return fail("call", i, call[i], c);
    sd += fabs(c - call[i]) + fabs(p - put[i]);
    sr += fabs(c) + fabs(p);
  }
  return sd / sr < 1e-6 || fail("L1 norm", 0, sd / sr, 1e-6);
}

/* ---- convolutions: the mask width a run-time value, as in the .cu
 * programs; outputs accumulated a block at a time, one vector loop per tap ---- */
static int conv1d(long n, int reps) {
  const int mw = 7, r = mw / 2;
  const float M[7] = {0.0625f, 0.125f, 0.1875f, 0.25f, 0.1875f, 0.125f, 0.0625f};
  float *in = xalloc(n * 4), *out = xalloc(n * 4);
  for (long i = 0; i < n; i++) in[i] = hash8((unsigned)i, 2654435761u);
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (long b = 0; b < n; b += 2048) {
      long e = MIN(b + 2048, n), lo = b < r ? r : b, hi = e > n - r ? n - r : e;
      float acc[2048];
      for (long i = b; i < e; i++) acc[i - b] = 0;
      for (int j = 0; j < mw; j++) {
        const float *s = in - r + j, mj = M[j];
#pragma omp simd
        for (long i = lo; i < hi; i++) acc[i - b] += s[i] * mj;
      }
      for (long i = b; i < e; i++) {
        if (i >= lo && i < hi) { out[i] = acc[i - b]; continue; }
          float p = 0;   /* the ends, with the bounds test */
        for (int j = 0; j < mw; j++)
          if (i - r + j >= 0 && i - r + j < n) p += in[i - r + j] * M[j];
        out[i] = p;
      }
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (long i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < mw; j++)
      if (i - r + j >= 0 && i - r + j < n) s += (double)in[i - r + j] * M[j];
    if (out[i] != (float)s) return fail("P", i, out[i], s);
  }
  return 1;
}

static int conv2d(long n, int reps) {
  const int r = 2, fw = 2 * r + 1;
  int w = (int)n, h = (int)n;
  float F[5][5];
  for (int i = 0; i < fw; i++)
    for (int j = 0; j < fw; j++) F[i][j] = (float)((i + 1) * (j + 1)) / 64.0f;
  size_t sz = (size_t)w * h;
  float *in = xalloc(sz * 4), *out = xalloc(sz * 4);
  for (size_t i = 0; i < sz; i++) in[i] = hash8((unsigned)i, 2654435761u);
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (int row = 0; row < h; row++) {
      float *o = out + (size_t)row * w;
      if (row < r || row >= h - r || w < fw) {   /* edge rows: every tap tested */
          for (int col = 0; col < w; col++) {
          float p = 0;
          for (int i = 0; i < fw; i++)
            for (int j = 0; j < fw; j++) {
            int y = row - r + i, x = col - r + j;
            if (y >= 0 && y < h && x >= 0 && x < w) p += F[i][j] * in[(size_t)y * w + x];
          }
          o[col] = p;
        }
        continue;
      }
      for (int col = 0; col < w; col++) o[col] = 0;
      for (int i = 0; i < fw; i++) {
        const float *s = in + (size_t)(row - r + i) * w - r;
        for (int j = 0; j < fw; j++) {
          float f = F[i][j];
#pragma omp simd
          for (int col = r; col < w - r; col++) o[col] += f * s[col + j];
        }
      }
      for (int col = 0; col < w; col++) {
        if (col >= r && col < w - r) continue;
        float p = 0;   /* edge columns */
        for (int i = 0; i < fw; i++)
          for (int j = 0; j < fw; j++) {
          int y = row - r + i, x = col - r + j;
          if (x >= 0 && x < w) p += F[i][j] * in[(size_t)y * w + x];
        }
        o[col] = p;
      }
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (int row = 0; row < h; row++)
    for (int col = 0; col < w; col++) {
      double s = 0;
      for (int i = 0; i < fw; i++)
        for (int j = 0; j < fw; j++) {
          int y = row - r + i, x = col - r + j;
          if (y >= 0 && y < h && x >= 0 && x < w) s += (double)F[i][j] * in[(size_t)y * w + x];
        }
      if (out[(size_t)row * w + col] != (float)s) return fail("P", (long)row * w + col, out[(size_t)row * w + col], s);
    }
  return 1;
}

/* ---- stream compaction: the elements above 0, in any order (filter) ----
 * Each thread counts its static part, the counts' prefix gives its first
 * slot, then it copies its part's kept elements there (two passes over the
 * input, as a compaction with no per-element atomic must). */
static int filter(long n, int reps) {
  int *src = xalloc(n * sizeof(int)), *dst = xalloc(n * sizeof(int));
  long want_n = 0, got = 0;
  long long want_sum = 0;
  for (long i = 0; i < n; i++) {
    unsigned x = (unsigned)i * 2654435761u;
    src[i] = (x >> 31) ? (int)(x >> 20) + 1 : -(int)(x >> 24);
    if (src[i] > 0) want_n++, want_sum += src[i];
  }
  int nt = omp_get_max_threads();
  long *cnt = xalloc((size_t)(nt + 1) * sizeof(long));
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel num_threads(nt)
    {
      int T = omp_get_num_threads(), t = omp_get_thread_num();
      long lo = n * t / T, hi = n * (t + 1) / T, c = 0;
#pragma omp simd reduction(+ : c)
      for (long i = lo; i < hi; i++) c += src[i] > 0;
      cnt[t + 1] = c;
#pragma omp barrier
#pragma omp single
      {
        cnt[0] = 0;
        for (int k = 1; k <= T; k++) cnt[k] += cnt[k - 1];
        got = cnt[T];
      }
      long o = cnt[t], e = cnt[t + 1];
      for (long i = lo; i < hi && o < e; i++) {   /* (no branch: half the elements pass, at random) */
        dst[o] = src[i];
        o += src[i] > 0;
      }
    }
    printf("TIME %.4f\n", now() - t0);
  }
  long long sum = 0;
  for (long k = 0; k < got; k++) sum += dst[k] > 0 ? dst[k] : -1000000000LL;
  if (got != want_n) return fail("count", 0, (double)got, (double)want_n);
  return sum == want_sum || fail("sum", 0, (double)sum, (double)want_sum);
}

/* ---- dot product: float sums of 4096-element chunks (vectorized), added in
 * double (dot_cbe; 0 or 1 elements: exact) ---- */
static int dot(long n, int reps) {
  float *a = xalloc(n * 4), *b = xalloc(n * 4);
  double gold = 0, s = 0;
  for (long i = 0; i < n; i++) {
    a[i] = (float)(((unsigned)i * 2654435761u) >> 31);
    b[i] = (float)(((unsigned)i * 2246822519u) >> 31);
    gold += a[i] * b[i];
  }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (long c = 0; c < n; c += 4096) {
      float p = 0;
      long e = MIN(c + 4096, n);
#pragma omp simd reduction(+ : p)
      for (long i = c; i < e; i++) p += a[i] * b[i];
      s += p;
    }
    printf("TIME %.4f\n", now() - t0);
  }
  return s == gold || fail("dot", 0, s, gold);
}

/* ---- y = A x, rows of 2048: rows in static parts, each row a vector
 * reduction (gemv_warp) ---- */
static int gemv(long rows, int reps) {
  const int cols = 2048;
  size_t n = (size_t)rows * cols;
  float *A = xalloc(n * 4), *x = xalloc(cols * 4), *y = xalloc(rows * 4);
#pragma omp parallel for schedule(static)   /* first touch where the rows are read */
  for (long r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) A[r * cols + c] = hash8((unsigned)(r * cols + c), 2654435761u);
  for (int c = 0; c < cols; c++) x[c] = hash8((unsigned)c, 2246822519u);
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (long r = 0; r < rows; r++) {
      const float *a = A + r * cols;
      float s = 0;
#pragma omp simd reduction(+ : s)
      for (int c = 0; c < cols; c++) s += a[c] * x[c];
      y[r] = s;
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (long r = 0; r < rows; r++) {
    double s = 0, mag = 0;
    for (int c = 0; c < cols; c++) {
      s += (double)A[r * cols + c] * x[c];
      mag += fabs((double)A[r * cols + c] * x[c]);
    }
    if (fabs(y[r] - s) > 1e-5 * mag + 1e-6) return fail("y", r, y[r], s);
  }
  return 1;
}

/* ---- LayerNorm over rows of 1024: the mean, the variance, then the
 * normalized row, each a vector loop (layernorm_block) ---- */
static int layernorm(long rows, int reps) {
  const int cols = 1024;
  const float eps = 1e-5f;
  size_t n = (size_t)rows * cols;
  float *x = xalloc(n * 4), *y = xalloc(n * 4), g[1024], be[1024];
  for (size_t i = 0; i < n; i++) x[i] = (float)(((unsigned)i * 2654435761u) >> 16) / 6553.6f - 5.0f;
  for (int i = 0; i < cols; i++) {
    g[i] = 0.5f + (float)(((unsigned)i * 2246822519u) >> 24) / 256.0f;
    be[i] = (float)(((unsigned)i * 3266489917u) >> 24) / 128.0f - 1.0f;
  }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (long r = 0; r < rows; r++) {
      const float *xr = x + r * cols;
      float *yr = y + r * cols, s = 0, v = 0;
#pragma omp simd reduction(+ : s)
      for (int i = 0; i < cols; i++) s += xr[i];
      float mean = s / cols;
#pragma omp simd reduction(+ : v)
      for (int i = 0; i < cols; i++) v += (xr[i] - mean) * (xr[i] - mean);
      float rstd = 1.0f / sqrtf(v / cols + eps);
#pragma omp simd
      for (int i = 0; i < cols; i++) yr[i] = (xr[i] - mean) * rstd * g[i] + be[i];
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (long r = 0; r < rows; r++) {
    const float *xr = x + r * cols;
    double m = 0, v = 0;
    for (int i = 0; i < cols; i++) m += xr[i];
    m /= cols;
    for (int i = 0; i < cols; i++) v += (xr[i] - m) * (xr[i] - m);
    double rstd = 1.0 / sqrt(v / cols + eps);
    for (int i = 0; i < cols; i++) {
      double want = (xr[i] - m) * rstd * g[i] + be[i];
      if (fabs(y[r * cols + i] - want) > 1e-4 * (fabs((xr[i] - m) * rstd * g[i]) + fabs(be[i])) + 1e-5)
        return fail("y", r * cols + i, y[r * cols + i], want);
    }
  }
  return 1;
}

/* ---- Mandelbrot, n x n pixels over [-2, 1] x [-1.5, 1.5], 256 iterations
 * at most: VL pixels of a row in vector registers, iterated until every lane
 * has escaped (an escaped lane keeps its z and its count), rows handed out
 * dynamically (mandelbrot) ---- */
static int mandel_at(float cx, float cy) {
  float x = 0, y = 0;
  int it = 0;
  while (x * x + y * y <= 4.0f && it < 256) {
    float xt = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = xt;
    it++;
  }
  return it;
}
static int mandelbrot(long n, int reps) {
  const int w = (int)n, h = (int)n;
  const float xmin = -2.0f, ymin = -1.5f, dx = 3.0f / w, dy = 3.0f / h;
  int *out = xalloc((size_t)w * h * sizeof(int));
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(dynamic, 2)
    for (int py = 0; py < h; py++) {
      int *o = out + (size_t)py * w;
      const float cy = ymin + py * dy;
      int px = 0;
      for (; px + VL <= w; px += VL) {
        vf cx, x = (vf){0}, y = (vf){0};
        vi it = (vi){0};
        for (int l = 0; l < VL; l++) cx[l] = xmin + (px + l) * dx;
        for (int k = 0; k < 256; k++) {
          vi m = (x * x + y * y <= 4.0f);
          int any = 0;
          for (int l = 0; l < VL; l++) any |= m[l];
          if (!any) break;
          it -= m;
          vf xt = x * x - y * y + cx, yt = 2.0f * x * y + cy;
          x = (vf)(((vi)xt & m) | ((vi)x & ~m));
          y = (vf)(((vi)yt & m) | ((vi)y & ~m));
        }
        memcpy(o + px, &it, sizeof it);
      }
      for (; px < w; px++) o[px] = mandel_at(xmin + px * dx, cy);
    }
    printf("TIME %.4f\n", now() - t0);
  }
  long differ = 0, total = 0, want_total = 0;
  for (int py = 0; py < h; py++)
    for (int px = 0; px < w; px++) {
      int want = mandel_at(xmin + px * dx, ymin + py * dy), got = out[(size_t)py * w + px];
      differ += got != want;
      total += got;
      want_total += want;
      if (got < 1 || got > 256) return fail("pixel", (long)py * w + px, got, want);
    }
  if (differ * 100 > (long)w * h) return fail("differing pixels", 0, differ, 0);
  return labs(total - want_total) * 100 <= want_total || fail("iterations", 0, total, want_total);
}

/* ---- Sobel on an 8-bit image, clamped borders: interior columns of each
 * row a vector loop, the two edge columns and the edge rows clamped
 * (sobel_clamp) ---- */
static unsigned char sob_pixel(int x, int y) {
  unsigned h = (unsigned)(y * 7919 + x) * 2654435761u;
  return (unsigned char)((((x / 8) ^ (y / 8)) & 1) * 96 + ((x + y) & 63) + (h >> 27));
}
static inline unsigned char sob_mag(int gx, int gy) {
  float m = sqrtf((float)(gx * gx + gy * gy));
  return (unsigned char)(m > 255.0f ? 255.0f : m);
}
static unsigned char sob_clamped(const unsigned char *in, int w, int h, int x, int y) {
  int gx = 0, gy = 0;
  for (int j = -1; j <= 1; j++)
    for (int i = -1; i <= 1; i++) {
      int xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
      int yy = y + j < 0 ? 0 : y + j >= h ? h - 1 : y + j;
      int p = in[(size_t)yy * w + xx];
      gx += i * (j == 0 ? 2 : 1) * p;
      gy += j * (i == 0 ? 2 : 1) * p;
    }
  return sob_mag(gx, gy);
}
static int sobel(long n, int reps) {
  const int w = (int)n, h = (int)n;
  size_t sz = (size_t)w * h;
  unsigned char *in = xalloc(sz), *out = xalloc(sz);
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) { in[(size_t)y * w + x] = sob_pixel(x, y); out[(size_t)y * w + x] = 0; }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++) {
      unsigned char *o = out + (size_t)y * w;
      if (y == 0 || y == h - 1 || w < 3) {
        for (int x = 0; x < w; x++) o[x] = sob_clamped(in, w, h, x, y);
        continue;
      }
      const unsigned char *a = in + (size_t)(y - 1) * w, *b = a + w, *c = b + w;
#pragma omp simd
      for (int x = 1; x < w - 1; x++) {
        int gx = (a[x + 1] + 2 * b[x + 1] + c[x + 1]) - (a[x - 1] + 2 * b[x - 1] + c[x - 1]);
        int gy = (c[x - 1] + 2 * c[x] + c[x + 1]) - (a[x - 1] + 2 * a[x] + a[x + 1]);
        o[x] = sob_mag(gx, gy);
      }
      o[0] = sob_clamped(in, w, h, 0, y);
      o[w - 1] = sob_clamped(in, w, h, w - 1, y);
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      unsigned char want = sob_clamped(in, w, h, x, y);
      if (out[(size_t)y * w + x] != want) return fail("out", (long)y * w + x, out[(size_t)y * w + x], want);
    }
  return 1;
}

/* ---- a 5 x 5 box blur, borders replicated, separable: each output row
 * sums the five clamped input rows' columns (a vector loop), then five
 * columns of that (the interior a vector loop, two columns at each edge
 * clamped) (blur_box_clamp) ---- */
static float box_src(size_t i) { return (float)(((unsigned)i * 2654435761u) >> 24) / 16.0f; }
static int boxblur(long n, int reps) {
  const int w = (int)n, h = (int)n, R = 2;
  size_t sz = (size_t)w * h;
  float *src = xalloc(sz * 4), *dst = xalloc(sz * 4);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < (long)sz; i++) { src[i] = box_src(i); dst[i] = 0; }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel
    {
      float *col = xalloc((size_t)w * 4);
#pragma omp for schedule(static)
      for (int y = 0; y < h; y++) {
        const float *r[5];
        for (int k = -R; k <= R; k++) r[k + R] = src + (size_t)(y + k < 0 ? 0 : y + k > h - 1 ? h - 1 : y + k) * w;
#pragma omp simd
        for (int x = 0; x < w; x++) col[x] = (((r[0][x] + r[1][x]) + r[2][x]) + r[3][x]) + r[4][x];
        float *o = dst + (size_t)y * w;
        /* (the image's values are sixteenths below 16: every sum is exact,
         * in any order, as the .cu's) */
        for (int x = 0; x < w; x++) {
          if (x == R && w > 2 * R) {
#pragma omp simd
            for (int xi = R; xi < w - R; xi++) o[xi] = ((((col[xi - 2] + col[xi - 1]) + col[xi]) + col[xi + 1]) + col[xi + 2]) / 25.0f;
            x = w - R - 1;
            continue;
          }
          float s = 0;
          for (int dx = -R; dx <= R; dx++) s += col[x + dx < 0 ? 0 : x + dx > w - 1 ? w - 1 : x + dx];
          o[x] = s / 25.0f;
        }
      }
      free(col);
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0;
      for (int dy = -R; dy <= R; dy++)
        for (int dx = -R; dx <= R; dx++) {
          int ix = x + dx < 0 ? 0 : x + dx > w - 1 ? w - 1 : x + dx, iy = y + dy < 0 ? 0 : y + dy > h - 1 ? h - 1 : y + dy;
          s += src[(size_t)iy * w + ix];
        }
      if (dst[(size_t)y * w + x] != s / 25.0f) return fail("dst", (long)y * w + x, dst[(size_t)y * w + x], s / 25.0f);
    }
  return 1;
}

/* ---- a 5-point smoothing stencil, borders replicated: the interior of
 * each row a vector loop, its two end columns clamped (stencil_clamp_if)
 * ---- */
static int smooth(long n, int reps) {
  const int nx = (int)n, ny = (int)n;
  size_t sz = (size_t)nx * ny;
  float *in = xalloc(sz * 4), *out = xalloc(sz * 4);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < (long)sz; i++) { in[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 64.0f; out[i] = 0; }
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (int y = 0; y < ny; y++) {
      const float *c = in + (size_t)y * nx, *u = in + (size_t)(y > 0 ? y - 1 : 0) * nx, *d = in + (size_t)(y < ny - 1 ? y + 1 : ny - 1) * nx;
      float *o = out + (size_t)y * nx;
      o[0] = 0.5f * c[0] + 0.125f * (c[0] + c[nx > 1 ? 1 : 0] + u[0] + d[0]);
#pragma omp simd
      for (int x = 1; x < nx - 1; x++) o[x] = 0.5f * c[x] + 0.125f * (c[x - 1] + c[x + 1] + u[x] + d[x]);
      if (nx > 1) o[nx - 1] = 0.5f * c[nx - 1] + 0.125f * (c[nx - 2] + c[nx - 1] + u[nx - 1] + d[nx - 1]);
    }
    printf("TIME %.4f\n", now() - t0);
  }
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) {
      int xl = x > 0 ? x - 1 : 0, xr = x < nx - 1 ? x + 1 : nx - 1, yu = y > 0 ? y - 1 : 0, yd = y < ny - 1 ? y + 1 : ny - 1;
      float want = 0.5f * in[(size_t)y * nx + x] + 0.125f * (in[(size_t)y * nx + xl] + in[(size_t)y * nx + xr] + in[(size_t)yu * nx + x] + in[(size_t)yd * nx + x]);
      if (out[(size_t)y * nx + x] != want) return fail("out", (long)y * nx + x, out[(size_t)y * nx + x], want);
    }
  return 1;
}

/* ---- bitonic sort, n a power of 2: the same network of compare-exchange
 * steps (k, j) as the .cu program's launches, each step a parallel loop over
 * the n / 2 pairs (runs of j contiguous pairs as vector min / max; pairs
 * closer than a vector's width by a shuffle within the vector), the
 * input copied in before each repetition (bitonic_step) ---- */
static int bitonic(long n, int reps) {
  float *src = xalloc(n * 4), *v = xalloc(n * 4);
  for (long i = 0; i < n; i++) src[i] = (float)(((unsigned)i * 2654435761u) >> 8) / 16777216.0f - 0.5f;
  for (int rep = 0; rep < reps; rep++) {
    memcpy(v, src, n * 4);
    double t0 = now();
#pragma omp parallel
    for (long k = 2; k <= n; k <<= 1)
      for (long j = k >> 1; j > 0; j >>= 1) {
        if (j >= VL) {
#pragma omp for schedule(static)
          for (long b = 0; b < n; b += 2 * j) {
            float *p = v + b, *q = p + j;
            if ((b & k) == 0) {
#pragma omp simd
              for (long i = 0; i < j; i++) { float a = p[i], c = q[i], lo = a < c ? a : c, hi = a < c ? c : a; p[i] = lo; q[i] = hi; }
            } else {
#pragma omp simd
              for (long i = 0; i < j; i++) { float a = p[i], c = q[i], lo = a < c ? a : c, hi = a < c ? c : a; p[i] = hi; q[i] = lo; }
            }
          }
        } else if (j < VL && n >= VL) {   /* pairs within a vector: a shuffle */
          vi perm, iota;
          for (int l = 0; l < VL; l++) { perm[l] = l ^ (int)j; iota[l] = l; }
#pragma omp for schedule(static)
          for (long b = 0; b < n; b += VL) {
            vf a, p;
            memcpy(&a, v + b, sizeof a);
            p = __builtin_shuffle(a, perm);
            vi idx = iota + (int)b, lt = a < p;
            vf lo = (vf)(((vi)a & lt) | ((vi)p & ~lt)), hi = (vf)(((vi)p & lt) | ((vi)a & ~lt));
            vi keep_lo = ((idx & (int)j) == 0) == ((idx & (int)k) == 0);
            vf r = (vf)(((vi)lo & keep_lo) | ((vi)hi & ~keep_lo));
            memcpy(v + b, &r, sizeof r);
          }
        } else {
#pragma omp for schedule(static)
          for (long t = 0; t < n / 2; t++) {
            long i = ((t & ~(j - 1)) << 1) | (t & (j - 1)), l = i + j;
            float a = v[i], c = v[l], lo = a < c ? a : c, hi = a < c ? c : a;
            int asc = (i & k) == 0;
            v[i] = asc ? lo : hi;
            v[l] = asc ? hi : lo;
          }
        }
      }
    printf("TIME %.4f\n", now() - t0);
  }
  for (long i = 1; i < n; i++)
    if (v[i - 1] > v[i]) return fail("v", i, v[i], v[i - 1]);
  double s = 0, t = 0;
  for (long i = 0; i < n; i++) { s += src[i]; t += v[i]; }
  return s == t || fail("sum", 0, t, s);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    printf("usage: expert red|matmul|saxpy|vadd_inplace|vadd|jacobi|transpose|scan|xscan|hist|"
           "softmax|spmv|nbody|blackscholes|conv1d|conv2d|filter|dot|gemv|layernorm|mandelbrot|sobel|bitonic|boxblur|smooth N REPS\n");
    return 2;
  }
  const char *k = argv[1];
  long n = atol(argv[2]);
  int reps = atoi(argv[3]), ok;
  if (!strcmp(k, "red")) ok = red(n, reps);
  else if (!strcmp(k, "matmul")) ok = matmul(n, reps);
  else if (!strcmp(k, "saxpy")) ok = saxpy(n, reps);
  else if (!strcmp(k, "vadd_inplace")) ok = vadd_inplace(n, reps);
  else if (!strcmp(k, "vadd")) ok = vadd(n, reps);
  else if (!strcmp(k, "jacobi")) ok = jacobi(n, reps);
  else if (!strcmp(k, "transpose")) ok = transpose(n, reps);
  else if (!strcmp(k, "scan")) ok = scan(n, reps, 0);
  else if (!strcmp(k, "xscan")) ok = scan(n, reps, 1);
  else if (!strcmp(k, "hist")) ok = hist(n, reps);
  else if (!strcmp(k, "softmax")) ok = softmax(n, reps);
  else if (!strcmp(k, "spmv")) ok = spmv(n, reps);
  else if (!strcmp(k, "nbody")) ok = nbody(n, reps);
  else if (!strcmp(k, "blackscholes")) ok = blackscholes(n, reps);
  else if (!strcmp(k, "conv1d")) ok = conv1d(n, reps);
  else if (!strcmp(k, "conv2d")) ok = conv2d(n, reps);
  else if (!strcmp(k, "filter")) ok = filter(n, reps);
  else if (!strcmp(k, "dot")) ok = dot(n, reps);
  else if (!strcmp(k, "gemv")) ok = gemv(n, reps);
  else if (!strcmp(k, "layernorm")) ok = layernorm(n, reps);
  else if (!strcmp(k, "mandelbrot")) ok = mandelbrot(n, reps);
  else if (!strcmp(k, "sobel")) ok = sobel(n, reps);
  else if (!strcmp(k, "bitonic")) ok = bitonic(n, reps);
  else if (!strcmp(k, "boxblur")) ok = boxblur(n, reps);
  else if (!strcmp(k, "smooth")) ok = smooth(n, reps);
  else { printf("expert: unknown kind %s\n", k); return 2; }
  if (ok) printf("PASS\n");
  return ok ? 0 : 1;
}
