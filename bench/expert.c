/* expert.c: what an expert writes by hand in C + OpenMP for the same work:
 * the baseline of bench/. Usage: ./expert red|matmul|vadd N REPS */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

/* C += A * B for w x w, blocked for cache (kc x nc panels of B) and
 * registers (4 rows of C at a time, 16-float vectors along j). */
static void matmul(const float *restrict A, const float *restrict B, float *restrict C, int w) {
  const int KC = 256, NC = 512;
  memset(C, 0, sizeof(float) * (size_t)w * w);
  for (int jj = 0; jj < w; jj += NC)
    for (int kk = 0; kk < w; kk += KC) {
      int jn = jj + NC < w ? jj + NC : w, kn = kk + KC < w ? kk + KC : w;
#pragma omp parallel for schedule(static)
      for (int i = 0; i < w; i += 4) {
        for (int k = kk; k < kn; k++) {
          float a0 = A[(size_t)i * w + k], a1 = A[(size_t)(i + 1) * w + k];
          float a2 = A[(size_t)(i + 2) * w + k], a3 = A[(size_t)(i + 3) * w + k];
          const float *b = B + (size_t)k * w;
          float *c0 = C + (size_t)i * w, *c1 = c0 + w, *c2 = c1 + w, *c3 = c2 + w;
#pragma omp simd
          for (int j = jj; j < jn; j++) {
            float bj = b[j];
            c0[j] += a0 * bj;
            c1[j] += a1 * bj;
            c2[j] += a2 * bj;
            c3[j] += a3 * bj;
          }
        }
      }
    }
}

int main(int argc, char **argv) {
  if (argc < 4) { printf("usage: expert MODE N REPS\n"); return 2; }
  const char *mode = argv[1];
  long n = atol(argv[2]);
  int reps = atoi(argv[3]), ok = 1;
  if (!strcmp(mode, "red")) {
    float *h = malloc(n * sizeof(float));
    double ref = 0;
    for (long i = 0; i < n; i++) { h[i] = (float)(i % 10) * 0.25f; ref += h[i]; }
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      /* float sums of 4096-element chunks (vectorized), chunks added in
       * double: as fast, and accurate at 2^26 elements on one thread too */
      double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
      for (long c = 0; c < n; c += 4096) {
        float p = 0;
        long e = c + 4096 < n ? c + 4096 : n;
#pragma omp simd reduction(+ : p)
        for (long i = c; i < e; i++) p += h[i];
        s += p;
      }
      printf("TIME %.4f\n", now() - t0);
      if (r == 0 && !(s > ref * (1 - 1e-3) && s < ref * (1 + 1e-3))) ok = 0;
    }
  } else if (!strcmp(mode, "matmul")) {
    int w = (int)n;
    size_t sz = (size_t)w * w * sizeof(float);
    float *A = malloc(sz), *C = malloc(sz);
    for (long i = 0; i < (long)w * w; i++) A[i] = (float)(i % 7) * 0.5f - 1.0f;
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      matmul(A, A, C, w);
      printf("TIME %.4f\n", now() - t0);
    }
    for (int k = 0; k < 64; k++) {
      int r = (k * 97) % w, c = (k * 31 + 5) % w;
      double s = 0;
      for (int j = 0; j < w; j++) s += (double)A[(long)r * w + j] * A[(long)j * w + c];
      if (fabs(s - C[(long)r * w + c]) > 1e-3 * fabs(s) + 1e-2) ok = 0;
    }
  } else {
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
    for (long i = 0; i < n; i++) a[i] = b[i] = (float)(i % 13);
    for (int r = 0; r < reps; r++) {
      double t0 = now();
#pragma omp parallel for simd
      for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
      printf("TIME %.4f\n", now() - t0);
    }
    for (long i = 0; i < n; i += 997) if (c[i] != 2 * a[i]) ok = 0;
  }
  printf("%s\n", ok ? "CHECK ok" : "CHECK failed");
  return ok ? 0 : 1;
}
