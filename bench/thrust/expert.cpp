// bench/thrust/expert.cpp: the same sort and reduce as thrust.cu, written
// for the CPU as one would with OpenMP: libstdc++'s parallel mode sort
// (__gnu_parallel::sort, a multiway mergesort on every core) and an OpenMP
// reduction. Built by g++ -O2 -fopenmp (bench/thrust/run); same output.
#include <parallel/algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s sort|reduce n reps\n", argv[0]);
    return 2;
  }
  bool sort = !strcmp(argv[1], "sort");
  long n = atol(argv[2]);
  int reps = atoi(argv[3]);
  std::vector<int> keys(n), d(n);
  unsigned x = 12345;
  long long want = 0, xsum = 0;
  for (long i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    keys[i] = (int)(x >> 1);
    want += keys[i];
    xsum ^= keys[i];
  }
  for (int r = 0; r < reps; r++) {
    if (sort) {
      d = keys;
      double t0 = now_ms();
      __gnu_parallel::sort(d.begin(), d.end());
      printf("TIME %.3f\n", now_ms() - t0);
      long long ss = 0;
      for (long i = 0; i < n; i++) {
        if (i && d[i - 1] > d[i]) { printf("FAIL not sorted at %ld\n", i); return 1; }
        ss ^= d[i];
      }
      if (ss != xsum) { printf("FAIL sorted keys are not the keys\n"); return 1; }
    } else {
      double t0 = now_ms();
      long long got = 0;
      const int *k = keys.data();
#pragma omp parallel for reduction(+ : got)
      for (long i = 0; i < n; i++) got += k[i];
      printf("TIME %.3f\n", now_ms() - t0);
      if (got != want) { printf("FAIL sum %lld, want %lld\n", got, want); return 1; }
    }
  }
  printf("PASS\n");
  return 0;
}
