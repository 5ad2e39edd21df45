/* blas.c: OpenBLAS's sgemm on the matmul spellings' data, a reference line
 * beside expert.c's matmul (Debian's libopenblas-dev; its threads: one per
 * core unless OPENBLAS_NUM_THREADS says otherwise).
 * Usage: ./blas N REPS; prints "TIME ms" per repetition, then PASS or FAIL. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

int main(int argc, char **argv) {
  if (argc < 3) { printf("usage: blas N REPS\n"); return 2; }
  int n = atoi(argv[1]), reps = atoi(argv[2]);
  size_t sz = (size_t)n * n;
  float *A = malloc(sz * 4), *B = malloc(sz * 4), *C = malloc(sz * 4);
  for (size_t i = 0; i < sz; i++) {
    A[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 128.0f - 1.0f;
    B[i] = (float)(((unsigned)i * 2246822519u) >> 24) / 128.0f - 1.0f;
  }
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B, n, 0.0f, C, n);
    printf("TIME %.4f\n", now() - t0);
  }
  for (int s = 0; s < 256; s++) {
    int r = (int)((s * 7919u) % n), c = (int)((s * 104729u + 13) % n);
    double ref = 0, mag = 0;
    for (int k = 0; k < n; k++) {
      ref += (double)A[(size_t)r * n + k] * B[(size_t)k * n + c];
      mag += fabs((double)A[(size_t)r * n + k] * B[(size_t)k * n + c]);
    }
    if (fabs(C[(size_t)r * n + c] - ref) > 1e-5 * mag + 1e-6) {
      printf("FAIL: C[%d][%d] = %g, expected %g\n", r, c, C[(size_t)r * n + c], ref);
      return 1;
    }
  }
  printf("PASS\n");
  return 0;
}
